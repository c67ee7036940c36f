#!/usr/bin/env bash
# attacks.sh - what hostile clients and a stalled backend do to a running proxy (docs/security.md).
#
#   bench/attacks.sh
#
# Starts a MariaDB from Debian's mariadb-server on a free loopback port and the proxy built from
# this repository in front of it (users configured, TLS off), then, one after the other:
#   1. pre-auth memory: PREAUTH_CONNECTIONS clients each declare a 16 MiB packet before logging in
#      and send PREAUTH_BYTES of junk behind it, all at once;
#   2. login CPU: RSA_CLIENTS loops log in as an unknown user with caching_sha2_password and send
#      junk for the proxy to decrypt with its RSA key, for RSA_SECONDS;
#   3. a stalled backend: kill -STOP of the MariaDB while a client runs SELECT SLEEP(2).
# For each it prints the proxy's RSS and CPU, a legitimate client's login latency (the mariadb
# client, median of LOGINS logins, measured during the attack), and for 3 the time to the error.
# Nothing leaves 127.0.0.1; everything it starts is stopped on exit.
#
# Knobs: PREAUTH_CONNECTIONS [300] PREAUTH_BYTES [1048576] RSA_CLIENTS [32] RSA_SECONDS [10] LOGINS [5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SLUICE_HOME=${SLUICE_HOME:-$(cd "$here/.." && pwd)}
SLUICE_TARGET=${SLUICE_TARGET:-target-bench}
OUT=${OUT:-$here/out/attacks-$(date +%Y%m%d-%H%M%S)}
PREAUTH_CONNECTIONS=${PREAUTH_CONNECTIONS:-300}
PREAUTH_BYTES=${PREAUTH_BYTES:-1048576}
RSA_CLIENTS=${RSA_CLIENTS:-32}
RSA_SECONDS=${RSA_SECONDS:-10}
LOGINS=${LOGINS:-5}
H=127.0.0.1
DB_USER=app
DB_PASS=app

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

export PATH=$PATH:/usr/sbin
need=()
for b in mariadbd mariadb-install-db mariadb python3; do command -v "$b" >/dev/null 2>&1 || need+=("$b"); done
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing ${need[*]}; install mariadb-server mariadb-client python3"
  log "missing ${need[*]}: apt-get install"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server mariadb-client python3 \
    >/dev/null || die "apt-get install"
fi
JAVA_HOME=$("$SLUICE_HOME/bin/java-home") || die "no JDK >= 21"
JAVA=$JAVA_HOME/bin/java
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/attacks.XXXXXX)
log "results in $OUT"

