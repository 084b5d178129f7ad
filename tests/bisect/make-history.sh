#!/usr/bin/env bash
# perfabi: a kernel git history with one injected regression, for checking
# that `./run.sh bisect` finds it (make check-bisect).
#
#   tests/bisect/make-history.sh
#
# From Debian's linux-source-6.12 tree, unpacked by harness/tools/kernel.sh in
# $PERFABI_CACHE_ROOT/src/ (default ~/.cache/perfabi/src/), it makes the
# repository $PERFABI_CACHE_ROOT/bisect/linux-6.12-git with eight commits
# on master:
#   1    the tree as unpacked
#   2-4  a comment at the end of a file the minimal kernel compiles
#   5    the regression: __perf_read() refuses a short buffer with EINVAL
#        instead of ENOSPC (the case read/short_buffer_enospc fails)
#   6-8  more comments, as 2-4
# Names, dates and messages are fixed, so the same source gives the same
# commit ids on every machine. A repository that already holds exactly
# these commits is reused (only reset when dirty or mid-bisect); anything
# else is rebuilt from scratch. The source tree is only read.
#
# Standard output is three lines: "good <commit 1>", "bad <commit 8>",
# "regression <commit 5>"; progress goes to standard error.
# Exit status: 0 done, 1 a step failed, 2 bad usage or a missing
# prerequisite.
set -euo pipefail

PROG=make-history.sh
CACHE_ROOT=${PERFABI_CACHE_ROOT:-${HOME:-/tmp}/.cache/perfabi}
SRC=$CACHE_ROOT/src/linux-source-6.12
BISECT_DIR=$CACHE_ROOT/bisect
REPO=$BISECT_DIR/linux-6.12-git
NEED_KB=$((4 * 1024 * 1024))

die() { echo "$PROG: $*" >&2; exit 2; }
say() { echo "$PROG: $*" >&2; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

TMP=
cleanup() { [ -z "$TMP" ] || rm -rf "$TMP"; }
trap cleanup EXIT
# any unchecked step that fails ends the script with status 1
set -E
trap 'say "failed at line $LINENO: $BASH_COMMAND"; exit 1' ERR

case "${1:-}" in
'') ;;
-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
*) die "no arguments expected, got '$1' (try --help)" ;;
esac

command -v git >/dev/null || die "git is missing (apt-get install -y git)"
command -v flock >/dev/null || die "flock is missing (apt-get install -y util-linux)"
[ -d "$SRC" ] || die "no kernel tree at $SRC: run 'harness/tools/kernel.sh source 6.12' once to unpack it"
if [ ! -f "$SRC/Makefile" ] || [ ! -f "$SRC/kernel/events/core.c" ]; then
	die "$SRC is not a kernel tree (no Makefile or kernel/events/core.c)"
fi
[ ! -e "$SRC/.git" ] || die "$SRC has a .git of its own; expected Debian's unpacked tree"
VERSION=$(awk '$2 == "=" && $1 == "VERSION" { v = $3 } $2 == "=" && $1 == "PATCHLEVEL" { p = $3 }
	$2 == "=" && $1 == "SUBLEVEL" { s = $3 } $2 == "=" && $1 == "EXTRAVERSION" { e = $3; exit }
	END { if (v != "") print v "." p "." s e }' "$SRC/Makefile")
[[ $VERSION == 6.12.* ]] || die "$SRC/Makefile says version '${VERSION:-?}', expected 6.12.*"
SRC=$(cd "$SRC" && pwd -P)

# Only git's own defaults and what this script sets: the user's or the
# system's configuration (autocrlf, hooks, signing) must not change ids.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
	GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_NAMESPACE GIT_COMMON_DIR
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 LC_ALL=C
export GIT_AUTHOR_NAME='perfabi bisect fixture' GIT_AUTHOR_EMAIL='perfabi-bisect@invalid'
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
BASE_DATE=1767225600	# 2026-01-01 00:00:00 UTC; commit N is N-1 hours later

# The commits after the first: path, kind (comment or regression), subject.
STEPS=(
	"kernel/events/ring_buffer.c|comment|perf/ring_buffer: add a comment at the end of the file (harmless)"
	"kernel/events/callchain.c|comment|perf/callchain: add a comment at the end of the file (harmless)"
	"kernel/sched/core.c|comment|sched/core: add a comment at the end of the file (harmless)"
	"kernel/events/core.c|regression|perf/core: return EINVAL for a short read buffer (injected regression)"
	"kernel/events/hw_breakpoint.c|comment|perf/hw_breakpoint: add a comment at the end of the file (harmless)"
	"kernel/fork.c|comment|fork: add a comment at the end of the file (harmless)"
	"mm/mmap.c|comment|mm/mmap: add a comment at the end of the file (harmless)"
)
REGRESSION_STEP=5

# git on repository $G (its .git directory)
g() { git --git-dir="$G" "$@"; }

# commit_tree N TREE PARENT|'' SUBJECT BODY -> the commit id
commit_tree() {
	local n=$1 tree=$2 parent=$3 date
	date="$((BASE_DATE + (n - 1) * 3600)) +0000"
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		g commit-tree "$tree" ${parent:+-p "$parent"} -m "$4" -m "$5"
}

first_commit() { # TREE -> commit 1
	commit_tree 1 "$1" '' "original Debian linux-source-6.12 $VERSION" \
		"Debian's linux-source-6.12 tree as unpacked from /usr/src/linux-source-6.12.tar.xz, every file (the .gitignore files ignored)."
}

# edit KIND: the new content of a file on stdin. A comment goes at the end
# so that no line number (__LINE__ in WARN()s) moves.
edit() {
	case "$1" in
	comment)
		cat
		printf '\n/* perfabi bisect fixture: a harmless comment, no change in behaviour. */\n'
		;;
	regression)
		awk 'prev == "\tif (count < event->read_size)" && $0 == "\t\treturn -ENOSPC;" {
			print "\t\treturn -EINVAL;"; n++; prev = $0; next }
			{ print; prev = $0 }
			END { if (n != 1) exit 3 }'
		;;
	esac
}

