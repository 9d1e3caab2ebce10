# The reaper of a testbed JVM (org.testbed.runner.host.Reaper): stops what the JVM started when it
# dies without stopping it itself. SIGKILL runs no shutdown hook, and the servers, memcached,
# Toxiproxy, JMeter... of a runner killed so would go on running under the next run.
#
# Arguments: $1 the JVM's pid (for the message), $2 the folder of its cgroups ('' if none): a freeze
# group per frozen server, and 'runner', which the JVM moves itself into once this shell is started,
# so that every process it starts after is born in one of them.
# Its stdin is a pipe from the JVM, which writes a line for each process of its own that comes or goes:
#   + PID START    a descendant of the JVM; START is field 22 of /proc/PID/stat, its start time
#   - PID START    that descendant has exited
# Between lines it is blocked in read: no CPU, no wake-up. Only the JVM holds the pipe's other end
# (Java closes every other descriptor in the processes it starts), so end of file means the JVM has
# exited, however it did. Then every process it was told of that still runs with the same start
# time (a pid used again by another process is not it) and every process in the freeze cgroups is
# let go (cgroup.freeze 0, SIGCONT) and asked to stop (SIGTERM), those alive 5 s later are killed,
# and the cgroups removed. After a normal exit the JVM's hooks have stopped everything: it finds
# nothing to do and exits without a word.
#
# Signals a terminal or a process group gets (INT, HUP, QUIT, TERM) are ignored: the JVM's hooks
# handle those, and the reaper must outlive them. It never signals itself, the JVM's parent or
# anything the JVM did not start.

unset TESTBED_REAPER
trap '' INT HUP QUIT TERM PIPE
jvm=$1
groups=$2
known=' '

# started PID: sets $started to the start time of PID, and fails when PID is gone or a zombie.
started() {
    started=
    read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
    # After the command name, which may hold spaces and parentheses: $1 is field 3, the state.
    set -- ${stat##*") "}
    case $1 in Z|X|'') return 1 ;; esac
    started=${20}
}

# still: keeps in $alive only the PID:START entries whose process still runs.
still() {
    left=
    for entry in $alive; do
        started "${entry%%:*}" && [ "$started" = "${entry#*:}" ] && left="$left $entry"
    done
    alive=$left
}

nap() {
    sleep 0.2 2>/dev/null || sleep 1
}

while read -r sign pid start; do
    case $pid:$start in *[!0-9:]*|:*|*:) continue ;; esac
    entry=" $pid:$start "
    case $sign$known in
        +*"$entry"*) ;;
        +*) known="$known$pid:$start " ;;
        -*"$entry"*) known="${known%%"$entry"*} ${known#*"$entry"}" ;;
    esac
done

# The JVM has exited.
alive=$known
still
if [ -n "$groups" ] && [ -d "$groups" ]; then
    for freeze in "$groups"/*/cgroup.freeze; do
        [ -f "$freeze" ] && echo 0 2>/dev/null > "$freeze"
    done
    for procs in "$groups"/*/cgroup.procs; do
        [ -f "$procs" ] || continue
        while read -r pid; do
            [ "$pid" != $$ ] && started "$pid" || continue
            case "$alive " in *" $pid:"*) ;; *) alive="$alive $pid:$started" ;; esac
        done < "$procs"
    done
fi

set -- $alive
stopped=$#
for entry in $alive; do
    kill -TERM "${entry%%:*}" 2>/dev/null
    kill -CONT "${entry%%:*}" 2>/dev/null
done
naps=0
while [ -n "$alive" ] && [ $naps -lt 25 ]; do
    nap
    naps=$((naps + 1))
    still
done
for entry in $alive; do
    kill -KILL "${entry%%:*}" 2>/dev/null
done

# A cgroup can go once its last process has; a killed one may take a moment.
naps=0
while [ -n "$groups" ] && [ -d "$groups" ] && [ $naps -lt 25 ]; do
    for group in "$groups"/*/; do
        [ -d "$group" ] && rmdir "$group" 2>/dev/null
    done
    rmdir "$groups" 2>/dev/null && break
    nap
    naps=$((naps + 1))
done

if [ "$stopped" -gt 0 ]; then
    echo "testbed: pid $jvm ended without stopping what it had started; stopped $stopped process(es) it left" >&2
fi
exit 0
