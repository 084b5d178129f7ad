#include "perfabi.h"

#define GROUP "perfabi_uretraw"

static volatile uint64_t ret_addr;

__attribute__((noinline)) void pa_uretraw_target_fn(void);
__attribute__((noinline)) void pa_uretraw_target_fn(void)
{
	ret_addr = (uint64_t)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

/* One call site, so one return address; the asm keeps it from being a
 * tail call. */
__attribute__((noinline)) static void call_once(void)
{
	pa_uretraw_target_fn();
	__asm__ volatile("" ::: "memory");
}

static void calls(void *arg)
{
	for (int i = 0; i < *(int *)arg; i++)
		call_once();
}

PERFABI_CASE(
	.assertion = "each return of a function probed by a uretprobe trace event (tracefs uprobe_events \"r:GROUP/NAME PATH:OFFSET\") sampled with PERF_SAMPLE_RAW carries, at the offsets of its format file, common_type = the event id, common_pid = the returning thread, __probe_func = the function's address, __probe_ret_ip = the address it returns to in its caller; the sample's ip is that return address",
	.ref = "Documentation/trace/uprobetracer.rst (\"r[:[GRP/][EVENT]] PATH:OFFSET\"); kernel/trace/trace_uprobe.c __uprobe_perf_func() (vaddr[0] = func, vaddr[1] = instruction_pointer(regs)), uprobe_event_define_fields() (__probe_func, __probe_ret_ip); kernel/events/uprobes.c handle_trampoline() (regs ip = the original return address); perf_event_open(2) PERF_SAMPLE_RAW",
	.alone = true,
	.covers = "type.TRACEPOINT sample.RAW sample.IP sample.TID",
	.tracefs = true,
	.root = true,
	.min_kernel = "3.10",
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_uretraw_target_fn");
	uint64_t fn_addr = (uint64_t)(uintptr_t)pa_uretraw_target_fn;
	const struct pa_tp_field *ip;
	int want_calls = 5;
	struct pa_tp_raw tr;
	char name[32];
	uint64_t ret;

	ASSERT_OK(pa_uprobe_event_add(GROUP, 'r', exe, off, name, sizeof(name)));
	/* made, so it must be there (no SKIP below for a missing event) */
	ASSERT_GE(pa_tracepoint_id(GROUP, name), 0);
	/* root: the open is allowed */
	if (!pa_tp_raw_setup(&tr, GROUP, name, 0))
		return;
	tr.attr.sample_type |= PERF_SAMPLE_IP;
	for (int i = 0; i < 2; i++) {
		ip = pa_tp_field(&tr.fmt, i ? "__probe_ret_ip" : "__probe_func");
		ASSERT_TRUE(ip != NULL);
		EXPECT_EQ(ip->size, (int)sizeof(long));
	}
	/* the return address, taken before any uretprobe replaced it */
	call_once();
	ret = ret_addr;
	ASSERT_NE(ret, 0);

	if (!pa_tp_raw_run(&tr, NULL, calls, &want_calls))
		return;
	while (pa_tp_raw_next(&tr)) {
		EXPECT_EQ(tr.s.ip, ret);
		PA_TP_EXPECT_INT(&tr.fmt, tr.s.raw, tr.s.var.raw_size, "__probe_func", fn_addr);
		PA_TP_EXPECT_INT(&tr.fmt, tr.s.raw, tr.s.var.raw_size, "__probe_ret_ip", ret);
	}
	pa_tp_raw_end(&tr, want_calls);
}
