#!/usr/bin/env bash
# deploy.sh: put one variant on a machine over ssh, start it, wait until it is healthy.
# Called by './testbed deploy' (which first builds the jar when it is missing or stale); see
# './testbed deploy --help' and docker/README.md.
#
# What lands in the remote directory (default testbed/<variant> under the login's home):
#   <jar>, testbed-launch (docker/testbed-launch: the same launcher the container image uses),
#   variant.conf (the variant's line of variants.conf), testbed.env (the settings), and once
#   started testbed.log / testbed.pid / testbed.state.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MANIFEST="$ROOT/variants.conf"
LAUNCHER="$ROOT/docker/testbed-launch"

say() { echo "deploy: $*" >&2; }
die() { echo "deploy: error: $*" >&2; exit 1; }

usage() {
  cat <<'USAGE'
Usage: ./testbed deploy <variant> --host USER@HOST [options] [-- server args]
       ./testbed deploy <variant> --host USER@HOST --stop | --status | --logs [N]

Copies the variant's executable jar and its launcher (docker/testbed-launch) to HOST over ssh/scp,
starts it detached (a systemd unit when HOST runs systemd and the login is root or has passwordless
sudo, else nohup), and waits until GET /testbed/health answers 200 on HOST (probed on HOST itself).

Options:
  --host USER@HOST      the machine (required); your ~/.ssh/config applies (aliases, ProxyJump...)
  --port N              ssh port (default 22)
  --identity FILE       ssh private key (ssh -i; only that key is offered)
  --ssh-option OPT      an extra ssh -o option, repeatable, e.g. --ssh-option UserKnownHostsFile=FILE
                        (the default host key policy is StrictHostKeyChecking=accept-new)
  --memcached H:P[,H:P] MEMCACHED_SERVERS as seen from HOST (default: $MEMCACHED_SERVERS, else
                        127.0.0.1:11211 on HOST)
  --app-port N          TESTBED_PORT on HOST (default: $TESTBED_PORT, else 8080)
  --bind ADDR           TESTBED_HOST, the address to listen on (default: $TESTBED_HOST, else 0.0.0.0)
  --dir DIR             the remote directory, absolute or relative to the login's home
                        (default: testbed/<variant>)
  --java PATH           the java on HOST (default: JAVA_HOME, PATH, then the newest suitable JDK
                        in /usr/lib/jvm); it must be at least the variant's min_jdk
  --service MODE        auto (default), systemd or nohup
  --timeout SECONDS     how long to wait for health (default 180)
  --stop                stop the variant on HOST
  --status              is it running and healthy?
  --logs [N]            print the last N lines (default 100) of its log
  -- ARGS               everything after -- goes to the server as flags (kept for restarts)

Settings taken from this shell when set, so a VM runs with the same configuration as a local
'./testbed serve': TESTBED_THREADS TESTBED_TLS TESTBED_MAX_BODY TESTBED_IDLE_TIMEOUT_MS TESTBED_GZIP
TESTBED_METRICS MEMCACHED_TIMEOUT_MS
TESTBED_JAVA_OPTS (JVM options) JAVA_TOOL_OPTIONS. They are written to DIR/testbed.env.
USAGE
}

# --- arguments -----------------------------------------------------------------------------------
VARIANT="" TARGET="" SSH_PORT=22 IDENTITY="" MEMCACHED="${MEMCACHED_SERVERS:-}" APP_PORT="${TESTBED_PORT:-8080}"
BIND="${TESTBED_HOST:-}" REMOTE_DIR="" REMOTE_JAVA="" SERVICE=auto TIMEOUT=180 ACTION=deploy LOG_LINES=100
SSH_USER_OPTS=() SERVER_ARGS=()

