#!/usr/bin/env bash
# make install: copy what a target needs to run perfabi, without a compiler
# or the source tree, into INSTALL_PATH, in kselftest's install layout.
#
#   harness/install/install.sh BUILD INSTALL_PATH
#   harness/install/install.sh --check INSTALL_PATH   (the Makefile, before
#       it builds: prints why INSTALL_PATH cannot be used, or nothing)
#
#   INSTALL_PATH/run.sh               runs the suite (installed runner, cases)
#   INSTALL_PATH/kselftest-list.txt   "perfabi:<area>.<name>", one per case
#   INSTALL_PATH/perfabi/             the kselftest collection:
#       perfabi-run, abi-map.txt, cases/<area>/<name>, fixtures/<name>,
#       settings (timeout=N), ksft-case, <area>.<name> (one test per case)
#
# INSTALL_PATH may be a kernel's kselftest install (make -C
# tools/testing/selftests install): its kselftest-list.txt keeps its other
# collections' lines. A perfabi/ of an earlier install is replaced whole.
# Exit status: 0 installed, 2 bad INSTALL_PATH or a copy failed.
set -uo pipefail
umask 022	# the unprivileged identities (uid 65534) run the cases too
src=$(dirname "$0")

# why INSTALL_PATH $1 cannot be installed into, or nothing
bad_path() {
	local p=$1

	if [ -z "$p" ]; then
		echo "INSTALL_PATH is empty"
	elif [ -e "$p" ] && [ ! -d "$p" ]; then
		echo "INSTALL_PATH '$1' exists and is not a directory"
	else
		# the nearest existing ancestor must be a directory we can write
		while [ ! -e "$p" ] && [ ! -L "$p" ]; do
			case $p in */*) p=${p%/*}; p=${p:-/} ;; *) p=. ;; esac
		done
		if [ ! -d "$p" ]; then
			echo "INSTALL_PATH '$1' is below '$p', which is not a directory"
		elif [ ! -w "$p" ]; then
			echo "INSTALL_PATH '$1': '$p' is not writable"
		fi
	fi
}

if [ "${1:-}" = --check ]; then
	bad_path "${2:-}"
	exit 0
fi
build=${1:?usage: install.sh BUILD INSTALL_PATH}
dest=${2:-}

die() { echo "make install: $*" >&2; exit 2; }

# each perfabi case has a timeout of its own (at most 60 s) and the runner
# runs the privilege-sensitive ones in every identity and paranoid cell when
# root: the kselftest timeout is for the whole matrix of one case
KSFT_TIMEOUT=600

why=$(bad_path "$dest")
[ -z "$why" ] || die "$why"
[ -x "$build/perfabi-run" ] && [ -d "$build/cases" ] && [ -f "$build/abi-map.txt" ] ||
	die "nothing built in $build (run make first)"
col=$dest/perfabi
if [ -e "$col" ] && [ ! -e "$col/perfabi-run" ] && [ ! -e "$col/ksft-case" ] &&
   [ -n "$(ls -A "$col" 2>/dev/null)" ]; then
	die "'$col' exists and is not a perfabi install: not replacing it"
fi
mkdir -p "$dest" || die "cannot create INSTALL_PATH '$dest'"
dest=$(cd "$dest" && pwd -P) || die "cannot enter INSTALL_PATH '$2'"
col=$dest/perfabi

# stage the collection beside its place, then swap it in
new=$(mktemp -d "$dest/.perfabi.XXXXXX") || die "cannot write into '$dest'"
trap 'rm -rf "$new"' EXIT
chmod 0755 "$new"
install -m 0755 "$build/perfabi-run" "$src/ksft-case" "$new/" &&
	install -m 0644 "$build/abi-map.txt" "$new/" || die "cannot copy into '$dest'"
# the cases: one program, cases/perfabi-cases, and a link to it per case
cp -R "$build/cases" "$new/cases" && chmod -R u=rwX,go=rX "$new/cases" || die "cannot copy $build/cases"
list=()
for c in "$new"/cases/*/*; do
	[ -L "$c" ] || continue
	area=${c%/*}; area=${area##*/}; name=${c##*/}
	printf '#!/bin/sh\n# perfabi case %s/%s as a kselftest test (see ksft-case)\nexec "$(dirname -- "$0")/ksft-case" %s/%s "$@"\n' \
		"$area" "$name" "$area" "$name" >"$new/$area.$name" || die "cannot write $new/$area.$name"
	list+=("perfabi:$area.$name")
done
[ ${#list[@]} -gt 0 ] || die "no built cases in $build/cases (run make first)"
chmod 0755 "$new"/*.* || die "cannot make the tests in '$new' executable"
mkdir -p "$new/fixtures"
for f in "$build"/fixtures/*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	install -m 0755 "$f" "$new/fixtures/" || die "cannot copy $f"
done
cat >"$new/settings" <<SETTINGS
# kselftest runner.sh: seconds for one test (one perfabi case, all its cells)
timeout=$KSFT_TIMEOUT
SETTINGS

rm -rf "$col" && mv "$new" "$col" || die "cannot replace '$col'"
trap - EXIT
install -m 0755 "$src/run.sh" "$dest/run.sh" || die "cannot copy run.sh"
# the other collections of a kselftest install keep their lines
{
	[ ! -f "$dest/kselftest-list.txt" ] || grep -v '^perfabi:' "$dest/kselftest-list.txt"
	printf '%s\n' "${list[@]}"
} >"$dest/kselftest-list.txt.new" && mv "$dest/kselftest-list.txt.new" "$dest/kselftest-list.txt" ||
	die "cannot write $dest/kselftest-list.txt"
# a directory above $dest that uid 65534 cannot search (an install under
# mktemp -d) is no obstacle: the runner then bind-mounts the cases where the
# unprivileged identities reach them (harness/runner/private.c)
echo "make install: perfabi installed in $dest (${#list[@]} cases; $dest/run.sh, or kselftest's run_kselftest.sh -c perfabi)"
