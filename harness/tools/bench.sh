#!/usr/bin/env bash
# perfabi: how long the suite takes, and whether it says the same each time.
#
#   harness/tools/bench.sh [--runs N] [--load] [--results DIR] [--run-id ID] [-- runner options]
#
# See usage() below. ./run.sh --bench calls it.
set -uo pipefail
CALLER_CWD=$PWD
cd "$(dirname "$0")/../.." || exit 2
RUNNER=${PERFABI_BENCH_RUNNER:-build/perfabi-run}

usage() {
	cat harness/tools/usage/bench.txt
}

PA_PROG=bench.sh
. harness/tools/lib.sh

RUNS=3 RESULTS=results RUN_ID=bench-$(date -u +%Y%m%d-%H%M%S) LOAD=0 BUILDB=0 PET=
RARGS=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--load) LOAD=1; shift ;;
	--build) BUILDB=1; shift ;;
	--runs|--results|--run-id|--pet)
		[ $# -ge 2 ] || die "option '$1' needs an argument"
		case "$1" in
		--runs) RUNS=$2 ;;
		--results) RESULTS=$2 ;;
		--run-id) RUN_ID=$2 ;;
		--pet) PET=$2 ;;
		esac
		shift 2 ;;
	--runs=*|--results=*|--run-id=*|--pet=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--) shift; RARGS=("$@"); break ;;
	[0-9]*) RUNS=$1; shift ;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] && [ "$RUNS" -le 100 ] || die "bad number of runs '$RUNS': 1 to 100"
[[ $RUN_ID =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad --run-id '$RUN_ID': a plain directory name is needed"
for a in "${RARGS[@]+"${RARGS[@]}"}"; do
	case "$a" in
	--results|--results=*|--run-id|--run-id=*|--no-results|-l|--list|--fixes|--abi-check*|-h|--help)
		die "runner option '$a' cannot be used here (the bench names its runs and reads their results)" ;;
	esac
done
case "$RESULTS" in /*) ;; *) RESULTS=$CALLER_CWD/$RESULTS ;; esac
[ -x "$RUNNER" ] || die "$RUNNER is missing: run make first (./run.sh --bench builds it)"
case "$PET" in ''|/*) ;; *) PET=$CALLER_CWD/$PET ;; esac
[ -z "$PET" ] || [ -x "$PET/run_tests.sh" ] || die "--pet $PET: no run_tests.sh there (a built perf_event_tests tree is needed)"
OUT=$RESULTS/$RUN_ID
[ ! -e "$OUT" ] || die "$OUT exists: choose another --run-id"
mkdir -p "$OUT" || die "cannot create $OUT"

# user+system seconds of all waited-for children so far: `times` must run
# in this shell (in $(...) it would report the subshell's children)
cpu_children() { # -> CPU
	local line
	times >"$OUT/.times"
	line=$(sed -n 2p "$OUT/.times")	# "XmY.YYYs XmY.YYYs"
	CPU=$(awk -v l="$line" 'BEGIN {
		n = split(l, f, " "); s = 0
		for (i = 1; i <= n; i++) { split(f[i], m, "m"); sub("s", "", m[2]); s += m[1] * 60 + m[2] }
		printf "%.3f", s }')
}

REPORT=$OUT/bench.txt
: >"$OUT/runs.tsv"
: >"$OUT/build.txt"
if [ "$BUILDB" = 1 ]; then
	# a clean build into a directory of its own, then one case edited
	# (touched; its time put back after), then make install of it
	bb=$OUT/build-clean src=$(ls cases/*/*.c | head -n1) jobs=$(nproc)
	t0=$(date +%s.%N)
	make -s -j"$jobs" BUILD="$bb" all >"$OUT/build.log" 2>&1 || die "the clean build failed: $OUT/build.log"
	t1=$(date +%s.%N) mt=$(stat -c %y "$src")
	touch "$src"
	make -s -j"$jobs" BUILD="$bb" all >>"$OUT/build.log" 2>&1; rc=$?
	t2=$(date +%s.%N)
	touch -d "$mt" "$src"
	[ $rc -eq 0 ] && make -s BUILD="$bb" install INSTALL_PATH="$OUT/install" >>"$OUT/build.log" 2>&1 ||
		die "the incremental build or make install failed: $OUT/build.log"
	printf 'build (make -j%s): clean %.1f s, after touching %s %.1f s; %s MB built, %s MB installed, the cases %s MB\n' \
		"$jobs" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$src" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')" \
		"$(du -sm "$bb" | cut -f1)" "$(du -sm "$OUT/install" | cut -f1)" "$(du -smL "$bb/cases/perfabi-cases" | cut -f1)" >"$OUT/build.txt"
	rm -rf "$bb" "$OUT/install"
	cat "$OUT/build.txt" >&2