need_value() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --host) need_value "$@"; TARGET="$2"; shift 2 ;;
    --port) need_value "$@"; SSH_PORT="$2"; shift 2 ;;
    --identity) need_value "$@"; IDENTITY="$2"; shift 2 ;;
    --ssh-option) need_value "$@"; SSH_USER_OPTS+=(-o "$2"); shift 2 ;;
    --memcached) need_value "$@"; MEMCACHED="$2"; shift 2 ;;
    --app-port) need_value "$@"; APP_PORT="$2"; shift 2 ;;
    --bind) need_value "$@"; BIND="$2"; shift 2 ;;
    --dir) need_value "$@"; REMOTE_DIR="$2"; shift 2 ;;
    --java) need_value "$@"; REMOTE_JAVA="$2"; shift 2 ;;
    --service) need_value "$@"; SERVICE="$2"; shift 2 ;;
    --timeout) need_value "$@"; TIMEOUT="$2"; shift 2 ;;
    --stop) ACTION=stop; shift ;;
    --status) ACTION=status; shift ;;
    --logs) ACTION=logs; shift
            if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then LOG_LINES="$1"; shift; fi ;;
    --) shift; SERVER_ARGS=("$@"); break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [ -z "$VARIANT" ] || die "one variant at a time ('$VARIANT' and '$1')"; VARIANT="$1"; shift ;;
  esac
done

[ -n "$VARIANT" ] || { usage >&2; die "which variant? ('./testbed serve --list')"; }
[ -n "$TARGET" ] || die "--host USER@HOST is required"
LINE="$(awk -v name="$VARIANT" '!/^[[:space:]]*(#|$)/ && $1 == name { print; exit }' "$MANIFEST")"
[ -n "$LINE" ] || die "no variant '$VARIANT' in variants.conf; one of: $(awk '!/^[[:space:]]*(#|$)/ { printf "%s ", $1 }' "$MANIFEST")"
read -r _ _ JAR_PATH MODE _ <<<"$LINE"
JAR="$ROOT/$JAR_PATH"
REMOTE_DIR="${REMOTE_DIR:-testbed/$VARIANT}"
[[ "$REMOTE_DIR" =~ ^[A-Za-z0-9._/+-]+$ ]] || die "--dir '$REMOTE_DIR': use letters, digits and . _ / + - only (no ~: a relative path is relative to the home directory)"
[[ "$SSH_PORT" =~ ^[0-9]+$ ]] || die "--port must be a number"
[[ "$APP_PORT" =~ ^[0-9]+$ ]] && [ "$APP_PORT" -gt 0 ] || die "--app-port must be a fixed port (1-65535): the health check needs to know it"
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"
case "$SERVICE" in auto|systemd|nohup) ;; *) die "--service must be auto, systemd or nohup" ;; esac
HOSTNAME_ONLY="${TARGET#*@}"
# How to reach the same deployment again, for the hints printed at the end.
AGAIN="--host $TARGET"
[ "$SSH_PORT" = 22 ] || AGAIN="$AGAIN --port $SSH_PORT"
[ -z "$IDENTITY" ] || AGAIN="$AGAIN --identity $IDENTITY"
[ "$REMOTE_DIR" = "testbed/$VARIANT" ] || AGAIN="$AGAIN --dir $REMOTE_DIR"

# ./testbed deploy checks the arguments this way before it spends a build on them.
[ -z "${DEPLOY_VALIDATE_ONLY:-}" ] || exit 0

# --- ssh -----------------------------------------------------------------------------------------
command -v ssh >/dev/null 2>&1 && command -v scp >/dev/null 2>&1 \
  || die "no ssh client here. Install it: sudo apt-get install openssh-client (Debian/Ubuntu), sudo dnf install openssh-clients (Fedora)"
# ssh keeps the first value it is given for an option: the user's -o options come first.
SSH_OPTS=("${SSH_USER_OPTS[@]+"${SSH_USER_OPTS[@]}"}" -o BatchMode=yes -o ConnectTimeout=10
          -o StrictHostKeyChecking=accept-new -o ServerAliveInterval=15 -o ServerAliveCountMax=4 -o LogLevel=ERROR)
