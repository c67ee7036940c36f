#!/usr/bin/env bash
# compare-sluice.sh - runs the project's reference comparison (/work/shared/bench/compare.sh:
# direct vs haproxy vs the proxy, interleaved) with Sluice built from this repository.
#
#   bench/compare-sluice.sh            the full comparison (about 20 minutes on 2 cores)
#   QUICK=1 bench/compare-sluice.sh    about two minutes
#   SPLIT=1 bench/compare-sluice.sh    a split-mode proxy too, as target "split"
#
# As compare.sh's README says, the proxy is started first, on 127.0.0.1:4040 in front of
# 127.0.0.1:13306 with user slap/slap; compare.sh then starts the backend (fresh MariaDB 10.11)
# and haproxy itself. The proxy authenticates clients (users mode) and may open up to 5000
# backend connections, the cap compare.sh gives ProxySQL. TLS is off on both sides. The proxies are
# stopped on exit; everything else compare.sh starts, it stops.
#
# Knobs: COMPARE [/work/shared/bench/compare.sh], SLUICE_HOME, SLUICE_TARGET, PROXY_JAVA_OPTS (as
# in overhead.sh: the launcher's, bin/proxy-java-opts, unless set), OUT [bench/out/compare-<time>],
# AOT [on] and AOT_DIR [bench/out/aot]: the launcher's AOT cache, one per mode, kept between runs
# (a run with none records one, which the next run of the same build starts from; each proxy's log
# says which), and every knob of compare.sh (QUICK, SKIP, ...).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
COMPARE=${COMPARE:-/work/shared/bench/compare.sh}
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
PROXY_JAVA_OPTS=${PROXY_JAVA_OPTS-$("$SLUICE_HOME/bin/proxy-java-opts")}
OUT=${OUT:-$here/out/compare-$(date +%Y%m%d-%H%M%S)}
AOT=${AOT:-on}
AOT_DIR=${AOT_DIR:-$here/out/aot}
export OUT

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

[ -x "$COMPARE" ] || [ -r "$COMPARE" ] || die "no $COMPARE"
JAVA_HOME=$("$SLUICE_HOME/bin/java-home") || die "no JDK >= 21"
CLI=$SLUICE_HOME/cli/$SLUICE_TARGET
mkdir -p "$OUT" || die "cannot create $OUT"
if ! [ -d "$CLI/lib" ] || [ -n "$(cd "$SLUICE_HOME" && find . \( -path ./bench -o -name 'target*' \) -prune -o \
      \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -newer "$CLI/lib" -print -quit)" ]; then
  log "building the proxy in $SLUICE_HOME (build folder $SLUICE_TARGET)"
  (cd "$SLUICE_HOME" && JAVA_HOME=$JAVA_HOME mvn -B -ntp -q -DskipTests -Dsluice.target="$SLUICE_TARGET" package) \
    > "$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
  touch "$CLI/lib"
fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The proxy in session mode on 4040 (as compare.sh's README asks), and with SPLIT=1 a second one in
# split mode (the backend as its only primary) on a free port, measured as target "split". Neither
# opens its admin ports, which other runs on this machine may hold.
PORT_sluice=${PORT_sluice:-4040}
modes=(sluice)
[ "${SPLIT:-0}" = 1 ] && modes+=(split)
PIDS=()
stop_proxies() {
  local p i
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do
    for i in $(seq 1 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$p" 2>/dev/null
  done
  return 0
}
trap stop_proxies EXIT
trap 'exit 130' INT TERM
targets=()
for mode in "${modes[@]}"; do
  if [ "$mode" = sluice ]; then port=$PORT_sluice; routing=session; else port=$(free_port); routing=split; fi
  if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
    die "port $port is taken"
  fi
  cat > "$OUT/$mode.yaml" <<EOF
listen: 127.0.0.1:$port
users:
  - name: slap
    password: slap
backends:
  - name: db1
    address: 127.0.0.1:13306
    max_connections: 5000
routing:
  mode: $routing
admin:
  enabled: false
# compare.sh starts the backend after the proxy and queries every target at once: a health check
# that found it down would hold it out until the next pass, and compare.sh would skip the proxy.
health:
  enabled: false
EOF
  # As the launcher starts it: from the AOT cache a proxy of the same mode and build recorded in an
  # earlier run (Java 25+), or recording one (bin/aot-cache).
  aot_dir=; [ "$AOT" = on ] && aot_dir=$AOT_DIR/$mode
  # shellcheck disable=SC2086 # PROXY_JAVA_OPTS is a list of options
  "$here/run-proxy" "$JAVA_HOME/bin/java" "$CLI" "$OUT/$mode.yaml" "$aot_dir" \
    $PROXY_JAVA_OPTS > "$OUT/proxy-$mode.log" 2>&1 &
  PIDS+=($!)
  export "PID_$mode=$!"
  for i in $(seq 1 240); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.25; done
  (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null || die "the $routing-mode proxy did not come up (see $OUT/proxy-$mode.log)"
  log "$routing-mode proxy pid $! on 127.0.0.1:$port"
  targets+=("$mode=127.0.0.1:$port")
done
log "running $COMPARE"
bash "$COMPARE" direct=13306 haproxy=14040 "${targets[@]}"
status=$?
for mode in "${modes[@]}"; do
  log "$mode: $(grep -m1 -o 'jvm: [a-z ]*AOT cache[^;(]*' "$OUT/proxy-$mode.log" || echo 'no AOT cache')"
done
exit $status
