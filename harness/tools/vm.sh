#!/usr/bin/env bash
# perfabi: boot kernels under QEMU and run the suite inside each.
#
#   harness/tools/vm.sh [options] KERNEL... [-- runner options]
#
# See usage() below. Results go to results/<run-id>/<kernel>/.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

BUILD=${BUILD:-build}
CACHE=${PERFABI_CACHE:-${HOME:-/tmp}/.cache/perfabi/kernels}
RESULTS=results
RUN_ID=
LIMIT_MIN=20
ACCEL=auto
MEM=2G
SMP=2
SCALE=
APPEND=
KEEP=0
PAR=

usage() {
	cat harness/tools/usage/vm.txt
}

PA_PROG=vm.sh
. harness/tools/lib.sh

# ---------------------------------------------------------------- arguments
kernels=()
runner_args=()
LIST_SERIES=
KCIDB=
ORIGIN=perfabi
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--list-packages)
		[ $# -ge 2 ] || die "option '$1' needs an argument"
		LIST_SERIES=$2
		shift 2 ;;
	--) shift; runner_args=("$@"); break ;;
	--timeout|--accel|--timeout-scale|--memory|--smp|--append|--results|--run-id|--kcidb|--origin|--parallel)
		[ $# -ge 2 ] || die "option '$1' needs an argument"
		case "$1" in
		--timeout) LIMIT_MIN=$2 ;;
		--accel) ACCEL=$2 ;;
		--timeout-scale) SCALE=$2 ;;
		--memory) MEM=$2 ;;
		--smp) SMP=$2 ;;
		--append) APPEND=$2 ;;
		--results) RESULTS=$2 ;;
		--run-id) RUN_ID=$2 ;;
		--kcidb) KCIDB=$2 ;;
		--origin) ORIGIN=$2 ;;
		--parallel) PAR=$2 ;;
		esac
		shift 2 ;;
	--timeout=*|--accel=*|--timeout-scale=*|--memory=*|--smp=*|--append=*|--results=*|--run-id=*|--kcidb=*|--origin=*|--parallel=*)
		set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--keep) KEEP=1; shift ;;
	-*) die "unknown option '$1' (try --help)" ;;
	*) kernels+=("$1"); shift ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || [ -n "$LIST_SERIES" ] || die "no KERNEL given (try --help)"
[[ $LIMIT_MIN =~ ^[0-9]+$ ]] && [ "$LIMIT_MIN" -gt 0 ] || die "bad --timeout '$LIMIT_MIN': minutes, a positive integer"
case "$ACCEL" in auto|kvm|tcg) ;; *) die "bad --accel '$ACCEL': auto, kvm or tcg" ;; esac
[[ $ORIGIN =~ ^[a-z0-9_]+$ ]] || die "bad --origin '$ORIGIN': lower-case letters, digits and '_' (a KCIDB origin)"
if [ -n "$KCIDB" ]; then
	: >>"$KCIDB" 2>/dev/null || die "cannot write --kcidb '$KCIDB'"
