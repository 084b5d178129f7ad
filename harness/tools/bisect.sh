#!/usr/bin/env bash
# perfabi: find the kernel change that changed one case's outcome.
#
#   harness/tools/bisect.sh step CASE[@CELL] [options]       one commit (git bisect run)
#   harness/tools/bisect.sh run  CASE[@CELL] --good REF --bad REF [options]
#   harness/tools/bisect.sh run  CASE[@CELL] --packages SERIES [options]
#
# See usage() below. ./run.sh bisect-step and ./run.sh bisect call it.
set -uo pipefail
CALLER_CWD=${PERFABI_CALLER_CWD:-$PWD}
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD
RUN_SH=$REPO/run.sh
# the kernel builder (tests put a stand-in here that fails or sleeps)
BUILDER=${PERFABI_BISECT_BUILDER:-$REPO/harness/tools/kernel.sh}

usage() {
	cat harness/tools/usage/bisect.txt
}

PA_PROG=bisect
. harness/tools/lib.sh
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ------------------------------------------------------------- arguments
MODE=$1
shift
CASE_SPEC='' TREE='' GOOD='' BAD='' SERIES='' RUNS=3 VARIANT='' EXPECT_AS='' LIMIT=10
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--tree|--good|--bad|--packages|--runs|--variant|--expect-as|--timeout)
		if [ $# -lt 2 ]; then
			echo "bisect: option '$1' needs an argument" >&2
			[ "$MODE" = step ] && exit 128 || exit 2
		fi
		case "$1" in
		--tree) TREE=$2 ;;
		--good) GOOD=$2 ;;
		--bad) BAD=$2 ;;
		--packages) SERIES=$2 ;;
		--runs) RUNS=$2 ;;
		--variant) VARIANT=$2 ;;
		--expect-as) EXPECT_AS=$2 ;;
		--timeout) LIMIT=$2 ;;
		esac
		shift 2 ;;
	--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	-*) echo "bisect: unknown option '$1' (try --help)" >&2
	    [ "$MODE" = step ] && exit 128 || exit 2 ;;
	*)
		if [ -n "$CASE_SPEC" ]; then
			echo "bisect: one CASE only ('$CASE_SPEC', then '$1')" >&2
			[ "$MODE" = step ] && exit 128 || exit 2
		fi
		CASE_SPEC=$1
		shift ;;
	esac
done

usage_error() { # bisect-step: 128 stops git bisect run; bisect: 2
	echo "bisect: $*" >&2
	[ "$MODE" = step ] && exit 128
	exit 2
}

