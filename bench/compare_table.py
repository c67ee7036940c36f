#!/usr/bin/env python3
"""compare_table.py - the issue's table (docs/performance.md) from rounds of compare-sluice.sh.

    bench/compare_table.py OUT1 [OUT2 ...]

Each OUT is a run's output folder (its results.tsv). Prints one markdown row per figure, with the
rounds' values in order: throughput and latency as ratios to direct, the proxies' own figures
beside haproxy's of the same round ("vs haproxy"), so rounds on a noisy machine compare like with
like. Targets without a column (split) are left out of their cells.
"""
import csv
import sys

PROXIES = ("sluice", "split")


def load(folder):
    values = {}
    with open(f"{folder}/results.tsv", newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if len(row) >= 4 and row[2] != "metric":
                try:
                    values[(row[1], row[2])] = float(row[3])
                except ValueError:
                    pass
    return values


def fmt(x, digits=2):
    return "NA" if x is None else f"{x:.{digits}f}"


def joined(xs, digits=2):
    return " / ".join(fmt(x, digits) for x in xs)


def get(run, target, metric):
    return run.get((target, metric))


def ratio(a, b):
    return None if a is None or not b else a / b


def row(title, cells):
    print(f"| {title} | " + " | ".join(cells) + " |")


def seconds_row(runs, targets, metric, title):
    """A row of times: haproxy's with direct's beside it, each proxy's with its ratio to haproxy's."""
    hap = [get(r, "haproxy", metric) for r in runs]
    cells = [f"{joined(hap)} (direct {joined([get(r, 'direct', metric) for r in runs])})"]
    for t in targets:
        own = [get(r, t, metric) for r in runs]
        cells.append(f"{joined(own)} (vs haproxy {joined([ratio(o, h) for o, h in zip(own, hap)])})")
    row(title, cells)


def main(folders):
    runs = [load(f) for f in folders]
    targets = [t for t in PROXIES if any((t, "b_point_select_t1_qps") in r for r in runs)]
    print("| | haproxy 2.6 (TCP) | " + " | ".join(
        {"sluice": "Sluice, session mode", "split": "Sluice, split mode"}[t] for t in targets) + " |")
    print("|---|---|" + "---|" * len(targets))
    for c in (1, 16, 64):
        m = f"b_point_select_t{c}_qps"
        hap = [ratio(get(r, "haproxy", m), get(r, "direct", m)) for r in runs]
        cells = [joined(hap)]
        for t in targets:
            own = [ratio(get(r, t, m), get(r, "direct", m)) for r in runs]
            vs = [ratio(get(r, t, m), get(r, "haproxy", m)) for r in runs]
            cells.append(f"{joined(own)} (vs haproxy {joined(vs)})")
        row(f"throughput {c} client{'s' if c > 1 else ''}", cells)
    for c in (1, 16, 64):
        m = f"d_proxy_cpu_us_per_q_t{c}"
        row(f"proxy CPU per query, µs, {c} client{'s' if c > 1 else ''}",
            [joined([get(r, t, m) for r in runs], 1) for t in ("haproxy", *targets)])
    m = "b_point_select_t1_p95_ms"
    row("p95 latency at 1 client, ms", [joined([get(r, t, m) for r in runs]) for t in ("haproxy", *targets)])
    for c in (1, 25, 50, 100):
        m = f"a_mixed_c{c}_avg_s"
        if any((t, m) in r for r in runs for t in targets):
            seconds_row(runs, targets, m, f"mysqlslap mixed, {c} client{'s' if c > 1 else ''} (s)")
    for c in (1000, 3000):
        seconds_row(runs, targets, f"e_conn{c}_slap_s", f"{c} clients connecting, key load (slap s)")
    for c in (1000, 3000):
        m = f"e_conn{c}_backend_threads_peak"
        row(f"backend connections at peak, {c} clients",
            [joined([get(r, t, m) for r in runs], 0) for t in ("haproxy", *targets)])
    for c in (1000, 3000):
        m = f"e_conn{c}_target_rss_peak_mb"
        row(f"proxy RSS at {c} clients, MB (peak)",
            [joined([get(r, t, m) for r in runs], 1) for t in ("haproxy", *targets)])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
