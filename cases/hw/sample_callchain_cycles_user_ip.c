#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_SAMPLE_CALLCHAIN of a cycle-counter sample taken in user space: the
 * interrupted registers are user mode, so get_perf_callchain() stores no
 * kernel part, then PERF_CONTEXT_USER and perf_callchain_user(), whose
 * first entry is the user pc (arm64: perf_callchain_store(entry,
 * regs->pc) before the frame-record walk; x86 likewise regs->ip). So each
 * sample's callchain begins {PERF_CONTEXT_USER, ip} with ip the sample's
 * PERF_SAMPLE_IP, one of the loop's instructions (the frames beyond are
 * left to the callchain cases). Under QEMU -icount shift=0
 * (PERFABI_PMU_EXACT) 8.5 periods of a user-only PERF_COUNT_HW_CPU_CYCLES
 * sampler give exactly 8 samples, each interrupting the loop
 * (hw/sample_ip_cycles_in_loop). exclude_callchain_kernel: the samples are
 * taken in user mode and have no kernel part anyway, and without it a user
 * at paranoid 2 is refused (EACCES, perf_allow_kernel()).
 */
#define P	1200000ULL
#define M	8

PERFABI_CASE(
	.assertion = "each of the 8 samples of a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M, 8.5 periods of a loop) has a "
		     "PERF_SAMPLE_CALLCHAIN that begins PERF_CONTEXT_USER, then the sample's PERF_SAMPLE_IP, an instruction of the loop",
	.ref = "perf_event_open(2), PERF_SAMPLE_CALLCHAIN; include/uapi/linux/perf_event.h PERF_CONTEXT_USER; kernel/events/callchain.c "
	       "get_perf_callchain(); arch/arm64/kernel/stacktrace.c perf_callchain_user()",
	.covers = "hw.CPU_CYCLES sample.CALLCHAIN sample.IP type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t c;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	a.exclude_callchain_kernel = 1;	/* a kernel callchain needs paranoid <= 1 */
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 2);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		pa_diag("sample %d: ip %#llx, callchain of %llu: %#llx %#llx ...", samples, (unsigned long long)s.ip,
			(unsigned long long)s.var.callchain_nr,
			(unsigned long long)(s.var.callchain_nr > 0 ? s.callchain[0] : 0),
			(unsigned long long)(s.var.callchain_nr > 1 ? s.callchain[1] : 0));
		EXPECT_GE(s.var.callchain_nr, 2);
		if (s.var.callchain_nr < 2)
			continue;
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], s.ip);
		EXPECT_TRUE(pa_hws_ip_in_loop(s.callchain[1]));
	}
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, c, P, M);
	pa_ring_unmap(&r);
	close(fd);
}
