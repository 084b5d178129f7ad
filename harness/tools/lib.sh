# shellcheck shell=bash
# Shared by the shell tools in harness/ (sourced after they cd to the
# repository root): messages, JSON strings, the time. Set PA_PROG first:
# it starts every message ("vm.sh: ...").

# a message on stderr; die also ends the tool with status 2 (bad input or
# an environment that cannot work)
say() { echo "${PA_PROG:-perfabi}: $*" >&2; }
die() { say "$@"; exit 2; }

# $1 as a JSON string: backslash, quote, tab and newline escaped, carriage
# returns (a serial console's) dropped
js() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\n'/\\n}
	s=${s//$'\r'/}
	printf '"%s"' "$s"
}

# seconds since the epoch, to the nanosecond
now() { date +%s.%N; }
