#!/usr/bin/env bash
# perfabi: CPU load that the tool starts and stops itself.
#
#   harness/tools/load.sh [--hogs N] -- COMMAND [ARG...]
#   . harness/tools/load.sh; load_start [N]; ...; load_stop   (from a script)
#
# See usage() below. ./run.sh --bench N --load and the timing integration
# test use it.

# One busy loop per hog, in a subshell of the caller: no compiler, no
# package. Each checks every ~0.1 s that the process that started it still
# exists and ends when it does not, so a caller killed by SIGKILL leaves no
# hog behind; load_stop ends them at once.
LOAD_PIDS=()

load_hog() { # PID: spin while PID lives
	local parent=$1 i
	trap - INT TERM EXIT
	while kill -0 "$parent" 2>/dev/null; do
		for ((i = 0; i < 20000; i++)); do :; done
	done
}

# Start N hogs (default: one per online CPU). Call load_stop on every exit
# path (an EXIT trap; INT and TERM traps that exit, so EXIT runs).
load_start() { # [N]
	local n=${1:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)} i
	for ((i = 0; i < n; i++)); do
		load_hog "$$" &
		LOAD_PIDS+=("$!")
	done
}

load_stop() {
	local p
	[ ${#LOAD_PIDS[@]} -gt 0 ] || return 0
	for p in "${LOAD_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${LOAD_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	LOAD_PIDS=()
}

# Stop the hogs on every way out of the caller. A signal also ends the
# command whose pid the caller keeps in the variable named VAR (run in the
# background, it ignores SIGINT: it gets SIGTERM), then exits 128+N.
load_traps() { # VAR
	LOAD_CHILD_VAR=$1
	trap load_stop EXIT
	trap 'load_on_signal 130' INT
	trap 'load_on_signal 143' TERM
	trap 'load_on_signal 129' HUP
}

load_on_signal() { # EXIT-STATUS
	local pid=${!LOAD_CHILD_VAR:-}
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	exit "$1"
}

# sourced: only the functions
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
	return 0
fi

set -uo pipefail

usage() {
	cat harness/tools/usage/load.txt
}

HOGS=
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--hogs)
		[ $# -ge 2 ] || { echo "load.sh: option '--hogs' needs an argument" >&2; exit 2; }
		HOGS=$2; shift 2 ;;
	--hogs=*) HOGS=${1#*=}; shift ;;
	--) shift; break ;;
	*) echo "load.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "load.sh: no command given (try --help)" >&2; exit 2; }
if [ -n "$HOGS" ] && ! { [[ $HOGS =~ ^[0-9]+$ ]] && [ "$HOGS" -ge 1 ] && [ "$HOGS" -le 1024 ]; }; then
	echo "load.sh: bad number of hogs '$HOGS': 1 to 1024" >&2
	exit 2
fi

cmd=
load_traps cmd		# a signal ends COMMAND too, then the hogs
load_start ${HOGS:+"$HOGS"}
"$@" &
cmd=$!
wait "$cmd"
exit $?
