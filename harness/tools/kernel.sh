#!/usr/bin/env bash
# perfabi: build a minimal kernel for the suite from source.
#
#   harness/tools/kernel.sh build [options] [SOURCE]
#   harness/tools/kernel.sh list | clean [SOURCE]
#
# See usage() below. The tree itself is never written: every build is out
# of tree (make O=...) in a cache outside the repository.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD

CACHE_ROOT=${PERFABI_CACHE_ROOT:-${HOME:-/tmp}/.cache/perfabi}
SRC_CACHE=$CACHE_ROOT/src
BUILD_CACHE=$CACHE_ROOT/build
FRAGDIR=$REPO/fixtures/kernel

usage() {
	cat harness/tools/usage/kernel.txt
}

PA_PROG=kernel.sh
. harness/tools/lib.sh
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# ------------------------------------------------------------------ sources
# SOURCE -> SRC_DIR (the tree), KEY (its build directory name), DEB (the
# Debian source package, or '')
resolve_source() {
	local s=$1
	DEB=
	case "$s" in
	6.1|6.12)
		DEB=linux-source-$s
		SRC_DIR=$SRC_CACHE/$DEB
		KEY=$DEB
		;;
	*)
		[ -d "$s" ] || die "unknown SOURCE '$s': 6.12, 6.1 or a kernel tree directory (see --help)"
		[ -f "$s/Makefile" ] && [ -d "$s/kernel/events" ] ||
			die "'$s' is not a kernel tree (no Makefile or kernel/events/)"
		SRC_DIR=$(cd "$s" && pwd -P)
		KEY=$(basename "$SRC_DIR")-$(printf '%s' "$SRC_DIR" | cksum | cut -d' ' -f1)
		;;
	esac
}

need_packages() { # install what is missing (root), else say the command
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	command -v apt-get >/dev/null || die "missing ${missing[*]} (no apt-get here to install them)"
	[ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}"
	say "installing ${missing[*]} (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; } ||
		die "could not install ${missing[*]}; run: apt-get update && apt-get install -y ${missing[*]}"
}

unpack_debian_source() {
	local tarball t0 tmp
	[ -f "$SRC_DIR/Makefile" ] && return 0
	tarball=/usr/src/$DEB.tar.xz
	[ -f "$tarball" ] || need_packages "$DEB"
	[ -f "$tarball" ] || die "$DEB is installed but $tarball is missing"
	mkdir -p "$SRC_CACHE" || die "cannot create $SRC_CACHE"
	say "unpacking $tarball into $SRC_CACHE"
	t0=$(now)
	tmp=$(mktemp -d "$SRC_CACHE/.unpack.XXXXXX") || die "cannot create a directory in $SRC_CACHE"
	if ! tar -xJf "$tarball" -C "$tmp"; then
		rm -rf "$tmp"
		die "cannot unpack $tarball"
	fi
	rm -rf "$SRC_DIR"
	mv "$tmp/$DEB" "$SRC_DIR" && rmdir "$tmp" || die "unexpected layout in $tarball (no $DEB/)"
	say "unpacked in $(took "$t0")"
}

# ------------------------------------------------------------------ reverts
REVERTDIR=$REPO/fixtures/kernel/revert

patch_files() { # the files a patch touches (its +++ lines, -p1)
	sed -n 's|^+++ [^/]*/\([^[:space:]]*\).*|\1|p' "$1" | sort -u
}

