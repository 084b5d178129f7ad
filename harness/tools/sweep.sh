#!/usr/bin/env bash
# perfabi: the kernel config sweep. The suite's minimal kernel built in
# variants, each with one optional feature group off, each booted under
# QEMU with the default matrix: a case that fails on a correct kernel of a
# config we did not pick shows up here.
#
#   harness/tools/sweep.sh [--list] [--variant NAME]... [--pick KEY] [...]
#
# See usage() below. Building is harness/tools/kernel.sh's (one build directory,
# 'sweep', for every variant), booting and running harness/tools/vm.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

FRAGDIR=fixtures/kernel/sweep
CACHE_ROOT=${PERFABI_CACHE_ROOT:-${HOME:-/tmp}/.cache/perfabi}
# the builder and the VM runner (stand-ins in tests/integration/sweep_args.sh)
KERNEL=${PERFABI_SWEEP_KERNEL:-harness/tools/kernel.sh}
VM=${PERFABI_SWEEP_VM:-harness/tools/vm.sh}

usage() {
	cat harness/tools/usage/sweep.txt
}

PA_PROG=sweep.sh
. harness/tools/lib.sh
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# ---------------------------------------------------------------- variants
# the fragment files, one per variant, in --list order
variant_names() {
	local f
	for f in "$FRAGDIR"/*.config; do
		[ -f "$f" ] || continue
		f=${f##*/}
		echo "${f%.config}"
	done
	echo minimal
}

unconfigurable() { # NAME -> "SYMBOL FILE" or ''
	[ "$1" = minimal ] && return 0
	sed -n 's/^# sweep-unconfigurable: *\([A-Z0-9_]*\) \+\([^ ]*\) *$/\1 \2/p' "$FRAGDIR/$1.config"
}

fragments_of() { # NAME -> its fragment files
	local n
	if [ "$1" = minimal ]; then
		for n in $(variant_names); do
			[ "$n" = minimal ] || [ -n "$(unconfigurable "$n")" ] || echo "$FRAGDIR/$n.config"
		done
	else
		echo "$FRAGDIR/$1.config"
	fi
}

off_options() { # NAME -> the CONFIG_ symbols its fragments turn off
	fragments_of "$1" | xargs sed -n 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' | awk '!seen[$0]++'
}

configurable_names() {
	local n
	for n in $(variant_names); do
		[ -n "$(unconfigurable "$n")" ] || echo "$n"
	done
}

# The variants a whole sweep run showed with 0 FAIL (fixtures/kernel/sweep/
# verified.tsv, a row per run: variant, date, kernel, pass, skip, fail,
# xfail, commit), in --list order: --pick rotates over these, so that CI
# keeps every verified variant green; a new variant joins once a sweep
# shows it clean. None verified: every configurable one.
verified_names() {
	local n ledger=$FRAGDIR/verified.tsv
	[ -f "$ledger" ] || return 0
	for n in $(configurable_names); do
		awk -F'\t' -v n="$n" '$1 == n && $6 == "0" { ok = 1 } END { exit !ok }' "$ledger" && echo "$n"
	done
}

