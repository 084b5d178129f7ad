#include "perfabi.h"

#define GROUP "perfabi_uraw"

__attribute__((noinline)) void pa_uraw_target_fn(void);
__attribute__((noinline)) void pa_uraw_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static void calls(void *arg)
{
	for (int i = 0; i < *(int *)arg; i++)
		pa_uraw_target_fn();
}

PERFABI_CASE(
	.assertion = "each hit of a uprobe trace event (tracefs uprobe_events \"p:GROUP/NAME PATH:OFFSET\") sampled with PERF_SAMPLE_RAW carries, at the offsets of its format file, common_type = the event id, common_pid = the thread that called, __probe_ip = the probed function's address in that process; the sample's ip is that address too",
	.ref = "Documentation/trace/uprobetracer.rst (\"p[:[GRP/][EVENT]] PATH:OFFSET\", events/*/*/format); kernel/trace/trace_uprobe.c __uprobe_perf_func() (vaddr[0] = instruction_pointer(regs)), uprobe_event_define_fields() (__probe_ip); perf_event_open(2) PERF_SAMPLE_RAW",
	.alone = true,
	.covers = "type.TRACEPOINT sample.RAW sample.IP sample.TID",
	.tracefs = true,
	.root = true,
	.min_kernel = "3.5",
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_uraw_target_fn");
	uint64_t fn_addr = (uint64_t)(uintptr_t)pa_uraw_target_fn;
	const struct pa_tp_field *ip;
	int want_calls = 5;
	struct pa_tp_raw tr;
	char name[32];

	ASSERT_OK(pa_uprobe_event_add(GROUP, 'p', exe, off, name, sizeof(name)));
	/* made, so it must be there (no SKIP below for a missing event) */
	ASSERT_GE(pa_tracepoint_id(GROUP, name), 0);
	/* root: the open is allowed */
	if (!pa_tp_raw_setup(&tr, GROUP, name, 0))
		return;
	tr.attr.sample_type |= PERF_SAMPLE_IP;
	ip = pa_tp_field(&tr.fmt, "__probe_ip");
	ASSERT_TRUE(ip != NULL);
	EXPECT_EQ(ip->size, (int)sizeof(long));

	if (!pa_tp_raw_run(&tr, NULL, calls, &want_calls))
		return;
	while (pa_tp_raw_next(&tr)) {
		EXPECT_EQ(tr.s.ip, fn_addr);
		PA_TP_EXPECT_INT(&tr.fmt, tr.s.raw, tr.s.var.raw_size, "__probe_ip", fn_addr);
	}
	pa_tp_raw_end(&tr, want_calls);
}
