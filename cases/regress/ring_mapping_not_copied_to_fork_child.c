#include "perfabi.h"

#include <sys/mman.h>
#include <sys/wait.h>

/*
 * 26cb63ad11e0: the pages of a ring are charged to the mapping mm's
 * pinned_vm, so a copy of the vma in a fork()ed child let the child's
 * munmap or exit undo the charge on the wrong mm, and the parent's own
 * munmap was no longer the last one: its charge stayed. Since the fix the
 * vma is VM_DONTCOPY: the child has no mapping of the ring at all. The
 * same fix made a second mmap() of the fd (same size) share the ring
 * without taking another reference or charge.
 *
 * With perf_event_mlock_kb 0 no page fits the per-user budget, so every
 * page of a ring is charged to pinned_vm, which /proc/<pid>/status shows
 * as VmPin (pa_vm_pin_kb()): an exact count.
 */

/* Does a line of /proc/self/maps start at addr? */
static bool mapped_at(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[512];
	bool found = false;

	if (!f)
		return true;	/* counted as a failure by the caller */
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    lo <= (unsigned long)addr && (unsigned long)addr < hi)
			found = true;
	fclose(f);
	return found;
}

PERFABI_CASE(
	.assertion = "a ring mapping is not copied into a fork()ed child (VM_DONTCOPY): the child has no mapping at either address and a VmPin of 0, and the parent's pinned pages stay charged once through the child's exit; a second mmap() of the same fd and size shares the same pages and adds no charge, another size fails with EINVAL, and only the last munmap() takes VmPin back to its start value (perf_event_mlock_kb 0)",
	.ref = "\"perf: Fix perf mmap bugs\" 26cb63ad11e0 (3.10): kernel/events/core.c perf_mmap() sets VM_DONTCOPY on the ring's vma and maps an existing rb of the same size again without another reference",
	.alone = true,
	.covers = "mmap.size mmap.MAP_SHARED mmap.data_tail sysctl.perf_event_mlock_kb",
	.fix = { .commit = "26cb63ad11e0", .subject = "perf: Fix perf mmap bugs", .release = "3.10" },
	.root = true,	/* perf_event_mlock_kb */
	.xfail = {
		.from = "2.6.31",	/* the ring's mmap() */
		.to = "3.10",
		.why = "the ring's vma was copied by fork(): the child held a mapping of the parent's ring and its exit undid the pinned charge on its own mm",
		.fix = "26cb63ad11e0",
	},
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE), kbpp = psz / 1024;
	size_t len = (size_t)psz * 3;	/* control page + 2 data pages */
	struct perf_event_mmap_page *m1, *m2;
	struct pa_ring r;
	long base;
	pid_t pid;
	int fd, st;

	base = (long)pa_vm_pin_kb();
	if (base < 0)
		pa_skip("/proc/self/status has no VmPin line");
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_mlock_kb", "0"));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	m1 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(m1 != MAP_FAILED);
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 3 * kbpp);
	m2 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(m2 != MAP_FAILED);
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 3 * kbpp);	/* shared, not charged again */
	/* the same control page: a tail written through one reads in the other */
	m1->data_tail = 0x1230;
	__sync_synchronize();
	EXPECT_EQ(m2->data_tail, 0x1230);
	m1->data_tail = 0;
	EXPECT_EQ(m2->data_size, (uint64_t)psz * 2);
	EXPECT_ERRNO(mmap(NULL, (size_t)psz * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
		     EINVAL);

	fflush(NULL);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		/* 1: m1 mapped, 2: m2 mapped, 4: VmPin not 0 */
		int bad = (mapped_at(m1) ? 1 : 0) | (mapped_at(m2) ? 2 : 0) |
			  ((long)pa_vm_pin_kb() != 0 ? 4 : 0);
		_exit(bad);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st));
	if (WEXITSTATUS(st) & 3)
		pa_fail("the fork()ed child has the ring mapped (at m1: %d, at m2: %d)",
			!!(WEXITSTATUS(st) & 1), !!(WEXITSTATUS(st) & 2));
	if (WEXITSTATUS(st) & 4)
		pa_fail("the fork()ed child's VmPin is not 0");
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 3 * kbpp);	/* the child's exit undid nothing */

	ASSERT_OK(munmap(m1, len));
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 3 * kbpp);	/* m2 still maps the ring */
	EXPECT_EQ(m2->data_size, (uint64_t)psz * 2);
	ASSERT_OK(munmap(m2, len));
	EXPECT_EQ((long)pa_vm_pin_kb(), base);

	/* the ring is gone: the fd maps one of another size */
	EXPECT_EQ(pa_ring_try_map(&r, fd, 1), 0);
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 2 * kbpp);
	pa_ring_unmap(&r);
	EXPECT_EQ((long)pa_vm_pin_kb(), base);
	close(fd);
}