fi
[ -z "$PAR" ] || [[ $PAR =~ ^[1-9][0-9]*$ ]] || die "bad --parallel '$PAR': how many guests at once, a positive integer"
[ -z "$SCALE" ] || [[ $SCALE =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "bad --timeout-scale '$SCALE'"
[[ $SMP =~ ^[1-9][0-9]*(,maxcpus=[1-9][0-9]*)?$ ]] || die "bad --smp '$SMP': N or N,maxcpus=M"
if [[ $SMP == *,maxcpus=* ]] && [ "${SMP#*maxcpus=}" -lt "${SMP%%,*}" ]; then
	die "bad --smp '$SMP': maxcpus is less than the CPUs"
fi
if [ -n "$RUN_ID" ]; then
	[[ $RUN_ID =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] || die "bad --run-id '$RUN_ID': a plain directory name is needed"
fi
for a in "${runner_args[@]+"${runner_args[@]}"}"; do
	case "$a" in
	--results|--results=*|--run-id|--run-id=*|--no-results|--cases|--cases=*)
		die "runner option '$a' is chosen by vm.sh inside the guest; use vm.sh's --results/--run-id" ;;
	esac
done

# ------------------------------------------------------ kernel resolution
# Each kernel becomes: label, package ('' for a file) and image path.
k_label=() k_pkg=() k_ver=() k_file=() k_build=()

APT_REFRESHED=0
apt_refresh() { # once per run, as root: fresh package lists (a new machine
	# may have none; old ones may name versions the mirror no longer has)
	[ "$APT_REFRESHED" = 0 ] && [ "$(id -u)" -eq 0 ] || return 1
	APT_REFRESHED=1
	say "refreshing the package lists (apt-get update)"
	apt-get update -q >/dev/null 2>&1
}

resolve_name() { # 6.1.0-56 / linux-image-... / 6.12.117+deb12-rt -> package
	local c cand
	case "$1" in
	linux-image-*) cand=("$1") ;;
	*-amd64|*-arm64) cand=("linux-image-$1") ;;
	*) cand=("linux-image-$1-amd64" "linux-image-$1") ;;
	esac
	for c in "${cand[@]}"; do
		if [ -n "$(apt_candidate "$c")" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

apt_candidate() { # package -> candidate version or nothing (an -arm64 one: of arm64)
	LC_ALL=C apt-cache policy "$(apt_name "$1")" 2>/dev/null | sed -n 's/^  Candidate: //p' | grep -v '^(none)$' | head -n1
}
apt_name() { # package -> its name for apt: pkg:arm64 for an arm64 kernel on another host
	if [[ $1 == *-arm64 ]] && [ "$(dpkg --print-architecture 2>/dev/null)" != arm64 ]; then echo "$1:arm64"; else echo "$1"; fi
}
arm64_apt() { # an arm64 kernel named: apt must know arm64 packages (once, as root)
	dpkg --print-foreign-architectures 2>/dev/null | grep -qx arm64 && return 0
	[ "$(dpkg --print-architecture 2>/dev/null)" = arm64 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "arm64 kernels come from Debian's arm64 packages; run: sudo dpkg --add-architecture arm64 && sudo apt-get update"
	say "adding the arm64 architecture to dpkg for arm64 kernel packages (dpkg --add-architecture arm64; apt-get update)"
	dpkg --add-architecture arm64 && APT_REFRESHED=0 && apt_refresh || die "cannot add the arm64 architecture to dpkg"
}

series_packages() { # 6.12 / 6.12-rt / 6.12-cloud -> its package names apt offers, oldest first
	local series=${1%%-*} flav=amd64 re name
	case "$1" in
	*-rt) flav=rt-amd64 ;;
	*-cloud) flav=cloud-amd64 ;;
	*-arm64) flav=arm64 ;;
	esac
	re="^linux-image-${series//./\\.}(\\.0-[0-9]+|\\.[0-9]+\\+deb[0-9]+)-${flav}\$"
	while read -r name; do
		[ -n "$name" ] || continue
		[ -z "$(apt_candidate "$name")" ] || echo "$name"
	done < <(apt-cache search --names-only "^linux-image-${series//./\\.}[.]" 2>/dev/null |
		 awk '{print $1}' | grep -E "$re" | sort -V)
}

resolve_series() { # 6.12 / 6.12-rt / 6.12-cloud -> newest package name
	local newest
	newest=$(series_packages "$1" | tail -n1)
	[ -n "$newest" ] && echo "$newest"
}

if [ -n "$LIST_SERIES" ]; then
	[[ $LIST_SERIES =~ ^[0-9]+\.[0-9]+(-rt|-cloud|-arm64)?$ ]] ||
		die "bad --list-packages '$LIST_SERIES': a Debian series such as 6.12, 6.1 or 6.12-rt"
	command -v apt-cache >/dev/null || die "apt-cache is needed to list Debian kernels"
	list=$(series_packages "$LIST_SERIES")
	[ -n "$list" ] || { apt_refresh && list=$(series_packages "$LIST_SERIES"); }
	[ -n "$list" ] || die "apt offers no linux-image package for series '$LIST_SERIES' (try apt-get update)"
	printf '%s\n' "$list"
	exit 0
fi