STARTED=()
cleanup() {
  local i p
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
    p=${STARTED[$i]}; kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true
  done
  sleep 1
  for p in "${STARTED[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { local i; for i in $(seq 1 $(( $2 * 4 ))); do (exec 3<>/dev/tcp/$H/$1) 2>/dev/null && return 0; sleep 0.25; done; return 1; }
rss_mb() { awk '/^VmRSS/{printf "%d", $2 / 1024}' /proc/$1/status 2>/dev/null || echo 0; }
cpu_ticks() { sed 's/.*) //' /proc/$1/stat | awk '{print $12 + $13}'; }
TICKS=$(getconf CLK_TCK)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# A legitimate client's login (and one query) through the proxy: the median of $LOGINS, in ms.
median_login() {
  local i t0 all=()
  for i in $(seq 1 "$LOGINS"); do
    t0=$(now_ms)
    if timeout 30 mariadb --skip-ssl -h$H -P"$PROXY_PORT" -u$DB_USER -p$DB_PASS -N -e 'select 1' >/dev/null 2>&1; then
      all+=("$(( $(now_ms) - t0 ))")
    else
      all+=(failed)
    fi
  done
  echo "median $(printf '%s\n' "${all[@]}" | grep -v failed | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR + 1) / 2)] : "-")}') ms of ${all[*]}"
}

# ---------------------------------------------------------------- backend --
DB_PORT=$(free_port)
SOCK=$WORK/mysqld.sock
mariadb-install-db --no-defaults --user=root --datadir="$WORK/db" --skip-test-db \
  --auth-root-authentication-method=normal > "$OUT/install-db.log" 2>&1 || die "mariadb-install-db"
mariadbd --no-defaults --user=root --datadir="$WORK/db" --port="$DB_PORT" --bind-address=$H --socket="$SOCK" \
  --skip-ssl --skip-log-bin --skip-name-resolve --log-error="$OUT/mariadbd-error.log" > "$OUT/mariadbd.out" 2>&1 &
DB_PID=$!; STARTED+=("$DB_PID")
wait_port "$DB_PORT" 60 || die "mariadbd did not come up"
for i in $(seq 1 40); do mariadb -S "$SOCK" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
mariadb -S "$SOCK" -uroot -e "CREATE USER '$DB_USER'@'%' IDENTIFIED BY '$DB_PASS'; GRANT ALL ON *.* TO '$DB_USER'@'%'"

# ------------------------------------------------------------------ proxy --
CLI=$SLUICE_HOME/cli/$SLUICE_TARGET
if [ ! -d "$CLI/lib" ]; then
  log "building the proxy (build folder $SLUICE_TARGET)"
  (cd "$SLUICE_HOME" && JAVA_HOME=$JAVA_HOME mvn -B -ntp -q -DskipTests -Dsluice.target="$SLUICE_TARGET" package) \
    > "$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
fi
PROXY_PORT=$(free_port)
cat > "$OUT/sluice.yaml" <<EOF
listen: $H:$PROXY_PORT
users:
  - name: $DB_USER
    password: $DB_PASS
backends:
  - name: db
    address: $H:$DB_PORT
health:
  interval: 1s
  timeout: 1s
  fail_after: 2
admin:
  enabled: false
EOF
"$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLI/classes:$CLI/lib/*" dev.sluice.cli.Main proxy --config "$OUT/sluice.yaml" > "$OUT/proxy.log" 2>&1 &
PROXY_PID=$!; STARTED+=("$PROXY_PID")
wait_port "$PROXY_PORT" 60 || die "proxy did not come up (see $OUT/proxy.log)"
log "proxy pid $PROXY_PID on $H:$PROXY_PORT, backend MariaDB pid $DB_PID on $H:$DB_PORT"
sleep 2
echo "baseline: proxy RSS $(rss_mb $PROXY_PID) MB; login $(median_login)" | tee "$OUT/results.txt"

# --------------------------------------------------------- 1. pre-auth --
python3 "$here/attack_clients.py" preauth $H "$PROXY_PORT" "$PREAUTH_CONNECTIONS" "$PREAUTH_BYTES" \
  > "$OUT/preauth.out" 2>&1 &
ATTACK=$!
sleep 1
during=$(median_login); rss_during=$(rss_mb $PROXY_PID)
wait $ATTACK || true
echo "1. pre-auth ($PREAUTH_CONNECTIONS x $PREAUTH_BYTES bytes): $(cat "$OUT/preauth.out"); proxy RSS during" \
     "$rss_during MB, after $(rss_mb $PROXY_PID) MB; login during $during" | tee -a "$OUT/results.txt"

# -------------------------------------------------------------- 2. RSA --
t0=$(cpu_ticks $PROXY_PID)
python3 "$here/attack_clients.py" rsa $H "$PROXY_PORT" "$RSA_CLIENTS" "$RSA_SECONDS" > "$OUT/rsa.out" 2>&1 &
ATTACK=$!
sleep 2
during=$(median_login)
wait $ATTACK || true
cpu=$(( ( $(cpu_ticks $PROXY_PID) - t0 ) * 100 / TICKS / RSA_SECONDS ))
echo "2. login CPU ($RSA_CLIENTS clients, ${RSA_SECONDS}s): $(cat "$OUT/rsa.out"); proxy CPU ${cpu}% of a core;" \
     "login during $during" | tee -a "$OUT/results.txt"

# ---------------------------------------------------- 3. stalled backend --
t0=$(now_ms)
( timeout 60 mariadb --skip-ssl -h$H -P"$PROXY_PORT" -u$DB_USER -p$DB_PASS -N -e 'select sleep(2)' \
    > "$OUT/stalled.out" 2>&1; echo "exit $?" >> "$OUT/stalled.out" ) &
CLIENT=$!
sleep 0.5
kill -STOP "$DB_PID"
wait $CLIENT || true
elapsed=$(( $(now_ms) - t0 ))
kill -CONT "$DB_PID"
echo "3. stalled backend (kill -STOP during SELECT SLEEP(2)): the client returned after $elapsed ms:" \
     "$(tr '\n' ' ' < "$OUT/stalled.out")" | tee -a "$OUT/results.txt"
log "done: $OUT/results.txt"
