#include "perfabi.h"

#include <sys/ioctl.h>

#define K 10000000ULL	/* loop iterations */

/*
 * A loop of K iterations that each end in one conditional branch retires K
 * branch instructions: x86 (Intel BR_INST_RETIRED, AMD retired branches)
 * counts them all; Arm's generic mapping (PC_WRITE_RETIRED) counts the
 * taken ones, K - 1. Counted in user space only (exclude_kernel), the
 * count adds the few branches between the ENABLE and DISABLE system calls
 * (calls and returns of the wrappers); 1 % less and 5 % + 10000 more are
 * allowed for the PMU's imprecision. The
 * count is compared only when the event had a counter the whole time.
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

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BRANCH_INSTRUCTIONS counts retired branch "
		     "instructions: a loop of 10M iterations, each ending in one "
		     "conditional branch, counted in user space, retires between "
		     "10M - 1 % and 10M + 5 % + 10000",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BRANCH_INSTRUCTIONS "
	       "\"Retired branch instructions\"; ENOENT/EOPNOTSUPP for an "
	       "unsupported generic event is a SKIP",
	.covers = "hw.BRANCH_INSTRUCTIONS type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = hw_open(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1, GROUP_FMT);
	uint64_t n;

	loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	loop3(K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	read_group(fd, &n, 1, true);
	pa_diag("%llu branches over %llu iterations", (unsigned long long)n,
		(unsigned long long)K);
	EXPECT_GE(n, K - 1 - K / 100);
	EXPECT_LE(n, K + K / 20 + 10000);
	close(fd);
}
