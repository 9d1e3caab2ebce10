#!/usr/bin/env bash
# compose-check.sh: docker/compose.yaml and docker/docker-bake.hcl against variants.conf.
#
#   bash docker/compose-check.sh
#
# Fails when:
#   - compose.yaml does not validate ('docker-compose config -q'; Debian's docker-compose 1.29 needs
#     no Docker engine; 'docker compose' v2 is used when that is what is installed);
#   - a variant of variants.conf has no service in compose.yaml, or a service is not a variant
#     (besides memcached and load), or memcached/load are missing;
#   - a variant's service builds another variant (build arg VARIANT), lacks its own profile, does
#     not wait for a healthy memcached, or does not point MEMCACHED_SERVERS at it;
#   - the variants of docker-bake.hcl differ from variants.conf.
# Then it checks itself: with a copy of variants.conf that has one more variant, it must fail.
# VARIANTS_CONF=FILE checks against another manifest.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMPOSE_FILE="$ROOT/docker/compose.yaml"
BAKE_FILE="$ROOT/docker/docker-bake.hcl"
MANIFEST="${VARIANTS_CONF:-$ROOT/variants.conf}"
PASSED=0 FAILED=0

log() { printf 'compose-check: %s\n' "$*" >&2; }
pass() { PASSED=$((PASSED + 1)); [ -n "${QUIET:-}" ] || log "ok: $*"; }
failed() { FAILED=$((FAILED + 1)); log "FAILED: $*"; }

if command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
else
  log "neither docker-compose nor 'docker compose' is installed (Debian: apt-get install --no-install-recommends docker-compose)"
  echo "compose-check: 0 passed, 1 failed"
  exit 1
fi
PYTHON=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import yaml' >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
done
if [ -z "$PYTHON" ]; then
  log "no python3 with PyYAML (Debian: apt-get install python3-yaml; docker-compose depends on it)"
  echo "compose-check: 0 passed, 1 failed"
  exit 1
fi

mapfile -t VARIANTS < <(awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$MANIFEST")
[ ${#VARIANTS[@]} -gt 0 ] || { failed "no variants in $MANIFEST"; }

# --- 1. the file validates --------------------------------------------------------------------------
if err="$("${COMPOSE[@]}" -f "$COMPOSE_FILE" config -q 2>&1)"; then
  pass "${COMPOSE[*]} config -q: $(basename "$COMPOSE_FILE") is valid"
else
  failed "${COMPOSE[*]} config -q: $err"
fi

# --- 2. services, build args, profiles, memcached wiring -----------------------------------------------
# The normalized configuration, read with PyYAML: with every variant's profile and "load" active
# ('docker compose' v2 leaves out the services of inactive profiles).
PROFILES=(--profile load)
for v in "${VARIANTS[@]}"; do PROFILES+=(--profile "$v"); done
if ! normalized="$("${COMPOSE[@]}" -f "$COMPOSE_FILE" "${PROFILES[@]}" config 2>/dev/null)"; then
  failed "${COMPOSE[*]} config could not render the file"
  normalized="services: {}"
fi
report="$(printf '%s' "$normalized" | "$PYTHON" -c '
import sys, yaml
variants = sys.argv[1:]
services = (yaml.safe_load(sys.stdin) or {}).get("services") or {}
def check(ok, message):
    print(("ok " if ok else "FAILED ") + message)
for name in ("memcached", "load"):
    check(name in services, "service %s is defined" % name)
if "memcached" in services:
    check("memcached" in str(services["memcached"].get("image", "")), "memcached runs the official memcached image")
for v in variants:
    s = services.get(v)
    if s is None:
        check(False, "variant %s (variants.conf) has no service in compose.yaml" % v)
        continue
    problems = []
    args = (s.get("build") or {}).get("args") or {}
    if args.get("VARIANT") != v:
        problems.append("builds VARIANT=%r, not %s" % (args.get("VARIANT"), v))
    if v not in (s.get("profiles") or []):
        problems.append("lacks the profile %s" % v)
    if ((s.get("depends_on") or {}).get("memcached") or {}).get("condition") != "service_healthy":
        problems.append("does not wait for a healthy memcached")
    env = s.get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) if "=" in e else (e, None) for e in env)
    if not str(env.get("MEMCACHED_SERVERS", "")).startswith("memcached:"):
        problems.append("does not set MEMCACHED_SERVERS=memcached:...")
    check(not problems, "service %s: %s" % (v, "; ".join(problems) or
          "VARIANT=%s, profile %s, waits for memcached, MEMCACHED_SERVERS=%s" % (v, v, env.get("MEMCACHED_SERVERS"))))
for name in services:
    if name not in ("memcached", "load") and name not in variants:
        check(False, "service %s is not a variant of variants.conf" % name)
' "${VARIANTS[@]}")"
while IFS= read -r line; do
  case "$line" in
    "ok "*) pass "${line#ok }" ;;
    "FAILED "*) failed "${line#FAILED }" ;;
  esac
done <<<"$report"

# --- 3. the bake file lists the same variants ---------------------------------------------------------
# The matrix list of target "variants": from "v = [" to the closing "]".
bake_list="$(awk '/^target "variants"/ { inside = 1 } inside && /^[[:space:]]*v[[:space:]]*=[[:space:]]*\[/ { on = 1; next }
                  on && /\]/ { exit } on { print }' "$BAKE_FILE" | grep -o '"[^"]*"' | tr -d '"' | sort | paste -sd' ' -)"
manifest_list="$(printf '%s\n' "${VARIANTS[@]}" | sort | paste -sd' ' -)"
if [ "$bake_list" = "$manifest_list" ]; then
  pass "docker-bake.hcl variants = variants.conf (${#VARIANTS[@]} variants)"
else
  failed "docker-bake.hcl variants [$bake_list] differ from variants.conf [$manifest_list]"
fi

# --- 4. the check catches a variant added to variants.conf only ------------------------------------------
if [ -z "${VARIANTS_CONF:-}" ]; then
  tmp="$(mktemp)"
  cp "$MANIFEST" "$tmp"
  echo "compose-check-new-variant  spring-app  spring-app/target/spring-app.jar  sync  17  added only to variants.conf" >>"$tmp"
  if out="$(VARIANTS_CONF="$tmp" QUIET=1 bash "$0" 2>&1)"; then
    failed "self-check: a variant missing from compose.yaml went unnoticed"
  elif grep -q "compose-check-new-variant (variants.conf) has no service" <<<"$out" \
       && grep -q "docker-bake.hcl variants \\[" <<<"$out"; then
    pass "self-check: a variant added only to variants.conf fails this check (compose and bake)"
  else
    failed "self-check: failed, but not for the missing variant: $out"
  fi
  rm -f "$tmp"
fi

echo "compose-check: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
