#include "perfabi.h"

/*
 * b3e62e35058f: perf_copy_attr() checked that the bytes of a user struct
 * larger than the kernel's were zero, and then copied attr.size bytes --
 * up to a page -- into the kernel's struct on the stack. Since the fix it
 * copies only its own struct's size. So attr.size = one page, everything
 * past the kernel's struct zero, opens a working event and leaves
 * attr.size alone; one non-zero byte there is E2BIG with the kernel's
 * size written back.
 */
#define PAGES 16

PERFABI_CASE(
	.assertion = "attr.size of a whole page, larger than the kernel's struct, with every byte past the struct zero, opens an event that counts (only the kernel's struct is used) and leaves attr.size as given; the same attr with a non-zero last byte fails with E2BIG and attr.size rewritten to the kernel's size",
	.ref = "\"perf_counter: fix buffer overflow in perf_copy_attr()\" b3e62e35058f (2.6.32, CVE-2009-3234): kernel/events/core.c perf_copy_attr() copies sizeof(*attr) after checking the tail is zero (now copy_struct_from_user())",
	.covers = "attr.size errno.E2BIG",
	.fix = { .commit = "b3e62e35058f", .subject = "perf_counter: fix buffer overflow in perf_copy_attr()", .release = "2.6.32", .cve = "CVE-2009-3234" },
	/* without the fix the page is copied over a struct on the kernel stack */
	.destructive = true,
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "2.6.31",	/* attr.size and the zero-tail rule (974802eaa1af) */
		.to = "2.6.32",
		.why = "perf_copy_attr() copied attr.size bytes (up to a page) into the kernel's struct perf_event_attr on the stack: a stack overflow",
		.fix = "b3e62e35058f",
	},
) {
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	unsigned char *buf = pa_guarded_tail(psz);
	struct perf_event_attr *attr = (struct perf_event_attr *)buf;
	uint64_t n;
	int fd;

	memcpy(buf, &base, sizeof(base));
	attr->size = (uint32_t)psz;
	pa_diag("attr.size %zu, kernel struct %u bytes", psz, pa_kernel_attr_size());
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	EXPECT_EQ(attr->size, (uint32_t)psz);
	n = pa_count_over(fd, pa_work_pages, PAGES);
	EXPECT_GE(n, PAGES);
	close(fd);

	buf[psz - 1] = 0x5a;
	EXPECT_E2BIG_SIZE(attr);
}
