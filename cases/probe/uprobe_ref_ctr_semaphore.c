#include "perfabi.h"

__attribute__((noinline)) void pa_refctr_target_fn(void);
__attribute__((noinline)) void pa_refctr_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

/* The semaphore: a short in the file-backed data of this binary (the
 * nonzero neighbour keeps the array out of .bss, which has no file). */
static volatile short sems[2] = { 0, 0x5a5a };

/* format/ref_ctr_offset must read "config:32-63": the bits this case sets. */
static const char *ref_ctr_format(void)
{
	static char buf[64];
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", "re");

	buf[0] = 0;
	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

PERFABI_CASE(
	.assertion = "a uprobe PMU event with ref_ctr_offset (attr.config bits 32-63, format/ref_ctr_offset) = the file offset of a short in the probed file's data increments that short from 0 to 1 in the probed task when it is opened and decrements it back to 0 when it is closed",
	.ref = "/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset \"config:32-63\" (a6ca88b241d5, 4.20); kernel/events/core.c perf_uprobe_event_init(); kernel/events/uprobes.c update_ref_ctr() (the SDT semaphore)",
	.covers = "type.dynamic attr.config attr.uprobe_path attr.probe_offset sysfs.format",
	.pmu = "uprobe",
	.min_kernel = "4.20",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_refctr_target_fn") : -1;
	long sem_off = pa_self_file_offset((const void *)&sems[0], NULL);
	const char *fmt = ref_ctr_format();
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_refctr_target_fn in %s", exe ? exe : "/proc/self/exe");
	if (sem_off <= 0)
		pa_skip("the semaphore does not lie in a file mapping of %s", exe);
	if (!fmt)
		pa_skip("no uprobe format/ref_ctr_offset in sysfs (a6ca88b241d5, 4.20)");
	ASSERT_EQ(strcmp(fmt, "config:32-63"), 0);
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.config = (uint64_t)sem_off << 32;
	ASSERT_EQ(sems[0], 0);
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	/* the probe is installed in this task at open, disabled or not */
	EXPECT_EQ(sems[0], 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_refctr_target_fn();
	pa_refctr_target_fn();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(sems[0], 1);
	EXPECT_EQ(pa_read_one(fd), 2);
	close(fd);
	EXPECT_EQ(sems[0], 0);
	EXPECT_EQ(sems[1], 0x5a5a);	/* the neighbour is untouched */
}
