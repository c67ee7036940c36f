#!/usr/bin/env python3
"""Where the proxy's CPU and allocation go, from a JFR recording (used by overhead.sh --profile).

    jfr_stacks.py JFR_TOOL RECORDING.jfr [QUERIES]

jfr's own views show the top frame only (hot-methods, allocation-by-site). Here whole stacks are
read, so the report also says which proxy method each sample runs under (CPU samples of each
method counting every frame), and which of the proxy's own calls pays for an allocation made deep
inside Netty or the JDK. CPU comes from jdk.CPUTimeSample (JDK 25+: CPU-time based, native code
and syscalls included) when the recording has it, else from jdk.ExecutionSample (Java code only).
With QUERIES (how many queries ran while recording), allocation is also given per query, exactly,
from jdk.ThreadAllocationStatistics.
"""
import collections
import re
import subprocess
import sys

OURS = "dev.sluice."
FRAME = re.compile(r"^\s+([\w$.]+(?:\$\$Lambda)?[\w$./]*)\(")
# Native frames that are system calls: their samples are kernel time charged to the proxy.
SYSCALLS = {
    "io.netty.channel.unix.Socket.sendAddress": "send (write to a socket)",
    "io.netty.channel.unix.Socket.send": "send (write to a socket)",
    "io.netty.channel.unix.FileDescriptor.writeAddress": "send (write to a socket)",
    "io.netty.channel.unix.FileDescriptor.writevAddresses": "send (writev to a socket)",
    "io.netty.channel.unix.Socket.recvAddress": "recv (read from a socket)",
    "io.netty.channel.unix.FileDescriptor.readAddress": "recv (read from a socket)",
    "io.netty.channel.epoll.Native.epollWait0": "epoll_wait",
    "io.netty.channel.epoll.Native.epollWait": "epoll_wait",
    "io.netty.channel.epoll.Native.epollBusyWait0": "epoll_wait",
}


def events(jfr, recording, kind):
    """Yields (fields, frames) per event, from jfr's text output (much smaller than --json)."""
    proc = subprocess.Popen([jfr, "print", "--stack-depth", "64", "--events", kind, recording],
                            stdout=subprocess.PIPE, text=True)
    fields, stack, in_stack = {}, [], False
    for line in proc.stdout:
        if line.startswith(kind + " {"):
            fields, stack, in_stack = {}, [], False
        elif line.startswith("}"):
            yield fields, stack
        elif in_stack:
            if line.strip() == "]":
                in_stack = False
            else:
                m = FRAME.match(line)
                if m:
                    stack.append(clean(m.group(1)))
        elif "stackTrace = [" in line:
            in_stack = True
        elif " = " in line:
            key, value = line.strip().split(" = ", 1)
            fields[key] = value
    proc.wait()


def clean(name):
    """Hidden-class suffixes differ per run: 'Foo$$Lambda/0x12ab.run' -> 'Foo$$Lambda.run'."""
    return re.sub(r"\$\$Lambda[./]0x[0-9a-f]+", "$$Lambda", name.replace("/", "."))


def table(title, counter, total, unit, limit, counts=None):
    print(f"\n{title} (of {total:,} {unit}{'; share of samples, then of sampled weight' if counts else ''})")
    n_samples = sum(counts.values()) if counts else 0
    for name, n in (counts or counter).most_common(limit):
        share = f"{100.0 * n / n_samples:5.1f}%  {100.0 * counter[name] / total:5.1f}%" if counts else f"{100.0 * n / total:5.1f}%"
        print(f"  {share}  {name}")


def area(frame):
    if frame in SYSCALLS:
        return "kernel: " + SYSCALLS[frame]
    for prefix, name in (("dev.sluice.", "proxy code (dev.sluice)"), ("io.netty.", "Netty"),
                         ("java.", "JDK"), ("jdk.", "JDK"), ("sun.", "JDK"), ("org.HdrHistogram.", "HdrHistogram")):
        if frame.startswith(prefix):
            return name
    return "other"


