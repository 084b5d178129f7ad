#!/usr/bin/env bash
# The area rule (cases/areas.txt): every case is in the area the rule gives
# it from its source (its first .covers element and what its PERFABI_CASE
# declares), or is a listed exception with a reason; the README lists every
# area; every move is in the rename map (cases/renames.txt), whose old names
# are no cases any more and whose new names are.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# area_check RULES CASEDIR: one line per problem, nothing when the rule holds
area_check() {
	local rules=$1 dir=$2
	local prog='
	function fail(s) { print s; bad = 1 }
	function glob_re(g) { gsub(/\./, "\\.", g); gsub(/\*/, ".*", g); return "^" g "$" }
	# one element e against a comma-separated list of globs
	function globs(e, list,   n, g, i) {
		n = split(list, g, ",")
		for (i = 1; i <= n; i++)
			if (e ~ glob_re(g[i]))
				return 1
		return 0
	}
	function holds(cond, c,   k, v, i, n, w) {
		if (cond == "fix" || cond == "hw_pmu" || cond == "privileged")
			return (c SUBSEP cond) in flag
		k = cond; sub(/=.*/, "", k)
		v = cond; sub(/^[^=]*=/, "", v)
		if (k == "first")
			return globs(first[c], v)
		if (k == "pmu")
			return globs(pmu[c], v)
		if (k == "covers") {
			n = split(covers[c], w, " ")
			for (i = 1; i <= n; i++)
				if (globs(w[i], v))
					return 1
			return 0
		}
		fail(RULES ": unknown condition \"" cond "\"")
		return 0
	}
	function matches(rule, c,   alt, conds, na, nc, i, j, ok) {
		na = split(rule, alt, "|")
		for (i = 1; i <= na; i++) {
			nc = split(alt[i], conds, "+")
			ok = 1
			for (j = 1; j <= nc && ok; j++)
				ok = holds(conds[j], c)
			if (ok)
				return 1
		}
		return 0
	}
	# a macro of harness/perfabi.h that sets requirements (PA_HIT_NEEDS_*)
	FILENAME ~ /perfabi\.h$/ {
		if ($0 ~ /^#define PA_[A-Z_]+[ \t]+\./) {
			mac = $2
			body[mac] = $0
		} else if (mac != "" && prev ~ /\\$/) {
			body[mac] = body[mac] $0
		} else {
			mac = ""
		}
		prev = $0
		next
	}
	FILENAME == RULES {
		if ($0 ~ /^[ \t]*(#|$)/)
			next
		if ($1 ~ /\//) {
			if (NF < 2)
				fail(RULES ": exception " $1 " gives no reason")
			if ($1 in exception)
				fail(RULES ": exception " $1 " is listed twice")
			exception[$1] = 1
			next
		}
		if (NF < 3)
			fail(RULES ": the rule of " $1 " needs a rule and a description")
		if ($1 in rule)
			fail(RULES ": " $1 " has two rules")
		order[++nrules] = $1
		r = $2
		may[$1] = sub(/^may:/, "", r)
		rule[$1] = r
		next
	}
	FNR == 1 {
		n = split(FILENAME, p, "/")
		c = p[n - 1] "/" p[n]
		sub(/\.c$/, "", c)
		area[c] = p[n - 1]
		ncases++
		incase = grab = 0
	}
	/^PERFABI_CASE\(/ { incase = 1; next }
	incase && /^\)/ { incase = 0 }
	!incase { next }
	/^\t\.covers[ \t]*=/ { grab = 1; covers_text = "" }
	grab && covers_add($0) {
		grab = 0
		covers[c] = COVERS
		first[c] = COVERS; sub(/ .*/, "", first[c])
	}
	/^\t\.pmu[ \t]*=/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); pmu[c] = s }
	/^\t\.hw_pmu[ \t]*=[ \t]*true/ { flag[c, "hw_pmu"] = 1 }
	/^\t\.privileged[ \t]*=[ \t]*true/ { flag[c, "privileged"] = 1 }
	/^\t\.fix[ \t]*=[ \t]*\{/ { flag[c, "fix"] = 1 }
	/^\tPA_[A-Z_]+,?[ \t]*$/ {
		m = $1; sub(/,$/, "", m)
		if (m in body) {
			b = body[m]
			if (match(b, /\.pmu = "[^"]*"/))
				pmu[c] = substr(b, RSTART + 8, RLENGTH - 9)
			if (b ~ /\.hw_pmu = true/) flag[c, "hw_pmu"] = 1
			if (b ~ /\.privileged = true/) flag[c, "privileged"] = 1
		}
	}
	END {
		if (!ncases)
			fail(DIR ": no cases")
		for (c in area) {
			folder[area[c]] = 1
			if (first[c] == "") {
				fail(c ": no .covers element to place it by")
				continue
			}
			want = ""
			for (i = 1; i <= nrules && want == ""; i++) {
				a = order[i]
				if (may[a] && area[c] != a)
					continue
				if (matches(rule[a], c))
					want = a
			}
			if (want == "")
				fail(c ": no rule of " RULES " places it (first element " first[c] ")")
			else if (want != area[c] && !(c in exception))
				fail(c ": the rule puts it in " want "/ (first element " first[c] "), not " area[c] "/")
			else if (want == area[c] && (c in exception))
				fail(c ": listed as an exception, but the rule puts it in " want "/ already")
		}
		for (e in exception)
			if (!(e in area))
				fail(RULES ": exception " e " is no case")
		for (a in folder)
			if (!(a in rule))
				fail(RULES ": the area " a "/ has no rule")
		for (a in rule)
			if (!(a in folder))
				fail(RULES ": " a " has a rule but no case in " DIR "/" a "/")
		exit bad
	}'
	# .covers as harness/tools/covers-check.sh reads it (covers.awk)
	# shellcheck disable=SC2046 # the case files, one word each
	awk -v RULES="$rules" -v DIR="$dir" -f harness/tools/covers.awk -f <(printf '%s\n' "$prog") \
		harness/perfabi.h "$rules" $(find "$dir" -mindepth 2 -maxdepth 2 -name '*.c' | sort) | sort
}

problems=$(area_check cases/areas.txt cases)
if [ -z "$problems" ]; then
	ok "every case is in the area cases/areas.txt gives it, or is a listed exception"
else
	not_ok "every case is in the area cases/areas.txt gives it, or is a listed exception" \
		"$(wc -l <<<"$problems") problem(s):"
	sed 's/^/# /' <<<"$problems"
fi

# the check can fail: a case put in another area, an exception that is no
# longer needed, an area without a rule
mkdir -p "$tmp/cases/group" "$tmp/cases/read"
cp cases/group/sibling_of_sibling_einval.c "$tmp/cases/read/"
cp cases/read/id.c "$tmp/cases/read/"
cp cases/group/group_read_other_task.c cases/group/group_fd_closed_ebadf.c "$tmp/cases/group/"
grep -v '^[a-z]*/' cases/areas.txt >"$tmp/areas.txt"
printf 'group/group_fd_closed_ebadf  listed for no reason\n' >>"$tmp/areas.txt"
out=$(area_check "$tmp/areas.txt" "$tmp/cases")
check "a group case in read/ is caught" \
	grep -qx "read/sibling_of_sibling_einval: the rule puts it in group/ (first element arg.group_fd), not read/" <<<"$out"
check "a straggler that is not listed is caught" \
	grep -q "^group/group_read_other_task: the rule puts it in open/" <<<"$out"
check "an exception the rule does not need is caught" \
	grep -q "^group/group_fd_closed_ebadf: listed as an exception, but the rule puts it in group/ already" <<<"$out"
check "a rule for an area with no case is caught" \
	grep -q ": attr has a rule but no case in $tmp/cases/attr/" <<<"$out"
mkdir -p "$tmp/cases/misc"; cp cases/read/id.c "$tmp/cases/misc/"
out=$(area_check "$tmp/areas.txt" "$tmp/cases")
check "an area without a rule is caught" grep -q ": the area misc/ has no rule" <<<"$out"

# the README ("Where things are") lists every area, one line each (cases/areas.txt has the rule)
missing=()
for a in $(awk '!/^[ \t]*(#|$)/ && $1 !~ /\// { print $1 }' cases/areas.txt); do
	grep -qE "^    +$a/ " README.md || missing+=("$a")
done
check "the README lists every area${missing[*]:+ (missing: ${missing[*]})}" test ${#missing[@]} -eq 0

# the rename map: "OLD NEW" lines; every old name is gone, every new one
# (at the end of a chain of moves) is a case
map_bad=$(awk '
	/^[ \t]*(#|$)/ { next }
	NF != 2 || $1 !~ /^[a-z_]+\/[A-Za-z0-9_]+$/ || $2 !~ /^[a-z_]+\/[A-Za-z0-9_]+$/ {
		printf "cases/renames.txt:%d: not \"OLD-AREA/NAME NEW-AREA/NAME\"\n", FNR; next
	}
	{ print $1, $2 }' cases/renames.txt | while read -r old new; do
	case $old in cases/renames.txt:*) echo "$old $new"; continue ;; esac
	[ -e "cases/$old.c" ] && echo "cases/renames.txt: $old is still a case"
	hops=0	# a later move of the same case: follow it (a cycle stops)
	while n=$(awk -v o="$new" '$1 == o { print $2; exit }' cases/renames.txt) &&
		[ -n "$n" ] && [ $((hops += 1)) -lt 100 ]; do
		new=$n
	done
	[ -e "cases/$new.c" ] || echo "cases/renames.txt: $old -> $new, which is no case"
done)
check "cases/renames.txt: each old name is no case, each new name is one${map_bad:+ ($map_bad)}" \
	test -z "$map_bad"
finish