# make_chain COMMIT1: writes commits 2..8 on top of it (objects only: no
# ref, no work tree) and prints the ids of commits 1..8, one a line.
make_chain() {
	local parent=$1 n=1 step path kind subject body mode old new tree idx out
	idx=$G/perfabi-chain.index
	out=$G/perfabi-chain.blob
	GIT_INDEX_FILE=$idx g read-tree "$parent"
	echo "$parent"
	for step in "${STEPS[@]}"; do
		n=$((n + 1))
		IFS='|' read -r path kind subject <<<"$step"
		old=
		read -r mode _ old _ < <(g ls-tree "$parent" -- "$path") || :
		[ -n "${old:-}" ] || { say "commit $n: $path is not in the tree"; return 1; }
		if ! g cat-file blob "$old" | edit "$kind" >"$out"; then
			say "commit $n: cannot find the 'if (count < event->read_size) return -ENOSPC;' of __perf_read() exactly once in $path"
			return 1
		fi
		new=$(g hash-object -w --no-filters -- "$out")
		[ "$new" != "$old" ] || { say "commit $n: the edit of $path changed nothing"; return 1; }
		GIT_INDEX_FILE=$idx g update-index --cacheinfo "$mode,$new,$path"
		tree=$(GIT_INDEX_FILE=$idx g write-tree)
		if [ "$kind" = regression ]; then
			body="__perf_read() now refuses a buffer smaller than the event's read_size with EINVAL instead of the documented ENOSPC. perfabi's case read/short_buffer_enospc fails from this commit on; ./run.sh bisect must name it."
		else
			body="A test fixture for perfabi's ./run.sh bisect: a comment only, no change in behaviour; the file is compiled by the minimal kernel, so the commit costs a rebuild."
		fi
		parent=$(commit_tree "$n" "$tree" "$parent" "$subject" "$body")
		echo "$parent"
	done
	rm -f "$idx" "$out"
}

# source_matches TREE: whether $SRC holds exactly TREE. The index
# perfabi-source.index keeps the stat data of $SRC, so a rerun on an
# unchanged source hashes nothing; $SRC is only read.
source_matches() {
	local tree=$1 untracked
	local -x GIT_INDEX_FILE=$G/perfabi-source.index
	if [ ! -f "$GIT_INDEX_FILE" ] || [ "$(g write-tree 2>/dev/null)" != "$tree" ]; then
		g read-tree "$tree" || return 1
	fi
	g -C "$SRC" --work-tree="$SRC" update-index -q --refresh >/dev/null || :
	g -C "$SRC" --work-tree="$SRC" diff-files --quiet || return 1
	untracked=$(g -C "$SRC" --work-tree="$SRC" ls-files -o --directory --no-empty-directory) || return 1
	[ -z "$untracked" ]
}

