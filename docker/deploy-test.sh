#!/usr/bin/env bash
# deploy-test.sh: './testbed deploy' for real, against an sshd this test starts on loopback.
#
#   bash docker/deploy-test.sh [variant]        (default spring-tomcat)
#
# The "VM" is this machine: a private sshd (Debian's openssh-server, its own sshd_config, a
# generated host key and a generated client key, key login only) on 127.0.0.1 at a free
# unprivileged port, logged into as the current user; a real memcached on another free loopback
# port; the variant deployed into a temporary directory, bound to 127.0.0.1. Checked:
#   1. deploy succeeds and the deployed service answers health 200, PUT 201 and GET 200 with the item;
#   2. --status says healthy; deploying again reuses the jar (same sha256) and restarts cleanly;
#   3. clear errors: a wrong key (authentication), no ssh listening, a java too old for the variant,
#      a Memcached that does not answer (health timeout, with the end of the remote log);
#   4. --stop stops it (the port closes).
# Everything it started is stopped and its files removed, whatever happens; the whole test is
# bounded by DEPLOY_TEST_TIMEOUT seconds (default 300). Loopback only. Installs nothing: needs
# sshd and ssh-keygen (apt-get install openssh-server openssh-client), memcached, curl and a JDK.
set -uo pipefail

if [ -z "${DEPLOY_TEST_BOUNDED:-}" ]; then
  DEPLOY_TEST_BOUNDED=1 exec timeout --kill-after=15 "${DEPLOY_TEST_TIMEOUT:-300}" bash "$0" "$@"
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VARIANT="${1:-spring-tomcat}"
SSHD="${SSHD:-$(command -v sshd || echo /usr/sbin/sshd)}"
STARTED="$(date +%s)"
PASSED=0 FAILED=0
WORK="" SSHD_PID="" MEMCACHED_PID=""

