#!/usr/bin/env bash
# CI smoke run of every JMH benchmark in benchmarks.jar: each runs once (1 fork, no warm-up, one
# 1-second iteration, average-time mode only, the smallest payload) with -foe true, so any
# benchmark that throws — a wrong answer from a variant, a variant or memcached that does not
# start, a missing jar — fails the run. The numbers mean nothing; that every benchmark produced
# one is the test. Both node counts of StoreBenchmark run: consistent hashing is a code path.
#
#   jmh-bench/smoke.sh                                  (from anywhere)
#   SMOKE_VARIANTS=vertx,jetty-handler jmh-bench/smoke.sh
#
# Bounded: loopback only; ServerBenchmark runs on SMOKE_VARIANTS only (default: a thread-per-request
# Tomcat and the Vert.x event loop, both quick to start — Spring Boot takes ~15 s per trial on 2
# cores; the contract suite covers every variant); about one minute on 2 cores; killed, with every
# process it started, after SMOKE_TIMEOUT seconds (default 300). Needs benchmarks.jar and the variant jars built (./mvnw -B package -DskipTests, which
# ./testbed test does) and memcached installed. Exits non-zero on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/jmh-bench/target/benchmarks.jar"
VARIANTS="${SMOKE_VARIANTS:-servlet-tomcat-sync,vertx}"
RESULT="$ROOT/jmh-bench/target/smoke.json"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

fail() { echo "jmh smoke: $*" >&2; exit 1; }

[ -f "$JAR" ] || fail "$JAR is missing; build first: ./mvnw -B package -DskipTests"
command -v "$JAVA" >/dev/null 2>&1 || fail "no java (set JAVA_HOME to a JDK 17+)"

cd "$ROOT"
rm -f "$RESULT"
# The benchmarks that must each produce a result: everything benchmarks.jar lists.
expected="$("$JAVA" -jar "$JAR" -l | grep '^org\.testbed\.bench\.' | sort -u)"
[ -n "$expected" ] || fail "benchmarks.jar lists no benchmarks"

echo "jmh smoke: $(echo "$expected" | wc -l) benchmarks, ServerBenchmark on $VARIANTS"
start=$SECONDS
# timeout signals its whole process group: the forked JVMs, variants and memcached go too.
status=0
timeout --kill-after=15 "${SMOKE_TIMEOUT:-300}" \
  "$JAVA" -jar "$JAR" -f 1 -wi 0 -i 1 -r 1s -bm avgt -foe true -p "variant=$VARIANTS" -p payload=100 \
  -rf json -rff "$RESULT" \
  || status=$?
case "$status" in
  0) ;;
  124|137) fail "timed out after ${SMOKE_TIMEOUT:-300} s" ;;
  *) fail "a benchmark failed (JMH exit status $status); its stack trace is above" ;;
esac

[ -f "$RESULT" ] || fail "JMH wrote no results to $RESULT"
measured="$(grep -o '"benchmark" : "[^"]*"' "$RESULT" | sed 's/.*: "\(.*\)"/\1/' | sort -u)"
missing="$(comm -23 <(echo "$expected") <(echo "$measured"))"
[ -z "$missing" ] || fail "no result for: $missing"
echo "jmh smoke: passed, $(echo "$measured" | wc -l) benchmarks in $((SECONDS - start)) s ($RESULT)"
