#!/usr/bin/env bash
# The load image's command: wait until the target is healthy, then run one Gatling simulation
# against it (gatling-sims: mvn gatling:test -Dtarget=URL). Knobs, all environment variables:
#   TARGET        a compose service name (e.g. spring-tomcat, reached at http://TARGET:8080) or a
#                 full base URL (http://10.0.0.5:8080), e.g. a variant deployed on a VM
#   SIM           the simulation: RealisticUsers, MaxThroughput, Staircase, ArrivalRate, SlaCapacity
#   GATLING_ARGS  more -D options for the simulation (see gatling-sims' Knobs), e.g. "-Dsmoke=true"
#   WAIT_SECONDS  how long to wait for the target's /testbed/health (default 120)
set -euo pipefail

case "${TARGET:?set TARGET to a service name or a URL}" in
  http://*|https://*) url="${TARGET%/}" ;;
  *) url="http://$TARGET:8080" ;;
esac
sim="${SIM:-MaxThroughput}"
wait_seconds="${WAIT_SECONDS:-120}"

echo "load: waiting up to ${wait_seconds}s for $url/testbed/health"
deadline=$(( $(date +%s) + wait_seconds ))
until [ "$(curl -k -s -o /dev/null -w '%{http_code}' --max-time 3 "$url/testbed/health" || true)" = 200 ]; do
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "load: $url/testbed/health did not answer 200 within ${wait_seconds}s" >&2
    exit 1
  fi
  sleep 2
done

echo "load: $sim against $url"
# shellcheck disable=SC2086 # GATLING_ARGS is a list of -D options
exec ../mvnw -B -ntp gatling:test -Dsim="$sim" -Dtarget="$url" ${GATLING_ARGS:-}