# The test's own output goes to fds 3 and 4 (its stdout and stderr at start), so that messages from
# a trap that fires while a command's output is redirected to a file still reach the console.
exec 3>&1 4>&2
log() { printf "deploy-test [+%3ss]: %s\n" "$(( $(date +%s) - STARTED ))" "$*" >&4; }
pass() { PASSED=$((PASSED + 1)); log "ok: $*"; }
failed() { FAILED=$((FAILED + 1)); log "FAILED: $*"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A port below the ephemeral range (where client sockets of other programs could take it between
# this check and the server's bind) that nothing listens on.
EPHEMERAL_LOW="$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$(( 15000 + RANDOM % (EPHEMERAL_LOW - 15000) ))
    port_open "$p" || { echo "$p"; return 0; }
  done
  return 1
}

# Stop by the pid files the launcher wrote in our own temporary "remote" directories, then sshd
# and memcached by their pids: never by name.
cleanup() {
  local pidfile pid
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    for pidfile in "$WORK"/vm/*/testbed.pid; do
      [ -f "$pidfile" ] || continue
      pid="$(cat "$pidfile")"
      if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$WORK/"; then
        kill "$pid" 2>/dev/null; sleep 1; kill -9 "$pid" 2>/dev/null
      fi
    done
  fi
  [ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
  [ -n "$MEMCACHED_PID" ] && kill "$MEMCACHED_PID" 2>/dev/null
  [ -n "$SSHD_PID" ] && wait "$SSHD_PID" 2>/dev/null
  [ -n "$MEMCACHED_PID" ] && wait "$MEMCACHED_PID" 2>/dev/null
  [ -n "$WORK" ] && rm -rf "$WORK"
  return 0
}
finish() {
  local status=$?
  cleanup
  log "wall time $(( $(date +%s) - STARTED ))s"
  echo "deploy-test: $PASSED passed, $FAILED failed" >&3
  if [ "$FAILED" -gt 0 ] || [ "$status" -ne 0 ]; then exit 1; fi
  exit 0
}
trap finish EXIT
trap 'log "interrupted (time limit?)"; FAILED=$((FAILED + 1)); exit 1' INT TERM

# --- prerequisites: missing ones fail the test, they are not skipped ---------------------------
missing=()
[ -x "$SSHD" ] || missing+=("sshd (apt-get install openssh-server)")
for tool in ssh scp ssh-keygen; do command -v "$tool" >/dev/null || missing+=("$tool (apt-get install openssh-client)"); done
command -v memcached >/dev/null || missing+=("memcached (apt-get install memcached)")
command -v curl >/dev/null || missing+=("curl (apt-get install curl)")
if [ ${#missing[@]} -gt 0 ]; then
  log "missing: ${missing[*]}"
  FAILED=$((FAILED + 1))
  exit 1
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/deploy-test.XXXXXX")"
chmod 700 "$WORK"
USER_NAME="$(id -un)"

# --- memcached on a free loopback port ----------------------------------------------------------
MEMCACHED_USER=()
[ "$(id -u)" = 0 ] && MEMCACHED_USER=(-u root)
for _ in 1 2 3 4 5; do
  MPORT="$(free_port)" || break
  memcached -l 127.0.0.1 -p "$MPORT" -U 0 -m 64 -t 2 "${MEMCACHED_USER[@]}" >"$WORK/memcached.log" 2>&1 3>&- 4>&- &
  MEMCACHED_PID=$!
  for _ in $(seq 1 50); do port_open "$MPORT" && break; sleep 0.1; done
  port_open "$MPORT" && break
  kill "$MEMCACHED_PID" 2>/dev/null; MEMCACHED_PID=""
done
[ -n "$MEMCACHED_PID" ] || { log "could not start memcached"; FAILED=$((FAILED + 1)); exit 1; }
log "memcached on 127.0.0.1:$MPORT"

# --- sshd: own config, own host key, key login only, loopback only -----------------------------
ssh-keygen -q -t ed25519 -N '' -C deploy-test-host -f "$WORK/host_key"
ssh-keygen -q -t ed25519 -N '' -C deploy-test-client -f "$WORK/client_key"
ssh-keygen -q -t ed25519 -N '' -C deploy-test-stranger -f "$WORK/wrong_key"
cp "$WORK/client_key.pub" "$WORK/authorized_keys"
chmod 600 "$WORK/authorized_keys"
# sshd as root wants its privilege separation directory (Debian's service creates it at start).
[ "$(id -u)" = 0 ] && [ ! -d /run/sshd ] && mkdir -p /run/sshd && chmod 755 /run/sshd
for _ in 1 2 3 4 5; do
  SSH_PORT="$(free_port)" || break
  cat >"$WORK/sshd_config" <<CONF
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $WORK/host_key
PidFile $WORK/sshd.pid
AuthorizedKeysFile $WORK/authorized_keys
AllowUsers $USER_NAME
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
Subsystem sftp internal-sftp
LogLevel VERBOSE
CONF
  "$SSHD" -D -e -f "$WORK/sshd_config" >"$WORK/sshd.log" 2>&1 3>&- 4>&- &
  SSHD_PID=$!
  for _ in $(seq 1 50); do port_open "$SSH_PORT" && break; kill -0 "$SSHD_PID" 2>/dev/null || break; sleep 0.1; done
  port_open "$SSH_PORT" && break
  kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""
done
if [ -z "$SSHD_PID" ]; then
  log "could not start sshd; its log:"; sed 's/^/  | /' "$WORK/sshd.log" >&4
  FAILED=$((FAILED + 1)); exit 1
fi
log "sshd on 127.0.0.1:$SSH_PORT (user $USER_NAME, key only)"
# The host key is known in advance, and checked strictly: no trust-on-first-use in the test.
echo "[127.0.0.1]:$SSH_PORT $(cut -d' ' -f1,2 "$WORK/host_key.pub")" >"$WORK/known_hosts"

APP_PORT="$(free_port)"
DIR="$WORK/vm/$VARIANT"
CONNECT=(--host "$USER_NAME@127.0.0.1" --port "$SSH_PORT" --identity "$WORK/client_key"
         --ssh-option "UserKnownHostsFile=$WORK/known_hosts" --ssh-option StrictHostKeyChecking=yes)
# The first deploy goes through ./testbed (which builds the jar when stale); later calls use the
# script behind it directly, so a source edited meanwhile does not cost a Maven build each time.
deploy() { "$ROOT/testbed" deploy "$@" 3>&- 4>&-; }
deploy_again() { "$ROOT/docker/deploy.sh" "$@" 3>&- 4>&-; }
URL="http://127.0.0.1:$APP_PORT/testbed"

# --- 1. deploy, health, one PUT and GET ----------------------------------------------------------
log "deploying $VARIANT (app port $APP_PORT, dir $DIR)"
t0="$(date +%s)"
deploy "$VARIANT" "${CONNECT[@]}" --memcached "127.0.0.1:$MPORT" --app-port "$APP_PORT" \
  --bind 127.0.0.1 --dir "$DIR" --timeout 120 >"$WORK/deploy1.out" 2>&1
status=$?
sed 's/^/  | /' "$WORK/deploy1.out" >&4
if [ "$status" = 0 ]; then pass "deploy $VARIANT in $(( $(date +%s) - t0 ))s"; else failed "deploy $VARIANT (exit $status)"; fi

code="$(curl -s -o "$WORK/health.json" -w '%{http_code}' --max-time 5 "$URL/health")"
if [ "$code" = 200 ]; then pass "GET /testbed/health -> 200 $(cat "$WORK/health.json")"; else failed "GET /testbed/health -> $code"; fi

id="deploy-test-$RANDOM"
code="$(curl -s -o "$WORK/put.json" -w '%{http_code}' --max-time 5 -X PUT "$URL/items/$id" \
        -H 'Content-Type: application/json' -d '{"name":"deployed","payload":"over ssh"}')"
if [ "$code" = 201 ]; then pass "PUT /testbed/items/$id -> 201"; else failed "PUT /testbed/items/$id -> $code $(cat "$WORK/put.json" 2>/dev/null)"; fi
code="$(curl -s -o "$WORK/get.json" -w '%{http_code}' --max-time 5 "$URL/items/$id")"
if [ "$code" = 200 ] && grep -q '"payload":"over ssh"' "$WORK/get.json"; then
  pass "GET /testbed/items/$id -> 200 $(cat "$WORK/get.json")"
else
  failed "GET /testbed/items/$id -> $code $(cat "$WORK/get.json" 2>/dev/null)"
fi
for f in testbed-launch variant.conf testbed.env testbed.log "$(basename "$(awk -v n="$VARIANT" '$1 == n { print $3 }' "$ROOT/variants.conf")")"; do
  [ -f "$DIR/$f" ] || failed "the remote directory lacks $f"
done

# --- 2. status; deploy again: same jar, clean restart ---------------------------------------------
if deploy "$VARIANT" "${CONNECT[@]}" --dir "$DIR" --status >"$WORK/status.out" 2>&1 && grep -q -- '-> 200' "$WORK/status.out"; then
  pass "--status: $(grep -- "-> " "$WORK/status.out")"
else
  failed "--status: $(cat "$WORK/status.out")"
fi
old_pid="$(cat "$DIR/testbed.pid" 2>/dev/null)"
if deploy_again "$VARIANT" "${CONNECT[@]}" --memcached "127.0.0.1:$MPORT" --app-port "$APP_PORT" \
     --bind 127.0.0.1 --dir "$DIR" --timeout 120 >"$WORK/deploy2.out" 2>&1 \
   && grep -q 'already there (same sha256)' "$WORK/deploy2.out" \
   && [ "$(cat "$DIR/testbed.pid" 2>/dev/null)" != "$old_pid" ] && ! kill -0 "$old_pid" 2>/dev/null; then
  pass "deploying again reuses the jar and replaces the old process ($old_pid -> $(cat "$DIR/testbed.pid"))"
else
  failed "deploying again: $(cat "$WORK/deploy2.out")"
fi
code="$(curl -s -o "$WORK/get2.json" -w '%{http_code}' --max-time 5 "$URL/items/$id")"
if [ "$code" = 200 ]; then pass "the item is still there after the redeploy"; else failed "GET after redeploy -> $code"; fi

# --- 3. clear errors -------------------------------------------------------------------------------
expect_failure() { # expect_failure NAME PATTERN deploy-args...
  local name="$1" pattern="$2" out="$WORK/err-$1.out"; shift 2
  if deploy_again "$@" >"$out" 2>&1; then
    failed "$name: deploy succeeded but should not have"
  elif grep -qiE -- "$pattern" "$out"; then
    pass "$name: $(grep -iE -m1 -- "$pattern" "$out")"
  else
    failed "$name: no /$pattern/ in: $(cat "$out")"
  fi
}
expect_failure wrong-key "authentication .* failed" "$VARIANT" --host "$USER_NAME@127.0.0.1" --port "$SSH_PORT" \
  --identity "$WORK/wrong_key" --ssh-option "UserKnownHostsFile=$WORK/known_hosts" --ssh-option StrictHostKeyChecking=yes \
  --dir "$WORK/vm/wrong-key" --app-port "$(free_port)" --bind 127.0.0.1
closed_port="$(free_port)"
expect_failure no-sshd "connection refused" "$VARIANT" --host "$USER_NAME@127.0.0.1" --port "$closed_port" \
  --identity "$WORK/client_key" --dir "$WORK/vm/no-sshd" --app-port "$(free_port)" --bind 127.0.0.1
# A "java" that reports version 11: the variant needs more.
mkdir -p "$WORK/old-java/bin"
cat >"$WORK/old-java/bin/java" <<'JAVA'
#!/bin/sh
echo "    java.specification.version = 11" >&2
echo 'openjdk version "11.0.99"' >&2
JAVA
chmod 755 "$WORK/old-java/bin/java"
expect_failure old-java "needs a Java [0-9]+ or newer" "$VARIANT" "${CONNECT[@]}" --java "$WORK/old-java/bin/java" \
  --dir "$WORK/vm/old-java" --app-port "$(free_port)" --bind 127.0.0.1
# Memcached that nobody serves: the server starts, health stays 503, the deploy times out and shows the log.
expect_failure health-timeout "did not become healthy within" "$VARIANT" "${CONNECT[@]}" \
  --memcached "127.0.0.1:$(free_port)" --app-port "$(free_port)" --bind 127.0.0.1 \
  --dir "$WORK/vm/no-memcached" --timeout 15
if grep -q '^  | ' "$WORK/err-health-timeout.out"; then pass "health-timeout shows the end of the remote log"; else failed "health-timeout printed no remote log"; fi
deploy "$VARIANT" "${CONNECT[@]}" --dir "$WORK/vm/no-memcached" --stop >/dev/null 2>&1 || failed "--stop of the health-timeout deployment"

# --- 4. stop ----------------------------------------------------------------------------------------
if deploy "$VARIANT" "${CONNECT[@]}" --dir "$DIR" --stop >"$WORK/stop.out" 2>&1; then
  for _ in $(seq 1 50); do port_open "$APP_PORT" || break; sleep 0.2; done
  if port_open "$APP_PORT"; then failed "--stop: port $APP_PORT still open"; else pass "--stop: $(tail -1 "$WORK/stop.out")"; fi
else
  failed "--stop: $(cat "$WORK/stop.out")"
fi
