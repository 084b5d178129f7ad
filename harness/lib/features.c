// SPDX-License-Identifier: GPL-2.0
/*
 * Optional kernel features a case declares in .features, each probed on
 * the running kernel: a missing one is a SKIP that names the feature and
 * the config option behind it, never a failure. A minimal kernel (no
 * networking, no cgroup controllers, no high-resolution timers) must run
 * the suite with 0 FAIL. tests/integration/case_features.sh checks that a
 * case using one of these features declares it.
 */
#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/hw_breakpoint.h>

static char reason[256];

static const char *ns_missing(const char *ns)
{
	static const struct { const char *name, *config; } nss[] = {
		{ "net", "CONFIG_NET_NS" }, { "uts", "CONFIG_UTS_NS" },
		{ "ipc", "CONFIG_IPC_NS" }, { "pid", "CONFIG_PID_NS" },
		{ "user", "CONFIG_USER_NS" }, { "cgroup", "CONFIG_CGROUPS" },
		{ "time", "CONFIG_TIME_NS" }, { "mnt", "always built" },
	};
	char path[64];

	for (size_t i = 0; i < sizeof(nss) / sizeof(nss[0]); i++) {
		if (strcmp(ns, nss[i].name))
			continue;
		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
		if (!access(path, F_OK))
			return NULL;
		snprintf(reason, sizeof(reason),
			 "kernel without %s namespaces (%s): no %s", ns, nss[i].config, path);
		return reason;
	}
	snprintf(reason, sizeof(reason), "unknown feature 'ns:%s' in the case", ns);
	return reason;
}

/* The perf_event cgroup controller (CONFIG_CGROUP_PERF): cgroup events,
 * PERF_SAMPLE_CGROUP, attr.cgroup and PERF_COUNT_SW_CGROUP_SWITCHES. */
static const char *cgroup_missing(void)
{
	char line[256], name[64];
	int hier, num, enabled;
	FILE *f = fopen("/proc/cgroups", "r");
	const char *r = "kernel without the perf_event cgroup controller "
			"(CONFIG_CGROUP_PERF): no perf_event line in /proc/cgroups";

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %d %d %d", name, &hier, &num, &enabled) == 4 &&
		    !strcmp(name, "perf_event"))
			r = enabled ? NULL : "the perf_event cgroup controller is disabled "
					     "(cgroup_disable=perf_event on the kernel command line)";
	if (f)
		fclose(f);
	return r;
}

static const char *bpf_missing(void)
{
	/* an unknown command: EINVAL (or EPERM) where bpf() exists */
	errno = 0;
	if (syscall(__NR_bpf, 0x7fff, NULL, 0) < 0 && errno == ENOSYS)
		return "kernel without the bpf() system call (CONFIG_BPF_SYSCALL)";
	return NULL;
}

static const char *hrtimer_missing(void)
{
	/* hrtimer_resolution: 1 ns with high-resolution timers, a tick
	 * (TICK_NSEC) without them (CONFIG_HIGH_RES_TIMERS off, or no
	 * clock event device that can do one-shot mode) */
	uint64_t res;

	if (pa_wall_clock_continuous())
		return NULL;
	res = pa_clock_res_ns(CLOCK_MONOTONIC);
	if (!res)
		return "clock_getres(CLOCK_MONOTONIC) failed";
	snprintf(reason, sizeof(reason),
		 "no high-resolution timers: CLOCK_MONOTONIC resolution is %llu ns "
		 "(CONFIG_HIGH_RES_TIMERS, or a clock event device with one-shot mode)",
		 (unsigned long long)res);
	return reason;
}

/*
 * Hardware breakpoints trap: a counting write breakpoint on a variable of
 * this probe counts its one write. Where it opens, runs and counts none,
 * the debug registers the kernel programs never reach the CPU: some
 * hypervisors do not pass them to their guests (a PVM guest here, whose
 * CPUID signature reads "bhyve bhyve "). That is the machine, not the
 * ABI: a SKIP there. Under KVM and QEMU TCG, which pass debug registers
 * through (the suite's own VMs), and on bare metal (no hypervisor bit) a
 * zero count is the kernel's and the case runs, to FAIL on it.
 */
static volatile long bp_probe_var;

static bool hypervisor_passes_debug_registers(char sig[13])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 31)))
		return true;	/* bare metal */
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x40000000), "c"(0));
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	return !memcmp(sig, "KVMKVMKVM\0\0\0", 12) || !strcmp(sig, "TCGTCGTCGTCG");
#else
	snprintf(sig, 13, "n/a");
	return true;	/* only x86 guests have been seen without them */
#endif
}

static const char *bp_trap_missing(void)
{
	struct perf_event_attr a;
	uint64_t v[3] = { 0, 0, 0 };
	char sig[13] = "";
	int fd;

	if (hypervisor_passes_debug_registers(sig))
		return NULL;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&bp_probe_var;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return NULL;	/* the case's own open says why */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bp_probe_var++;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		v[2] = 0;
	close(fd);
	if (v[0] || !v[2])
		return NULL;
	snprintf(reason, sizeof(reason),
		 "hardware breakpoints do not trap on this machine: a write breakpoint counted 0 of 1 "
		 "write while running, under a hypervisor ('%s') that does not pass debug registers to its guests",
		 sig);
	return reason;
}

bool pa_feature_known(const char *name)
{
	static const char *const known[] = {
		"ns:net", "ns:uts", "ns:ipc", "ns:pid", "ns:user", "ns:cgroup",
		"ns:time", "ns:mnt", "cgroup", "bpf", "hrtimer", "bp-trap",
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(name, known[i]))
			return true;
	return false;
}

const char *pa_features_missing(const char *features)
{
	char list[256], *save = NULL;
	const char *r = NULL;

	snprintf(list, sizeof(list), "%s", features ? features : "");
	for (char *f = strtok_r(list, " ", &save); f && !r; f = strtok_r(NULL, " ", &save)) {
		if (!pa_feature_known(f)) {
			snprintf(reason, sizeof(reason), "unknown feature '%s' in the case's .features", f);
			r = reason;
		} else if (!strncmp(f, "ns:", 3)) {
			r = ns_missing(f + 3);
		} else if (!strcmp(f, "cgroup")) {
			r = cgroup_missing();
		} else if (!strcmp(f, "bpf")) {
			r = bpf_missing();
		} else if (!strcmp(f, "hrtimer")) {
			r = hrtimer_missing();
		} else if (!strcmp(f, "bp-trap")) {
			r = bp_trap_missing();
		}
	}
	return r;
}
