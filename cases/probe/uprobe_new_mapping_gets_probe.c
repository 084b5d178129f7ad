#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * A uprobe belongs to the file (inode + offset), not to the mappings that
 * existed when it was registered: a mapping of the probed file made later
 * gets the breakpoint when it is made (uprobe_mmap() -> install_breakpoint()
 * for each consumer that wants this mm), so calls through that second
 * mapping count. Its munmap marks the mm for a recount of its uprobes
 * (uprobe_munmap(): MMF_RECALC_UPROBES); the original mapping's probe
 * still counts afterwards.
 *
 * The probed function is written in assembly (no memory references), so
 * it runs the same from any address.
 */
#if defined(__x86_64__)
__asm__(".text\n"
	".globl pa_uprobe_alias_fn\n"
	".type pa_uprobe_alias_fn, @function\n"
	"pa_uprobe_alias_fn:\n"
	"\txorl %eax, %eax\n"
	"\tret\n"
	".size pa_uprobe_alias_fn, .-pa_uprobe_alias_fn\n");
#endif
int pa_uprobe_alias_fn(void);

#define N_DIRECT	2	/* calls through the original mapping, each time */
#define N_ALIAS		3	/* calls through the second mapping */

PERFABI_CASE(
	.assertion = "a uprobe PMU event on the own task also counts the calls made through a mapping of the probed file created after the event was opened (the new mapping gets the probe); after that mapping is unmapped the original one still counts",
	.ref = "perf_event_open(2), uprobe_path / probe_offset (a file and offset); kernel/events/uprobes.c uprobe_mmap() (install_breakpoint() into a new vma of a probed inode), uprobe_munmap() (MMF_RECALC_UPROBES)",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_priv,
) {
#if defined(__x86_64__)
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_uprobe_alias_fn");
	struct perf_event_attr a = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	long pg = sysconf(_SC_PAGESIZE);
	long pgoff = off & ~(pg - 1);
	int (*alias)(void);
	int fd, efd, i;
	void *m;

	if (want)
		pa_skip("the uprobe PMU is not open to this identity (%s, %s)",
			pa_errno_name(want), pa_context_string());
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < N_DIRECT; i++)
		pa_uprobe_alias_fn();

	efd = ASSERT_OK(open(exe, O_RDONLY | O_CLOEXEC));
	m = mmap(NULL, (size_t)pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, pgoff);
	ASSERT_TRUE(m != MAP_FAILED);
	close(efd);
	alias = (int (*)(void))((char *)m + (off - pgoff));
	ASSERT_TRUE((void *)alias != (void *)pa_uprobe_alias_fn);
	for (i = 0; i < N_ALIAS; i++)
		EXPECT_EQ(alias(), 0);
	ASSERT_OK(munmap(m, (size_t)pg));

	for (i = 0; i < N_DIRECT; i++)
		pa_uprobe_alias_fn();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 2 * N_DIRECT + N_ALIAS);
	close(fd);
#else
	pa_skip("the position-independent probe target is written for x86-64 only");
#endif
}
