#!/usr/bin/env bash
# perfabi-run -j runs cases side by side; a case that changes or watches
# something global must run alone and say so (.alone = true). The harness
# catches, at run time, a case that opens a CPU-wide event, writes a sysctl
# or pins itself through the library; this catches, in the source, the
# uses it cannot see. A use that is harmless beside other cases says so on
# its line with a comment "alone: not needed".
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2

# what needs the machine alone | a regular expression of a use
rules=(
	"a sysctl|pa_sysctl_write|pa_throttle_open"
	"CPU hotplug|pa_hotplug|pa_cpu_offline|pa_cpu_online"
	"pinning|sched_setaffinity|pa_pin_cpu|pa_pin_here|pa_pin_unswapped|CPU_SET[(]|pa_race_run"
	"cgroups|pa_cgroup_new|PERF_FLAG_PID_CGROUP"
	"tracefs probe definitions|uprobe_events|kprobe_events|pa_uprobe_event"
	"context switch or migration counts|CONTEXT_SWITCHES|CPU_MIGRATIONS"
	"BPF programs (bpf_prog_active is per CPU: one running drops another's hits)|pa_bpf_|IOC_SET_BPF"
)

missing=()
ncases=0
for f in cases/*/*.c; do
	ncases=$((ncases + 1))
	grep -Eq '^[[:space:]]*\.alone[[:space:]]*=[[:space:]]*true' "$f" && continue
	for r in "${rules[@]}"; do
		name=${r%%|*}
		re=${r#*|}
		if grep -E "$re" "$f" | grep -vq 'alone: not needed'; then
			missing+=("$f uses $name ($(grep -Eo "$re" "$f" | head -n1)) but is not .alone = true")
			break
		fi
	done
done
check "the scan saw the cases" test "$ncases" -gt 300
if [ ${#missing[@]} -eq 0 ]; then
	ok "every case that uses something global declares .alone"
else
	not_ok "every case that uses something global declares .alone" "${#missing[@]} do not"
	printf '# %s\n' "${missing[@]}"
fi
finish
