#!/usr/bin/env bash
# connect-cycles.sh - what a client that connects per request gets: connect, SELECT 1, quit, in a
# loop (bench/ConnectCycles.java, Connector/J, TLS off) from 1 and from 16 threads, direct to a fresh
# MariaDB and through two Sluice proxies in session mode with users: one reusing backend connections
# across sessions (routing.reuse_backend_connections: true, the default) and one logging in per
# session (false). Rounds interleave the targets; prints cycles per second per cell, the median per
# target and its ratio to direct, and the backend logins (its Connections counter) per cycle.
#
#   bench/connect-cycles.sh            3 rounds of 10 s cells
#   ROUNDS=5 SECONDS_PER_CELL=20 bench/connect-cycles.sh
#
# Knobs: SLUICE_HOME, SLUICE_TARGET [target-bench], PROXY_JAVA_OPTS (the launcher's unless set),
# OUT [bench/out/connect-cycles-<time>], ROUNDS, SECONDS_PER_CELL, THREADS ["1 16"].
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
PROXY_JAVA_OPTS=${PROXY_JAVA_OPTS-$("$SLUICE_HOME/bin/proxy-java-opts")}
OUT=${OUT:-$here/out/connect-cycles-$(date +%Y%m%d-%H%M%S)}
ROUNDS=${ROUNDS:-3}
SECONDS_PER_CELL=${SECONDS_PER_CELL:-10}
THREADS=${THREADS:-1 16}
H=127.0.0.1
DB_USER=slap
DB_PASS=slap

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

export PATH=$PATH:/usr/sbin
for b in mariadbd mariadb-install-db mariadb python3; do
  command -v "$b" >/dev/null 2>&1 || die "missing $b (install mariadb-server mariadb-client python3)"
done
JAVA_HOME=$("$SLUICE_HOME/bin/java-home") || die "no JDK >= 21"
JAVA=$JAVA_HOME/bin/java
mkdir -p "$OUT" || die "cannot create $OUT"
WORK=$(mktemp -d /tmp/connect-cycles.XXXXXX)
log "results in $OUT; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

