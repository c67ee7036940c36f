#!/usr/bin/env bash
# compare-sluice.sh - runs the project's reference comparison (/work/shared/bench/compare.sh:
# direct vs haproxy vs the proxy, interleaved) with Sluice built from this repository.
#
#   bench/compare-sluice.sh            the full comparison (about 20 minutes on 2 cores)
#   QUICK=1 bench/compare-sluice.sh    about two minutes
#
# As compare.sh's README says, the proxy is started first, on 127.0.0.1:4040 in front of
# 127.0.0.1:13306 with user slap/slap; compare.sh then starts the backend (fresh MariaDB 10.11)
# and haproxy itself. The proxy authenticates clients (users mode) and may open up to 5000
# backend connections, the cap compare.sh gives ProxySQL. TLS is off on both sides. The proxy is
# stopped on exit; everything else compare.sh starts, it stops.
#
# Knobs: COMPARE [/work/shared/bench/compare.sh], SLUICE_HOME, SLUICE_TARGET, PROXY_JAVA_OPTS (as
# in overhead.sh), OUT [bench/out/compare-<time>], and every knob of compare.sh (QUICK, SKIP, ...).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
COMPARE=${COMPARE:-/work/shared/bench/compare.sh}
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
PROXY_JAVA_OPTS=${PROXY_JAVA_OPTS:-}
OUT=${OUT:-$here/out/compare-$(date +%Y%m%d-%H%M%S)}
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
if (exec 3<>/dev/tcp/127.0.0.1/4040) 2>/dev/null; then
  die "port 4040 is taken; compare.sh expects the proxy there"
fi

cat > "$OUT/sluice.yaml" <<EOF
listen: 127.0.0.1:4040
users:
  - name: slap
    password: slap
backends:
  - name: db1
    address: 127.0.0.1:13306
    max_connections: 5000
# compare.sh starts the backend after the proxy and queries every target at once: a health check
# that found it down would hold it out until the next pass, and compare.sh would skip the proxy.
health:
  enabled: false
EOF
# shellcheck disable=SC2086 # PROXY_JAVA_OPTS is a list of options
"$JAVA_HOME/bin/java" $PROXY_JAVA_OPTS -cp "$CLI/classes:$CLI/lib/*" dev.sluice.cli.Main proxy \
  --config "$OUT/sluice.yaml" > "$OUT/proxy.log" 2>&1 &
PROXY_PID=$!
stop_proxy() {
  kill "$PROXY_PID" 2>/dev/null || return 0
  local i; for i in $(seq 1 60); do kill -0 "$PROXY_PID" 2>/dev/null || return 0; sleep 0.5; done
  kill -9 "$PROXY_PID" 2>/dev/null
}
trap stop_proxy EXIT
trap 'exit 130' INT TERM
for i in $(seq 1 240); do (exec 3<>/dev/tcp/127.0.0.1/4040) 2>/dev/null && break; sleep 0.25; done
(exec 3<>/dev/tcp/127.0.0.1/4040) 2>/dev/null || die "the proxy did not come up (see $OUT/proxy.log)"
log "proxy pid $PROXY_PID on 127.0.0.1:4040; running $COMPARE"
PID_sluice=$PROXY_PID bash "$COMPARE" direct=13306 haproxy=14040 sluice=127.0.0.1:4040