# reusable: whether $REPO holds exactly the commits this script makes from
# $SRC; sets IDS (commits 1..8).
reusable() {
	local ids=() c1 tree i
	G=$REPO/.git
	[ -d "$G" ] || { say "no repository at $REPO"; return 1; }
	mapfile -t ids < <(g rev-list --topo-order --reverse refs/heads/master 2>/dev/null) || :
	[ ${#ids[@]} -eq 8 ] || { say "$REPO: master has ${#ids[@]} commits, not 8"; return 1; }
	c1=${ids[0]}
	tree=$(g rev-parse -q --verify "$c1^{tree}") || return 1
	[ "$(first_commit "$tree")" = "$c1" ] ||
		{ say "$REPO: its first commit is not the one this script makes (another source version?)"; return 1; }
	mapfile -t IDS < <(make_chain "$c1") || :
	[ ${#IDS[@]} -eq 8 ] || return 1
	for i in "${!ids[@]}"; do
		[ "${ids[$i]}" = "${IDS[$i]}" ] || { say "$REPO: commit $((i + 1)) differs from the one this script makes"; return 1; }
	done
	source_matches "$tree" || { say "$REPO: its first commit is not the tree in $SRC (the source changed)"; return 1; }
}

# Make the reused repository clean, on master, not bisecting.
tidy() {
	local head dirty
	if [ -f "$G/BISECT_START" ]; then
		say "$REPO is mid-bisect: git bisect reset, then git checkout -f master"
		git -C "$REPO" bisect reset >/dev/null
		git -C "$REPO" checkout -q -f master
	fi
	head=$(git -C "$REPO" symbolic-ref -q HEAD) || head=
	if [ "$head" != refs/heads/master ]; then
		say "$REPO: HEAD is ${head:-detached at $(git -C "$REPO" rev-parse --short HEAD)}, not master: git checkout -f master"
		git -C "$REPO" checkout -q -f master
	fi
	dirty=$(git -C "$REPO" status --porcelain --untracked-files=all --ignored)
	if [ -n "$dirty" ]; then
		say "$REPO has changes or untracked files ($(printf '%s\n' "$dirty" | wc -l) paths): git checkout -f master and git clean -fdx"
		git -C "$REPO" checkout -q -f master
		git -C "$REPO" clean -q -ffdx
	fi
}

create() {
	local t0 t1 tree want have c1
	t0=$(now)
	TMP=$(mktemp -d "$BISECT_DIR/.linux-6.12-git.tmp.XXXXXX")
	G=$TMP/.git
	git init -q --template= "$TMP"
	g symbolic-ref HEAD refs/heads/master
	g config core.autocrlf false
	g config core.filemode true
	g config core.symlinks true
	g config core.untrackedCache true
	g config core.looseCompression 1
	g config core.fsync none
	g config gc.auto 0
	g config maintenance.auto false
	g config checkout.workers 0

	# 1: every file of the source, read in place: the .gitignore files
	# (the top one ignores ".*" and more) are overridden with -f
	say "adding $SRC (Linux $VERSION) to a new repository"
	t1=$(now)
	GIT_INDEX_FILE=$G/perfabi-source.index g -C "$SRC" --work-tree="$SRC" add -f -A -- .
	tree=$(GIT_INDEX_FILE=$G/perfabi-source.index g write-tree)
	say "added in $(took "$t1")"
	want=$(find "$SRC" \( -type f -o -type l \) | wc -l)
	have=$(g ls-tree -r "$tree" | wc -l)
	if [ "$have" -ne "$want" ] || [ "$have" -lt 20000 ] ||
	   ! g cat-file -e "$tree:Makefile" || ! g cat-file -e "$tree:kernel/events/core.c"; then
		say "the first commit's tree is not the source: $have paths for $want files in $SRC"
		exit 1
	fi
	c1=$(first_commit "$tree")

	# 2..8, then the work tree at the tip
	mapfile -t IDS < <(make_chain "$c1") || :
	[ ${#IDS[@]} -eq 8 ] || { say "making commits 2..8 failed"; exit 1; }
	g update-ref refs/heads/master "${IDS[7]}"
	say "checking out master ($have files)"
	t1=$(now)
	git -C "$TMP" reset -q --hard master
	say "checked out in $(took "$t1")"
	[ -z "$(git -C "$TMP" status --porcelain --untracked-files=all --ignored)" ] ||
		{ say "the new work tree is not clean"; exit 1; }
	mv "$TMP" "$REPO"
	TMP=
	G=$REPO/.git
	say "created $REPO in $(took "$t0") ($(du -sh "$REPO" | cut -f1), of which .git $(du -sh "$G" | cut -f1))"
}

mkdir -p "$BISECT_DIR" || die "cannot create $BISECT_DIR"
BISECT_DIR=$(cd "$BISECT_DIR" && pwd -P)
REPO=$BISECT_DIR/linux-6.12-git
exec 9>"$BISECT_DIR/.lock"
flock -n 9 || { say "another make-history.sh is running; waiting"; flock 9; }
# a run killed mid-way leaves its temporary repository behind
rm -rf "$BISECT_DIR"/.linux-6.12-git.tmp.*

T0=$(now)
IDS=()
if reusable; then
	tidy
	say "reusing $REPO (checked in $(took "$T0"))"
else
	if [ -e "$REPO" ]; then
		say "removing $REPO to make it again"
		rm -rf "$REPO"
	fi
	free_kb=$(df -Pk "$BISECT_DIR" | awk 'NR == 2 { print $4 }')
	[ "${free_kb:-0}" -ge "$NEED_KB" ] ||
		die "only $((${free_kb:-0} / 1024)) MiB free in $BISECT_DIR; the repository needs about 4 GiB (set PERFABI_CACHE_ROOT elsewhere or free space)"
	create
fi

echo "good ${IDS[0]}"
echo "bad ${IDS[7]}"
echo "regression ${IDS[$((REGRESSION_STEP - 1))]}"
