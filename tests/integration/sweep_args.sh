#!/usr/bin/env bash
# ./run.sh kernel sweep: bad input is refused with one line and exit 2;
# --list and --pick; the option check, the table and the exit status with
# a stand-in builder and VM (the real ones need a kernel build and QEMU,
# minutes per variant).
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=harness/tools/sweep.sh

out=$($S --help 2>&1); rc=$?
check "--help exits 0" test $rc -eq 0
check "--help names the shared build directory" grep -q "ONE build directory" <<<"$out"
for bad in "--variant nosuch" "--variant" "--pick xyz" "--pick 12 --variant nobpf" "--jobs 0" \
           "--bogus" "--source /nonexistent" "--variant ../perfabi"; do
	# shellcheck disable=SC2086
	out=$($S --results "$tmp/r" $bad 2>&1); rc=$?
	check "'$bad' is refused with exit 2" test $rc -eq 2
	check "'$bad' gets one line" test "$(wc -l <<<"$out")" -eq 1
done
check "nothing was written for refused input" test ! -e "$tmp/r"
out=$(harness/tools/kernel.sh sweep --variant nosuch 2>&1); rc=$?
check "kernel.sh sweep passes through: unknown variant, exit 2" test $rc -eq 2
check "... in one line naming the variant" grep -q "^sweep.sh: unknown variant 'nosuch'" <<<"$out"
out=$(harness/tools/kernel.sh build --dir ../x 2>&1); rc=$?
check "kernel.sh build --dir takes a plain name only (exit 2, one line)" \
	test $rc -eq 2 -a "$(wc -l <<<"$out")" -eq 1

# --list: every fragment, then minimal; what each turns off
list=$($S --list); rc=$?
check "--list exits 0" test $rc -eq 0
for f in fixtures/kernel/sweep/*.config; do
	v=$(basename "$f" .config)
	check "--list has $v" grep -q "^$v " <<<"$list"
done
check "--list ends with minimal" grep -q "^minimal " <<<"$(tail -n1 <<<"$list")"
check "nobpf turns off BPF_SYSCALL" grep -q "^nobpf .*BPF_SYSCALL" <<<"$list"
check "nohwbreakpoint: not configurable on x86" grep -q "^nohwbreakpoint .*not configurable on x86" <<<"$list"
check "minimal turns off every option of the others" bash -c \
	'm=$(grep "^minimal " <<<"$1"); for o in SMP ACPI CGROUPS FILE_LOCKING KPROBES UPROBES BPF_SYSCALL FTRACE_SYSCALLS HIGH_RES_TIMERS NAMESPACES; do grep -qw "$o" <<<"$m" || exit 1; done' _ "$list"
check "minimal does not claim HAVE_HW_BREAKPOINT" bash -c '! grep "^minimal " <<<"$1" | grep -q HW_BREAKPOINT' _ "$list"
nconf=$(grep -vc 'not configurable' <<<"$list")
# with a ledger of verified variants (0 FAIL), --pick rotates over those
nver=$(for v in $(grep -v 'not configurable' <<<"$list" | cut -d' ' -f1); do
	awk -F'\t' -v n="$v" '$1 == n && $6 == "0" { ok = 1 } END { exit !ok }' fixtures/kernel/sweep/verified.tsv 2>/dev/null && echo "$v"
done | wc -l)
[ "$nver" -eq 0 ] || nconf=$nver

# --pick: KEY mod the configurable variants, every one for some key
picked=$(for k in $(seq 0 $((nconf - 1))); do $S --pick "$(printf '%x' "$k")" --list | cut -d' ' -f1; done | sort -u | wc -l)
check "--pick 0..$((nconf - 1)) covers all $nconf verified (else configurable) variants" test "$picked" -eq "$nconf"
check "--pick of a commit id uses its last 7 hex digits" \
	test "$($S --pick 0123456789abcdef0123456789abcdef0123abcd --list | cut -d' ' -f1)" = "$($S --pick 123abcd --list | cut -d' ' -f1)"
check "... mod the number of configurable variants" \
	test "$($S --pick 123abcd --list | cut -d' ' -f1)" = "$($S --pick "$(printf '%x' $((16#123abcd % nconf)))" --list | cut -d' ' -f1)"
check "--pick never picks the unconfigurable" bash -c \
	'for k in $(seq 0 $1); do harness/tools/sweep.sh --pick "$(printf %x $k)" --list | grep -q "not configurable" && exit 1; done; exit 0' _ $((nconf + 2))

# stand-ins: a tree, a builder writing the .config the fragments ask for
# (KEEP_ON: a symbol Kconfig "keeps"), a VM writing results (FAIL_IN: the
# variant whose run has a failure)
mkdir -p "$tmp/tree/arch/x86"
printf 'config X86\n\tselect HAVE_HW_BREAKPOINT\n' >"$tmp/tree/arch/x86/Kconfig"
cat >"$tmp/kernel" <<'K'
#!/usr/bin/env bash
[ "$1" = source ] && { echo "$TREE"; exit 0; }
shift; frags=() dir=
while [ $# -gt 0 ]; do
	case "$1" in --config) frags+=("$2"); shift 2 ;; --dir) dir=$2; shift 2 ;; --jobs) shift 2 ;; *) shift ;; esac
done
[ "$dir" = sweep ] || { echo "not the shared directory" >&2; exit 1; }
o=$OUTD/sweep; mkdir -p "$o/arch/x86/boot"; echo "image $RANDOM" >"$o/arch/x86/boot/bzImage"
: >"$o/.config"
for s in SMP ACPI PCI BPF_SYSCALL BPF_JIT BPF_EVENTS CGROUPS CGROUP_PERF; do
	if [ "$s" != "${KEEP_ON:-}" ] && cat "${frags[@]}" | grep -q "^# CONFIG_$s is not set"; then
		echo "# CONFIG_$s is not set"; else echo "CONFIG_$s=y"; fi
done >"$o/.config"
echo "$o/arch/x86/boot/bzImage"
K
cat >"$tmp/vm" <<'V'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
	case "$1" in --results) R=$2; shift 2 ;; --run-id) I=$2; shift 2 ;; --) shift; break ;; *) IMG=$1; shift ;; esac
done
echo "$I $IMG" >>"$VMLOG"
[ $# -eq 0 ] || echo "$I runner: $*" >>"$VMLOG.runner"
d=$R/$I/bzImage; mkdir -p "$d"
f=0; [ "$I" = "${FAIL_IN:-}" ] && f=1
printf '  "counts": {"pass": 10, "fail": %d, "skip": 3, "xfail": 1, "xpass": 0},\n' $f >"$d/summary.json"
printf 'a/b@root,paranoid=2\tpass\t1\t\n' >"$d/results.tsv"
[ $f -eq 0 ] || printf 'c/d@user,paranoid=2\tfail\t1\twrong count: 3 != 4\n' >>"$d/results.tsv"
exit $f
V
chmod +x "$tmp/kernel" "$tmp/vm"
export PERFABI_SWEEP_KERNEL=$tmp/kernel PERFABI_SWEEP_VM=$tmp/vm PERFABI_CACHE_ROOT=$tmp/cache
export TREE=$tmp/tree OUTD=$tmp/out VMLOG=$tmp/vmlog PERFABI_SWEEP_NICE=0

out=$($S --results "$tmp/r1" --variant nobpf --variant nohwbreakpoint 2>&1); rc=$?
check "a clean sweep exits 0" test $rc -eq 0
check "each option is checked off in the .config" grep -q "nobpf: check CONFIG_BPF_JIT: off" <<<"$out"
check "the table row: pass skip fail xfail" grep -Eq "^nobpf +BPF_SYSCALL BPF_JIT BPF_EVENTS +10 +3 +0 +1 +[0-9]+ +[0-9]+" <<<"$out"
check "nohwbreakpoint: not configurable on x86, nothing built" grep -Eq "^nohwbreakpoint .*not configurable on x86" <<<"$out"
check "the VM booted the kept image" grep -q "^nobpf $tmp/cache/sweep/linux-source-6.12/nobpf/bzImage$" "$tmp/vmlog"
check "the image's config is kept next to it" test -f "$tmp/cache/sweep/linux-source-6.12/nobpf/config-nobpf"
check "the table is written to the run directory" bash -c 'grep -q "^nobpf " "$1"/sweep-*/table.txt' _ "$tmp/r1"
check "... and row by row, as the sweep goes" bash -c 'grep -q "^nobpf " "$1"/sweep-*/rows.txt' _ "$tmp/r1"