# A copy of SRC_DIR with REVERTS applied: $BUILD_CACHE/$KEY/revert-src.
# Made once with hard links; before a different set is applied, every
# file an earlier set touched is copied back fresh from the tree (a new
# mtime, so make rebuilds what depends on it). SRC_DIR becomes the copy.
prepare_reverts() {
	local copy=$BUILD_CACHE/$KEY/revert-src state want f c p t0
	local -a files=()
	t0=$(now)
	for c in "${REVERTS[@]}"; do
		p=$REVERTDIR/$c.patch
		[ -f "$p" ] || die "no reverse patch for '$c': fixtures/kernel/revert/ has $(ls "$REVERTDIR" 2>/dev/null | sed -n 's/\.patch$//p' | paste -sd' ')"
	done
	want=$(for c in "${REVERTS[@]}"; do printf '%s %s\n' "$c" "$(cksum <"$REVERTDIR/$c.patch" | cut -d' ' -f1)"; done)
	if [ ! -f "$copy/Makefile" ]; then
		say "making a hard-linked copy of $SRC_DIR in $copy"
		rm -rf "$copy" "$copy.tmp"
		mkdir -p "$(dirname "$copy")" || die "cannot create $(dirname "$copy")"
		cp -al "$SRC_DIR" "$copy.tmp" && mv "$copy.tmp" "$copy" || die "cannot copy $SRC_DIR to $copy"
		: >"$copy/.perfabi-touched"
	fi
	state=$copy/.perfabi-reverts
	if [ "$(cat "$state" 2>/dev/null)" != "$want" ]; then
		for c in "${REVERTS[@]}"; do patch_files "$REVERTDIR/$c.patch"; done >"$copy/.perfabi-touched.new"
		sort -u "$copy/.perfabi-touched" "$copy/.perfabi-touched.new" >"$copy/.perfabi-restore"
		mapfile -t files <"$copy/.perfabi-restore"
		rm -f "$state"
		for f in "${files[@]}"; do
			[ -f "$SRC_DIR/$f" ] || die "the tree has no $f (named by a reverse patch)"
			rm -f "$copy/$f" && cp "$SRC_DIR/$f" "$copy/$f" || die "cannot restore $f in $copy"
		done
		mv "$copy/.perfabi-touched.new" "$copy/.perfabi-touched"
		for c in "${REVERTS[@]}"; do
			if ! patch -p1 -d "$copy" -s --no-backup-if-mismatch -r - <"$REVERTDIR/$c.patch" >"$copy/.perfabi-patch.log" 2>&1; then
				say "fixtures/kernel/revert/$c.patch does not apply to $SRC_DIR:"
				sed 's/^/  /' "$copy/.perfabi-patch.log" >&2
				exit 1
			fi
		done
		printf '%s\n' "$want" >"$state"
		say "reverted ${REVERTS[*]} in $copy ($(took "$t0"))"
	fi
	SRC_DIR=$copy
}

# ------------------------------------------------------------------ config
fragments() { # the fragment files of this build, in order
	echo "$FRAGDIR/perfabi.config"
	[ "$KARCH" = x86_64 ] || echo "$FRAGDIR/arch/$KARCH.config"
	[ -z "$VARIANT" ] || echo "$FRAGDIR/$VARIANT.config"
	local c
	for c in "${EXTRA[@]+"${EXTRA[@]}"}"; do echo "$c"; done
}

# The requested value of each CONFIG_ line of the fragments: "y", "n" for
# "is not set", or the value; later fragments win.
requested() {
	local f
	while read -r f; do
		sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$f"
	done < <(fragments) | awk '{ v[$1] = substr($0, length($1) + 2); if (!($1 in o)) { o[$1] = ++n; k[n] = $1 } }
		END { for (i = 1; i <= n; i++) print k[i], v[k[i]] }'
}

# The options a guest cannot boot or run the suite without.
ESSENTIAL="CONFIG_PERF_EVENTS CONFIG_BLK_DEV_INITRD CONFIG_RD_GZIP CONFIG_DEVTMPFS CONFIG_PROC_FS CONFIG_SYSFS CONFIG_BINFMT_ELF CONFIG_MULTIUSER"

