// SPDX-License-Identifier: GPL-2.0
/*
 * harness/lib/perm.c and privilege.c: the documented permission rules for
 * a given capability set (set in a child, as root), ELF symbol offsets,
 * the probe PMU attrs, targets of another uid, tracepoint id skips.
 */
#include "unit.h"

#include <fcntl.h>
#include <signal.h>

/* ---- pa_expected_errno() for a capability set ---- */
struct need_arg {
	uint64_t caps;
	enum pa_need need;
};

static void do_need(void *p)
{
	struct need_arg *a = p;

	if (set_effective_caps(a->caps))
		exit(98);
	printf("errno %d\n", pa_expected_errno(a->need));
}

static int expected(uint64_t caps, enum pa_need need)
{
	struct need_arg a = { caps, need };
	struct child c;
	int e = -1;

	run_child(&c, do_need, &a);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "errno "));
	sscanf(strstr(c.out, "errno "), "errno %d", &e);
	return e;
}

/* root, to choose the capabilities; at most paranoid 2, where the upstream
 * rules hold (a Debian level 3 refuses all without CAP_SYS_ADMIN) */
#define NEED_ROOT() do { if (geteuid() != 0 || pa_paranoid() > 2) skip(); } while (0)

static void without_capabilities(void **state)
{
	int level = pa_paranoid();

	(void)state;
	NEED_ROOT();
	assert_int_equal(expected(0, PA_NEED_SELF), 0);
	assert_int_equal(expected(0, PA_NEED_KERNEL), level > 1 ? EACCES : 0);
	assert_int_equal(expected(0, PA_NEED_CPU), level > 0 ? EACCES : 0);
	assert_int_equal(expected(0, PA_NEED_RAW_TRACEPOINT), level > -1 ? EPERM : 0);
	assert_int_equal(expected(0, PA_NEED_NAMESPACES), EACCES);
	assert_int_equal(expected(0, PA_NEED_KERNEL_BREAKPOINT), level > 1 ? EACCES : EPERM);
	assert_int_equal(expected(0, PA_NEED_UPROBE_PMU), EACCES);
	assert_int_equal(expected(0, PA_NEED_MLOCK_OVER_LIMIT), level == -1 ? 0 : EPERM);
	assert_int_equal(expected(0, PA_NEED_KPROBE_PMU), EACCES);
	assert_int_equal(expected(0, PA_NEED_OTHER_USER_TASK), EACCES);
	/* not a need the rules know: nothing to refuse */
	assert_int_equal(expected(0, (enum pa_need)99), 0);
}

static void with_one_capability(void **state)
{
	uint64_t perfmon = PA_CAP(PA_CAP_PERFMON), admin = PA_CAP(PA_CAP_SYS_ADMIN);

	(void)state;
	NEED_ROOT();
	assert_int_equal(expected(perfmon, PA_NEED_KERNEL), 0);
	assert_int_equal(expected(perfmon, PA_NEED_CPU), 0);
	assert_int_equal(expected(perfmon, PA_NEED_RAW_TRACEPOINT), 0);
	assert_int_equal(expected(perfmon, PA_NEED_NAMESPACES), 0);
	assert_int_equal(expected(perfmon, PA_NEED_KPROBE_PMU), 0);
	/* a kernel breakpoint needs CAP_SYS_ADMIN itself */
	assert_int_equal(expected(perfmon, PA_NEED_KERNEL_BREAKPOINT), EPERM);
	assert_int_equal(expected(admin, PA_NEED_KERNEL_BREAKPOINT), 0);
	assert_int_equal(expected(admin, PA_NEED_UPROBE_PMU), 0);
	assert_int_equal(expected(admin, PA_NEED_OTHER_USER_TASK), 0);
	assert_int_equal(expected(PA_CAP(PA_CAP_SYS_PTRACE), PA_NEED_OTHER_USER_TASK), 0);
	assert_int_equal(expected(PA_CAP(PA_CAP_IPC_LOCK), PA_NEED_MLOCK_OVER_LIMIT), 0);
}

static void do_kprobe_errno(void *p)
{
	if (set_effective_caps(*(uint64_t *)p))
		exit(98);
	printf("errno %d\n", pa_kprobe_expected_errno());
}

static void kprobe_expected_errno(void **state)
{
	uint64_t caps = 0;
	struct child c;

	(void)state;
	NEED_ROOT();
	/* refused without CAP_PERFMON, whichever check comes first */
	run_child(&c, do_kprobe_errno, &caps);
	assert_non_null(strstr(c.out, "errno 13\n"));
	caps = PA_CAP(PA_CAP_PERFMON);
	run_child(&c, do_kprobe_errno, &caps);
	assert_non_null(strstr(c.out, "errno 0\n"));
}