# ---------------------------------------------------------------- arguments
want=() source=6.12 pick='' build=1 results=results jobs='' vm_args=() runner_args=() list=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--list) list=1; shift ;;
	--no-build) build=0; shift ;;
	--variant|--pick|--source|--results|--jobs)
		[ $# -ge 2 ] && [ -n "$2" ] || die "option '$1' needs an argument"
		case "$1" in
		--variant) want+=("$2") ;;
		--pick) pick=$2 ;;
		--source) source=$2 ;;
		--results) results=$2 ;;
		--jobs) jobs=$2 ;;
		esac
		shift 2 ;;
	--variant=*|--pick=*|--source=*|--results=*|--jobs=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--) shift
		# vm.sh options, then (after a second --) runner options: those
		# go after the kernel image on vm.sh's command line
		while [ $# -gt 0 ] && [ "$1" != -- ]; do vm_args+=("$1"); shift; done
		runner_args=("$@")
		break ;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
done
mapfile -t all < <(variant_names)
for n in "${want[@]+"${want[@]}"}"; do
	printf '%s\n' "${all[@]}" | grep -qxF -- "$n" ||
		die "unknown variant '$n' (variants: ${all[*]})"
done
if [ -n "$pick" ]; then
	[ ${#want[@]} -eq 0 ] || die "--pick and --variant exclude each other"
	[[ $pick =~ ^[0-9a-fA-F]+$ ]] || die "bad --pick '$pick': a hex key (a commit id)"
	mapfile -t conf < <(verified_names)
	[ ${#conf[@]} -gt 0 ] || mapfile -t conf < <(configurable_names)
	[ ${#pick} -le 7 ] || pick=${pick: -7}
	want=("${conf[$(( 16#$pick % ${#conf[@]} ))]}")
fi
[ -z "$jobs" ] || [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "bad --jobs '$jobs'"
[ ${#want[@]} -gt 0 ] || want=("${all[@]}")

if [ $list -eq 1 ]; then
	for n in "${want[@]}"; do
		u=$(unconfigurable "$n")
		if [ -n "$u" ]; then
			printf '%-15s %s\n' "$n" "(not configurable on x86: $u selects ${u%% *})"
		else
			printf '%-15s %s\n' "$n" "$(off_options "$n" | paste -sd' ')"
		fi
	done
	exit 0
fi

# the tree, for the unconfigurable checks and the cache key
case "$source" in
6.1|6.12) tree=$("$KERNEL" source "$source") || exit 2; key=linux-source-$source ;;
*) [ -d "$source/kernel/events" ] || die "unknown --source '$source': 6.12, 6.1 or a kernel tree"
   tree=$(cd "$source" && pwd -P); key=$(basename "$tree")-$(printf '%s' "$tree" | cksum | cut -d' ' -f1) ;;
esac
store=$CACHE_ROOT/sweep/$key
stamp=$(date +%Y%m%d-%H%M%S)
run_dir=$results/sweep-$stamp
n=2
while [ -e "$run_dir" ]; do run_dir=$results/sweep-$stamp-$n; n=$((n + 1)); done
mkdir -p "$run_dir" || die "cannot create $run_dir"
say "run directory $run_dir; images kept in $store"

# ---------------------------------------------------------------- the sweep
rows=() status=0
header=$(printf '%-15s %-52s %5s %5s %5s %5s %7s %6s  %s' variant off pass skip fail xfail build_s run_s note)
# each row goes to rows.txt as soon as it is known (a long sweep can be
# read while it runs); the table at the end
echo "$header" >"$run_dir/rows.txt"
row() { # NAME OFF COUNTS BUILD RUN NOTE
	# shellcheck disable=SC2086 # COUNTS: four fields
	rows+=("$(printf '%-15s %-52s %5s %5s %5s %5s %7s %6s  %s' "$1" "$2" $3 "$4" "$5" "$6")")
	printf '%s\n' "${rows[-1]}" >>"$run_dir/rows.txt"
}

for name in "${want[@]}"; do
	say "=== $name"
	u=$(unconfigurable "$name")
	if [ -n "$u" ]; then
		sym=${u%% *} file=${u#* }
		if grep -qE "^[[:space:]]*select[[:space:]]+${sym}[[:space:]]*\$" "$tree/$file"; then
			say "$name: $file selects $sym without a condition: not configurable on x86"
			row "$name" "$sym" "- - - -" - - "not configurable on x86 ($file selects it)"
		else
			say "$name: $file no longer selects $sym unconditionally: write the fragment"
			row "$name" "$sym" "- - - -" - - "ERROR: $file no longer selects it unconditionally; write the fragment"
			status=1
		fi
		continue
	fi
	mapfile -t frags < <(fragments_of "$name")
	off=$(off_options "$name" | sed 's/^CONFIG_//' | paste -sd' ')
	short=$off
	[ ${#short} -le 52 ] || short="${short:0:49}..."
	dir=$store/$name
	build_s=-
	if [ $build -eq 1 ]; then
		cargs=()
		for f in "${frags[@]}"; do cargs+=(--config "$f"); done
		t0=$(now)
		nice -n "${PERFABI_SWEEP_NICE:-5}" "$KERNEL" build --dir sweep ${jobs:+--jobs "$jobs"} \
			"${cargs[@]}" "$source" >"$run_dir/$name.image"
		brc=$?
		image=$(tail -n1 "$run_dir/$name.image")
		build_s=$(secs "$t0" "$(now)")
		if [ "$brc" -ne 0 ] || [ ! -f "$image" ]; then
			say "$name: the build failed"
			row "$name" "$short" "- - - -" "$build_s" - "build failed"
			status=1
			continue
		fi
		config=${image%/arch/x86/boot/bzImage}/.config
		# every option the fragments turn off must be off in the .config
		bad=()
		for o in $(off_options "$name"); do
			if grep -q "^CONFIG_$o=" "$config"; then
				bad+=("$o")
				say "$name: check CONFIG_$o: still $(sed -n "s/^CONFIG_$o=//p" "$config") in $config"
			else
				say "$name: check CONFIG_$o: off"
			fi
		done
		if [ ${#bad[@]} -gt 0 ]; then
			row "$name" "$short" "- - - -" "$build_s" - "ERROR: Kconfig kept ${bad[*]} on; not booted"
			status=1
			continue
		fi
		mkdir -p "$dir" || die "cannot create $dir"
		rm -f "$dir"/config-*
		cp "$image" "$dir/bzImage" && cp "$config" "$dir/config-$name" || die "cannot keep the image in $dir"
	else
		[ -f "$dir/bzImage" ] || {
			row "$name" "$short" "- - - -" - - "no kept image in $dir (build it first)"
			status=1
			continue
		}
	fi
	t0=$(now)
	"$VM" --results "$run_dir" --run-id "$name" "${vm_args[@]+"${vm_args[@]}"}" "$dir/bzImage" \
		"${runner_args[@]+"${runner_args[@]}"}" >"$run_dir/$name.tap"
	vrc=$?
	run_s=$(secs "$t0" "$(now)")
	summary=$run_dir/$name/bzImage/summary.json
	counts=$(sed -n 's/.*"counts": {"pass": \([0-9]*\), "fail": \([0-9]*\), "skip": \([0-9]*\), "xfail": \([0-9]*\).*/\1 \3 \2 \4/p' "$summary" 2>/dev/null)
	[ -n "$counts" ] || counts="- - - -"
	note=
	[ "$vrc" -eq 0 ] || { status=1; note="vm.sh exit $vrc"; }
	if [ "$vrc" -ne 0 ] && [ -f "$run_dir/$name/bzImage/results.tsv" ]; then
		note="$note; failed: $(awk -F'\t' '$2 == "fail" { sub(/@.*/, "", $1); print $1 }' "$run_dir/$name/bzImage/results.tsv" | sort -u | paste -sd' ')"
		awk -F'\t' -v v="$name" '$2 == "fail" { print v ": " $1 ": " $4 }' "$run_dir/$name/bzImage/results.tsv" >>"$run_dir/failures.txt"
	fi
	row "$name" "$short" "$counts" "$build_s" "$run_s" "$note"
done

{
	echo
	echo "$header"
	printf '%s\n' "${rows[@]}"
	if [ -s "$run_dir/failures.txt" ]; then
		echo
		echo "failures (variant: case@cell: diagnostic):"
		cat "$run_dir/failures.txt"
	fi
} | tee "$run_dir/table.txt"
exit $status
