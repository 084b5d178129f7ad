#!/usr/bin/env bash
# perfabi: run the perf_event_open(2) ABI suite on the running kernel.
#
#   ./run.sh [runner options] [PATTERN...]     this kernel (builds what is missing)
#   ./run.sh --vm KERNEL... [-- runner options] Debian or self-built kernels under QEMU
#   ./run.sh --compare RUN_A RUN_B             what changed between two result sets
#   ./run.sh --kcov [-- runner options]        kernel/events/ coverage (gcov kernel, QEMU)
#   ./run.sh kernel build [SOURCE]             a minimal kernel from source
#   ./run.sh kernel sweep [--variant NAME]     that kernel in config variants, each booted
#   ./run.sh bisect CASE --good A --bad B      the commit that changed CASE
#   ./run.sh bisect CASE --packages SERIES     ... or the Debian package
#   ./run.sh bisect-step CASE                  one step, for git bisect run
#   ./run.sh --help
set -uo pipefail
export PERFABI_CALLER_CWD=$PWD
cd "$(dirname "$0")" || exit 2

usage() {
	cat harness/tools/usage/run.txt
	build/perfabi-run --help 2>/dev/null | sed -n '/^  /p'
	cat harness/tools/usage/run-2.txt
}

build() {
	local t0 todo
	# say what is about to take a while (a first build: about 20 s)
	if ! make -q "$@" >/dev/null 2>&1; then
		todo=$(make -n "$@" 2>/dev/null | grep -c -- ' -o build[^ ]*/obj/cases/')
		t0=$(date +%s)
		if [ "$todo" -gt 0 ]; then todo="$todo case(s) and what else changed"; else todo="what changed"; fi
		echo "run.sh: building $todo (make -j$(nproc 2>/dev/null || echo 2))" >&2
	fi
	if ! make -s -j"$(nproc 2>/dev/null || echo 2)" "$@" >&2; then
		echo "run.sh: the build failed (see above)" >&2
		exit 2
	fi
	[ -z "${t0:-}" ] || echo "run.sh: built in $(( $(date +%s) - t0 )) s" >&2
}

cross_arm64() { # Debian's cross compiler for make ARCH=arm64: installed as root
	local p=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
	[ "$(uname -m)" = aarch64 ] || command -v aarch64-linux-gnu-gcc >/dev/null && return 0
	[ "$(id -u)" -eq 0 ] || { echo "run.sh: an arm64 kernel needs the suite cross-built: sudo apt-get install -y ${p[*]}" >&2; exit 2; }
	echo "run.sh: installing ${p[*]} (apt-get) for make ARCH=arm64" >&2
	{ apt-get install -y -q "${p[@]}" || { apt-get update -q && apt-get install -y -q "${p[@]}"; }; } >/dev/null 2>&1 ||
		{ echo "run.sh: could not install ${p[*]}" >&2; exit 2; }
}

case "${1:-}" in
-h|--help)
	build build/perfabi-run
	usage
	exit 0
	;;
--vm)
	shift
	build
	# an arm64 kernel boots the suite built for arm64 (make ARCH=arm64)
	for a in "$@"; do
		[ "$a" != -- ] || break
		[[ $a != *arm64* ]] || { cross_arm64; build ARCH=arm64; break; }
	done
	exec harness/tools/vm.sh "$@"
	;;
--kcov)
	shift
	case "${1:-}" in
	-h|--help|--report|--compare) ;;
	*) build ;;
	esac
	exec harness/tools/kcov.sh "$@"
	;;
kernel)
	shift
	# the sweep boots the suite: build it first (not for --help or --list)
	if [ "${1:-}" = sweep ]; then
		case " ${*%% -- *} " in *" -h "*|*" --help "*|*" --list "*) ;; *) build ;; esac
	fi
	exec harness/tools/kernel.sh "$@"
	;;
bisect-step)
	# git bisect run takes 1..127 for "bad": a broken perfabi build must
	# stop the bisection instead (128)
	shift
	(build) || exit 128
	exec harness/tools/bisect.sh step "$@"
	;;
bisect)
	shift
	build
	exec harness/tools/bisect.sh run "$@"
	;;
--bench)
	shift
	case "${1:-}" in -h|--help) ;; *) build ;; esac
	exec harness/tools/bench.sh "$@"
	;;
prove)
	shift
	case "${1:-}" in -h|--help) ;; *) build ;; esac
	exec harness/tools/prove.sh "$@"
	;;
--compare)
	shift
	build build/perfabi-report build/renames.txt
	exec build/perfabi-report compare "$@"
	;;
esac

build
exec build/perfabi-run "$@"
