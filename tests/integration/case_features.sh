#!/usr/bin/env bash
# Every case that touches an optional kernel feature declares it, so that a
# kernel without the feature reports a SKIP with the reason, never a FAIL:
# a minimal kernel (no networking, no cgroup controllers, no BPF, no
# tracefs) must run the suite with 0 failures. Each rule is a use found in
# the case's source and the declaration it needs (.features names a probe
# of harness/lib/features.c; .tracefs/.pmu are the older requirements).
# A case that handles the feature's absence itself says so on the line of
# the use with a comment "feature: handled".
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2

# rule name | regular expression of a use | what declares it
rules=(
	"ns:net|/proc/self/ns/net|CLONE_NEWNET|features:ns:net"
	"ns:uts|/proc/self/ns/uts|CLONE_NEWUTS|features:ns:uts"
	"ns:ipc|/proc/self/ns/ipc|CLONE_NEWIPC|features:ns:ipc"
	"ns:pid|/proc/self/ns/pid|CLONE_NEWPID|features:ns:pid"
	"ns:user|/proc/self/ns/user|CLONE_NEWUSER|features:ns:user"
	"ns:cgroup|/proc/self/ns/cgroup|CLONE_NEWCGROUP|features:ns:cgroup"
	"ns:time|/proc/self/ns/time|CLONE_NEWTIME|features:ns:time"
	"cgroup|PERF_FLAG_PID_CGROUP|PERF_SAMPLE_CGROUP([^ ]| [^<]|$)|_attr[(]PERF_COUNT_SW_CGROUP_SWITCHES|pa_perf_cgroup|pa_cgroup_new|[.]cgroup = 1|features:cgroup"
	"bpf|pa_bpf_|__NR_bpf|IOC_SET_BPF|IOC_QUERY_BPF|[.]bpf_event = 1|[.]ksymbol = 1|features:bpf"
	"tracefs|pa_tracepoint_id|pa_tracefs|tracefs:"
)

declared() { # file what -> 0 when the case declares it
	local f=$1 what=$2
	case "$what" in
	features:*)
		grep -Eq "^[[:space:]]*\.features[[:space:]]*=[[:space:]]*\"([^\"]* )?${what#features:}( [^\"]*)?\"" "$f" ;;
	tracefs:)
		grep -Eq '^[[:space:]]*\.tracefs[[:space:]]*=[[:space:]]*true' "$f" ;;
	esac
}

missing=()
ncases=0
for f in cases/*/*.c; do
	ncases=$((ncases + 1))
	for r in "${rules[@]}"; do
		name=${r%%|*}
		what=${r##*|}
		re=${r#*|}
		re=${re%|*}
		if grep -E "$re" "$f" | grep -vq 'feature: handled' && ! declared "$f" "$what"; then
			missing+=("$f uses $name ($(grep -Eo "$re" "$f" | head -n1)) but does not declare it (${what/features:/.features \"}${what/#features:*/\"})")
		fi
	done
done
check "the scan saw the cases" test "$ncases" -gt 300
if [ ${#missing[@]} -eq 0 ]; then
	ok "every case that uses an optional kernel feature declares it"
else
	not_ok "every case that uses an optional kernel feature declares it" "${#missing[@]} do not"
	printf '# %s\n' "${missing[@]}"
fi

# every name a case declares is one the harness probes
bad=$(grep -ho '^[[:space:]]*\.features[[:space:]]*=[[:space:]]*"[^"]*"' cases/*/*.c |
	sed 's/.*"\(.*\)"/\1/' | tr ' ' '\n' | sort -u |
	grep -vxE 'ns:(net|uts|ipc|pid|user|cgroup|time|mnt)|cgroup|bpf|hrtimer|bp-trap' || true)
check "every declared feature is known to harness/lib/features.c${bad:+ (unknown: $bad)}" test -z "$bad"
finish
