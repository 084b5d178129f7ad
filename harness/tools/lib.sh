# shellcheck shell=bash
# Shared by the shell tools in harness/ (sourced after they cd to the
# repository root): messages and the time. Formats (JSON, results.tsv, the
# console's post-mortem) are written in C, by perfabi-report. Set PA_PROG
# first: it starts every message ("vm.sh: ...").

# a message on stderr; die also ends the tool with status 2 (bad input or
# an environment that cannot work)
say() { echo "${PA_PROG:-perfabi}: $*" >&2; }
die() { say "$@"; exit 2; }

# seconds since the epoch, to the nanosecond
now() { date +%s.%N; }