def cpu(jfr, recording):
    kind = "jdk.CPUTimeSample"
    samples = [s for _, s in events(jfr, recording, kind) if s]
    if not samples:
        kind = "jdk.ExecutionSample"
        samples = [s for _, s in events(jfr, recording, kind) if s]
    if not samples:
        print("no CPU samples in the recording")
        return
    print(f"CPU from {kind} ({'CPU time, native code included' if kind == 'jdk.CPUTimeSample' else 'Java code only'})")
    top, inclusive, areas = collections.Counter(), collections.Counter(), collections.Counter()
    for stack in samples:
        top[stack[0]] += 1
        areas[area(stack[0])] += 1
        for name in set(stack):
            inclusive[name] += 1
    n = len(samples)
    table("CPU by where the sample was (top frame)", areas, n, "samples", 10)
    table("CPU by top frame", top, n, "samples", 25)
    table("CPU by proxy method, inclusive (the method or anything it called)",
          collections.Counter({k: v for k, v in inclusive.items() if k.startswith(OURS)}), n, "samples", 20)
    table("CPU by Netty/JDK method, inclusive",
          collections.Counter({k: v for k, v in inclusive.items() if not k.startswith(OURS)
                               and not k.startswith(("java.lang.Thread.run", "io.netty.util.concurrent.FastThreadLocalRunnable",
                                                     "io.netty.util.internal.ThreadExecutorMap", "io.netty.util.concurrent.SingleThreadEventExecutor$"))}),
          n, "samples", 25)


def size(text):
    number, unit = text.split()[:2]
    return float(number) * {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1)


def allocation(jfr, recording, queries):
    # A sample's weight is what its thread allocated since its previous sample, so a few samples
    # after a quiet spell (connection set-up) can carry much of the weight; the share of samples
    # is the steadier measure of the per-query path.
    by_site, by_class, by_path = collections.Counter(), collections.Counter(), collections.Counter()
    n_site, n_class, n_path = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0.0
    for fields, stack in events(jfr, recording, "jdk.ObjectAllocationSample"):
        weight = size(fields.get("weight", "0 bytes"))
        total += weight
        cls = fields.get("objectClass", "?").split(" (")[0]
        ours = next((f for f in stack if f.startswith(OURS)), None)
        site = ours or "(no proxy frame) " + (stack[0] if stack else "?")
        path = clean(cls) + "  <-  " + " <- ".join(stack[:4])
        by_site[site] += weight
        by_class[clean(cls)] += weight
        by_path[path] += weight
        n_site[site] += 1
        n_class[clean(cls)] += 1
        n_path[path] += 1
    if not total:
        print("\nno allocation samples")
        return
    table("allocation by innermost proxy frame", by_site, int(total), "bytes", 15, n_site)
    table("allocation by class", by_class, int(total), "bytes", 12, n_class)
    table("allocation by class and the 4 innermost frames", by_path, int(total), "bytes", 12, n_path)
    if queries:
        per_thread = collections.defaultdict(list)
        for fields, _ in events(jfr, recording, "jdk.ThreadAllocationStatistics"):
            per_thread[fields.get("thread", "?")].append(size(fields.get("allocated", "0 bytes")))
        loops = {t: max(v) - min(v) for t, v in per_thread.items() if "EventLoop" in t or "IoEventLoop" in t}
        if loops:
            print(f"\nallocated by the event-loop threads while recording: {sum(loops.values()) / 1e6:,.1f} MB,"
                  f" {sum(loops.values()) / queries:,.0f} bytes per query ({queries:,} queries)")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: jfr_stacks.py JFR_TOOL RECORDING.jfr [QUERIES]")
    jfr, recording = sys.argv[1], sys.argv[2]
    queries = int(sys.argv[3]) if len(sys.argv) == 4 and sys.argv[3].isdigit() else 0
    cpu(jfr, recording)
    allocation(jfr, recording, queries)


if __name__ == "__main__":
    main()
