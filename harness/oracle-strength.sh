#!/usr/bin/env bash
# perfabi: how strong each case's oracle is, by its strongest check (the
# heuristic of the November 2026 review, ../shared/research/review-2026-11.md
# section 3), per area and in total:
#   exact   an EXPECT_EQ/ASSERT_EQ (or EXPECT_E2BIG_SIZE) on a value, not on
#           plumbing (the return of read, write, waitpid, ioctl, pipe ...)
#   bound   only EXPECT/ASSERT_NE/LT/LE/GT/GE/TRUE/FALSE on values
#   errno   only errno or return-code checks (EXPECT_OPEN_FAIL, EXPECT_ERRNO,
#           EXPECT_OPEN_RESULT, errno-checked calls)
#   open    only that an open succeeded
#   ./harness/oracle-strength.sh [--list] [AREA...]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
areas=("$@")
[ ${#areas[@]} -gt 0 ] || mapfile -t areas < <(ls cases | while read -r a; do [ -d "cases/$a" ] && echo "$a"; done)

classify() { # file -> exact|bound|errno|open
	awk '
	# join a statement that spans lines
	{ buf = buf $0 " " }
	/;[[:space:]]*(\/\*.*\*\/)?[[:space:]]*$/ || /^[[:space:]]*}/ { stmt(buf); buf = "" }
	function stmt(s,   a) {
		if (s ~ /(EXPECT|ASSERT)_EQ\(/ || s ~ /EXPECT_E2BIG_SIZE/) {
			a = s; sub(/.*(EXPECT|ASSERT)_EQ\(/, "", a)
			if (a !~ /^[[:space:]]*\(?(read|write|pread|waitpid|ioctl|pipe|pa_allowed_cpus|pa_pin_cpu|fork|close|mmap|munmap|sched_setaffinity|setresuid|kill|wait|poll|fcntl)[[:space:]]*\(/)
				exact = 1
			else plumbing = 1
		}
		if (s ~ /(EXPECT|ASSERT)_(NE|LT|LE|GT|GE|TRUE|FALSE)\(/) bound = 1
		if (s ~ /EXPECT_OPEN_FAIL|ASSERT_OPEN_FAIL|EXPECT_ERRNO|ASSERT_ERRNO|EXPECT_OPEN_RESULT|pa_expect_e2big/) err = 1
		if (s ~ /(EXPECT|ASSERT)_OPEN\(|EXPECT_OK|ASSERT_OK/) opn = 1
		if (s ~ /pa_ring_sample\(|pa_sample_parse\(/) bound = 1
	}
	END {
		if (exact) print "exact"; else if (bound) print "bound";
		else if (err) print "errno"; else print "open"
	}' "$1"
}

tot_e=0 tot_b=0 tot_r=0 tot_o=0 tot=0
printf '%-12s %6s %6s %6s %6s %6s %7s\n' area cases exact bound errno open exact%
for a in "${areas[@]}"; do
	e=0 b=0 r=0 o=0 n=0
	for f in cases/"$a"/*.c; do
		[ -f "$f" ] || continue
		c=$(classify "$f")
		n=$((n + 1))
		case $c in exact) e=$((e + 1)) ;; bound) b=$((b + 1)) ;; errno) r=$((r + 1)) ;; open) o=$((o + 1)) ;; esac
		[ $list = 1 ] && printf '%-6s %s\n' "$c" "${f#cases/}"
	done
	[ $n -gt 0 ] || continue
	printf '%-12s %6d %6d %6d %6d %6d %6d%%\n' "$a" $n $e $b $r $o $((100 * e / n))
	tot=$((tot + n)) tot_e=$((tot_e + e)) tot_b=$((tot_b + b)) tot_r=$((tot_r + r)) tot_o=$((tot_o + o))
done
[ $tot -gt 0 ] && printf '%-12s %6d %6d %6d %6d %6d %6d%%\n' total $tot $tot_e $tot_b $tot_r $tot_o $((100 * tot_e / tot))
