#include "perfabi.h"

static volatile uint8_t buf[64] __attribute__((aligned(64)));

#if defined(__x86_64__) || defined(__i386__)
/* 1: /proc/cpuinfo lists the "bpext" flag (AMD breakpoint address masking),
 * 0: it does not, -1: cpuinfo unreadable. */
static int cpu_has_bpext(void)
{
	char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "re");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save;

		if (strncmp(line, "flags", 5))
			continue;
		found = 0;
		for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \n", &save);
		     tok; tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, "bpext"))
				found = 1;
		break;
	}
	fclose(f);
	return found;
}
#endif

PERFABI_CASE(
	.assertion = "on x86 a data-breakpoint length above 8 that is a power of two (16) is an AMD range breakpoint: without the CPU's breakpoint-extension feature (bpext) it fails with EOPNOTSUPP, not EINVAL; with it, it opens",
	.ref = "arch/x86/kernel/hw_breakpoint.c arch_build_bp_info(): default: !is_power_of_2 -> -EINVAL, misaligned -> -EINVAL, !boot_cpu_has(X86_FEATURE_BPEXT) -> -EOPNOTSUPP (the man page lists only HW_BREAKPOINT_LEN_1/2/4/8)",
	.covers = "attr.bp_len errno.EOPNOTSUPP",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
#if defined(__x86_64__) || defined(__i386__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[0], 16);
	int bpext = cpu_has_bpext();
	int fd;

	if (bpext < 0)
		pa_skip("no flags line in /proc/cpuinfo: whether the CPU has bpext is unknown");
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, 0, bpext ? 0 : EOPNOTSUPP);
	if (fd >= 0)
		close(fd);
	/* a range length must still be aligned: EINVAL before the feature test */
	a.bp_addr = (uint64_t)(uintptr_t)&buf[8];
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
#else
	pa_skip("range breakpoints (bp_len > 8) checked here are x86's (AMD bpext)");
#endif
}
