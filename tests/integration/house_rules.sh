#!/usr/bin/env bash
# The house rules a reviewer would otherwise count by hand:
#  - no function in harness/ is longer than 100 lines (kernel style: the
#    body opens with '{' and closes with '}' in column 0; the count is from
#    the '{' to the '}', both included).
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
finish
