#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * The reference counter (an SDT "semaphore") of a uprobe PMU event lives
 * at a file offset of the probed file, and the kernel updates it in the
 * writable private mapping of that offset in each process where it puts
 * the breakpoint. Where a process has the breakpoint but no such mapping
 * yet (a binary whose text is mapped before its data), the increment waits
 * for that mapping: the kernel applies it when the data is mapped
 * (delayed_uprobe_add(), then delayed_ref_ctr_inc() from uprobe_mmap()),
 * once per process and probe.
 *
 * Here the counter is a short in this binary's read-only data: the
 * process maps that offset, but not writable, so at the open the counter
 * has nowhere to go. A writable private mapping of the page made after
 * the open gets the increment, a second one made after it does not (the
 * process already has its increment), and closing the event takes it back
 * from the mapping that holds it. The file and the read-only mapping never
 * change.
 */

#define SEM_VALUE	0x1234

__attribute__((noinline)) void pa_refctr_delayed_fn(void);
__attribute__((noinline)) void pa_refctr_delayed_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

/* read-only data (.rodata: const, not volatile), with a value of its
 * own so it is in the file; read through a volatile pointer */
static const unsigned short sem_ro_data = SEM_VALUE;
#define sem_ro (*(const volatile unsigned short *)&sem_ro_data)

static bool ref_ctr_format_ok(void)
{
	char buf[64] = "";
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", "re");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	if (strcmp(buf, "config:32-63"))
		pa_fail("format/ref_ctr_offset is \"%s\", not \"config:32-63\"", buf);
	return true;
}

PERFABI_CASE(
	.assertion = "a uprobe PMU event whose ref_ctr_offset (config bits 32-63) lies in no writable mapping of the probed task at the open increments the short there in the first writable private mapping of that offset the task makes afterwards (0x1234 -> 0x1235), not in a second one (0x1234), and decrements it when closed (0x1235 -> 0x1234); the file and the read-only mapping keep 0x1234",
	.ref = "/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset \"config:32-63\" (a6ca88b241d5, 4.20); kernel/events/uprobes.c update_ref_ctr(), delayed_uprobe_add(), uprobe_mmap() -> delayed_ref_ctr_inc() (1cc33161a83d \"uprobes: Support SDT markers having reference count (semaphore)\", 4.20)",
	.covers = "type.dynamic attr.config attr.uprobe_path attr.probe_offset sysfs.format",
	.pmu = "uprobe",
	.min_kernel = "4.20",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	const char *exe = pa_self_exe();
	long psz = sysconf(_SC_PAGESIZE);
	long off = exe ? pa_elf_sym_offset(exe, "pa_refctr_delayed_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	unsigned short in_file = 0;
	volatile unsigned short *a, *b;
	long sem_off, page;
	char perm[5] = "";
	void *p, *q;
	int fd, efd;

	if (off < 0)
		pa_skip("cannot find pa_refctr_delayed_fn in %s", exe ? exe : "/proc/self/exe");
	sem_off = pa_self_file_offset((const void *)&sem_ro, perm);
	if (sem_off <= 0)
		pa_skip("the counter does not lie in a file mapping of %s", exe);
	if (perm[1] == 'w')
		pa_skip("read-only data is mapped writable here (%s)", perm);
	if (!ref_ctr_format_ok())
		pa_skip("no uprobe format/ref_ctr_offset in sysfs (a6ca88b241d5, 4.20)");
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.config = (uint64_t)sem_off << 32;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	EXPECT_EQ(sem_ro, SEM_VALUE);

	/* the first writable private mapping of the counter gets it */
	efd = ASSERT_OK(open(exe, O_RDONLY | O_CLOEXEC));
	page = sem_off & ~(psz - 1);
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, efd, page);
	ASSERT_TRUE(p != MAP_FAILED);
	a = (volatile unsigned short *)((char *)p + (sem_off - page));
	EXPECT_EQ(*a, SEM_VALUE + 1);
	/* a second one does not: this process has had its increment */
	q = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, efd, page);
	ASSERT_TRUE(q != MAP_FAILED);
	b = (volatile unsigned short *)((char *)q + (sem_off - page));
	EXPECT_EQ(*b, SEM_VALUE);
	/* unmapped before the close, so the decrement can go nowhere but p */
	ASSERT_OK(munmap(q, (size_t)psz));

	/* the probe itself works all along */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_refctr_delayed_fn();
	pa_refctr_delayed_fn();
	pa_refctr_delayed_fn();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 3);
	EXPECT_EQ(*a, SEM_VALUE + 1);

	close(fd);
	EXPECT_EQ(*a, SEM_VALUE);
	EXPECT_EQ(sem_ro, SEM_VALUE);
	/* the increments went to this process's private copy, not the file */
	ASSERT_EQ(pread(efd, &in_file, sizeof(in_file), sem_off), (ssize_t)sizeof(in_file));
	EXPECT_EQ(in_file, SEM_VALUE);
	munmap(p, (size_t)psz);
	close(efd);
}