STARTED=()
cleanup() {
  local i p j
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
    p=${STARTED[$i]}
    kill "$p" 2>/dev/null
    for j in $(seq 1 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { local i; for i in $(seq 1 $(( $2 * 4 ))); do (exec 3<>/dev/tcp/$H/$1) 2>/dev/null && return 0; sleep 0.25; done; return 1; }
SOCK=$WORK/mysqld.sock
db_sql() { mariadb --skip-ssl -S "$SOCK" -uroot -N -B -e "$1"; }
connections() { db_sql "show global status like 'Connections'" | awk '{print $2}'; }

# ---- backend: the same settings as overhead.sh
DB_PORT=$(free_port)
mariadb-install-db --no-defaults --user=root --datadir="$WORK/db" --skip-test-db \
  --auth-root-authentication-method=normal > "$OUT/install-db.log" 2>&1 || die "mariadb-install-db"
mariadbd --no-defaults --user=root --datadir="$WORK/db" --port="$DB_PORT" --bind-address=$H --socket="$SOCK" \
  --pid-file="$WORK/db/mariadbd.pid" --log-error="$OUT/mariadbd-error.log" --skip-ssl --skip-log-bin \
  --skip-name-resolve --max_connect_errors=1000000 --max_connections=1000 > "$OUT/mariadbd.out" 2>&1 &
STARTED+=($!)
wait_port "$DB_PORT" 60 || die "mariadbd did not come up"
for i in $(seq 1 40); do db_sql 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
db_sql "CREATE USER '$DB_USER'@'%' IDENTIFIED VIA mysql_native_password USING PASSWORD('$DB_PASS');
        GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'%';" || die "backend user"
log "backend: MariaDB $(db_sql 'select version()') on $H:$DB_PORT"

# ---- proxies
CLI=$SLUICE_HOME/cli/$SLUICE_TARGET
if ! [ -d "$CLI/lib" ]; then
  log "building the proxy (build folder $SLUICE_TARGET)"
  (cd "$SLUICE_HOME" && JAVA_HOME=$JAVA_HOME mvn -B -ntp -q -DskipTests -Dsluice.target="$SLUICE_TARGET" package) \
    > "$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
fi
declare -A PORT
PORT[direct]=$DB_PORT
start_proxy() { # name reuse(true|false)
  local port; port=$(free_port)
  cat > "$OUT/$1.yaml" <<YAML
listen: $H:$port
users: [{name: $DB_USER, password: $DB_PASS}]
backends: [{name: db, address: $H:$DB_PORT, max_connections: 500}]
routing: {mode: session, reuse_backend_connections: $2}
admin: {enabled: false}
YAML
  # shellcheck disable=SC2086 # PROXY_JAVA_OPTS is a list of options
  "$JAVA" --enable-native-access=ALL-UNNAMED $PROXY_JAVA_OPTS -cp "$CLI/classes:$CLI/lib/*" dev.sluice.cli.Main proxy --config "$OUT/$1.yaml" \
    > "$OUT/$1.log" 2>&1 &
  STARTED+=($!)
  wait_port "$port" 60 || die "proxy $1 did not come up (see $OUT/$1.log)"
  PORT[$1]=$port
}
start_proxy reuse true
start_proxy login false
CP=$(ls "$CLI"/lib/mysql-connector-j-*.jar | head -1)

# ---- cells, interleaved
RES=$OUT/results.tsv
printf 'round\ttarget\tthreads\tcycles_per_s\terrors\tlogins_per_cycle\n' > "$RES"
for t in direct reuse login; do   # warm-up: JIT of the proxies and the client
  "$JAVA" -cp "$CP" "$here/ConnectCycles.java" $H "${PORT[$t]}" $DB_USER $DB_PASS 4 3 > /dev/null 2>&1
done
for r in $(seq 1 "$ROUNDS"); do
  for n in $THREADS; do
    for t in direct reuse login; do
      before=$(connections)
      line=$("$JAVA" -cp "$CP" "$here/ConnectCycles.java" $H "${PORT[$t]}" $DB_USER $DB_PASS "$n" "$SECONDS_PER_CELL" \
             2>>"$OUT/client.err")
      after=$(connections)
      cycles=$(sed -n 's/.*cycles=\([0-9]*\).*/\1/p' <<< "$line")
      rate=$(sed -n 's/.*per_s=\([0-9.]*\).*/\1/p' <<< "$line")
      errors=$(sed -n 's/.*errors=\([0-9]*\).*/\1/p' <<< "$line")
      per=$(awk -v c="$cycles" -v d="$((after - before - 1))" 'BEGIN { printf "%.3f", (c > 0 ? d / c : 0) }')
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$t" "$n" "$rate" "$errors" "$per" >> "$RES"
      log "round $r, $n threads, $t: $rate cycles/s, $errors errors, $per backend logins per cycle"
    done
  done
done

# ---- summary: medians and ratios to direct
python3 - "$RES" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
print(f"{'threads':>7} {'target':>7} {'cycles/s (median)':>18} {'vs direct':>9} {'logins/cycle':>12}  rounds")
for n in sorted({int(r['threads']) for r in rows}):
    med = {}
    for t in ('direct', 'reuse', 'login'):
        cell = [r for r in rows if r['target'] == t and int(r['threads']) == n]
        med[t] = statistics.median(float(r['cycles_per_s']) for r in cell)
        logins = statistics.median(float(r['logins_per_cycle']) for r in cell)
        print(f"{n:>7} {t:>7} {med[t]:>18.0f} {med[t] / med['direct']:>9.2f} {logins:>12.3f}  "
              + " ".join(f"{float(r['cycles_per_s']):.0f}" for r in cell))
PY
