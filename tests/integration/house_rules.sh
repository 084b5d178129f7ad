#!/usr/bin/env bash
# The house rules a reviewer would otherwise count by hand:
#  - no function in harness/ is longer than 100 lines (kernel style: the
#    body opens with '{' and closes with '}' in column 0; the count is from
#    the '{' to the '}', both included);
#  - the shell keeps to orchestration: under 3,000 lines in all (run.sh,
#    harness/tools, harness/install), and no JSON written by hand there
#    (formats are written in C, by perfabi-report and the runner).
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
# file:line: name (N lines), for each function over the limit
long=$(find harness -name '*.c' | sort | xargs awk -v max=100 '
	FNR == 1 { start = 0 }
	/^[A-Za-z_].*\(/ { sig = $0; sigline = FNR }
	/^\{/ { start = FNR; name = sig; line = sigline }
	/^\}/ && start {
		n = FNR - start + 1
		if (n > max) {
			sub(/\(.*/, "", name)
			k = split(name, w, /[ *]+/)
			printf "%s:%d: %s() is %d lines\n", FILENAME, line, w[k], n
		}
		start = 0
	}')
if [ -z "$long" ]; then
	ok "no function in harness/ is longer than 100 lines"
else
	not_ok "no function in harness/ is longer than 100 lines" "$(sed -n 1p <<<"$long")"
	sed '1d; s/^/# /' <<<"$long"
fi
sh=(run.sh harness/tools/*.sh harness/install/*)
lines=$(cat "${sh[@]}" | wc -l)
check "the shell is under 3,000 lines ($lines)" test "$lines" -lt 3000
# a printf or echo whose text opens a JSON object or writes "key": value
json=$(grep -nE "(printf|echo) +['\"][^'\"]*(\\?\"[a-z_]+\\?\": |\{\\n|^\{)" "${sh[@]}" | head -n3)
check "no shell script writes JSON by hand${json:+: $json}" test -z "$json"
finish