fi
: >"$OUT/pet.tsv"
status=0
runner=
HOGS=0
if [ "$LOAD" = 1 ]; then
	# shellcheck source=harness/tools/load.sh
	. harness/tools/load.sh
	HOGS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
	load_traps runner	# the hogs end on every way out; a signal ends the run in progress too
	load_start "$HOGS"
	echo "bench.sh: $HOGS CPU hog(s) running" >&2
fi
for i in $(seq 1 "$RUNS"); do
	cpu_children; c0=$CPU
	t0=$(date +%s.%N)
	if [ "$LOAD" = 1 ]; then
		"$RUNNER" --results "$OUT" --run-id "run-$i" "${RARGS[@]+"${RARGS[@]}"}" >"$OUT/run-$i.log" 2>&1 &
		runner=$!
		wait "$runner"
		rc=$?
		runner=
	else
		"$RUNNER" --results "$OUT" --run-id "run-$i" "${RARGS[@]+"${RARGS[@]}"}" >"$OUT/run-$i.log" 2>&1
		rc=$?
	fi
	t1=$(date +%s.%N)
	cpu_children; c1=$CPU
	if [ ! -f "$OUT/run-$i/results.tsv" ]; then
		echo "bench.sh: run $i did not start (exit $rc): $(tail -n1 "$OUT/run-$i.log")" >&2
		exit 1
	fi
	n=$(wc -l <"$OUT/run-$i/results.tsv")
	inside=$(awk -F'\t' '{ s += $3 } END { printf "%.3f", s / 1000 }' "$OUT/run-$i/results.tsv")
	outcomes=$(awk -F'\t' '{ c[$2]++ } END { printf "%d\t%d\t%d", c["pass"] + c["xfail"], c["fail"] + c["xpass"], c["skip"] }' "$OUT/run-$i/results.tsv")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
		"$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", b - a }')" "$n" "$inside" "$rc" "$outcomes" >>"$OUT/runs.tsv"
	echo "bench.sh: run $i of $RUNS: $(cut -f2 <(tail -n1 "$OUT/runs.tsv")) s wall, $n results" >&2
	if [ -n "$PET" ]; then	# perf_event_tests right after, so both see the same machine
		# in a session of its own: some of its tests leave busy
		# children behind (prctl_inherit), which would load every
		# later run; what is left of the session is killed
		t0=$(date +%s.%N)
		# shellcheck disable=SC2016 # $$ of the inner shell: the session
		setsid -w bash -c 'echo $$ >"$1.sid"; exec "$2/run_tests.sh"' pet "$OUT/pet-$i" "$PET" >"$OUT/pet-$i.log" 2>&1
		t1=$(date +%s.%N)
		sid=$(cat "$OUT/pet-$i.sid") && rm -f "$OUT/pet-$i.sid"
		left=$(pgrep -s "$sid" | wc -l)
		[ "$left" -eq 0 ] || { pkill -KILL -s "$sid"; echo "bench.sh: perf_event_tests run $i left $left process(es) running: killed" >&2; }
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$OUT/pet.tsv"
		echo "bench.sh: perf_event_tests run $i: $(tail -n1 "$OUT/pet.tsv") s wall" >&2
	fi
done
[ "$LOAD" = 1 ] && load_stop

