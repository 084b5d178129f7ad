#!/usr/bin/env bash
# A deleted or renamed case does not keep running: the build removes the
# binaries whose source is gone, so the runner and the VM image never see them.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
[ -d "$BUILD/cases/read" ] || skip_all "build the suite first (make)"
touch "$BUILD/cases/read/zz_renamed_away"
mkdir -p "$BUILD/cases/zz_gone_area" && touch "$BUILD/cases/zz_gone_area/old"
out=$(make -s BUILD="$BUILD" all 2>&1)
check "the build says what it removed" grep -q "cases/read/zz_renamed_away" <<<"$out"
check "a binary without its source is removed" test ! -e "$BUILD/cases/read/zz_renamed_away"
check "an area without sources is removed" test ! -e "$BUILD/cases/zz_gone_area"
# the list in a file: as one argument it passes the kernel's 128 KiB limit
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$RUN" --cases "$BUILD/cases" --list >"$list" 2>&1
check "the runner does not list it" bash -c '! grep -q zz_ "$1"' _ "$list"
check "every listed case has its source" bash -c 'for n in $(awk "{print \$1}" "$1"); do [ -f "cases/$n.c" ] || exit 1; done' _ "$list"
finish
