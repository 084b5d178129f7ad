#include "perfabi.h"

#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

/*
 * At paranoid 2 a CPU-wide event (pid -1, cpu >= 0) needs perfmon_capable():
 * CAP_PERFMON or CAP_SYS_ADMIN since CAP_PERFMON came (980737282232, 5.8),
 * CAP_SYS_ADMIN alone before. Before 5.8 bit 38 is not a capability at all:
 * capset() silently drops bits above CAP_LAST_CAP (37), so a task that asks
 * for CAP_PERFMON alone holds no capability and the open fails with EACCES.
 * Since 5.8 it holds CAP_PERFMON and the open succeeds. The case sets the
 * level to 2 itself and forks a child that becomes uid 65534 with only
 * CAP_PERFMON asked for (the matrix's perfmon identity cannot exist on a
 * kernel before 5.8, so this is the only way to see the old answer).
 */
struct report {
	int setup;		/* 0, or the step that failed */
	int has_perfmon;	/* capget shows CAP_PERFMON */
	int open_errno;		/* 0: the CPU-wide open succeeded */
};

static void child(int tell, int cpu)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct report rep = { 0, 0, 0 };
	int fd;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		rep.setup = 1;
	memset(d, 0, sizeof(d));
	d[1].effective = d[1].permitted = 1u << (PA_CAP_PERFMON - 32);
	if (!rep.setup && syscall(SYS_capset, &h, d))
		rep.setup = 2;
	rep.has_perfmon = pa_has_cap(PA_CAP_PERFMON);
	if (!rep.setup && (pa_has_cap(PA_CAP_SYS_ADMIN) || geteuid() == 0))
		rep.setup = 3;
	if (!rep.setup) {
		fd = pa_perf_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		rep.open_errno = fd < 0 ? errno : 0;
	}
	_exit(write(tell, &rep, sizeof(rep)) == (ssize_t)sizeof(rep) ? 0 : 1);
}

PERFABI_CASE(
	.assertion = "at paranoid 2 a task of another uid with only CAP_PERFMON may "
		     "open a CPU-wide event since 5.8; before 5.8 the kernel does not "
		     "know CAP_PERFMON (capset drops the bit) and the open fails with "
		     "EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid, CAP_PERFMON (since Linux "
	       "5.8); Documentation/admin-guide/perf-security.rst; 980737282232 "
	       "\"capabilities: introduce CAP_PERFMON to kernel and user space\"; "
	       "kernel/capability.c capset() (CAP_LAST_U32_VALID_MASK)",
	.alone = true,
	.covers = "cap.CAP_PERFMON sysctl.perf_event_paranoid arg.cpu errno.EACCES",
	.root = true,
) {
	bool known = pa_since("5.8", "CAP_PERFMON grants CPU-wide events at paranoid 2");
	struct report rep;
	int p[2], cpu, st;
	pid_t pid;

	ASSERT_EQ(pa_allowed_cpus(&cpu, 1), 1);
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_paranoid", "2"));
	ASSERT_OK(pipe(p));
	pid = fork();
	ASSERT_OK(pid);
	if (pid == 0) {
		close(p[0]);
		child(p[1], cpu);
	}
	close(p[1]);
	ASSERT_EQ(read(p[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_EQ(rep.setup, 0);
	pa_diag("CAP_PERFMON %s after capset; CPU-wide open on CPU %d: %s",
		rep.has_perfmon ? "held" : "not held", cpu,
		rep.open_errno ? pa_errno_name(rep.open_errno) : "an fd");
	EXPECT_EQ(rep.has_perfmon, known);
	EXPECT_EQ(rep.open_errno, known ? 0 : EACCES);
}
