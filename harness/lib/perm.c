// SPDX-License-Identifier: GPL-2.0
/*
 * The documented permission rules, in one place. A case asks what the rules
 * say for the context it runs in (uid, capabilities, paranoid level, kernel)
 * and compares that with what the kernel does.
 *
 * Sources: perf_event_open(2) "perf_event related configuration files" and
 * EACCES/EPERM; Documentation/admin-guide/perf-security.rst; the Debian patch
 * "security,perf: Allow further restriction of perf_event_open" (levels > 2);
 * ba677dbe77af "perf: Revert to requiring CAP_SYS_ADMIN for uprobes".
 */
#include "internal.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

/*
 * Does this kernel refuse every open to callers without CAP_SYS_ADMIN at
 * paranoid > 2 (Debian's and Android's patch)? Upstream treats 3 and 4 as 2.
 * Decided by trying: an unprivileged self-monitoring open with exclude_kernel
 * succeeds at 2 everywhere, so EACCES at >= 3 means the restriction is there.
 */
bool pa_paranoid_restricts_all(void)
{
	static int cached = -1;
	pid_t pid;
	int st;

	if (cached >= 0)
		return cached;
	if (pa_paranoid() <= 2)
		return false;	/* not in force at this level; not cached */
	pid = fork();
	if (pid == 0) {
		struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		int fd;

		memset(d, 0, sizeof(d));
		if (geteuid() == 0 && setresuid(65534, 65534, 65534))
			_exit(3);
		syscall(SYS_capset, &h, d);	/* drop everything */
		fd = pa_perf_open(&a, 0, -1, -1, 0);
		_exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 2);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return false;
	cached = WEXITSTATUS(st) == 1;
	return cached;
}

int pa_expected_errno_or(enum pa_need need, int err)
{
	int perm = pa_expected_errno(need);

	return perm ? perm : err;
}

int pa_expected_errno(enum pa_need need)
{
	int level = pa_paranoid();
	bool admin = pa_has_cap(PA_CAP_SYS_ADMIN);
	bool perfmon = pa_perfmon_capable();

	/* Debian >= 3: nothing at all without CAP_SYS_ADMIN (CAP_PERFMON is
	 * not enough). */
	if (level > 2 && !admin && pa_paranoid_restricts_all())
		return EACCES;
	switch (need) {
	case PA_NEED_SELF:
		return 0;
	case PA_NEED_KERNEL:
		return level > 1 && !perfmon ? EACCES : 0;
	case PA_NEED_CPU:
		return level > 0 && !perfmon ? EACCES : 0;
	case PA_NEED_RAW_TRACEPOINT:
		return level > -1 && !perfmon ? EPERM : 0;
	case PA_NEED_NAMESPACES:
		return perfmon ? 0 : EACCES;
	case PA_NEED_KERNEL_BREAKPOINT:
		/* the paranoid kernel-profiling check comes first */
		if (level > 1 && !perfmon)
			return EACCES;
		return admin ? 0 : EPERM;
	case PA_NEED_UPROBE_PMU:
		/* ba677dbe77af: CAP_SYS_ADMIN again; CAP_PERFMON before it */
		if (pa_since_uprobe_sys_admin())
			return admin ? 0 : EACCES;
		return perfmon ? 0 : EACCES;
	case PA_NEED_MLOCK_OVER_LIMIT:
		return level == -1 || pa_has_cap(PA_CAP_IPC_LOCK) ? 0 : EPERM;
	case PA_NEED_KPROBE_PMU:
		return perfmon ? 0 : EACCES;
	case PA_NEED_OTHER_USER_TASK:
		/* ptrace_may_access(READ_REALCREDS) fails across uids; CAP_PERFMON
		 * bypasses it since 5.9 (CAP_SYS_ADMIN before) */
		if (pa_has_cap(PA_CAP_SYS_PTRACE) || admin)
			return 0;
		if (pa_has_cap(PA_CAP_PERFMON) &&
		    pa_since("5.9", "CAP_PERFMON bypasses the ptrace check"))
			return 0;
		return EACCES;
	}
	return 0;
}

const char *pa_context_string(void)
{
	static char buf[160];
	struct pa_kver k = pa_kernel();

	snprintf(buf, sizeof(buf), "uid %u, caps %#llx, paranoid %d, kernel %d.%d.%d",
		 (unsigned)geteuid(), (unsigned long long)pa_caps_effective(),
		 pa_paranoid(), k.major, k.minor, k.patch);
	return buf;
}

bool pa_lockdown_confidentiality(void)
{
	char buf[128] = "";
	int fd = open("/sys/kernel/security/lockdown", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;	/* no lockdown LSM: nothing is locked down */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return strstr(buf, "[confidentiality]") != NULL;
}