if [ -n "$IDENTITY" ]; then
  [ -r "$IDENTITY" ] || die "--identity $IDENTITY: no such readable file"
  SSH_OPTS+=(-i "$IDENTITY" -o IdentitiesOnly=yes)
fi

# remote CMD ARGS...: run one command on the target, every argument quoted for the remote shell.
remote() {
  local quoted
  quoted="$(printf '%q ' "$@")"
  ssh -n "${SSH_OPTS[@]}" -p "$SSH_PORT" "$TARGET" "$quoted"
}
launcher() { remote "$REMOTE_DIR/testbed-launch" "$@"; }
copy() { # copy LOCAL... TARGET:PATH
  scp -q "${SSH_OPTS[@]}" -P "$SSH_PORT" "$@"
}

check_connection() {
  local err
  say "connecting to $TARGET (ssh port $SSH_PORT)..."
  if err="$(ssh "${SSH_OPTS[@]}" -p "$SSH_PORT" "$TARGET" true 2>&1 </dev/null)"; then return 0; fi
  case "$err" in
    *"Permission denied"*|*"Too many authentication failures"*)
      die "ssh authentication to $TARGET failed${IDENTITY:+ with key $IDENTITY}.
  Check the user name, --identity, and that the public key is in ~/.ssh/authorized_keys on the machine.
  ssh said: $err" ;;
    *"Connection refused"*)
      die "nothing accepts ssh on $HOSTNAME_ONLY port $SSH_PORT (connection refused): is sshd running, is --port right?" ;;
    *"timed out"*|*"No route to host"*|*"Network is unreachable"*)
      die "$HOSTNAME_ONLY port $SSH_PORT is unreachable: $err" ;;
    *"Could not resolve"*)
      die "unknown host '$HOSTNAME_ONLY': $err" ;;
    *"Host key verification failed"*|*"IDENTIFICATION HAS CHANGED"*)
      die "the host key of $HOSTNAME_ONLY does not match known_hosts (or is unknown and checking is strict):
  $err" ;;
    *) die "ssh to $TARGET failed: $err" ;;
  esac
}