for k in "${kernels[@]}"; do
	label=${k##*/}
	if [[ $k == build:* ]]; then
		# build:SOURCE[:VARIANT]: checked now, built in turn below
		spec=${k#build:} variant= reverts=
		if [[ $spec == *+revert=* ]]; then
			reverts=${spec##*+revert=}
			spec=${spec%+revert=*}
			[[ $reverts =~ ^[0-9a-f]{12}(,[0-9a-f]{12})*$ ]] ||
				die "bad kernel '$k': +revert= takes 12-digit commit ids separated by commas"
			for c in ${reverts//,/ }; do
				[ -f "fixtures/kernel/revert/$c.patch" ] ||
					die "bad kernel '$k': no fixtures/kernel/revert/$c.patch"
			done
		fi
		if [[ $spec == *:* ]] && [ -f "fixtures/kernel/${spec##*:}.config" ]; then
			variant=${spec##*:}
			spec=${spec%:*}
		fi
		case "$spec" in
		6.1|6.12) label=$spec-src ;;
		*) [ -d "$spec" ] && [ -d "$spec/kernel/events" ] ||
			die "bad kernel '$k': build:6.12, build:6.1 or build:DIR with DIR a kernel tree, optionally :VARIANT (see ./run.sh kernel --help)"
		   spec=$(cd "$spec" && pwd -P)
		   label=$(basename "$spec")-src ;;
		esac
		label=$label${variant:+-$variant}
		rv=
		for c in ${reverts//,/ }; do
			label=$label-revert-${c:0:7} rv="$rv --revert $c"
		done
		k_label+=("$label") k_pkg+=("") k_ver+=("") k_file+=("")
		k_build+=("$spec${variant:+ --variant $variant}$rv")
		continue
	fi
	k_build+=("")
	if [[ $k == */* || -f $k ]]; then
		runner_hint=
		if [[ $k == *[*?[]* ]] || [ -d "cases/${k%%/*}" ]; then
			runner_hint="; case patterns and runner options go after '--': ./run.sh --vm KERNEL -- '$k'"
		fi
		[ -f "$k" ] || die "kernel image '$k' does not exist$runner_hint"
		k_label+=("$label") k_pkg+=("") k_ver+=("") k_file+=("$(readlink -f "$k")")
		continue
	fi
	# the form first: a name that cannot be a Debian kernel is refused
	# before anything asks apt (no package list refresh for a typo)
	if ! [[ $k =~ ^linux-image-[a-z0-9.+~-]+$ || $k =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?([-+][A-Za-z0-9.+~-]*)?$ ]]; then
		hint=
		[[ $k == *[*?[]* || -d cases/${k%%/*} ]] && hint="; case patterns and runner options go after '--': ./run.sh --vm KERNEL -- '$k'"
		die "unknown kernel '$k': a Debian series (6.1, 6.12, 6.12-rt, 6.12-cloud), a linux-image package or version, build:SOURCE, or a kernel image path$hint"
	fi
	command -v apt-cache >/dev/null || die "apt-cache is needed to find Debian kernel '$k' (or give a bzImage path)"
	pkg=
	[[ $k != *arm64 ]] || arm64_apt
	if [[ $k =~ ^[0-9]+\.[0-9]+(-rt|-cloud|-arm64)?$ ]]; then
		pkg=$(resolve_series "$k") || { apt_refresh && pkg=$(resolve_series "$k"); } ||
			die "unknown kernel '$k': apt offers no linux-image-$k* package (try apt-get update; see --help)"
	else
		pkg=$(resolve_name "$k") || { apt_refresh && pkg=$(resolve_name "$k"); } ||
			die "unknown kernel '$k': not a Debian series (6.1, 6.12, 6.12-rt, 6.12-cloud), a linux-image package apt offers, or a kernel image path"
	fi
	k_label+=("$label") k_pkg+=("$pkg") k_ver+=("$(apt_candidate "$pkg")") k_file+=("")
done

REPORT=$BUILD/perfabi-report
for f in "$BUILD/perfabi-run" "$BUILD/cases" "$REPORT"; do
	[ -e "$f" ] || die "$f is missing: run make first (./run.sh --vm builds it)"
done
# the runner's options and patterns, checked here before anything boots
if ! err=$("$BUILD/perfabi-run" --list "${runner_args[@]+"${runner_args[@]}"}" 2>&1 >/dev/null); then
	die "runner options rejected: ${err#perfabi-run: }"
fi
# a run of a few cases (a bisection step) boots with only those: the
# initramfs of every case takes most of a short run's time
SELECTED=
if [ ${#runner_args[@]} -gt 0 ]; then
	SELECTED=$("$BUILD/perfabi-run" --list "${runner_args[@]}" 2>/dev/null | awk '{print $1}')
	[ "$(grep -c . <<<"$SELECTED")" -lt "$(find "$BUILD/cases" -mindepth 2 | wc -l)" ] || SELECTED=
fi

# ------------------------------------------------------------ dependencies
# the kernel image's architecture: arm64 where it is an arm64 Image
# ("ARM\x64" at byte 56), else x86_64 (a bzImage)
kernel_arch() { # image
	if [ "$(od -An -c -j56 -N4 "$1" 2>/dev/null | tr -d ' ')" = ARMd ]; then echo arm64; else echo x86_64; fi
}
busybox_static() {
	local bb
	bb=$(command -v busybox) || return 1
	[[ $(LC_ALL=C ldd "$bb" 2>&1) == *"not a dynamic executable"* ]]
}
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
for f in "${k_label[@]}" "${k_pkg[@]}" "${k_file[@]}"; do
	[[ $f == *arm64* ]] || { [ -f "$f" ] && [ "$(kernel_arch "$f")" = arm64 ]; } || continue
	command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
	command -v aarch64-linux-gnu-strip >/dev/null || missing+=(binutils-aarch64-linux-gnu)
	break
done
busybox_static || missing+=(busybox-static)
command -v cpio >/dev/null || missing+=(cpio)
command -v gzip >/dev/null || missing+=(gzip)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		die "missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}"
	fi
	say "installing ${missing[*]} (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null; } ||
		die "could not install ${missing[*]}; run: apt-get update && apt-get install -y ${missing[*]}"
	busybox_static || die "busybox is not the static build; run: apt-get install -y busybox-static"
fi
# lz4 makes the initramfs faster to pack and to unpack (initrd_for);
# without it, gzip
if ! command -v lz4 >/dev/null && [ "$(id -u)" -eq 0 ]; then
	say "installing lz4 (apt-get)"
	apt-get install -y -q lz4 >/dev/null 2>&1 || say "could not install lz4: the initramfs is gzip"
fi

# ---------------------------------------------------------------- fetching
fetch_pkg() { # pkg version -> sets IMAGE, CONFIG (unpacked /boot of the package)
	local pkg=$1 ver=$2 deb dir
	mkdir -p "$CACHE" || die "cannot create the cache $CACHE"
	deb=$(ls -1 "$CACHE/${pkg}_${ver//:/%3a}_"*.deb 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		say "downloading $pkg $ver into $CACHE"
		if ! (cd "$CACHE" && apt-get download "$(apt_name "$pkg")=$ver" >/dev/null 2>&1); then
			# stale lists: the mirror may have a newer build only
			if apt_refresh && ver=$(apt_candidate "$pkg") && [ -n "$ver" ] &&
			   (cd "$CACHE" && apt-get download "$(apt_name "$pkg")=$ver" >/dev/null 2>&1); then
				:
			else
				say "apt-get download $pkg failed (offline?)"
			fi
		fi
		# the new one, or (offline) the newest one cached earlier
		deb=$(ls -1 "$CACHE/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1)
		[ -z "$deb" ] || [[ $deb == *"_${ver//:/%3a}_"* ]] || say "using the cached ${deb##*/}"
	fi
	[ -n "$deb" ] || return 1
	PKG_VER=$(dpkg-deb -f "$deb" Version 2>/dev/null) || PKG_VER=$ver
	dir=$CACHE/${deb##*/}
	dir=${dir%.deb}
	if ! ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1; then
		rm -rf "$dir" && mkdir -p "$dir" || return 1
		# only /boot: the image and its config (dpkg-deb -x would unpack
		# the modules too, which an initramfs-only guest does not load)
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards './boot/*' ||
			{ say "cannot unpack $deb"; return 1; }
	fi
	IMAGE=$(ls -1 "$dir"/boot/vmlinuz-* | head -n1)
	CONFIG=$(ls -1 "$dir"/boot/config-* 2>/dev/null | head -n1)
}

file_config() { # image -> config next to it, if any
	local d
	d=$(dirname "$1")
	for c in "$d"/config-* "$d/.config" "$d/../../../.config"; do
		[ -f "$c" ] && { echo "$c"; return; }
	done
}

# ---------------------------------------------------------------- initramfs
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perfabi-vm.XXXXXX") || die "cannot create a work directory"
cleanup() {
	[ -n "${tailpid:-}" ] && kill "$tailpid" 2>/dev/null
	[ -n "${watchpid:-}" ] && kill "$watchpid" 2>/dev/null
	[ -n "${qpid:-}" ] && kill "$qpid" 2>/dev/null
	for g in "${gpid[@]+"${gpid[@]}"}"; do kill -- "-$g" 2>/dev/null; done	# guests run side by side
	[ "$KEEP" = 1 ] && { say "work files kept in $WORK"; return; }
	rm -rf "$WORK"
}
trap cleanup EXIT
# an interrupted run exits as a shell reports the signal, not as a failure
trap 'say "interrupted"; exit 130' INT
trap 'say "interrupted"; exit 143' TERM
trap 'say "interrupted"; exit 129' HUP

build_initramfs() { # for GARCH, from GBUILD
	local st=$WORK/root-$GARCH
	mkdir -p "$st"/{bin,etc,perfabi,proc,sys,dev,tmp,run,root} || return 1
	cp "$(guest_busybox)" "$st/bin/busybox" || return 1
	cp fixtures/vm/init "$st/init" && chmod 755 "$st/init" || return 1
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$st/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$st/etc/group"
	cp "$GBUILD/perfabi-run" "$st/perfabi/" || return 1
	if [ -n "$SELECTED" ]; then	# the cases' one program, and the links to it
		mkdir -p "$st/perfabi/cases" && cp "$GBUILD/cases/perfabi-cases" "$st/perfabi/cases/" || return 1
		while read -r name; do
			mkdir -p "$st/perfabi/cases/${name%/*}" &&
				cp -P "$GBUILD/cases/$name" "$st/perfabi/cases/$name" || return 1
		done <<<"$SELECTED"
	else
		cp -R "$GBUILD/cases" "$st/perfabi/cases" || return 1
	fi
	[ -d "$GBUILD/fixtures" ] && { cp -r "$GBUILD/fixtures" "$st/perfabi/fixtures" || return 1; }
	[ -f "$GBUILD/abi-map.txt" ] && cp "$GBUILD/abi-map.txt" "$st/perfabi/"
	# debug info is most of a static binary: strip it from the copies, but
	# keep the symbol table (the uprobe cases look up their own functions)
	local strip=strip
	[ "$GARCH" = x86_64 ] || strip=aarch64-linux-gnu-strip
	if command -v $strip >/dev/null; then
		find "$st/perfabi" -type f -perm -u+x -print0 |
			xargs -0 -r -n 64 -P "$(nproc 2>/dev/null || echo 2)" $strip --strip-debug 2>/dev/null
	fi
	: >"$st/perfabi/args"
	for a in "${guest_args[@]}"; do
		printf '%s\n' "$a" >>"$st/perfabi/args"
	done
	(cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$WORK/initramfs-$GARCH.cpio"
}

# a static busybox for the guest: the host's, or for an arm64 guest on
# another host Debian's busybox-static:arm64, unpacked in the cache
guest_busybox() {
	local d=$CACHE/busybox-static-arm64
	if [ "$GARCH" = x86_64 ] || [ "$(uname -m)" = aarch64 ]; then command -v busybox; return; fi
	if [ ! -x "$d/bin/busybox" ]; then
		mkdir -p "$d" && (cd "$d" && apt-get download busybox-static:arm64 >/dev/null 2>&1) &&
			dpkg-deb -x "$(ls -1 "$d"/busybox-static_*.deb | tail -n1)" "$d" || return 1
	fi
	echo "$d/bin/busybox"
}

# The initramfs for a kernel: lz4 where its config has CONFIG_RD_LZ4 (the
# guest unpacks it in about half the time of gzip under TCG, and the host
# packs it several times faster: every case is a static binary of about
# 1 MB, so the archive is some 650 MB), else gzip, which every initrd
# kernel reads. Each is made once per run. Sets INITRD, INITRD_FMT.
initrd_for() { # config file (may be empty)
	if command -v lz4 >/dev/null && [ -n "$1" ] && grep -q '^CONFIG_RD_LZ4=y' "$1" 2>/dev/null; then
		INITRD_FMT=lz4 INITRD=$WORK/initramfs-$GARCH.lz4
		# -l: the legacy frame, the only one the kernel's unlz4 reads
		[ -s "$INITRD" ] || lz4 -l -1 -q "$WORK/initramfs-$GARCH.cpio" "$INITRD" || return 1
	else
		INITRD_FMT=gzip INITRD=$WORK/initramfs-$GARCH.gz
		[ -s "$INITRD" ] || gzip -1 -c "$WORK/initramfs-$GARCH.cpio" >"$INITRD" || return 1
	fi
}

# ------------------------------------------------------------ accelerator
kvm_probe() { # image -> 0 when a KVM guest gets as far as mounting root
	local out
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || { PROBE_WHY="no usable /dev/kvm"; return 1; }
	out=$(timeout -k 2 15 qemu-system-x86_64 -accel kvm -cpu host -m 256 -nographic \
		-no-reboot -kernel "$1" -append "console=ttyS0 panic=-1 loglevel=4" </dev/null 2>&1)
	if grep -q -e 'Kernel panic' -e 'Unable to mount root' <<<"$out"; then
		return 0
	fi
	PROBE_WHY=$(grep -m1 -i -e error -e assert <<<"$out" | sed "s/^[^A-Za-z]*//" || echo "no boot within 15 s")
	return 1
}

# The guest's results are whole once its end marker is on the console:
# the host stops QEMU then instead of waiting for the guest's own reboot
# (its console drain and reboot take 3-4 s a kernel under TCG).
end_watch() { # raw-console pid
	local raw=$1 pid=$2
	while kill -0 "$pid" 2>/dev/null; do
		if tail -c 65536 "$raw" 2>/dev/null | grep -q '===PERFABI-RESULTS-END rc=[0-9]*==='; then
			kill "$pid" 2>/dev/null
			return 0
		fi
		sleep 0.25
	done
}

# b - a, seconds to a tenth
seconds() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", b - a}'; }

# ------------------------------------------------------------------ runs
# a kernel named twice (two bzImage paths) gets two result directories
for i in "${!k_label[@]}"; do
	base=${k_label[$i]} n=2
	for ((j = 0; j < i; j++)); do
		if [ "${k_label[$j]}" = "${k_label[$i]}" ]; then
			k_label[i]=$base-$n
			n=$((n + 1))
			j=-1
		fi
	done
done
if [ -z "$RUN_ID" ]; then
	RUN_ID=$(date +%Y%m%d-%H%M%S)-vm
	n=2
	base=$RUN_ID
	while [ -e "$RESULTS/$RUN_ID" ]; do RUN_ID=$base-$n; n=$((n + 1)); done
fi
RUN_DIR=$RESULTS/$RUN_ID
[ -e "$RUN_DIR" ] && die "$RUN_DIR exists: run ids are never reused"
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"

status=0
accel_done=
# stdout: one KTAP document whose tests are the kernels (ktap.rst's
# nested tests): the plan first, each kernel's own stream indented by four
# spaces as its subtest (as kunit nests), then that kernel's result line
# (not ok when its suite failed or its guest broke). The version lines are
# kselftest's "TAP version 13", which TAP consumers read too.
# one kernel's boot, results and KTAP result line (the loop below sets
# what it boots); up to --parallel of them run side by side (default: one
# per host CPU under TCG, whose guest runs on one host thread; CPUs / vCPUs
# under KVM), their output printed kernel by kernel in the order given
guest() {
	# A guest that dies before the init runs is booted again (twice at
	# most): multi-threaded TCG sometimes trips over the kernel's own code
	# patching at boot (an int3 oops in a static key), which says nothing
	# about the kernel or the suite. Each failed boot's log is kept.
	attempt=0
	t0=$(date +%s.%N)
	while :; do
		attempt=$((attempt + 1))
		: >"$raw"
		timeout -k 10 $((LIMIT_MIN * 60)) "${qcmd[@]}" </dev/null >"$raw" 2>&1 &
		qpid=$!
		end_watch "$raw" "$qpid" &
		watchpid=$!
		# live progress: the guest's KTAP stream, indented as this
		# kernel's subtest, and kernel trouble as diagnostics
		tail -n +1 -f --pid="$qpid" "$raw" 2>/dev/null | "$REPORT" vm-stream &
		tailpid=$!
		wait "$qpid"
		qrc=$?
		qpid=
		wait "$tailpid" 2>/dev/null
		tailpid=
		kill "$watchpid" 2>/dev/null
		wait "$watchpid" 2>/dev/null
		watchpid=
		# no carriage returns, no terminal escapes (a kernel without a
		# VGA console leaves SeaBIOS's reset sequence before our lines)
		tr -d '\r' <"$raw" | sed -E 's/\x1b(\[[0-9;?]*[A-Za-z]|[c78])//g' >"$out/console.log"
		if [ $attempt -lt 3 ] && [ $qrc -ne 124 ] && [ $qrc -ne 137 ] &&
		   ! grep -q '^perfabi-vm: init at' "$out/console.log"; then
			mv "$out/console.log" "$out/console.boot$attempt.log"
			say "$label: the guest died before its init ($(grep -m1 -E 'Oops|Kernel panic|BUG:' "$out/console.boot$attempt.log" | sed 's/^\[[ 0-9.]*\] //' || echo "qemu exit $qrc")); booting again"
			continue
		fi
		break
	done
	t1=$(date +%s.%N)
	wall=$(seconds "$t0" "$t1")
	log=$out/console.log

	runner_rc=$(sed -n 's/^===PERFABI-RESULTS-END rc=\([0-9]*\)===$/\1/p' "$log" | tail -n1)

	# the results the guest printed
	have_results=0
	if [ -n "$runner_rc" ]; then
		sed -n '/^===PERFABI-RESULTS-BEGIN===$/,/^===PERFABI-RESULTS-END/p' "$log" |
			grep -E '^[A-Za-z0-9+/=]+$' | base64 -d 2>/dev/null | tar -xz -C "$out" 2>/dev/null &&
			[ -f "$out/results.tsv" ] && have_results=1
	fi

	# other files the guest sent (the gcov counters of ./run.sh --kcov)
	for name in $(sed -n 's/^===PERFABI-BLOB-BEGIN \([A-Za-z0-9][A-Za-z0-9._-]*\)===$/\1/p' "$log" | sort -u); do
		sed -n "/^===PERFABI-BLOB-BEGIN ${name//./\\.}===\$/,/^===PERFABI-BLOB-END ${name//./\\.}===\$/p" "$log" |
			grep -E '^[A-Za-z0-9+/=]+$' | base64 -d >"$out/$name" 2>/dev/null && [ -s "$out/$name" ] ||
			{ say "$label: the guest's $name did not come back whole"; rm -f "$out/$name"; }
	done

	# the kernel's state, its trouble, the results salvaged or the case
	# that was running failed, vm.json; this kernel's KTAP result
	# the config's name: the package, a sweep or build variant's
	# config-NAME beside the image, else the image's own name
	cfgname=$pkg
	[ -n "$cfgname" ] || { [[ ${CONFIG##*/} == config-* ]] && cfgname=${CONFIG##*/config-}; }
	kn=$((i + 1))
	"$REPORT" vm-collect --label "$label" --number $kn --run-id "$RUN_ID" \
		--package "$pkg" --package-version "$ver" --image "$IMAGE" --accel "$gaccel" \
		--cpus "${gsmp%%,*}" --max-cpus "$([[ $gsmp == *maxcpus=* ]] && echo "${gsmp#*maxcpus=}" || echo "${gsmp%%,*}")" \
		--memory "$MEM" --cmdline "$cmdline" --runner-args "${guest_args[*]}" \
		--attempts "$attempt" --wall-s "$wall" --limit-s $((LIMIT_MIN * 60)) \
		--initramfs "$INITRD_FMT:$(($(stat -c %s "$INITRD") / 1048576)):${initramfs_s:-0}:$pack_s" \
		--config "$CONFIG" --config-name "${cfgname:-$label}" --qemu-exit "$qrc" \
		--cases "$BUILD/cases" --runner "$BUILD/perfabi-run" "$out"
}
gpid=() queue=()
print_oldest() {
	local j=${queue[0]}
	wait "${gpid[j]}" || status=1
	cat "$WORK/guest.$j.out"
	cat "$WORK/guest.$j.err" >&2
	unset 'gpid[j]'
	queue=("${queue[@]:1}")
}
# print the guests still running (down to $1 of them), oldest first
drain() { while [ ${#queue[@]} -gt "${1:-0}" ]; do print_oldest; done; }
kn=0
echo "TAP version 13"
echo "1..${#k_label[@]}"
for i in "${!k_label[@]}"; do
	label=${k_label[$i]} pkg=${k_pkg[$i]} ver=${k_ver[$i]}
	out=$RUN_DIR/$label
	mkdir -p "$out"
	say "=== $label${pkg:+ ($pkg $ver)}"
	IMAGE='' CONFIG=''
	if [ -n "${k_build[$i]}" ]; then
		# shellcheck disable=SC2086 # "SOURCE --variant V"
		if IMAGE=$(harness/tools/kernel.sh build ${k_build[$i]}) && [ -f "$IMAGE" ]; then
			CONFIG=$(file_config "$IMAGE")
			ver=$(cat "$(dirname "$IMAGE")/../../../include/config/kernel.release" 2>/dev/null)
		else
			drain
			say "$label: the kernel build failed; skipping this kernel"
			kn=$((i + 1))
			"$REPORT" vm-collect --label "$label" --number $kn --state build-failed \
				--detail "the kernel build failed: ${k_build[$i]} (see above)" "$out"
			status=1
			continue
		fi
	elif [ -n "$pkg" ]; then
		if fetch_pkg "$pkg" "$ver"; then
			ver=$PKG_VER
		else
			drain
			say "$label: cannot fetch $pkg; skipping this kernel"
			kn=$((i + 1))
			"$REPORT" vm-collect --label "$label" --number $kn --state fetch-failed \
				--detail "cannot fetch $pkg" "$out"
			status=1
			continue
		fi
	else
		IMAGE=${k_file[$i]}
		CONFIG=$(file_config "$IMAGE")
	fi

	GARCH=$(kernel_arch "$IMAGE") GBUILD=$BUILD
	if [ "$GARCH" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
		GBUILD=${BUILD_ARM64:-build-arm64}
		[ -x "$GBUILD/perfabi-run" ] || die "$label is an arm64 kernel: build the suite for it first (make ARCH=arm64; ./run.sh --vm does)"
	fi
	# the accelerator: probed once, with the first kernel
	if [ -z "$accel_done" ]; then
		accel_done=$ACCEL
		if [ "$ACCEL" = auto ]; then
			PROBE_WHY=
			if kvm_probe "$IMAGE"; then accel_done=kvm
			else accel_done=tcg; say "KVM unusable ($PROBE_WHY): using TCG (slow)"; fi
		fi
		say "accelerator: $accel_done"
		if [ "$accel_done" = kvm ]; then
			qaccel=(-accel kvm -cpu host)
			scale=${SCALE:-1}
		else
			# one host thread for all vCPUs: with multi-threaded TCG
			# (QEMU 7.2) a guest CPU sometimes runs stale code while
			# another patches a static key (int3 oops at boot or when
			# a case first enables an event); single is barely slower
			qaccel=(-accel 'tcg,thread=single' -cpu max)
			scale=${SCALE:-4}
		fi
		guest_args=(--timeout-scale "$scale" "${runner_args[@]+"${runner_args[@]}"}")
	fi
	if [ ! -s "$WORK/initramfs-$GARCH.cpio" ]; then
		say "building the $GARCH initramfs"
		ti0=$(date +%s.%N)
		build_initramfs || die "cannot build the $GARCH initramfs in $WORK"
		ti1=$(date +%s.%N)
		initramfs_s=$(seconds "$ti0" "$ti1")
	fi
	ti0=$(date +%s.%N)
	initrd_for "$CONFIG" || die "cannot compress the initramfs in $WORK"
	ti1=$(date +%s.%N)
	pack_s=$(seconds "$ti0" "$ti1")

	# rcupdate.rcu_expedited=1: synchronize_rcu() (and SRCU) without
	# waiting for ticks. Closing a kprobe, uprobe or tracepoint event
	# waits for grace periods; under TCG that idled the guest for half
	# of the kprobe and tracepoint cases' time (docs/speed.md). Grace
	# periods are not part of the ABI under test; --append
	# rcupdate.rcu_expedited=0 comes later on the line and wins.
	cmdline="console=ttyS0 panic=-1 quiet loglevel=5 rcupdate.rcu_expedited=1${APPEND:+ $APPEND}"
	qcmd=(qemu-system-x86_64 "${qaccel[@]}" -m "$MEM" -smp "$SMP")
	gaccel=$accel_done gsmp=$SMP
	if [ "$GARCH" = arm64 ]; then
		gaccel=tcg-icount gsmp=${ARM64_SMP:-1}
		# QEMU's emulated PMUv3 (-cpu max); -icount shift=0: one
		# instruction is one nanosecond of virtual time, so instructions
		# are counted exactly, and one vCPU, since icount is global
		# (exact only with one: perfabi.pmu=exact tells the hw/ cases)
		cmdline="console=ttyAMA0 panic=-1 quiet loglevel=5 rcupdate.rcu_expedited=1${APPEND:+ $APPEND}"
		[ "$gsmp" != 1 ] || cmdline+=" perfabi.pmu=exact"
		qcmd=(qemu-system-aarch64 -M virt -cpu max -accel 'tcg,thread=single' -icount shift=0
		      -m "$MEM" -smp "$gsmp")
	fi
	qcmd+=(-nographic -no-reboot -kernel "$IMAGE" -initrd "$INITRD" -append "$cmdline")
	raw=$WORK/console.$i
	[ -n "$PAR" ] || { PAR=$(nproc); [ "$accel_done" != kvm ] || PAR=$((PAR / ${SMP%%,*})); [ "$PAR" -ge 1 ] || PAR=1; }
	if [ "$PAR" -eq 1 ] || [ ${#k_label[@]} -eq 1 ]; then
		guest || status=1
	else	# side by side, each in a process group of its own; printed in order
		drain $((PAR - 1))
		set -m
		guest >"$WORK/guest.$i.out" 2>"$WORK/guest.$i.err" &
		gpid[i]=$!
		set +m
		queue+=("$i")
	fi
	initramfs_s=0
done
drain

"$REPORT" vm-summary "$RUN_DIR" "${k_label[@]}"
dirs=()
for d in "$RUN_DIR"/*/; do [ -f "$d/results.tsv" ] && dirs+=("${d%/}"); done
if [ ${#dirs[@]} -gt 0 ]; then
	"$REPORT" matrix --quiet --html "$RUN_DIR/matrix.html" --junit-dir "$RUN_DIR/junit" "${dirs[@]}" >/dev/null &&
		echo "# report: $RUN_DIR/matrix.html, JUnit XML in $RUN_DIR/junit/"
	if [ -n "$KCIDB" ]; then
		"$REPORT" kcidb --origin "$ORIGIN" --out "$KCIDB" "${dirs[@]}" &&
			echo "# KCIDB: $KCIDB" || { say "cannot write the KCIDB file $KCIDB"; status=2; }
	fi
fi
exit $status