static void context_string_names_the_context(void **state)
{
	unsigned uid = 1, level = 0;
	unsigned long long caps = 1;
	int n = 0;

	(void)state;
	assert_int_equal(sscanf(pa_context_string(), "uid %u, caps %llx, paranoid %d, kernel %*d.%*d.%*d%n",
				&uid, &caps, (int *)&level, &n), 3);
	assert_true(n > 0);
	assert_int_equal(uid, geteuid());
	assert_int_equal(caps, pa_caps_effective());
	assert_int_equal((int)level, pa_paranoid());
}

/* ---- ELF symbol offsets ---- */
static void elf_sym_offset_of_this_program(void **state)
{
	const char *exe = pa_self_exe();
	long off;
	unsigned char file[16];
	int fd;

	(void)state;
	assert_non_null(exe);
	off = pa_elf_sym_offset(exe, "pa_frame_probe_target");
	assert_true(off > 0);
	/* the bytes at that file offset are the function's code */
	fd = open(exe, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, file, sizeof(file), off), sizeof(file));
	close(fd);
	assert_memory_equal(file, (const void *)pa_frame_probe_target, sizeof(file));
	assert_int_equal(pa_self_sym_offset("pa_frame_probe_target"), off);
	/* not a function of it, not a file, too small, not ELF */
	assert_int_equal(pa_elf_sym_offset(exe, "perfabi_no_such_function"), -1);
	assert_int_equal(pa_elf_sym_offset("/nonexistent-perfabi", "main"), -1);
	assert_int_equal(pa_elf_sym_offset("/dev/null", "main"), -1);
}

static void elf_sym_offset_of_bad_files(void **state)
{
	char path[] = "/tmp/perfabi-unit-elf-XXXXXX";
	unsigned char buf[256];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(pa_elf_sym_offset(path, "main"), -1);	/* not ELF */
	/* ELF, but 32-bit */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "\177ELF\001", 5);
	assert_int_equal(pwrite(fd, buf, sizeof(buf), 0), sizeof(buf));
	assert_int_equal(pa_elf_sym_offset(path, "main"), -1);
	close(fd);
	unlink(path);
}

static void syscall_symbol(void **state)
{
	(void)state;
#if defined(__x86_64__)
	assert_string_equal(pa_syscall_symbol("getppid"), "__x64_sys_getppid");
#elif defined(__aarch64__)
	assert_string_equal(pa_syscall_symbol("getppid"), "__arm64_sys_getppid");
#else
	assert_string_equal(pa_syscall_symbol("getppid"), "sys_getppid");
#endif
}

/* ---- probe PMU attrs: the PMU's type, or a skip that names it ---- */
static void do_kprobe_attr(void *p)
{
	struct perf_event_attr a = pa_kprobe_attr("do_sys_open", *(bool *)p);

	printf("type %u config %llu func %s exclude_kernel %d disabled %d\n", a.type,
	       (unsigned long long)a.config, (const char *)(uintptr_t)a.kprobe_func,
	       (int)a.exclude_kernel, (int)a.disabled);
}

static void do_uprobe_attr(void *p)
{
	struct perf_event_attr a = pa_uprobe_attr(0x1234, 0x40);

	(void)p;
	printf("type %u path %#llx offset %#llx\n", a.type, (unsigned long long)a.uprobe_path,
	       (unsigned long long)a.probe_offset);
}

static void probe_attrs(void **state)
{
	int kt = pa_pmu_type("kprobe"), ut = pa_pmu_type("uprobe");
	bool ret = true;
	char want[160];
	struct child c;

	(void)state;
	run_child(&c, do_kprobe_attr, &ret);
	if (kt < 0) {
		assert_int_equal(c.code, PA_SKIP);
		assert_string_equal(c.st.skip_reason, "no 'kprobe' PMU in /sys/bus/event_source/devices");
	} else {
		snprintf(want, sizeof(want), "type %d config 1 func do_sys_open exclude_kernel 0 disabled 1\n", kt);
		assert_string_equal(c.out, want);
		ret = false;
		run_child(&c, do_kprobe_attr, &ret);
		assert_non_null(strstr(c.out, " config 0 "));
	}
	run_child(&c, do_uprobe_attr, NULL);
	if (ut < 0) {
		assert_int_equal(c.code, PA_SKIP);
		assert_string_equal(c.st.skip_reason, "no 'uprobe' PMU in /sys/bus/event_source/devices");
	} else {
		snprintf(want, sizeof(want), "type %d path 0x1234 offset 0x40\n", ut);
		assert_string_equal(c.out, want);
	}
}