configure() {
	local t0 merged opt want have dropped=() f tkey
	t0=$(now)
	say "configuring: make tinyconfig + $(fragments | sed "s|^$REPO/||" | paste -sd' ') + olddefconfig"
	mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
	rm -f "$OUT_DIR/.config" "$OUT_DIR/perfabi.stamp"
	# `make tinyconfig` runs Kconfig three times (with its compiler
	# probes: half a minute on a busy 2-CPU machine, more under load);
	# its result is kept and reused while the tree's Kconfig files and
	# the compiler are the same (a directory the fragments change often,
	# the sweep's, configures again per variant)
	tkey=$( { ${HOSTCC:-gcc} --version 2>&1 | head -n1; ${CROSS}${CC:-gcc} --version 2>&1 | head -n1;
		  find "$SRC_DIR" -name 'Kconfig*' -printf '%T@ %s %P\n' 2>/dev/null | sort; } | cksum | cut -d' ' -f1)
	if [ -f "$OUT_DIR/perfabi-tiny.config" ] && [ "$(cat "$OUT_DIR/perfabi-tiny.key" 2>/dev/null)" = "$tkey" ]; then
		cp "$OUT_DIR/perfabi-tiny.config" "$OUT_DIR/.config" || die "cannot write $OUT_DIR/.config"
		echo "tinyconfig: the kept result (perfabi-tiny.config)" >"$OUT_DIR/perfabi-config.log"
	else
		kmake tinyconfig >"$OUT_DIR/perfabi-config.log" 2>&1 || config_failed "make tinyconfig"
		cp "$OUT_DIR/.config" "$OUT_DIR/perfabi-tiny.config" && echo "$tkey" >"$OUT_DIR/perfabi-tiny.key"
	fi
	merged=$OUT_DIR/perfabi-fragment.config
	fragments | while read -r f; do cat "$f"; echo; done >"$merged"
	# the fragment last: Kconfig takes the last assignment of a symbol
	cat "$merged" >>"$OUT_DIR/.config"
	kmake olddefconfig >>"$OUT_DIR/perfabi-config.log" 2>&1 || config_failed "make olddefconfig"
	while read -r opt want; do
		have=$(sed -n "s/^$opt=//p" "$OUT_DIR/.config")
		[ -n "$have" ] || have=n
		[ "$have" = "${want//\"/}" ] || [ "$have" = "$want" ] || dropped+=("$opt=$want (got $have)")
		if [ "$have" = n ] && [[ " $ESSENTIAL $CONSOLE " == *" $opt "* ]]; then
			die "this tree cannot give $opt, which the guest needs (see $OUT_DIR/.config)"
		fi
	done < <(requested)
	[ ${#dropped[@]} -eq 0 ] || say "Kconfig did not take: ${dropped[*]} (missing in this tree or a dependency is off)"
	fragments | xargs cat | cksum | cut -d' ' -f1 >"$OUT_DIR/perfabi.stamp"
	say "configured in $(took "$t0")"
}

config_failed() {
	say "$1 failed in $SRC_DIR:"
	tail -n 15 "$OUT_DIR/perfabi-config.log" | sed 's/^/  /' >&2
	exit 1
}

kmake() { make -C "$SRC_DIR" O="$OUT_DIR" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE=$CROSS} "$@"; }

# The variant's make variables (fixtures/kernel/VARIANT.make: NAME=VALUE
# lines, # comments), for the build's command line.
make_vars() {
	local f=$FRAGDIR/$VARIANT.make line
	MAKEVARS=()
	[ -n "$VARIANT" ] && [ -f "$f" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in ''|'#'*) continue ;; esac
		[[ $line =~ ^[A-Za-z_][A-Za-z0-9_.]*=[^[:space:]]*$ ]] ||
			die "$f: not a NAME=VALUE make variable: '$line'"
		MAKEVARS+=("$line")
	done <"$f"
}

# ------------------------------------------------------------------ build
cmd_build() {
	local source=6.12 t0 log image rel
	VARIANT='' EXTRA=() REVERTS=() JOBS=$(nproc 2>/dev/null || echo 2) DIRNAME='' KARCH=x86_64
	while [ $# -gt 0 ]; do
		case "$1" in
		-h|--help) usage; exit 0 ;;
		--variant|--config|--jobs|--revert|--dir|--arch)
			[ $# -ge 2 ] || die "option '$1' needs an argument"
			case "$1" in
			--variant) VARIANT=$2 ;;
			--config) [ -f "$2" ] || die "no fragment file '$2'"
				  EXTRA+=("$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")") ;;
			--jobs) JOBS=$2 ;;
			--arch) case "$2" in x86_64|arm64) KARCH=$2 ;;
				*) die "bad --arch '$2': x86_64 or arm64" ;; esac ;;
			--dir) [[ $2 =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "bad --dir '$2': a plain name (a-z, 0-9, -)"
			       DIRNAME=$2 ;;
			--revert) [[ $2 =~ ^[0-9a-f]{12}$ ]] || die "bad --revert '$2': a 12-digit commit id"
				  [ -f "$REVERTDIR/$2.patch" ] || die "no reverse patch for '$2': fixtures/kernel/revert/ has $(ls "$REVERTDIR" 2>/dev/null | sed -n 's/\.patch$//p' | paste -sd' ')"
				  REVERTS+=("$2") ;;
			esac
			shift 2 ;;
		--variant=*|--config=*|--jobs=*|--revert=*|--dir=*|--arch=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
		-*) die "unknown option '$1' (try --help)" ;;
		*) source=$1; shift ;;
		esac
	done
	if [ -n "$VARIANT" ]; then
		[[ $VARIANT =~ ^[a-z0-9-]+$ ]] && [ "$VARIANT" != perfabi ] && [ -f "$FRAGDIR/$VARIANT.config" ] ||
			die "unknown variant '$VARIANT' (variants: $(ls "$FRAGDIR" | sed -n 's/\.config$//p' | grep -vx perfabi | paste -sd' '))"
	fi
	[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "bad --jobs '$JOBS'"
	[ "$(uname -m)" = x86_64 ] || die "only x86-64 hosts build the guest kernel (this is $(uname -m))"
	resolve_source "$source"
	# what a kernel build needs on Debian
	need_packages make gcc flex bison bc libelf-dev libssl-dev xz-utils cpio perl
	CROSS='' CONSOLE=CONFIG_SERIAL_8250_CONSOLE TARGET=bzImage IMAGE_PATH=arch/x86/boot/bzImage
	if [ "$KARCH" = arm64 ]; then
		need_packages gcc-aarch64-linux-gnu
		CROSS=aarch64-linux-gnu- CONSOLE=CONFIG_SERIAL_AMBA_PL011_CONSOLE
		TARGET=Image IMAGE_PATH=arch/arm64/boot/Image
	fi
	[ -z "$DEB" ] || unpack_debian_source
	if [ -f "$SRC_DIR/.config" ] || [ -d "$SRC_DIR/include/config" ]; then
		die "the tree $SRC_DIR has been configured in place (its .config or include/config exists); perfabi builds out of tree and never cleans a tree: run 'make mrproper' there or give a clean tree"
	fi
	OUT_DIR=$BUILD_CACHE/$KEY/${DIRNAME:-${VARIANT:-default}}
	[ "$KARCH" = x86_64 ] || [ -n "$DIRNAME" ] || OUT_DIR=$BUILD_CACHE/$KEY/$KARCH-${VARIANT:-default}
	if [ ${#REVERTS[@]} -gt 0 ]; then
		need_packages patch
		prepare_reverts
		OUT_DIR=$OUT_DIR-revert
	fi
	mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
	exec 9>"$OUT_DIR/.lock"
	flock -n 9 || { say "another build of $OUT_DIR is running; waiting"; flock 9; }

	say "tree $SRC_DIR ($(kmake -s kernelversion 2>/dev/null || echo '?')), build directory $OUT_DIR"
	if [ ! -f "$OUT_DIR/.config" ] || [ ! -f "$OUT_DIR/perfabi.stamp" ] ||
	   [ "$(cat "$OUT_DIR/perfabi.stamp")" != "$(fragments | xargs cat | cksum | cut -d' ' -f1)" ]; then
		configure
	fi

	make_vars
	if [ ${#REVERTS[@]} -gt 0 ]; then
		local c lv=-revert
		for c in "${REVERTS[@]}"; do lv=$lv-${c:0:7}; done
		MAKEVARS+=("LOCALVERSION=$lv")
	fi
	log=$OUT_DIR/perfabi-build.log
	say "building $TARGET (make -j$JOBS${MAKEVARS[0]+ ${MAKEVARS[*]}}; log: $log)"
	t0=$(now)
	if ! kmake -j"$JOBS" "${MAKEVARS[@]+"${MAKEVARS[@]}"}" "$TARGET" >"$log" 2>&1; then
		say "the build failed after $(took "$t0"); the last compiler lines:"
		{ grep -E -m 12 '(error|Error [0-9]+|undefined reference)' "$log"; echo '  ...'; tail -n 12 "$log"; } |
			sed 's/^/  /' >&2
		exit 1
	fi
	image=$OUT_DIR/$IMAGE_PATH
	[ -f "$image" ] || { say "make succeeded but $image is missing"; exit 1; }
	rel=$(cat "$OUT_DIR/include/config/kernel.release" 2>/dev/null)
	say "built ${rel:-the kernel} in $(took "$t0"): $image ($(du -k "$image" | cut -f1) KiB)"
	echo "$image"
}

cmd_list() {
	local d
	[ -d "$BUILD_CACHE" ] || { say "no builds in $BUILD_CACHE"; return 0; }
	for d in "$BUILD_CACHE"/*/*/; do
		[ -f "$d/.config" ] || continue
		printf '%-40s %-10s %s\n' "$(basename "$(dirname "$d")")" "$(basename "$d")" \
			"$( if [ -f "$d/arch/x86/boot/bzImage" ]; then echo "$d"arch/x86/boot/bzImage
			    elif [ -f "$d/arch/arm64/boot/Image" ]; then echo "$d"arch/arm64/boot/Image
			    else echo '(not built)'; fi)"
	done
}

cmd_clean() {
	if [ $# -eq 0 ]; then
		say "removing $BUILD_CACHE and $SRC_CACHE"
		rm -rf "$BUILD_CACHE" "$SRC_CACHE"
		return
	fi
	resolve_source "$1"
	say "removing $BUILD_CACHE/$KEY${DEB:+ and $SRC_DIR}"
	rm -rf "${BUILD_CACHE:?}/$KEY"
	[ -z "$DEB" ] || rm -rf "$SRC_DIR"
}

cmd_source() { # unpack a Debian source (once) and print the tree's path
	[ $# -eq 1 ] || die "source needs one SOURCE: 6.12 or 6.1"
	resolve_source "$1"
	[ -n "$DEB" ] || die "source is for Debian's sources (6.12, 6.1); '$1' is a tree already"
	need_packages xz-utils
	unpack_debian_source
	echo "$SRC_DIR"
}

case "${1:-}" in
build) shift; cmd_build "$@" ;;
source) shift; cmd_source "$@" ;;
sweep) shift; exec "$REPO/harness/tools/sweep.sh" "$@" ;;
list) cmd_list ;;
clean) shift; cmd_clean "$@" ;;
-h|--help|help) usage ;;
'') die "no command: build, sweep, source, list or clean (try --help)" ;;
*) die "unknown command '$1': build, sweep, source, list or clean (try --help)" ;;
esac
