// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the privilege/, tracepoint/ and probe/ cases: targets owned by
 * another user, tracepoint ids, ELF symbol offsets for the uprobe PMU, and
 * the version gates of the probe PMUs' permission checks.
 */
#include "internal.h"

#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

const char *pa_probe_priv(void)
{
	if (pa_has_cap(PA_CAP_PERFMON) && !pa_has_cap(PA_CAP_SYS_ADMIN) &&
	    !pa_kernel_at_least("5.8"))
		return "CAP_PERFMON is unknown before 5.8: the perfmon identity means nothing here";
	return NULL;
}

static uid_t proc_uid(pid_t pid)
{
	char path[64], line[256];
	unsigned r = (unsigned)-1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return (uid_t)-1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &r) == 1)
			break;
	fclose(f);
	return (uid_t)r;
}

pid_t pa_other_uid_task(void)
{
	pid_t pid;
	int p[2];
	char c;

	if (geteuid() != 0) {
		if (proc_uid(1) == (uid_t)-1 || proc_uid(1) == geteuid())
			pa_skip("no task of another user to attach to (pid 1 is ours or unreadable)");
		return 1;
	}
	if (pipe(p)) {
		pa_fail("pipe: %s", strerror(errno));
		pa_abort();
	}
	pid = fork();
	if (pid < 0) {
		pa_fail("fork: %s", strerror(errno));
		pa_abort();
	}
	if (pid == 0) {
		close(p[0]);
		if (setresgid(PA_OTHER_UID, PA_OTHER_UID, PA_OTHER_UID) ||
		    setresuid(PA_OTHER_UID, PA_OTHER_UID, PA_OTHER_UID))
			_exit(1);
		c = 'r';
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		pa_fail("the other-uid child did not start");
		pa_abort();
	}
	close(p[0]);
	return pid;
}

static bool tracefs_mounted(void)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " tracefs ") != NULL;
	fclose(f);
	return found;
}

long pa_tp_id_or_skip(const char *sys, const char *event)
{
	long id;

	if (!pa_tracefs() && (id = pa_tracepoint_id(sys, event)) >= 0)
		return id;	/* handed over by the runner */
	if (!pa_tracefs()) {
		if (geteuid() != 0 && tracefs_mounted())
			pa_skip("tracefs not accessible to uid %u (tracepoint ids are root-only)",
				(unsigned)geteuid());
		pa_skip("tracefs is not mounted");
	}
	id = pa_tracepoint_id(sys, event);
	if (id >= 0)
		return id;
	if (geteuid() != 0)
		pa_skip("tracepoint %s:%s id not readable by uid %u (tracefs is root-only)",
			sys, event, (unsigned)geteuid());
	pa_skip("tracepoint %s:%s is not in this kernel", sys, event);
}

struct perf_event_attr pa_tp_attr(uint64_t id)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = id;
	a.disabled = 1;
	a.exclude_hv = 1;
	return a;
}

struct perf_event_attr pa_uprobe_attr(uint64_t path, uint64_t offset)
{
	struct perf_event_attr a = pa_sw_attr(0);
	int type = pa_pmu_type("uprobe");

	if (type < 0)
		pa_skip("no 'uprobe' PMU in /sys/bus/event_source/devices");
	a.type = (uint32_t)type;
	a.uprobe_path = path;
	a.probe_offset = offset;
	return a;
}

struct perf_event_attr pa_kprobe_attr_of(int type, const char *func, bool retprobe)
{
	struct perf_event_attr a = pa_sw_attr(0);

	a.type = (uint32_t)type;
	a.config = retprobe ? 1 : 0;	/* format/retprobe: config:0 */
	a.exclude_kernel = 0;
	a.kprobe_func = (uint64_t)(uintptr_t)func;
	a.probe_offset = 0;
	return a;
}

struct perf_event_attr pa_kprobe_attr(const char *func, bool retprobe)
{
	int type = pa_pmu_type("kprobe");

	if (type < 0)
		pa_skip("no 'kprobe' PMU in /sys/bus/event_source/devices");
	pa_kprobe_keep_ask(func);
	return pa_kprobe_attr_of(type, func, retprobe);
}

int pa_kprobe_expected_errno(void)
{
	return pa_expected_errno_or(PA_NEED_KERNEL, pa_expected_errno(PA_NEED_KPROBE_PMU));
}

static void getppid_calls(int n)
{
	for (int i = 0; i < n; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);	/* not counted: another function */
	}
}