{
	echo "# perfabi bench: $RUNS run(s) of: perfabi-run ${RARGS[*]-(default matrix)}"
	echo "# on $(uname -r), $(nproc) CPUs, paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	[ "$LOAD" = 1 ] && echo "# under load: $HOGS CPU hog(s) (harness/tools/load.sh) ran throughout"
	cat "$OUT/build.txt"
	if [ -s "$OUT/pet.tsv" ]; then
		med() { sort -n | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
		pm=$(med <"$OUT/pet.tsv") wm=$(cut -f2 "$OUT/runs.tsv" | med)
		awk -v d="$PET" -v p="$pm" -v w="$wm" 'BEGIN { printf "perf_event_tests (%s/run_tests.sh, after each run): median %.2f s wall; perfabi/perf_event_tests %.2f (medians)\n", d, p, w / p }'
	fi
	echo
	# with -j N the cases overlap: in_cases/wall is how many ran at once on
	# average, and the runner's own time per result is not measurable this way
	# pass counts xfail too, fail counts xpass (the runner's exit 1 either way)
	echo "run  wall_s  cpu_s  results  in_cases_s  in_cases/wall  overhead_ms_per_result  exit  pass  fail  skip"
	awk -F'\t' '{ o = $5 > $2 ? "-" : sprintf("%.2f", ($2 - $5) * 1000 / ($4 ? $4 : 1))
		printf "%-4s %7.2f %6.2f %8d %11.2f %14.2f %23s %5d %5d %5d %5d\n", $1, $2, $3, $4, $5, $5 / ($2 ? $2 : 1), o, $6, $7, $8, $9 }' "$OUT/runs.tsv"
	awk -F'\t' '{ w[NR] = $2; c[NR] = $3; o[NR] = ($2 - $5) * 1000 / ($4 ? $4 : 1) }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { printf "median %6.2f %6.2f %8s %11s %14s %23s\n", med(w, NR), med(c, NR), "", "", "", (o[1] < 0 ? "-" : sprintf("%.2f", med(o, NR))) }' "$OUT/runs.tsv"
	echo
	echo "case time per matrix cell (seconds; median over the runs):"
	for i in $(seq 1 "$RUNS"); do
		awk -F'\t' -v r="$i" '{ cell = $1; sub(/^[^@]*@/, "", cell); s[cell] += $3 } END { for (c in s) printf "%s\t%s\t%.3f\n", c, r, s[c] / 1000 }' "$OUT/run-$i/results.tsv"
	done | sort -k1,1 -k3,3n | awk -F'\t' '
		{ v[$1] = v[$1] " " $3; n[$1]++ }
		END { for (c in v) { split(substr(v[c], 2), a, " "); printf "  %-28s %8.2f\n", c, a[int((n[c] + 1) / 2)] } }' | sort
	echo
	echo "the 10 slowest cases (all their results summed, milliseconds; median over the runs):"
	for i in $(seq 1 "$RUNS"); do
		awk -F'\t' '{ c = $1; sub(/@.*/, "", c); s[c] += $3 } END { for (k in s) printf "%s\t%d\n", k, s[k] }' "$OUT/run-$i/results.tsv"
	done | sort -k1,1 -k2,2n | awk -F'\t' '
		{ v[$1] = v[$1] " " $2; n[$1]++ }
		END { for (c in v) { split(substr(v[c], 2), a, " "); printf "%d\t%s\n", a[int((n[c] + 1) / 2)], c } }' |
		sort -k1,1nr | head -n 10 | awk -F'\t' '{ printf "  %8d  %s\n", $1, $2 }'
	echo
	printf 'one result (fork to exit of the case binary), milliseconds, all runs: '
	cat "$OUT"/run-*/results.tsv | cut -f3 | sort -n | awk '{ a[NR] = $1 } END { printf "median %d, 90th percentile %d, max %d\n", a[int((NR + 1) / 2)], a[int(NR * 0.9)], a[NR] }'
	echo
	if [ "$RUNS" -gt 1 ]; then
		for i in $(seq 1 "$RUNS"); do cut -f1,2 "$OUT/run-$i/results.tsv" | sed "s/^/$i\t/"; done |
			awk -F'\t' -v runs="$RUNS" '
			{ o[$2] = o[$2] " " $1 ":" $3; seen[$2]++ }
			END {
				for (r in seen) {
					split(substr(o[r], 2), a, " "); diff = 0
					split(a[1], f, ":")
					for (i = 2; i <= length(a); i++) { split(a[i], g, ":"); if (g[2] != f[2]) diff = 1 }
					if (seen[r] != runs) diff = 1
					if (diff) { printf "  FLAKE %s:%s\n", r, o[r]; n++ }
				}
				if (!n) printf "flakes: none: every result had the same outcome in all %d runs\n", runs
				else printf "flakes: %d result(s) differed between runs (run:outcome above)\n", n
			}' | sort
	else
		echo "flakes: not checked (one run)"
	fi
} >"$REPORT"
rm -f "$OUT/.times"
cat "$REPORT"
echo "bench.sh: $REPORT" >&2
grep -q "^  FLAKE" "$REPORT" && status=1
exit $status
