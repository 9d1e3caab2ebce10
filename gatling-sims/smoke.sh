#!/usr/bin/env bash
# CI smoke of the Gatling simulations against one real server variant, on loopback only.
#
#   gatling-sims/smoke.sh [VARIANT_JAR [EXTRA_SERVER_ARGS...]]
#
# 1. starts memcached on a free 127.0.0.1 port and the variant jar (default
#    spring-app/target/spring-app.jar) as
#    java -jar JAR --host 127.0.0.1 --port 0 --memcached-servers 127.0.0.1:P [EXTRA_SERVER_ARGS...],
#    and learns its port from the line "testbed <variant> listening on http://HOST:PORT";
# 2. runs every simulation with -Dsmoke=true (at most 10 s of load, 20 users, low rates): each must
#    pass its assertions and report requests with no errors;
# 3. stops memcached and runs MaxThroughput again: it must FAIL, by its assertions;
# 4. prints each simulation's figures (from its summary.csv) and exits non-zero if any expectation
#    was not met. Logs and summaries stay in gatling-sims/target/smoke/.
# Everything is bounded (each step has a timeout) and stops what it started. Takes about 2 minutes
# on 2 cores. Needs memcached and a JDK; builds what it needs with ./mvnw.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${1:-$ROOT/spring-app/target/spring-app.jar}"
shift || true
EXTRA_SERVER_ARGS=("$@")
JAVA="${JAVA:-java}"
MVNW="$ROOT/mvnw"
SIMULATIONS=(RealisticUsers MaxThroughput Staircase ArrivalRate SlaCapacity)
FAILING_SIMULATION=MaxThroughput
SIM_TIMEOUT=120      # seconds per simulation run, Maven and report included
START_TIMEOUT=90     # seconds for the server's ready line

# Logs, summaries and the server's output stay here after the run (target/ is never committed).
WORK="$ROOT/gatling-sims/target/smoke"
rm -rf "$WORK" && mkdir -p "$WORK"
SUMMARIES="$WORK/summaries"
MEMCACHED_PID=""
SERVER_PID=""
PROBLEMS=()

log() { printf 'smoke: %s\n' "$*" >&2; }
problem() { PROBLEMS+=("$*"); log "PROBLEM: $*"; }

cleanup() {
  [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  [[ -n "$MEMCACHED_PID" ]] && kill "$MEMCACHED_PID" 2>/dev/null && wait "$MEMCACHED_PID" 2>/dev/null
  rm -f "$WORK/variant.jar"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ -f "$JAR" ]] || { log "no variant jar at $JAR (build it first, e.g. ./mvnw -DskipTests package)"; exit 2; }
