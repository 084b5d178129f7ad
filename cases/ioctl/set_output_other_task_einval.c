#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT between per-task events of different tasks that are not bound to a CPU (cpu == -1) fails with EINVAL, in either direction; bound to the same CPU, events of different tasks may share a ring",
	.ref = "kernel/events/core.c perf_event_set_output(): \"If its not a per-cpu rb, it must be the same task\" (output_event->cpu == -1 && hw.target differs -> -EINVAL); perf_event_open(2) PERF_EVENT_IOC_SET_OUTPUT",
	.covers = "ioctl.SET_OUTPUT arg.pid arg.cpu errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct pa_ring ring;
	struct pa_puppet child;
	int mine, mine2, its, its_cpu, mine_cpu, cpu;

	ASSERT_EQ(pa_allowed_cpus(&cpu, 1), 1);
	pa_puppet_start(&child);		/* another task of ours */

	mine = ASSERT_OPEN(&a, 0, -1, -1, 0);
	mine2 = ASSERT_OPEN(&a, 0, -1, -1, 0);
	its = ASSERT_OPEN(&a, child.pid, -1, -1, 0);

	/* the child's event into our ring, and ours into the child's */
	pa_ring_map(&ring, mine, 1);
	EXPECT_ERRNO(ioctl(its, PERF_EVENT_IOC_SET_OUTPUT, mine), EINVAL);
	EXPECT_OK(ioctl(mine2, PERF_EVENT_IOC_SET_OUTPUT, mine));	/* same task */
	pa_ring_unmap(&ring);
	pa_ring_map(&ring, its, 1);
	EXPECT_ERRNO(ioctl(mine, PERF_EVENT_IOC_SET_OUTPUT, its), EINVAL);
	pa_ring_unmap(&ring);

	/* both bound to one CPU: a per-CPU ring takes any task's output */
	mine_cpu = ASSERT_OPEN(&a, 0, cpu, -1, 0);
	its_cpu = ASSERT_OPEN(&a, child.pid, cpu, -1, 0);
	pa_ring_map(&ring, mine_cpu, 1);
	EXPECT_OK(ioctl(its_cpu, PERF_EVENT_IOC_SET_OUTPUT, mine_cpu));
	pa_ring_unmap(&ring);

	close(its_cpu);
	close(mine_cpu);
	close(its);
	close(mine2);
	close(mine);
	pa_puppet_stop(&child);
}
