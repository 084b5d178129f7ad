#!/usr/bin/env bash
# perfabi-report vm-collect, vm.sh's reading of a guest's console after it
# ended, on consoles written here: kernel trouble while a case ran in a
# guest that survived (that case fails), a panic (the case the oops's Comm:
# names fails, the results come from the streamed KTAP), trouble only
# after the runner exited (noted, no case blamed), a guest that never
# booted, a kernel that did not build. vm_stream.sh covers the rest with
# a stand-in QEMU.
. "$(dirname "$0")/lib.bash"
REPORT="$BUILD/perfabi-report"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t=$'\t'

# a console: the init's lines, $2 between the runner's first and second
# results, the results directory as base64 when $3 is "results"
console() { # dir trouble-lines results|none
	local d=$tmp/$1
	mkdir -p "$d/guest"
	printf 'selftest/pass@root,paranoid=2%spass%s5%s\nselftest/skip@root,paranoid=2%sskip%s3%sno reason\n' \
		"$t" "$t" "$t" "$t" "$t" "$t" >"$d/guest/results.tsv"
	{
		echo "[    0.000000] Linux version 6.12.0-fake"
		echo "perfabi-vm: init at 1.50s uptime, kernel 6.12.0-$1, paranoid 2"
		echo "perfabi-vm: suite at 1.60s uptime"
		echo "perfabi-vm: starting perfabi-run"
		echo "TAP version 13"
		echo "1..2"
		echo "ok 1 selftest/pass@root,paranoid=2"
		[ -z "$2" ] || printf '%s\n' "$2"
		if [ "$3" = results ]; then
			echo "ok 2 selftest/skip@root,paranoid=2 # SKIP no reason"
			echo "perfabi-vm: runner exited 0 at 3.25s uptime"
			[ -z "${4:-}" ] || printf '%s\n' "$4"
			echo "===PERFABI-RESULTS-BEGIN==="
			tar -C "$d/guest" -cz results.tsv | base64
			echo "===PERFABI-RESULTS-END rc=0==="
		fi
	} >"$d/console.log"
	if [ "$3" = results ]; then cp "$d/guest/results.tsv" "$d/"; fi
}
collect() { # dir qemu-exit
	"$REPORT" vm-collect --label "$1" --number 1 --run-id r --accel tcg --wall-s 9.5 \
		--limit-s 1200 --initramfs lz4:3:0.5:0.2 --qemu-exit "$2" --cases "$BUILD/testcases" \
		--runner "$BUILD/perfabi-run" "$tmp/$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
}

# a WARN while selftest/skip ran; the guest went on
console warn "[    2.100000] WARNING: CPU: 0 PID: 77 at kernel/events/core.c:123 perf_x+0x1/0x2" results
collect warn 0
rc=$?
check "kernel trouble while the suite ran: not ok, exit 1" \
	bash -c '[ "$2" = 1 ] && grep -qx "not ok 1 warn" "$1"' _ "$tmp/warn.out" "$rc"
check "the state is kernel-warning, with the message" \
	grep -q '^# detail: kernel-warning: WARNING: CPU: 0 PID: 77 at kernel/events/core.c:123' "$tmp/warn.out"
check "the result printed next after the message fails, saying why" \
	grep -q "^selftest/skip@root,paranoid=2${t}fail${t}3${t}the kernel logged trouble while it ran (kernel-warning)" "$tmp/warn/results.tsv"
check "the result before it keeps its outcome" \
	grep -q "^selftest/pass@root,paranoid=2${t}pass${t}5${t}\$" "$tmp/warn/results.tsv"
check "kernel-trouble.txt holds the lines around it" \
	grep -q 'WARNING: CPU: 0' "$tmp/warn/kernel-trouble.txt"
check "vm.json: state, release, boot and suite times, the runner's exit" \
	bash -c 'grep -q "^  \"state\": \"kernel-warning\",$" "$1" && grep -q "^  \"release\": \"6.12.0-warn\",$" "$1" &&
		grep -q "^  \"boot_s\": 1.50,$" "$1" && grep -q "^  \"suite_s\": 1.6,$" "$1" &&
		grep -q "^  \"runner_exit\": 0,$" "$1" && grep -q "^  \"results_from\": \"guest\",$" "$1" &&
		grep -q "^  \"initramfs\": {\"format\": \"lz4\", \"mb\": 3, \"build_s\": 0.5, \"pack_s\": 0.2},$" "$1"' _ "$tmp/warn/vm.json"

