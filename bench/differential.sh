#!/usr/bin/env bash
# differential.sh - the differential test (proxy/.../differential/DifferentialIT) with a larger
# budget than CI gives it: more sessions, longer plans, and rounds with fresh seeds until DURATION
# runs out or a round finds a difference.
#
#   bench/differential.sh                       24 sessions of 150 steps, rounds for 15 minutes
#   SEED=42 bench/differential.sh               the same, from base seed 42 (else one is drawn and printed)
#   SKIP=kill,connection_id bench/differential.sh   leave features out (names: Feature.java)
#   TARGETS=split bench/differential.sh         only one proxy mode (session, split; direct checks
#                                               that the plans are deterministic)
#   CLIENT=wire bench/differential.sh           sessions speak as the mariadb client library does
#                                               (text protocol, results ending in EOF packets)
#                                               instead of Connector/J; JDBC-only steps are not drawn;
#                                               CLIENT=both runs each round's sessions both ways
#   bench/differential.sh -Dsluice.diff.only=3  further -D options go to Maven as they are; a
#                                               failure prints the options that replay it
#
# Each round runs every plan at once straight to the primary, then through the proxy in session
# mode and in split mode, on the testkit's MariaDB (a primary and two replicas it starts itself),
# and compares every session step by step. It stops at the first round with a difference and
# prints the seed, the step, what differed and each failing session's steps; the reports are in
# proxy/target/failsafe-reports, and with DUMP=DIR every transcript is written there as text.
#
# Knobs (defaults in brackets):
#   SESSIONS [24]  STEPS [150]  DURATION [900] seconds of rounds  PHASE_TIMEOUT [600] seconds
#   per round and target  STEP_TIMEOUT [30] seconds a read may wait  LARGE_MIN [100000]
#   LARGE_MAX [1000000] rows of a large result  SHRINK [600] seconds to shorten failing plans
#   SEED  SKIP  FOCUS (features drawn ten times as often)  TARGETS [session,split]  CLIENT [jdbc]  DUMP
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA_HOME=$(bin/java-home)
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"

props=(
  -Dsluice.diff.sessions="${SESSIONS:-24}"
  -Dsluice.diff.steps="${STEPS:-150}"
  -Dsluice.diff.duration="${DURATION:-900}"
  -Dsluice.diff.phaseTimeout="${PHASE_TIMEOUT:-600}"
  -Dsluice.diff.stepTimeout="${STEP_TIMEOUT:-30}"
  -Dsluice.diff.largeMin="${LARGE_MIN:-100000}"
  -Dsluice.diff.largeMax="${LARGE_MAX:-1000000}"
  -Dsluice.diff.targets="${TARGETS:-session,split}"
)
props+=(-Dsluice.diff.shrink="${SHRINK:-600}")
[ -n "${SEED:-}" ] && props+=(-Dsluice.diff.seed="$SEED")
[ -n "${SKIP:-}" ] && props+=(-Dsluice.diff.skip="$SKIP")
[ -n "${FOCUS:-}" ] && props+=(-Dsluice.diff.focus="$FOCUS")
[ -n "${CLIENT:-}" ] && props+=(-Dsluice.diff.client="$CLIENT")
[ -n "${DUMP:-}" ] && props+=(-Dsluice.diff.dump="$(realpath -m "$DUMP")")

# test-compile, then failsafe's own goals: `verify` would also run the proxy module's second
# (epoll) failsafe execution, and -Dit.test would put this test into it as well.
start=$(date +%s)
status=0
mvn -B -ntp -pl proxy -am test-compile failsafe:integration-test failsafe:verify \
  -Dit.test=DifferentialIT -Dfailsafe.failIfNoSpecifiedTests=false "${props[@]}" "$@" || status=$?
echo "differential.sh: $(( $(date +%s) - start )) s, exit $status; reports in proxy/target/failsafe-reports"
exit "$status"