command -v memcached >/dev/null || { log "memcached is not installed (Debian/Ubuntu: apt-get install memcached)"; exit 2; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# --- memcached on a free loopback port ---------------------------------------------------------
MEMCACHED_USER=()
[[ "$(id -u)" == 0 ]] && MEMCACHED_USER=(-u root)   # memcached refuses to run as root unless told
for attempt in 1 2 3 4 5; do
  MEMCACHED_PORT=$(( 20000 + RANDOM % 30000 ))
  port_free "$MEMCACHED_PORT" || continue
  memcached -l 127.0.0.1 -p "$MEMCACHED_PORT" -U 0 -m 64 -t 2 "${MEMCACHED_USER[@]}" >"$WORK/memcached.log" 2>&1 &
  MEMCACHED_PID=$!
  for _ in $(seq 50); do
    port_free "$MEMCACHED_PORT" || break
    sleep 0.1
  done
  if kill -0 "$MEMCACHED_PID" 2>/dev/null && ! port_free "$MEMCACHED_PORT"; then
    break
  fi
  MEMCACHED_PID=""
done
[[ -n "$MEMCACHED_PID" ]] || { log "could not start memcached"; cat "$WORK/memcached.log" >&2; exit 2; }
log "memcached pid $MEMCACHED_PID on 127.0.0.1:$MEMCACHED_PORT"

# --- the variant -----------------------------------------------------------------------------------
# A copy: a rebuild of the jar while the server runs would break its class loading mid-run.
cp "$JAR" "$WORK/variant.jar"
"$JAVA" -jar "$WORK/variant.jar" --host 127.0.0.1 --port 0 --memcached-servers "127.0.0.1:$MEMCACHED_PORT" \
  "${EXTRA_SERVER_ARGS[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
TARGET=""
VARIANT=""
for _ in $(seq $(( START_TIMEOUT * 5 ))); do
  line="$(grep -m1 -E '^testbed [^ ]+ listening on https?://' "$WORK/server.log" 2>/dev/null || true)"
  if [[ -n "$line" ]]; then
    VARIANT="$(awk '{print $2}' <<<"$line")"
    TARGET="$(awk '{print $5}' <<<"$line")"
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.2
done
if [[ -z "$TARGET" ]]; then
  log "the server did not print its ready line within ${START_TIMEOUT}s; its output:"
  tail -40 "$WORK/server.log" >&2
  exit 1
fi
if [[ ! "$TARGET" =~ ^https?://127\.0\.0\.1:[0-9]+$ ]]; then
  log "refusing to send load to $TARGET: loopback (127.0.0.1) only"
  exit 1
fi
log "$VARIANT (pid $SERVER_PID) at $TARGET"

# --- build the simulations and their libraries once --------------------------------------------------
# Module by module (parent, then each), so that a sibling module being broken or absent does not stop
# this smoke: the simulations need only these.
log "installing the parent pom, testbed-item, testbed-scenarios; compiling the simulations"
build() { timeout 600 "$MVNW" -q -B -DskipTests "$@" >>"$WORK/build.log" 2>&1; }
if ! { build -N -f "$ROOT/pom.xml" install && build -f "$ROOT/testbed-item/pom.xml" install \
       && build -f "$ROOT/testbed-scenarios/pom.xml" install && build -f "$ROOT/gatling-sims/pom.xml" test-compile; }; then
  tail -40 "$WORK/build.log" >&2
  log "build failed"
  exit 1
fi

# One run id per simulation run: a run id names a key space, and reusing one would make creates
# collide (409) with what the previous run left behind.
RUN_ID="smoke$(date -u +%Y%m%d%H%M%S)"
run_simulation() { # NAME LOGFILE SUMMARY_DIR
  (cd "$ROOT/gatling-sims" && timeout "$SIM_TIMEOUT" "$MVNW" -B gatling:test -Dsim="$1" -Dtarget="$TARGET" \
     -Dsmoke=true -DsummaryDir="$3" -DrunId="$RUN_ID-$1-$(basename "$3")" -Dinjector=smoke) >"$2" 2>&1
}

# --- every simulation must pass ------------------------------------------------------------------------
for sim in "${SIMULATIONS[@]}"; do
  log "running $sim"
  started=$SECONDS
  if run_simulation "$sim" "$WORK/$sim.log" "$SUMMARIES"; then
    csv="$SUMMARIES/$sim.csv"
    if [[ ! -f "$csv" ]]; then
      problem "$sim passed but wrote no summary"
    else
      read -r requests errors < <(awk -F, '$5 == "all" {print $9, $11}' "$csv")
      (( ${requests:-0} > 0 )) || problem "$sim sent no request"
      (( ${errors:-1} == 0 )) || problem "$sim had $errors failed requests"
    fi
  else
    problem "$sim failed (exit $?); log: $WORK/$sim.log"
    grep -E 'Global: .*: false|Run crashed|Exception' "$WORK/$sim.log" | head -10 >&2
  fi
  log "$sim done in $(( SECONDS - started ))s"
done

# --- with memcached gone, the assertions must fail the run --------------------------------------------
log "stopping memcached; $FAILING_SIMULATION must now fail"
kill "$MEMCACHED_PID" 2>/dev/null
wait "$MEMCACHED_PID" 2>/dev/null
MEMCACHED_PID=""
if run_simulation "$FAILING_SIMULATION" "$WORK/failing.log" "$WORK/failing"; then
  problem "$FAILING_SIMULATION passed with memcached stopped: the assertions did not catch it"
elif grep -q 'percentage of failed events is less than or equal to .* : false' "$WORK/failing.log"; then
  log "$FAILING_SIMULATION failed as expected: $(grep -m1 'percentage of failed events' "$WORK/failing.log")"
else
  problem "$FAILING_SIMULATION failed with memcached stopped, but not by its failed-requests assertion:"
  tail -20 "$WORK/failing.log" >&2
fi

# --- the table -------------------------------------------------------------------------------------------
printf '\nGatling smoke against %s (%s), memcached 127.0.0.1:%s\n' "$VARIANT" "$TARGET" "$MEMCACHED_PORT"
printf '%-15s %9s %7s %9s %9s %9s %9s %s\n' simulation requests errors rps p50_ms p99_ms max_ms note
for sim in "${SIMULATIONS[@]}"; do
  csv="$SUMMARIES/$sim.csv"
  if [[ -f "$csv" ]]; then
    note=""
    if [[ "$sim" == SlaCapacity && -f "$SUMMARIES/$sim.json" ]]; then
      note="sla: $(grep -o '"capacity_rps": [0-9.]*' "$SUMMARIES/$sim.json" | sed 's/"capacity_rps": /capacity /') req/s"
    fi
    awk -F, -v sim="$sim" -v note="$note" '$5 == "all" {printf "%-15s %9s %7s %9s %9s %9s %9s %s\n", sim, $9, $11, $13, $14, $16, $18, note}' "$csv"
  else
    printf '%-15s %9s\n' "$sim" "(no summary)"
  fi
done
if [[ -f "$WORK/failing/$FAILING_SIMULATION.csv" ]]; then
  awk -F, -v sim="$FAILING_SIMULATION" '$5 == "all" {printf "%-15s %9s %7s %9s %9s %9s %9s %s\n", sim, $9, $11, $13, $14, $16, $18, "memcached stopped: expected to fail"}' \
    "$WORK/failing/$FAILING_SIMULATION.csv"
fi

if (( ${#PROBLEMS[@]} > 0 )); then
  printf '\nsmoke FAILED:\n' >&2
  printf '  - %s\n' "${PROBLEMS[@]}" >&2
  exit 1
fi
printf '\nsmoke passed: %d simulations ran clean, and the failing run was caught by its assertions\n' "${#SIMULATIONS[@]}"