[ -n "$CASE_SPEC" ] || usage_error "no CASE given (e.g. read/short_buffer_enospc@root,paranoid=2; try --help)"
CASE=${CASE_SPEC%%@*}
CELL=
IDENT='' LEVEL=''
if [[ $CASE_SPEC == *@* ]]; then
	CELL=${CASE_SPEC#*@}
	[[ $CELL =~ ^(root|perfmon|sysadmin|user),paranoid=(-?[0-9]+)$ ]] ||
		usage_error "bad cell '@$CELL': @IDENTITY,paranoid=N with IDENTITY root, perfmon, sysadmin or user"
	IDENT=${BASH_REMATCH[1]} LEVEL=${BASH_REMATCH[2]}
fi
[[ $CASE =~ ^[a-z0-9_]+/[A-Za-z0-9_]+$ ]] || usage_error "bad CASE '$CASE': area/name, as ./run.sh --list shows"
[[ $RUNS =~ ^[1-9][0-9]?$ ]] || usage_error "bad --runs '$RUNS': 1 to 99"
[[ $LIMIT =~ ^[1-9][0-9]*$ ]] || usage_error "bad --timeout '$LIMIT': minutes"
[ -z "$EXPECT_AS" ] || [[ $EXPECT_AS =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] ||
	usage_error "bad --expect-as '$EXPECT_AS': a kernel version such as 6.12.117"
[ -z "$VARIANT" ] || [ -f "fixtures/kernel/$VARIANT.config" ] ||
	usage_error "unknown --variant '$VARIANT' (see ./run.sh kernel --help)"

# the case must exist in this checkout (built by run.sh before we run)
if ! build/perfabi-run --list "$CASE" 2>/dev/null | grep -q "^$CASE "; then
	usage_error "no case '$CASE' here (./run.sh --list lists them)"
fi

RUNNER_ARGS=("$CASE" --repeat "$RUNS")
[ -z "$CELL" ] || RUNNER_ARGS+=(--identity "$IDENT" --paranoid "$LEVEL")
VM_OPTS=(--timeout "$LIMIT")
[ -z "$EXPECT_AS" ] || VM_OPTS+=(--append "PERFABI_KERNEL_VERSION=$EXPECT_AS")

# Where a step's results go: the bisection's run directory, or its own.
if [ -n "${PERFABI_BISECT_RUN:-}" ]; then
	RUN_DIR=$PERFABI_BISECT_RUN
else
	RUN_DIR=$REPO/results/bisect-$(date +%Y%m%d-%H%M%S)-$$
fi

# ---------------------------------------------------------------- judging
# judge KERNEL LABEL: boot KERNEL (an image path or a package name), run the
# case, set VERDICT (0, 1, 125), WHY (one line) and VM_S.
judge() {
	local kernel=$1 label=$2 dir rows t0 state detail trouble p f s cells
	local step_id
	step_id=step-$(printf '%02d' "$(( $(ls -d "$RUN_DIR"/step-*/ 2>/dev/null | wc -l) + 1 ))")-$label
	mkdir -p "$RUN_DIR" || { VERDICT=125 WHY="cannot create $RUN_DIR"; return; }
	t0=$(now)
	harness/tools/vm.sh "${VM_OPTS[@]}" --results "$RUN_DIR" --run-id "$step_id" "$kernel" -- "${RUNNER_ARGS[@]}" \
		>"$RUN_DIR/$step_id.log" 2>&1
	VM_S=$(secs "$t0" "$(now)")
	# the kernel's directory (beside it: junit/, matrix.html)
	dir=$(ls -d "$RUN_DIR/$step_id"/*/vm.json 2>/dev/null | head -n1)
	dir=${dir%/vm.json}
	if [ -z "$dir" ] || [ ! -f "$dir/vm.json" ]; then
		VERDICT=125 WHY="the VM runner gave no result: $(grep -m1 'vm.sh: ' "$RUN_DIR/$step_id.log" | sed 's/^vm.sh: //')"
		return
	fi
	state=$(sed -n 's/^  "state": "\(.*\)",$/\1/p' "$dir/vm.json")
	detail=$(sed -n 's/^  "detail": "\(.*\)",$/\1/p' "$dir/vm.json")
	# kernel trouble while booting, before the runner started: no verdict
	trouble=$(sed -n 's/^  "trouble_before_suite": "\(.*\)",$/\1/p' "$dir/vm.json")
	if [ -n "$trouble" ]; then
		VERDICT=125 WHY="the kernel logged trouble while booting, before the case: $trouble"
		return
	fi
	case "$state" in
	ok|kernel-warning) ;;	# a warning while the case ran is the case's fail
	*) VERDICT=125 WHY="the guest did not give a verdict ($state${detail:+: $detail})"; return ;;
	esac
	rows=$(awk -F'\t' -v c="$CASE" -v cell="$CELL" \
		'index($1, c "@") == 1 && (cell == "" || $1 == c "@" cell) { print $1 "\t" $2 "\t" $4 }' "$dir/results.tsv")
	if [ -z "$rows" ]; then
		VERDICT=125 WHY="no result for $CASE_SPEC in the guest (state $state)"
		return
	fi
	# per cell: pass/xpass = good, fail/xfail = bad, skip = no verdict
	cells=$(awk -F'\t' '
		{ c = $1; if ($2 == "pass" || $2 == "xpass") p[c]++; else if ($2 == "fail" || $2 == "xfail") f[c]++; else s[c]++; n[c]++
		  if (!(c in why) && ($2 == "skip" || $2 == "fail")) why[c] = $3; seen[c] = 1 }
		END { for (c in seen) printf "%s\t%d\t%d\t%d\t%s\n", c, p[c], f[c], s[c], why[c] }' <<<"$rows" | sort)
	local good=0 bad=0 judged=0 split='' skipwhy='' badcell='' goodcell=''
	while IFS=$'\t' read -r c p f s w; do
		[ -z "$CELL" ] || c=''	# the one cell asked for: no need to name it
		c=${c:+$c }
		if [ "$s" -gt 0 ] && [ $((p + f)) -eq 0 ]; then
			skipwhy="${c}skipped: $w"
			continue
		fi
		if [ "$s" -gt 0 ] || { [ "$p" -gt 0 ] && [ "$f" -gt 0 ]; }; then
			split="$c$p pass, $f fail, $s skip in $RUNS runs"
			continue
		fi
		judged=$((judged + 1))
		if [ "$f" -gt 0 ]; then
			bad=$((bad + 1)) badcell="${c}failed $f/$RUNS runs${w:+: $w}"
		else
			good=$((good + 1)) goodcell="${c}passed $p/$RUNS runs"
		fi
	done <<<"$cells"
	if [ -n "$split" ]; then
		VERDICT=125 WHY="the runs disagree ($split): not reproducible"
	elif [ "$judged" -eq 0 ]; then
		VERDICT=125 WHY="${skipwhy:-no cell gave a verdict}"
	elif [ "$bad" -gt 0 ]; then
		VERDICT=1 WHY=$badcell
	else
		VERDICT=0 WHY=$goodcell
		[ "$judged" -eq 1 ] || WHY="all $judged cells passed $RUNS/$RUNS runs"
	fi
}

verdict_word() { case "$1" in 0) echo GOOD ;; 1) echo BAD ;; *) echo SKIP ;; esac; }

# ------------------------------------------------------------------- step
# Build the tree, boot it, judge. Prints one line; exits 0/1/125 (128 setup).
do_step() {
	local tree=${TREE:-$CALLER_CWD} t0 out rc image build_s what blog
	[ -d "$tree" ] || usage_error "no tree '$tree'"
	tree=$(cd "$tree" && pwd -P)
	what=$(git -C "$tree" rev-parse --short=12 HEAD 2>/dev/null || echo tree)
	blog=$RUN_DIR/build-$what.log
	t0=$(now)
	out=$("$BUILDER" build ${VARIANT:+--variant "$VARIANT"} "$tree" 2>"$blog")
	rc=$?
	build_s=$(secs "$t0" "$(now)")
	if [ $rc -eq 2 ]; then
		echo "bisect-step: cannot build $tree: $(grep -m1 'kernel.sh: ' "$blog" | sed 's/^kernel.sh: //')" >&2
		exit 128
	fi
	if [ $rc -ne 0 ]; then
		echo "bisect-step: SKIP (125) $what: the kernel does not build (build $build_s s; log $blog)"
		exit 125
	fi
	image=$(tail -n1 <<<"$out")
	judge "$image" "$what"
	echo "bisect-step: $(verdict_word $VERDICT) ($VERDICT) $what: $CASE_SPEC: $WHY (build $build_s s, vm $VM_S s)"
	exit "$VERDICT"
}

if [ "$MODE" = step ]; then
	mkdir -p "$RUN_DIR" || usage_error "cannot create $RUN_DIR"
	do_step
fi

# --------------------------------------------------------- git bisection
TREE_GIT='' ORIG_REF='' BISECTING=0 STEP_PID=''

restore_tree() {
	[ -n "$TREE_GIT" ] || return 0
	if [ "$BISECTING" = 1 ] || [ -f "$(git -C "$TREE_GIT" rev-parse --absolute-git-dir 2>/dev/null)/BISECT_START" ]; then
		git -C "$TREE_GIT" bisect reset >/dev/null 2>&1 || true
		BISECTING=0
	fi
	if [ -n "$ORIG_REF" ]; then
		git -C "$TREE_GIT" checkout -q "$ORIG_REF" >/dev/null 2>&1 ||
			say "could not check $ORIG_REF out again in $TREE_GIT: do it by hand"
	fi
}

on_signal() {
	local sig=$1
	trap '' INT TERM HUP
	if [ -n "$STEP_PID" ]; then
		kill -TERM -- "-$STEP_PID" 2>/dev/null
		wait "$STEP_PID" 2>/dev/null
	fi
	restore_tree
	say "interrupted by signal $sig: the tree is back at $ORIG_REF"
	exit $((128 + sig))
}

# run a command in its own process group, so an interruption can stop all
# of it (make, QEMU), and wait for it
run_killable() {
	setsid "$@" &
	STEP_PID=$!
	wait "$STEP_PID"
	local rc=$?
	STEP_PID=
	return $rc
}

STEP_LINES=()
check_end() { # sha want(0|1) name
	local sha=$1 want=$2 name=$3 line rc out=$RUN_DIR/end-$3.out
	git -C "$TREE_GIT" checkout -q --detach "$sha" || { say "cannot check $name ($sha) out"; restore_tree; exit 1; }
	PERFABI_BISECT_RUN=$RUN_DIR run_killable "$RUN_SH" bisect-step "$CASE_SPEC" --tree "$TREE_GIT" \
		--runs "$RUNS" --timeout "$LIMIT" ${VARIANT:+--variant "$VARIANT"} ${EXPECT_AS:+--expect-as "$EXPECT_AS"} >"$out"
	rc=$?
	line=$(grep -m1 '^bisect-step: ' "$out")
	echo "$line" >&2
	STEP_LINES+=("$line")
	if [ $rc -ne "$want" ]; then
		restore_tree
		say "the $name end $(git -C "$TREE_GIT" rev-parse --short=12 "$sha") is not $([ "$want" = 0 ] && echo good || echo bad): ${line#bisect-step: }"
		exit 1
	fi
}

git_bisect() {
	local t0 good bad first subject nsteps log rc
	# the traps first: a SIGINT that came while bash waits for a
	# foreground command (git) before they were set would be dropped when
	# that command exits normally (bash's wait-and-cooperative-exit), and
	# the bisection would go on (restore_tree does nothing before
	# TREE_GIT and ORIG_REF are known)
	trap 'on_signal 2' INT
	trap 'on_signal 15' TERM
	trap 'on_signal 1' HUP
	[ -n "$GOOD" ] && [ -n "$BAD" ] || usage_error "bisect needs --good REF and --bad REF (or --packages SERIES)"
	TREE_GIT=${TREE:-$CALLER_CWD}
	[ -d "$TREE_GIT" ] || usage_error "no tree '$TREE_GIT'"
	TREE_GIT=$(cd "$TREE_GIT" && pwd -P)
	git -C "$TREE_GIT" rev-parse --git-dir >/dev/null 2>&1 || usage_error "'$TREE_GIT' is not a git work tree"
	[ -d "$TREE_GIT/kernel/events" ] || usage_error "'$TREE_GIT' is not a kernel tree (no kernel/events/)"
	if [ -f "$(git -C "$TREE_GIT" rev-parse --absolute-git-dir)/BISECT_START" ]; then
		usage_error "a bisection is already in progress in $TREE_GIT (git bisect reset there first)"
	fi
	[ -z "$(git -C "$TREE_GIT" status --porcelain --untracked-files=no)" ] ||
		usage_error "$TREE_GIT has uncommitted changes: commit or stash them first (bisect checks commits out)"
	good=$(git -C "$TREE_GIT" rev-parse --verify -q "$GOOD^{commit}") || usage_error "--good '$GOOD' is no commit in $TREE_GIT"
	bad=$(git -C "$TREE_GIT" rev-parse --verify -q "$BAD^{commit}") || usage_error "--bad '$BAD' is no commit in $TREE_GIT"
	git -C "$TREE_GIT" merge-base --is-ancestor "$good" "$bad" ||
		usage_error "--good $GOOD is not an ancestor of --bad $BAD"
	ORIG_REF=$(git -C "$TREE_GIT" symbolic-ref -q --short HEAD || git -C "$TREE_GIT" rev-parse HEAD)
	mkdir -p "$RUN_DIR" || usage_error "cannot create $RUN_DIR"
	say "$CASE_SPEC in $TREE_GIT: good $GOOD, bad $BAD, $RUNS run(s) a step; results in $RUN_DIR"
	t0=$(now)
	check_end "$good" 0 good
	check_end "$bad" 1 bad
	git -C "$TREE_GIT" bisect start "$bad" "$good" >/dev/null 2>&1 ||
		{ restore_tree; say "git bisect start failed"; exit 1; }
	BISECTING=1
	log=$RUN_DIR/git-bisect.log
	PERFABI_BISECT_RUN=$RUN_DIR run_killable git -C "$TREE_GIT" bisect run "$RUN_SH" bisect-step "$CASE_SPEC" \
		--tree "$TREE_GIT" --runs "$RUNS" --timeout "$LIMIT" ${VARIANT:+--variant "$VARIANT"} \
		${EXPECT_AS:+--expect-as "$EXPECT_AS"} >"$log" 2>&1
	rc=$?
	grep '^bisect-step: ' "$log" >&2
	mapfile -t -O "${#STEP_LINES[@]}" STEP_LINES < <(grep '^bisect-step: ' "$log")
	first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$log" | head -n1)
	nsteps=$(grep -c '^bisect-step: ' "$log")
	restore_tree
	trap - INT TERM HUP
	echo "steps: $nsteps bisection step(s) after the 2 end checks, in $(secs "$t0" "$(now)") s:"
	local i=0 l
	for l in "${STEP_LINES[@]}"; do
		i=$((i + 1))
		printf '  %2d  %s\n' "$i" "$(sed -E 's/^bisect-step: //' <<<"$l")"
	done
	if [ -z "$first" ]; then
		say "no single first bad commit (git bisect run exit $rc); see $log"
		grep -E 'first bad commit|skip|only skipped' "$log" | head -n 20 >&2
		exit 1
	fi
	subject=$(git -C "$TREE_GIT" log -1 --format=%s "$first")
	echo "first bad commit: $first $subject"
	echo "results: $RUN_DIR"
	exit 0
}

# ------------------------------------------------------ package bisection
pkg_bisect() {
	local pkgs=() n lo hi mid t0 first_v last_v i
	local -A verdict
	[[ $SERIES =~ ^[0-9]+\.[0-9]+(-rt|-cloud)?$ ]] || usage_error "bad --packages '$SERIES': a Debian series such as 6.12, 6.1 or 6.12-rt"
	[ -z "$GOOD$BAD$TREE" ] || usage_error "--packages walks Debian packages: --good, --bad and --tree do not apply"
	mapfile -t pkgs < <(harness/tools/vm.sh --list-packages "$SERIES") ||
		usage_error "cannot list the packages of series $SERIES"
	n=${#pkgs[@]}
	[ "$n" -ge 2 ] || { say "series $SERIES has $n package(s): nothing to bisect"; exit 1; }
	trap 'say "interrupted"; exit 130' INT
	trap 'exit 143' TERM
	mkdir -p "$RUN_DIR" || usage_error "cannot create $RUN_DIR"
	say "$CASE_SPEC over $n packages of $SERIES (${pkgs[0]} .. ${pkgs[n - 1]}); results in $RUN_DIR"
	t0=$(now)
	STEPS=0
	judge_pkg() { # index -> verdict[index]
		local p=${pkgs[$1]} label
		label=${p#linux-image-}
		label=${label%-amd64}
		judge "$p" "$label"
		verdict[$1]=$VERDICT
		STEPS=$((STEPS + 1))
		printf '  %2d  %-36s %s: %s (vm %s s)\n' "$STEPS" "$p" "$(verdict_word "$VERDICT")" "$WHY" "$VM_S"
	}
	judge_pkg 0
	if [ "${verdict[0]}" = 125 ]; then
		say "the oldest package ${pkgs[0]} gives no verdict: cannot compare"
		exit 1
	fi
	judge_pkg $((n - 1))
	if [ "${verdict[$((n - 1))]}" = "${verdict[0]}" ]; then
		echo "no change: ${pkgs[0]} and ${pkgs[n - 1]} are both $(verdict_word "${verdict[0]}") ($STEPS boots, $(secs "$t0" "$(now)") s)"
		exit 1
	fi
	if [ "${verdict[$((n - 1))]}" = 125 ]; then
		say "the newest package ${pkgs[n - 1]} gives no verdict: cannot compare"
		exit 1
	fi
	# the first index whose outcome differs from the oldest one's; a
	# package without a verdict is stepped over (the next one is tried)
	lo=0 hi=$((n - 1))
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		i=$mid
		while [ "$i" -lt "$hi" ]; do
			judge_pkg "$i"
			[ "${verdict[$i]}" = 125 ] || break
			i=$((i + 1))
		done
		if [ "$i" -ge "$hi" ]; then
			hi_skip=1
			break
		fi
		if [ "${verdict[$i]}" = "${verdict[0]}" ]; then lo=$i; else hi=$i; fi
	done
	first_v=${pkgs[$hi]} last_v=${pkgs[$lo]}
	echo "steps: $STEPS boot(s) in $(secs "$t0" "$(now)") s"
	if [ "${hi_skip:-0}" = 1 ] && [ $((hi - lo)) -gt 1 ]; then
		echo "first differing version: somewhere after $last_v up to $first_v (the packages between gave no verdict)"
		exit 1
	fi
	echo "first differing version: $first_v ($(verdict_word "${verdict[$hi]}"); $last_v and older: $(verdict_word "${verdict[0]}"))"
	echo "results: $RUN_DIR"
	exit 0
}

case "$MODE" in
run)
	if [ -n "$SERIES" ]; then pkg_bisect; else git_bisect; fi ;;
*) usage_error "unknown mode '$MODE'" ;;
esac
