#!/usr/bin/env bash
# replay.sh - how fast and how faithfully `sluice slap --replay` plays a capture back.
#
#   bench/replay.sh          capture slap's mixed load (CLIENTS clients, open loop at RATE queries
#                            per second, so each session pauses between its statements) through a
#                            capturing proxy; replay it straight to the server at --speed=max and
#                            print statements per second (and the ratio to the captured rate); then
#                            replay it at --speed=1 through a second capturing proxy and compare the
#                            two captures statement by statement: the replay's duration against the
#                            capture's (a ratio), each statement's start against its captured start
#                            (p50/p99/max in ms), and the time between a session's statements,
#                            replayed against captured (a ratio)
#   QUICK=1 bench/replay.sh  about half a minute (a shorter, slower capture)
#
# It starts everything it uses and stops it on exit: a throw-away MariaDB from Debian's
# mariadb-server on a free loopback port, and the proxy and slap built from this repository (users
# configured, admin ports off). Nothing leaves 127.0.0.1.
#
# Knobs (defaults in brackets):
#   CLIENTS [8]  RATE [800, QUICK 400] queries per second across the clients  DURATION [15, QUICK 6] seconds
#   SLUICE_HOME [this repository]  SLUICE_TARGET [target-bench]: the build folder (mvn package, only
#     when sources are newer than the last build)
#   OUT [bench/out/replay-<time>]  results (the two captures, the replays' reports, logs)
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
H=127.0.0.1
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then RATE=${RATE:-400}; DURATION=${DURATION:-6}; fi
DURATION=${DURATION:-15}
CLIENTS=${CLIENTS:-8}
RATE=${RATE:-800}
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
OUT=${OUT:-$here/out/replay-$(date +%Y%m%d-%H%M%S)}
DB_USER=app
DB_PASS=app

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

export PATH=$PATH:/usr/sbin
for b in mariadbd mariadb-install-db mariadb python3; do
  command -v "$b" >/dev/null 2>&1 || die "missing $b; install mariadb-server mariadb-client python3"
done
JAVA_HOME=$("$SLUICE_HOME/bin/java-home") || die "no JDK >= 21"
JAVA=$JAVA_HOME/bin/java
mkdir -p "$OUT" || die "cannot create $OUT"
WORK=$(mktemp -d /tmp/replay-bench.XXXXXX)
log "results in $OUT; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

STARTED=()
stop_pid() { # TERM, up to 30 s, then KILL; only PIDs this script started
  local p=$1 i
  kill -0 "$p" 2>/dev/null || return 0
  kill "$p" 2>/dev/null
  for i in $(seq 1 60); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.5; done
  log "pid $p did not stop on TERM: KILL"; kill -9 "$p" 2>/dev/null
}
cleanup() {
  local i
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do stop_pid "${STARTED[$i]}"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { # port seconds
  local i; for i in $(seq 1 $(( $2 * 4 ))); do (exec 3<>/dev/tcp/$H/$1) 2>/dev/null && return 0; sleep 0.25; done; return 1
}

# ---------------------------------------------------------------- server --
DB_PORT=$(free_port)
SOCK=$WORK/mysqld.sock
mkdir -p "$WORK/db"
mariadb-install-db --no-defaults --user=root --datadir="$WORK/db" --skip-test-db \
  --auth-root-authentication-method=normal > "$OUT/install-db.log" 2>&1 || die "mariadb-install-db (see $OUT/install-db.log)"
mariadbd --no-defaults --user=root --datadir="$WORK/db" --port="$DB_PORT" --bind-address=$H --socket="$SOCK" \
  --pid-file="$WORK/db/mariadbd.pid" --log-error="$OUT/mariadbd-error.log" --skip-ssl --skip-log-bin \
  --skip-name-resolve --innodb_flush_log_at_trx_commit=2 > "$OUT/mariadbd.out" 2>&1 &
STARTED+=("$!")
wait_port "$DB_PORT" 60 || die "mariadbd did not come up (see $OUT/mariadbd-error.log)"
for _ in $(seq 1 40); do mariadb --skip-ssl -S "$SOCK" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
mariadb --skip-ssl -S "$SOCK" -uroot -e "CREATE USER '$DB_USER'@'%' IDENTIFIED BY '$DB_PASS';
  GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'%';" || die "backend user"
log "server: MariaDB $(mariadb --skip-ssl -S "$SOCK" -uroot -N -e 'select version()') on $H:$DB_PORT"

# ----------------------------------------------------------------- build --
CLI=$SLUICE_HOME/cli/$SLUICE_TARGET
if [ ! -d "$CLI/lib" ] || [ -n "$(cd "$SLUICE_HOME" && find . \( -path ./bench -o -name 'target*' \) -prune -o \
      \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -newer "$CLI/lib" -print -quit)" ]; then
  log "building in $SLUICE_HOME (build folder $SLUICE_TARGET)"
  (cd "$SLUICE_HOME" && JAVA_HOME=$JAVA_HOME mvn -B -ntp -q -DskipTests -Dsluice.target="$SLUICE_TARGET" package) \
    > "$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
  touch "$CLI/lib"
fi
sluice() { "$JAVA" -cp "$CLI/classes:$CLI/lib/*" dev.sluice.cli.Main "$@"; }

capturing_proxy() { # name capture-file -> starts a proxy, sets PROXY_PORT and PROXY_PID
  PROXY_PORT=$(free_port)
  cat > "$OUT/$1.yaml" <<EOF
listen: $H:$PROXY_PORT
users:
  - name: $DB_USER
    password: $DB_PASS
backends:
  - name: db
    address: $H:$DB_PORT
admin:
  enabled: false
EOF
  sluice proxy --config "$OUT/$1.yaml" --capture "$2" > "$OUT/$1.log" 2>&1 &
  PROXY_PID=$!; STARTED+=("$PROXY_PID")
  wait_port "$PROXY_PORT" 60 || die "proxy did not come up (see $OUT/$1.log)"
}

# --------------------------------------------------------------- capture --
CAPTURE=$OUT/capture.jsonl
capturing_proxy proxy-capture "$CAPTURE"
log "capturing slap's mixed load: $CLIENTS clients, $RATE queries/s, $DURATION s"
sluice slap --no-defaults -h $H -P "$PROXY_PORT" -u $DB_USER -p$DB_PASS --auto-generate-sql \
  --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed --concurrency="$CLIENTS" \
  --rate="$RATE" --time="$DURATION" > "$OUT/slap.out" 2>&1 || die "slap (see $OUT/slap.out)"
stop_pid "$PROXY_PID"

# ---------------------------------------------------------- --speed=max --
log "replaying at --speed=max, straight to the server"
sluice slap --no-defaults -h $H -P "$DB_PORT" -u $DB_USER -p$DB_PASS --replay "$CAPTURE" --speed=max \
  > "$OUT/replay-max.out" 2>&1 || die "replay at max (see $OUT/replay-max.out)"

# ------------------------------------------------------------ --speed=1 --
REPLAYED=$OUT/replayed.jsonl
capturing_proxy proxy-replay "$REPLAYED"
log "replaying at --speed=1 through a second capturing proxy"
sluice slap --no-defaults -h $H -P "$PROXY_PORT" -u $DB_USER -p$DB_PASS --replay "$CAPTURE" --speed=1 \
  > "$OUT/replay-1.out" 2>&1 || die "replay at 1 (see $OUT/replay-1.out)"
stop_pid "$PROXY_PID"

python3 - "$CAPTURE" "$REPLAYED" "$OUT/replay-max.out" <<'PY'
import json, re, sys

def sessions(path):
    by = {}
    for line in open(path):
        e = json.loads(line)
        # Connector/J's own first query is the driver's, not the workload's.
        if e["sql"] and "@@session.auto_increment_increment" in e["sql"]:
            continue
        by.setdefault(e["session"], []).append((int(parse(e["time"])), e["duration_us"], e["sql"]))
    return by

def parse(t):
    # 2025-06-01T10:00:00.123456Z -> microseconds since midnight (a capture spans less than a day here)
    h, m, s = t[11:-1].split(":")
    return (int(h) * 3600 + int(m) * 60) * 1_000_000 + round(float(s) * 1_000_000)

def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * p / 100))] if v else float("nan")

