#!/usr/bin/env bash
# failover.sh - what a kill -9 of the primary, and of a replica, costs the split proxy's clients.
#
#   bench/failover.sh        a MariaDB primary and two replicas (testkit, embedded binaries), the
#                            proxy in split mode as a process of its own, sysbench reading through it
#                            in another (oltp_read_only, autocommit, errors ignored and counted), and
#                            writers and readers in the bench's JVM inserting (client, seq) rows one
#                            autocommit statement at a time, and writers of two-insert transactions
#                            (BEGIN, INSERT, INSERT, COMMIT). The primary, then replica1, is killed
#                            (SIGKILL) and started again DOWN_MS later. Prints per scenario the client
#                            errors, the writes lost and duplicated (the rows on the primary held
#                            against what was acknowledged), writes of unknown outcome, the longest
#                            pause of writes and reads, and the time from the restart until the server
#                            takes work again. Each scenario runs with timeouts.primary_wait
#                            (PRIMARY_WAIT) and with 0s, the baseline from the same run: what the proxy
#                            did before it waited (statements fail at once while no primary is up);
#                            the primary's kill also runs with routing.transaction_replay on.
#
# Knobs (defaults in brackets): WRITERS [4] READERS [2] TX_WRITERS [2] SB_THREADS [8] RUN_SECONDS [16] DOWN_MS [1000]
#   PRIMARY_WAIT [10s: a restart of MariaDB took 1.5 to 4 s on the 2-core bench machine, and the
#   primary is back in rotation one check later; the proxy's default is 5s] HEALTH_INTERVAL [500ms]
#   RECOVER_AFTER [1] (fail_after is 2)
#   SLUICE_HOME [this repository]  SLUICE_TARGET [target-bench]: the build folder (built when sources changed)
#   OUT [bench/out/failover-<time>]  the proxies' and sysbench's logs, the configs
# Takes about 3 minutes. Nothing leaves 127.0.0.1.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
OUT=${OUT:-$here/out/failover-$(date +%Y%m%d-%H%M%S)}

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

case ${1:-} in
  -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "failover.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

command -v sysbench >/dev/null 2>&1 || die "sysbench is not installed (apt-get install sysbench)"
JAVA_HOME=$("$SLUICE_HOME/bin/java-home") || die "no JDK >= 21"
JAVA=$JAVA_HOME/bin/java
mkdir -p "$OUT" || die "cannot create $OUT"
log "results in $OUT; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

CLI=$SLUICE_HOME/cli/$SLUICE_TARGET
if ! [ -d "$CLI/lib" ] || [ -n "$(cd "$SLUICE_HOME" && find . \( -path ./bench -o -name 'target*' \) -prune -o \
      \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -newer "$CLI/lib" -print -quit)" ]; then
  log "building the proxy in $SLUICE_HOME (build folder $SLUICE_TARGET)"
  (cd "$SLUICE_HOME" && JAVA_HOME=$JAVA_HOME mvn -B -ntp -q -DskipTests -Dsluice.target="$SLUICE_TARGET" package) \
    > "$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
  touch "$CLI/lib"
fi

"$JAVA" -cp "$CLI/classes:$CLI/lib/*" "$here/FailoverBench.java" "$OUT"
