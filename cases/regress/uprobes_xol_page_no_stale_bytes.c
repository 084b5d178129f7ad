#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * 34820304cc2c: the page behind the "[uprobes]" vma (the XOL area) was
 * allocated without __GFP_ZERO, so whatever the kernel had left in it was
 * mapped into the task. The area is made of 128-byte slots (x86
 * UPROBE_XOL_SLOT_BYTES): slot 0 holds the return trampoline (int3, or
 * since 6.11 the uretprobe syscall stub of about 20 bytes), every other
 * slot at most the 16-byte (MAX_UINSN_BYTES) copy of a probed instruction.
 * So on a fixed kernel every byte past those prefixes is zero.
 *
 * x86-64 only: there VM_EXEC alone maps the page readable, and the slot
 * layout above is the x86 one. /proc/self/mem cannot help elsewhere: the
 * vma is VM_IO, which GUP refuses.
 */
#define SLOT_BYTES	128
#define TRAMP_MAX	32	/* slot 0: the trampoline */
#define INSN_MAX	16	/* other slots: one copied instruction */

__attribute__((noinline)) int pa_xol_target_fn(int x);
__attribute__((noinline)) int pa_xol_target_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 3;
}

static __attribute__((unused)) unsigned long xol_vma(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, found = 0;
	char line[512];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[uprobes]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			found = lo;
			break;
		}
	}
	fclose(f);
	return found;
}

PERFABI_CASE(
	.assertion = "the \"[uprobes]\" XOL page a uretprobe hit maps into the task holds nothing but the return trampoline (slot 0) and copied instructions (first 16 bytes of a slot): every other byte is zero, no stale kernel memory",
	.ref = "\"uprobes: fix kernel info leak via \\\"[uprobes]\\\" vma\" 34820304cc2c (6.12-rc2, CVE-2024-49975; stable 6.11.3, 6.10.14, 6.6.55, 6.1.113, 5.15.168, 5.10.227, 5.4.285, 4.19.323): kernel/events/uprobes.c __create_xol_area() alloc_page(... | __GFP_ZERO)",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset attr.config",
	.fix = { .commit = "34820304cc2c", .subject = "uprobes: fix kernel info leak via \"[uprobes]\" vma", .release = "6.12", .cve = "CVE-2024-49975" },
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
	.xfail = {
		.from = "4.17",	/* the uprobe PMU; the bug dates from 3.5 */
		.to = "6.12",
		.why = "__create_xol_area() mapped an unzeroed page: the rest of the [uprobes] page holds stale kernel memory (mostly, not always, non-zero)",
		.fix = "34820304cc2c",
		.fixed_in = "6.11.3 6.10.14 6.6.55 6.1.113 5.15.168 5.10.227 5.4.285 4.19.323",
	},
) {
#ifndef __x86_64__
	pa_skip("the XOL slot layout checked is x86-64's, and only there is the exec-only page readable");
#else
	struct perf_event_attr attr = pa_sw_attr(0);
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_xol_target_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	const volatile unsigned char *page;
	unsigned long va;
	volatile int v = 0;
	unsigned stale = 0, first = 0, tramp = 0;
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_xol_target_fn in %s", exe ? exe : "/proc/self/exe");
	if (want)
		pa_skip("the uprobe PMU is refused here (%s): %s",
			pa_errno_name(want), pa_context_string());
	ASSERT_EQ(xol_vma(), 0);	/* no XOL area before the first hit */
	attr.config = 1;	/* format/retprobe: config:0 */
	attr.type = (uint32_t)pa_pmu_type("uprobe");
	attr.uprobe_path = (uint64_t)(uintptr_t)exe;
	attr.probe_offset = (uint64_t)off;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	v = pa_xol_target_fn(v);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(v, 3);
	EXPECT_EQ(pa_read_one(fd), 1);	/* the return went through the area */
	close(fd);

	va = xol_vma();
	ASSERT_NE(va, 0);
	page = (const volatile unsigned char *)va;
	for (unsigned i = 0; i < TRAMP_MAX; i++)
		tramp += page[i] != 0;
	EXPECT_NE(tramp, 0);	/* slot 0 holds the trampoline: the right page */
	for (unsigned i = 0; i < 4096; i++) {
		unsigned in_slot = i % SLOT_BYTES;

		if (in_slot < (i < SLOT_BYTES ? TRAMP_MAX : INSN_MAX))
			continue;
		if (page[i] && !stale++)
			first = i;
	}
	if (stale)
		pa_diag("first stale byte at offset %u: 0x%02x", first, page[first]);
	EXPECT_EQ(stale, 0);
#endif
}
