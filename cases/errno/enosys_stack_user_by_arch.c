#include "perfabi.h"

/*
 * ENOSYS is the answer of architectures without HAVE_PERF_USER_STACK_DUMP.
 * In 6.12 these select it: arm arm64 csky loongarch mips powerpc riscv s390
 * x86; others (alpha, sparc, sh, m68k, xtensa, arc, parisc, ...) do not.
 * On the first group the case checks that the sample type is accepted,
 * on the second that it is refused with ENOSYS.
 */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
    defined(__arm__) || defined(__powerpc__) || defined(__s390__) || \
    defined(__riscv) || defined(__loongarch__) || defined(__mips__) || \
    defined(__csky__)
#define WANT 0
#elif defined(__alpha__) || defined(__sparc__) || defined(__sh__) || \
      defined(__m68k__) || defined(__xtensa__) || defined(__arc__) || \
      defined(__hppa__) || defined(__microblaze__) || defined(__or1k__)
#define WANT ENOSYS
#else
#define WANT -1
#endif

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_STACK_USER fails with ENOSYS exactly on architectures without user stack dump support; where the architecture has it (x86, arm64, ...) a valid request is accepted",
	.ref = "perf_event_open(2), ENOSYS: \"PERF_SAMPLE_STACK_USER is set in sample_type and it is not supported by hardware\"; kernel/events/core.c perf_copy_attr(): !arch_perf_have_user_stack_dump() -> -ENOSYS",
	.covers = "errno.ENOSYS sample.STACK_USER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	if (WANT < 0)
		pa_skip("user stack dump support of this architecture is not known to the case");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 4096;
	if (WANT == 0)
		pa_diag("this architecture has user stack dumps: ENOSYS cannot occur, checking acceptance");
	EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, WANT);
}