/* ---- another uid's task; a fresh uid ---- */
static uid_t status_uid(pid_t pid)
{
	char path[64], line[256];
	unsigned u = (unsigned)-1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return (uid_t)-1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &u) == 1)
			break;
	fclose(f);
	return (uid_t)u;
}

static void other_uid_task_is_another_uid(void **state)
{
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = pa_other_uid_task();
	assert_true(pid > 1);
	assert_int_equal(status_uid(pid), PA_OTHER_UID);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void do_fresh_uid(void *p)
{
	uid_t u = 2000000000u + (uid_t)(getpid() % 1000000);

	/* without CAP_SETUID (still uid 0, so the coverage counts are written) */
	if (*(bool *)p && set_effective_caps(0))
		exit(97);
	pa_become_fresh_uid();
	printf("uid ok %d\n", geteuid() == u && getuid() == u);
	fflush(stdout);
	_exit(0);	/* as that uid, no coverage counts can be written */
}

static void fresh_uid(void **state)
{
	bool unprivileged = false;
	struct child c;

	(void)state;
	if (geteuid() != 0)
		skip();
	run_child(&c, do_fresh_uid, &unprivileged);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "uid ok 1"));
	/* without CAP_SETUID it fails the case */
	unprivileged = true;
	run_child(&c, do_fresh_uid, &unprivileged);
	assert_int_equal(c.code, PA_FAIL);
	assert_non_null(strstr(c.st.first_failure, "): Operation not permitted"));
	assert_non_null(strstr(c.st.first_failure, "setresuid(2"));
}

/* ---- tracepoint ids that cannot be had ---- */
static void back_to_root(void)
{
	/* before exit writes the coverage counts, files of root's */
	if (setresuid(0, 0, 0))
		return;
}

static void do_tp_id(void *p)
{
	/* uid 65534, keeping 0 as the saved uid to come back at exit */
	if (*(bool *)p && (atexit(back_to_root) || setresuid(65534, 65534, 0)))
		exit(97);
	unsetenv("PERFABI_TRACEPOINT_IDS");
	printf("id %ld\n", pa_tp_id_or_skip("perfabi_nosuch", "nosuch"));
}

static void tp_id_skips_say_why(void **state)
{
	bool user = false;
	char want[160];
	struct child c;

	(void)state;
	run_child(&c, do_tp_id, &user);
	assert_int_equal(c.code, PA_SKIP);
	snprintf(want, sizeof(want), "tracepoint perfabi_nosuch:nosuch id not readable by uid %u (tracefs is root-only)",
		 (unsigned)geteuid());
	if (pa_tracefs())
		assert_string_equal(c.st.skip_reason, geteuid() ? want :
				    "tracepoint perfabi_nosuch:nosuch is not in this kernel");
	else
		assert_non_null(strstr(c.st.skip_reason, "tracefs"));
	if (geteuid() != 0)
		return;
	user = true;
	run_child(&c, do_tp_id, &user);
	assert_int_equal(c.code, PA_SKIP);
	/* tracefs is root-only by default; a uid that can read it is told
	 * the id is not readable, one that cannot that tracefs is not */
	assert_true(!strcmp(c.st.skip_reason, "tracefs not accessible to uid 65534 (tracepoint ids are root-only)") ||
		    !strcmp(c.st.skip_reason, "tracefs is not mounted") ||
		    !strcmp(c.st.skip_reason, "tracepoint perfabi_nosuch:nosuch id not readable by uid 65534 (tracefs is root-only)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_capabilities),
		cmocka_unit_test(with_one_capability),
		cmocka_unit_test(kprobe_expected_errno),
		cmocka_unit_test(context_string_names_the_context),
		cmocka_unit_test(elf_sym_offset_of_this_program),
		cmocka_unit_test(elf_sym_offset_of_bad_files),
		cmocka_unit_test(syscall_symbol),
		cmocka_unit_test(probe_attrs),
		cmocka_unit_test(other_uid_task_is_another_uid),
		cmocka_unit_test(fresh_uid),
		cmocka_unit_test(tp_id_skips_say_why),
	};
	return cmocka_run_group_tests_name("privilege", tests, NULL, NULL);
}
