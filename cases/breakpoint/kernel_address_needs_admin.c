#include "perfabi.h"

/* A kernel address from /proc/kallsyms (readable as root with
 * kptr_restrict allowing it); 0 when unknown. */
static uint64_t kernel_symbol(const char *name)
{
	char line[256], sym[128], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "re");
	uint64_t found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

PERFABI_CASE(
	.assertion = "a breakpoint on a kernel address needs CAP_SYS_ADMIN (EPERM otherwise, after the paranoid kernel-profiling check: EACCES)",
	.ref = "perf_event_open(2), EPERM: \"setting a breakpoint on a kernel address\"; kernel/events/hw_breakpoint.c hw_breakpoint_parse()",
	.covers = "type.BREAKPOINT attr.bp_addr errno.EPERM errno.EACCES",
	.pmu = "breakpoint",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a;
	uint64_t addr = 0;
	int want = pa_expected_errno(PA_NEED_KERNEL_BREAKPOINT), fd;

	if (!want) {
		/* _stext: always listed, 8-aligned; a write watchpoint on it is
		 * valid (it just never fires) */
		addr = kernel_symbol("_stext");
		if (!addr)
			pa_skip("no kernel symbol address readable (kptr_restrict)");
	} else {
		/* any kernel-half address: refused before it is looked at */
		addr = 0xffffffff81000000ULL;
	}
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)(uintptr_t)addr, HW_BREAKPOINT_LEN_8);
	a.exclude_kernel = 0;
	fd = pa_kernel_bp_open(&a, want);	/* CPU-wide on arm64 */
	if (fd >= 0)
		close(fd);
}