captured, replayed = sessions(sys.argv[1]), sessions(sys.argv[2])
# Statements the replaying driver sent of its own (none are expected) are left out of the match.
known = {r[2] for rows in captured.values() for r in rows}
by_signature = {}
for sid, rows in replayed.items():
    replayed[sid] = rows = [r for r in rows if r[2] in known]
    by_signature.setdefault(tuple(r[2] for r in rows), []).append(sid)
statements = sum(len(r) for r in captured.values())
c0 = min(r[0][0] for r in captured.values())
c_end = max(r[-1][0] + r[-1][1] for r in captured.values())
pairs, unmatched = [], 0
for sid, rows in captured.items():
    match = by_signature.get(tuple(r[2] for r in rows))
    if not match:
        unmatched += 1
        continue
    pairs.append((rows, replayed[match.pop(0)]))
r0 = min(p[1][0][0] for p in pairs)
r_end = max(p[1][-1][0] + p[1][-1][1] for p in pairs)
errors, gaps_c, gaps_r = [], 0, 0
for c, r in pairs:
    for (tc, _, _), (tr, _, _) in zip(c, r):
        errors.append(((tr - r0) - (tc - c0)) / 1000)
    gaps_c += c[-1][0] - c[0][0]
    gaps_r += r[-1][0] - r[0][0]
absolute = [abs(e) for e in errors]
think = sum(len(c) - 1 for c, _ in pairs)

m = re.search(r"(\d+) statements in ([0-9.]+) s", open(sys.argv[3]).read())
max_n, max_s = int(m.group(1)), float(m.group(2))
cap_s = (c_end - c0) / 1e6
print(f"capture: {len(captured)} sessions, {statements} statements in {cap_s:.2f} s ({statements / cap_s:.0f} statements/s)")
print(f"replay at --speed=max: {max_n} statements in {max_s:.3f} s: {max_n / max_s:.0f} statements/s"
      f" ({max_n / max_s / (statements / cap_s):.2f} x the captured rate)")
print(f"replay at --speed=1: {(r_end - r0) / 1e6:.2f} s for the capture's {cap_s:.2f} s:"
      f" duration ratio {(r_end - r0) / (c_end - c0):.4f}")
print(f"  each statement's start against its captured start ({len(errors)} statements in {len(pairs)} sessions"
      f"{', ' + str(unmatched) + ' sessions not matched' if unmatched else ''}):"
      f" |error| p50 {pct(absolute, 50):.3f} ms, p99 {pct(absolute, 99):.3f} ms, max {max(absolute):.3f} ms;"
      f" mean {sum(errors) / len(errors):+.3f} ms")
print(f"  time between a session's statements, replayed / captured: {gaps_r / gaps_c:.4f}"
      f" (mean captured gap {gaps_c / max(1, think) / 1000:.3f} ms)")
PY
log "done; the replays' own reports are in $OUT/replay-max.out and $OUT/replay-1.out"