# a panic while a case ran: no results came back; the oops's Comm: names it
console panic "$(printf '%s\n' "[    2.2] Oops: general protection fault, probably for non-canonical address" \
	"[    2.2] CPU: 0 UID: 0 PID: 80 Comm: skip Not tainted 6.12.0" \
	"[    2.3] Kernel panic - not syncing: Fatal exception")" none
collect panic 0
check "a panic: state panic" grep -q '^# detail: panic: Oops: general protection fault' "$tmp/panic.out"
check "the results come from the streamed KTAP" \
	grep -q "^selftest/pass@root,paranoid=2${t}pass${t}0${t}\$" "$tmp/panic/results.tsv"
check "the case the oops's Comm: names fails, in its cell (the previous result's level)" \
	grep -q "^selftest/skip@root,paranoid=2${t}fail${t}0${t}panic: .*; last result before it: selftest/pass@root,paranoid=2 (kernel panic, see console.log and kernel-trouble.txt)\$" "$tmp/panic/results.tsv"
check "inside the kernel's subtest, where its plan has room" \
	grep -qx '    not ok 2 selftest/skip@root,paranoid=2' "$tmp/panic.out"
check "and run.tap ends with it" \
	bash -c 'tail -n1 "$1" | grep -qx "not ok 2 selftest/skip@root,paranoid=2"' _ "$tmp/panic/run.tap"
check "summary.json says the run is incomplete" \
	grep -q '"incomplete": true' "$tmp/panic/summary.json"

# trouble only after the runner exited (the serial port's "nobody cared")
console late "" results "[    9.0] irq 4: nobody cared (try booting with the \"irqpoll\" option)"
collect late 0
rc=$?
check "trouble after the suite ended blames no case: ok, exit 0" \
	bash -c '[ "$2" = 0 ] && grep -qx "ok 1 late" "$1"' _ "$tmp/late.out" "$rc"
check "and is noted in vm.json" \
	grep -q '^  "trouble_after_suite": "irq 4: nobody cared (try booting with the \\"irqpoll\\" option)",$' "$tmp/late/vm.json"

# a guest that never reached the init
mkdir -p "$tmp/noboot"
printf 'qemu-system-x86_64: cannot set up guest memory\n' >"$tmp/noboot/console.log"
collect noboot 1
check "a guest that never booted: no-boot, with QEMU's words" \
	grep -q '^# detail: no-boot: the guest never reached the perfabi init (qemu exit 1: qemu-system-x86_64: cannot set up guest memory)' "$tmp/noboot.out"

# no guest at all
mkdir -p "$tmp/nobuild"
"$REPORT" vm-collect --label nobuild --number 3 --state build-failed --detail "the kernel build failed: x" \
	"$tmp/nobuild" >"$tmp/nobuild.out" 2>/dev/null
check "a kernel that did not build: not ok with why" \
	bash -c 'grep -qx "# detail: build-failed: the kernel build failed: x" "$1" && grep -qx "not ok 3 nobuild" "$1"' _ "$tmp/nobuild.out"
"$REPORT" vm-summary "$tmp" warn nobuild >"$tmp/summary" 2>&1
check "vm-summary: a line per kernel, then the failures" \
	bash -c 'grep -q "^# warn  *kernel-warning tcg   boot   1.50 s  wall     9.5 s  1 pass 1 fail 0 skip" "$1" &&
		grep -q "^# nobuild  *-  *the kernel build failed: x$" "$1" &&
		grep -q "^# FAIL \[warn\] selftest/skip@root,paranoid=2: the kernel logged trouble" "$1"' _ "$tmp/summary"
one_line() { local rc; "$@" >/dev/null 2>"$tmp/e"; rc=$?; [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ]; }
check "vm-collect without its DIR: one line, exit 2" one_line "$REPORT" vm-collect --label x --number 1
check "an unknown option: one line, exit 2" one_line "$REPORT" vm-collect --frob x --label x --number 1 "$tmp"
finish
