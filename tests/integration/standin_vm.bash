# A stand-in for QEMU under harness/tools/vm.sh (sourced by the tests that need
# a --vm run without booting anything): a qemu-system-x86_64 first on PATH
# that prints, as the guest's console, what the perfabi init prints: the
# runner's stream of real results from the self-test cases, then the
# results directory as base64. Needs $tmp, $RUN, $SELF, $ME (lib.bash).
#
#   standin_vm KERNEL...   kernels (files in $tmp/k) named good (pass, skip,
#                          xfail), bad (a failure), hung (the guest stops in
#                          its second case), late (stops after its last
#                          result); PATH gets the stand-in
# a guest's console: the init's lines, the runner's stream, its results
console() { # name rc-of-guest runner-args...
	local name=$1 end=$2
	shift 2
	{
		echo "[    0.000000] Linux version 6.12.0-fake"
		echo "perfabi-vm: init at 1.50s uptime, kernel 6.12.0-$name, paranoid 2"
		echo "perfabi-vm: suite at 1.60s uptime"
		echo "perfabi-vm: starting perfabi-run $*"
		"$RUN" --cases "$SELF" --results "$tmp/guest-$name" --run-id run --identity "$ME" "$@" \
			>"$tmp/stream-$name" 2>/dev/null
		local rc=$?
		if [ "$end" = hang-after ]; then
			cat "$tmp/stream-$name"
			return
		fi
		if [ "$end" = hang ]; then
			# the guest stops inside the case after the first result
			sed -n '1,/^ok 1 /p' "$tmp/stream-$name"
			echo "perfabi-vm: running ${2}@$ME,paranoid=2"
			return
		fi
		cat "$tmp/stream-$name"
		echo "perfabi-vm: runner exited $rc at 3.00s uptime"
		echo "===PERFABI-RESULTS-BEGIN==="
		tar -C "$tmp/guest-$name/run" -cz . | base64
		echo "===PERFABI-RESULTS-END rc=$rc==="
	} >"$tmp/k/$name.console"
}
standin_vm() {
	mkdir -p "$tmp/k" "$tmp/bin"
	for k in "$@"; do
		: >"$tmp/k/$k"
		case $k in
		good) console good ok selftest/pass selftest/skip selftest/xfail ;;
		bad) console bad ok selftest/pass selftest/fail ;;
		hung) console hung hang selftest/pass selftest/skip ;;
		late) console late hang-after selftest/pass selftest/skip ;;
		esac
	done
	cat >"$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/usr/bin/env bash
# stand-in: print the console kept beside the -kernel image; a guest
# without its end marker "hangs" (exits as timeout(1) does)
while [ $# -gt 0 ]; do [ "$1" = -kernel ] && img=$2; shift; done
cat "$img.console"
grep -q '^===PERFABI-RESULTS-END' "$img.console" || exit 124
EOF
	chmod +x "$tmp/bin/qemu-system-x86_64"
	PATH=$tmp/bin:$PATH
}

