#!/usr/bin/env bash
# The case names and patterns the README and --help show exist (and docs/): the first
# command a newcomer copies must work.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
areas=$(ls cases | while read -r a; do [ -d "cases/$a" ] && printf '%s|' "$a"; done)
areas=${areas%|}
help=$("$RUN" --help 2>&1; ./run.sh --help 2>&1; harness/tools/vm.sh --help 2>&1)
names=$( { cat README.md results/README.md docs/*.md; echo "$help"; } |
	grep -oE "\\b($areas)/[A-Za-z0-9_*?]+" | sort -u)
check "the docs name cases" test -n "$names"
bad=()
for name in $names; do
	# shellcheck disable=SC2086 # a glob on purpose
	set -- cases/$name.c
	[ -f "$1" ] || bad+=("$name")
done
check "every case name or pattern in the README and --help exists${bad[*]:+ (not found: ${bad[*]})}" test ${#bad[@]} -eq 0
finish