: >"$tmp/vmlog"
out=$(KEEP_ON=BPF_JIT $S --results "$tmp/r2" --variant nobpf 2>&1); rc=$?
check "an option Kconfig kept on: exit 1" test $rc -eq 1
check "... said in the table" grep -q "^nobpf .*Kconfig kept BPF_JIT on; not booted" <<<"$out"
check "... and the variant is not booted" test ! -s "$tmp/vmlog"

out=$(FAIL_IN=nocgroups $S --results "$tmp/r3" --variant nocgroups --variant nobpf 2>&1); rc=$?
check "a case failing in one variant: exit 1" test $rc -eq 1
check "... the row counts the failure and names the case" grep -Eq "^nocgroups .* 10 +3 +1 +1 .*failed: c/d" <<<"$out"
check "... the other variant still ran" grep -Eq "^nobpf .* 10 +3 +0 +1 " <<<"$out"
check "... the failure's diagnostic is listed" grep -q "^nocgroups: c/d@user,paranoid=2: wrong count: 3 != 4$" <<<"$out"

: >"$tmp/vmlog"
out=$($S --results "$tmp/r4" --no-build --variant nobpf 2>&1); rc=$?
check "--no-build boots the kept image" test $rc -eq 0 -a "$(cat "$tmp/vmlog")" = "nobpf $tmp/cache/sweep/linux-source-6.12/nobpf/bzImage"
out=$($S --results "$tmp/r7" --no-build --variant nobpf -- --timeout-scale 2 -- --repeat 2 'a/*' 2>&1); rc=$?
check "-- vm.sh options -- runner options: exit 0" test $rc -eq 0
check "... the runner options go after the image" \
	test "$(cat "$tmp/vmlog.runner")" = "nobpf runner: --repeat 2 a/*"
out=$($S --results "$tmp/r5" --no-build --variant nosmp 2>&1); rc=$?
check "--no-build without a kept image: exit 1, said" test $rc -eq 1
check "... in the row" grep -q "^nosmp .*no kept image" <<<"$out"

printf 'config X86\n\tselect HAVE_HW_BREAKPOINT if FOO\n' >"$tmp/tree/arch/x86/Kconfig"
out=$($S --results "$tmp/r6" --variant nohwbreakpoint 2>&1); rc=$?
check "a tree that lets HAVE_HW_BREAKPOINT go: exit 1, write the fragment" \
	test $rc -eq 1 -a -n "$(grep 'write the fragment' <<<"$out")"

# CI runs one variant by rotation
check ".ci/run runs one sweep variant picked by the commit" grep -q 'kernel sweep --pick "$(git rev-parse HEAD)"' .ci/run
finish