# The settings file on the target: bash syntax, every value quoted.
write_env() {
  local file="$1" name
  {
    echo "# Written by ./testbed deploy on $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(hostname). Sourced by testbed-launch."
    printf 'MEMCACHED_SERVERS=%q\n' "${MEMCACHED:-127.0.0.1:11211}"
    printf 'TESTBED_PORT=%q\n' "$APP_PORT"
    [ -n "$BIND" ] && printf 'TESTBED_HOST=%q\n' "$BIND"
    for name in TESTBED_THREADS TESTBED_TLS TESTBED_MAX_BODY TESTBED_IDLE_TIMEOUT_MS TESTBED_GZIP TESTBED_METRICS \
        MEMCACHED_TIMEOUT_MS TESTBED_JAVA_OPTS JAVA_TOOL_OPTIONS; do
      [ -n "${!name:-}" ] && printf '%s=%q\n' "$name" "${!name}"
    done
    [ -n "$REMOTE_JAVA" ] && printf 'TESTBED_JAVA=%q\n' "$REMOTE_JAVA"
    if [ ${#SERVER_ARGS[@]} -gt 0 ]; then printf 'TESTBED_SERVER_ARGS=(%s)\n' "$(printf '%q ' "${SERVER_ARGS[@]}")"; fi
  } >"$file"
}

# --- the actions ---------------------------------------------------------------------------------
remote_installed() { remote test -x "$REMOTE_DIR/testbed-launch"; }

do_stop() {
  check_connection
  remote_installed || die "$VARIANT is not deployed in $REMOTE_DIR on $TARGET"
  launcher stop
}

do_status() {
  check_connection
  remote_installed || die "$VARIANT is not deployed in $REMOTE_DIR on $TARGET"
  launcher status
}

do_logs() {
  check_connection
  remote_installed || die "$VARIANT is not deployed in $REMOTE_DIR on $TARGET"
  launcher log "$LOG_LINES"
}

do_deploy() {
  local local_sum remote_sum status=0 started
  started="$(date +%s)"
  [ -f "$JAR" ] || die "no jar at $JAR_PATH; build it first (./testbed deploy builds it when run as ./testbed deploy)"
  check_connection

  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
  printf '# %s: the variant line of variants.conf, read by testbed-launch\n%s\n' "$VARIANT" "$LINE" >"$WORK/variant.conf"
  write_env "$WORK/testbed.env"
  cp "$LAUNCHER" "$WORK/testbed-launch"
  chmod 755 "$WORK/testbed-launch"

  say "preparing $REMOTE_DIR on $TARGET..."
  remote mkdir -p "$REMOTE_DIR" || die "could not create $REMOTE_DIR on $TARGET"
  copy "$WORK/testbed-launch" "$WORK/variant.conf" "$WORK/testbed.env" "$TARGET:$REMOTE_DIR/" \
    || die "could not copy the launcher to $TARGET:$REMOTE_DIR"

  # Java on the target, before sending megabytes: the variant's min_jdk or newer.
  local check
  if ! check="$(launcher check 2>&1)"; then
    die "${check//testbed-launch: /}"
  fi
  say "target: $check"

  local_sum="$(sha256sum "$JAR" | awk '{ print $1 }')"
  remote_sum="$(remote sha256sum "$REMOTE_DIR/$(basename "$JAR")" 2>/dev/null | awk '{ print $1 }' || true)"
  if [ "$local_sum" = "$remote_sum" ]; then
    say "$(basename "$JAR") is already there (same sha256)"
  else
    say "copying $(basename "$JAR") ($(du -h "$JAR" | cut -f1))..."
    # Under a temporary name, then renamed: a running server never sees a half-written jar.
    copy "$JAR" "$TARGET:$REMOTE_DIR/$(basename "$JAR").part" || die "could not copy the jar to $TARGET"
    remote mv -f "$REMOTE_DIR/$(basename "$JAR").part" "$REMOTE_DIR/$(basename "$JAR")"
  fi

  say "starting $VARIANT ($MODE) on $TARGET..."
  launcher start --service "$SERVICE" || die "could not start $VARIANT on $TARGET"

  say "waiting up to ${TIMEOUT}s for /testbed/health on $TARGET..."
  # Bounded here too: a hung connection must not hang the deploy.
  timeout $((TIMEOUT + 30)) ssh -n "${SSH_OPTS[@]}" -p "$SSH_PORT" "$TARGET" \
    "$(printf '%q ' "$REMOTE_DIR/testbed-launch" wait "$TIMEOUT")" || status=$?
  case "$status" in
    0) ;;
    4) die "$VARIANT exited on $TARGET before it was healthy (its log is above; './testbed deploy $VARIANT $AGAIN --logs')" ;;
    5) die "$VARIANT did not become healthy within ${TIMEOUT}s on $TARGET (is Memcached at ${MEMCACHED:-127.0.0.1:11211} reachable from there?). It is left running: './testbed deploy $VARIANT $AGAIN --logs' to look, '... --stop' to stop it." ;;
    124) die "no answer from $TARGET while waiting for health (ssh hung for $((TIMEOUT + 30))s)" ;;
    *) die "waiting for health on $TARGET failed (exit $status)" ;;
  esac

  local shown_host="$HOSTNAME_ONLY"
  case "${BIND:-0.0.0.0}" in 0.0.0.0|::|"*") ;; *) shown_host="$BIND" ;; esac
  say "$VARIANT is up on $TARGET after $(( $(date +%s) - started ))s: http://$shown_host:$APP_PORT/testbed/health"
  say "  remote dir $REMOTE_DIR, log $REMOTE_DIR/testbed.log"
  say "  status: ./testbed deploy $VARIANT $AGAIN --status"
  say "  stop:   ./testbed deploy $VARIANT $AGAIN --stop"
}

case "$ACTION" in
  deploy) do_deploy ;;
  stop) do_stop ;;
  status) do_status ;;
  logs) do_logs ;;
esac
