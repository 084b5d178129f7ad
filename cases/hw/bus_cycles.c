#include "perfabi.h"

#include <sys/ioctl.h>

#define K 100000000ULL	/* loop iterations */

/*
 * Bus cycles tick at the bus (reference) clock while the core is not
 * halted (Intel 0x013c: CPU_CLK_UNHALTED.REF_XCLK, 100 MHz; Arm
 * BUS_CYCLES: the clock of the core's bus interface, the core clock or an
 * integer fraction of it). The core clock is a multiple of that clock, so
 * in one group with PERF_COUNT_HW_CPU_CYCLES the bus cycles are at most
 * the cycles (+ 5 % + 10000 for counters not started in the same cycle);
 * and no bus clock runs below 1 MHz: at least 1 per microsecond of the
 * task clock counted in the same group. Compared only when the group had
 * the counters the whole time.
 */

/* ---- the generic hardware event helpers of this case ---- */

/* Open generic hardware event `config` on this task (user space only),
 * leader (group -1, disabled) or member (follows the leader), reading
 * read_format; SKIP where the PMU does not support it (ENOENT, EOPNOTSUPP:
 * perf_event_open(2) "some unsupported generic events"). The first open
 * goes through pa_hw_open_or_skip(), which also pins the task to a CPU of
 * the core PMU on hybrid x86. */
static int hw_open(uint64_t config, int group, uint64_t read_format)
{
	struct perf_event_attr a = pa_sw_attr(config);
	int fd;

	if (group < 0)
		close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, config));
	a.type = PERF_TYPE_HARDWARE;
	a.disabled = group < 0;
	a.read_format = read_format;
	errno = 0;
	fd = pa_perf_open(&a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == EOPNOTSUPP)
		pa_skip("the PMU does not support generic hardware event %#llx "
			"(%s)", (unsigned long long)config, pa_errno_name(errno));
	pa_fail("perf_event_open(PERF_TYPE_HARDWARE, config %#llx) failed with %s",
		(unsigned long long)config, pa_errno_name(errno));
	pa_abort();
}

#define GROUP_FMT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		   PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The n (<= 4) values of the group led by `leader`. SKIP when the group
 * never got the counters, and with `whole` also when it did not have them
 * all the time it was enabled (another user held them): an absolute count
 * is comparable with the workload only then. Members of a group always
 * count over the same intervals, so relations between them need not. */
static void read_group(int leader, uint64_t *v, unsigned n, bool whole)
{
	uint64_t b[3 + 4];

	pa_read_u64(leader, b, 3 + n);
	ASSERT_EQ(b[0], n);
	if (!b[2] || (whole && b[2] < b[1]))
		pa_skip("the group had the counters %llu of the %llu ns it was "
			"enabled (another user holds them)",
			(unsigned long long)b[2], (unsigned long long)b[1]);
	memcpy(v, b + 3, n * sizeof(*v));
}

/* k (>= 1) iterations of exactly three instructions (no pair the CPU could
 * fuse), the last a conditional branch, taken on every iteration but the
 * last. */
static void loop3(uint64_t k)
{
#if defined(__x86_64__)
	__asm__ __volatile__("1:\n\t"
			     "dec %0\n\t"
			     "nop\n\t"
			     "jnz 1b"
			     : "+r"(k) : : "cc");
#elif defined(__aarch64__)
	__asm__ __volatile__("1:\n\t"
			     "subs %0, %0, #1\n\t"
			     "nop\n\t"
			     "b.ne 1b"
			     : "+r"(k) : : "cc");
#else
	(void)k;
	pa_skip("no loop of known instruction count for this architecture");
#endif
}

/* A task-clock member of the hardware group: the nanoseconds the group
 * was on the CPU. */
static int task_clock_member(int lead)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);

	a.disabled = 0;
	a.read_format = GROUP_FMT;
	return ASSERT_OPEN(&a, 0, -1, lead, PERF_FLAG_FD_CLOEXEC);
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BUS_CYCLES counts bus cycles, which can be "
		     "different from total cycles but not more: over a busy loop, "
		     "counted in a group with PERF_COUNT_HW_CPU_CYCLES and the task "
		     "clock, at most the cycles (+ 5 % + 10000) and at least 1 per "
		     "microsecond of the task clock",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BUS_CYCLES "
	       "\"Bus cycles, which can be different from total cycles\"; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.BUS_CYCLES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = hw_open(PERF_COUNT_HW_CPU_CYCLES, -1, GROUP_FMT);
	int bus = hw_open(PERF_COUNT_HW_BUS_CYCLES, lead, GROUP_FMT);
	int clk = task_clock_member(lead);
	uint64_t v[3];

	loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	loop3(K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	read_group(lead, v, 3, true);
	pa_diag("%llu cycles, %llu bus cycles in %llu ns", (unsigned long long)v[0],
		(unsigned long long)v[1], (unsigned long long)v[2]);
	EXPECT_LE(v[1], v[0] + v[0] / 20 + 10000);
	EXPECT_GE(v[1], v[2] / 1000);
	close(clk);
	close(bus);
	close(lead);
}
