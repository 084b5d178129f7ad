#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * 9bb5d40cd93c: the pages of a ring are accounted when it is mapped and
 * must be unaccounted when its last mapping goes, even while other
 * events still send their output into it (PERF_EVENT_IOC_SET_OUTPUT).
 * During 3.10's development the accounting moved into the buffer and its
 * undo waited for the buffer's last reference, the close() of a
 * redirected event, which had no mm to undo it on: the locked pages
 * leaked. The fix came before 3.10 was released, so no release leaked.
 * It also made the last munmap() detach every redirected event, which no
 * release before 3.10 did (each event kept its buffer: mapping it again
 * with another size failed with EINVAL). So the case fails on 3.2..3.9
 * too, by its last check: that, not the leak, is the xfail range.
 *
 * With perf_event_mlock_kb 0 no page fits the per-user budget, so every
 * page of a ring is charged to this mm's pinned_vm, which
 * /proc/self/status shows as VmPin (pa_vm_pin_kb()): an exact count.
 */

PERFABI_CASE(
	.assertion = "the last munmap() of a ring undoes its locked-page accounting at once, while events redirected into it (SET_OUTPUT) are still open, and detaches them: with perf_event_mlock_kb 0, VmPin grows by exactly the ring's 1+n pages while it is mapped and is back to its start value after the munmap; each redirected event then maps its own ring of another size",
	.ref = "\"perf: Fix mmap() accounting hole\" 9bb5d40cd93c (3.10): kernel/events/core.c perf_mmap_close() undoes rb->mmap_locked on the vma's mm and detaches rb->event_list when rb->mmap_count drops to 0",
	.alone = true,
	.covers = "mmap.size ioctl.SET_OUTPUT sysctl.perf_event_mlock_kb",
	.fix = { .commit = "9bb5d40cd93c", .subject = "perf: Fix mmap() accounting hole", .release = "3.10" },
	.root = true,	/* perf_event_mlock_kb */
	.xfail = {
		.from = "3.2",	/* mm->pinned_vm (bc3e53f682d9), which VmPin shows */
		.to = "3.10",
		.why = "before 3.10 the last munmap() left the redirected events attached to the buffer: mapping one with another size fails with EINVAL (the accounting leak the fix names never reached a release)",
		.fix = "9bb5d40cd93c",
	},
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long kbpp = sysconf(_SC_PAGESIZE) / 1024;
	struct pa_ring ra, rb, rc;
	long base;
	int a, b, c;

	base = (long)pa_vm_pin_kb();
	if (base < 0)
		pa_skip("/proc/self/status has no VmPin line");
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_mlock_kb", "0"));
	a = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	b = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	c = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	pa_ring_map(&ra, a, 4);
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 5 * kbpp);
	ASSERT_OK(ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	ASSERT_OK(ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 5 * kbpp);	/* redirection maps nothing */

	pa_ring_unmap(&ra);	/* the last mapping; b and c still open */
	EXPECT_EQ((long)pa_vm_pin_kb(), base);

	/* detached: each maps a ring of its own, of another size */
	EXPECT_EQ(pa_ring_try_map(&rb, b, 2), 0);
	EXPECT_EQ(pa_ring_try_map(&rc, c, 1), 0);
	EXPECT_EQ((long)pa_vm_pin_kb(), base + 3 * kbpp + 2 * kbpp);
	pa_ring_unmap(&rb);
	pa_ring_unmap(&rc);
	EXPECT_EQ((long)pa_vm_pin_kb(), base);
	close(c);
	close(b);
	close(a);
	EXPECT_EQ((long)pa_vm_pin_kb(), base);
}