void pa_expect_getppid_count(struct perf_event_attr *attr, int want, int n)
{
	int fd = EXPECT_OPEN_RESULT(attr, 0, -1, -1, 0, want);

	if (fd < 0)
		return;
	syscall(SYS_getppid);		/* not counted: disabled */
	pa_count_over(fd, getppid_calls, n);
	syscall(SYS_getppid);		/* not counted: disabled again */
	EXPECT_EQ(pa_read_one(fd), (uint64_t)n);
	close(fd);
}

long pa_elf_sym_offset(const char *path, const char *name)
{
	long ret = -1;
	struct stat st;
	unsigned char *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
		close(fd);
		return -1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	{
		Elf64_Ehdr *eh = (Elf64_Ehdr *)m;
		Elf64_Shdr *sh = (Elf64_Shdr *)(m + eh->e_shoff);
		Elf64_Phdr *ph = (Elf64_Phdr *)(m + eh->e_phoff);
		uint64_t vaddr = 0;

		if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
			goto out;
		for (int i = 0; i < eh->e_shnum && !vaddr; i++) {
			Elf64_Sym *sym;
			const char *str;
			size_t n;

			if (sh[i].sh_type != SHT_SYMTAB)
				continue;
			sym = (Elf64_Sym *)(m + sh[i].sh_offset);
			str = (const char *)(m + sh[sh[i].sh_link].sh_offset);
			n = sh[i].sh_size / sizeof(*sym);
			for (size_t j = 0; j < n; j++)
				if (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC &&
				    !strcmp(str + sym[j].st_name, name)) {
					vaddr = sym[j].st_value;
					break;
				}
		}
		for (int i = 0; vaddr && i < eh->e_phnum; i++)
			if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
			    vaddr >= ph[i].p_vaddr &&
			    vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
				ret = (long)(vaddr - ph[i].p_vaddr + ph[i].p_offset);
				break;
			}
	}
out:
	munmap(m, (size_t)st.st_size);
	return ret;
}

const char *pa_self_exe(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return NULL;
	path[n] = 0;
	return path;
}

bool pa_since_uprobe_sys_admin(void)
{
	struct pa_kver k = pa_kernel();

	/* ba677dbe77af (6.16); stable 6.15.7, 6.12.39, 6.6.99, 6.1.146 */
	if (k.major == 6 && k.minor == 15)
		return pa_since("6.15.7", "uprobe PMU needs CAP_SYS_ADMIN (ba677dbe77af)");
	if (k.major == 6 && k.minor == 12)
		return pa_since("6.12.39", "uprobe PMU needs CAP_SYS_ADMIN (ba677dbe77af)");
	if (k.major == 6 && k.minor == 6)
		return pa_since("6.6.99", "uprobe PMU needs CAP_SYS_ADMIN (ba677dbe77af)");
	if (k.major == 6 && k.minor == 1)
		return pa_since("6.1.146", "uprobe PMU needs CAP_SYS_ADMIN (ba677dbe77af)");
	return pa_since("6.16", "uprobe PMU needs CAP_SYS_ADMIN (ba677dbe77af)");
}

void pa_syscall_symbol_into(const char *name, char *buf, size_t len)
{
#if defined(__x86_64__)
	snprintf(buf, len, "__x64_sys_%s", name);
#elif defined(__aarch64__)
	snprintf(buf, len, "__arm64_sys_%s", name);
#else
	snprintf(buf, len, "sys_%s", name);
#endif
}

const char *pa_syscall_symbol(const char *name)
{
	static char buf[128];

	pa_syscall_symbol_into(name, buf, sizeof(buf));
	return buf;
}

uint64_t pa_kernel_text_addr(void)
{
#if defined(__x86_64__)
	return 0xffffffff81000000ULL;
#elif defined(__aarch64__)
	return 0xffff800080000000ULL;
#else
	pa_skip("no known kernel address on this architecture");
#endif
}

int pa_kernel_bp_open(struct perf_event_attr *a, int want)
{
#if defined(__aarch64__)
	/* arch/arm64/kernel/hw_breakpoint.c hw_breakpoint_arch_parse():
	 * "Disallow per-task kernel breakpoints since these would complicate
	 * the stepping code" */
	int cpu[1];

	ASSERT_EQ(pa_allowed_cpus(cpu, 1), 1);
	if (!want)
		want = pa_expected_errno(PA_NEED_CPU);
	return EXPECT_OPEN_RESULT(a, -1, cpu[0], -1, 0, want);
#else
	return EXPECT_OPEN_RESULT(a, 0, -1, -1, 0, want);
#endif
}

void pa_become_fresh_uid(void)
{
	uid_t u = 2000000000u + (uid_t)(getpid() % 1000000);

	if (setresgid(u, u, u) || setresuid(u, u, u)) {
		pa_fail("setresuid(%u): %s", (unsigned)u, strerror(errno));
		pa_abort();
	}
}
