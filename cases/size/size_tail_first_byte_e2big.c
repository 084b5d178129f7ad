#include "perfabi.h"

/*
 * attr.size = the page size, larger than the kernel's struct; one non-zero
 * byte at the first byte past the kernel's struct. The kernel cannot know what it means, so it refuses:
 * E2BIG, with its own size written into attr.size.
 */
PERFABI_CASE(
	.assertion = "a non-zero byte at the first byte past the kernel's struct (size larger than the kernel's struct) fails with E2BIG and the kernel's own size is written into attr.size",
	.ref = "perf_event_open(2), E2BIG: \"larger than the kernel supports and the extra bytes are not zero\"; include/linux/uaccess.h copy_struct_from_user() / check_zeroed_user()",
	.covers = "attr.size errno.E2BIG",
	.probe = pa_probe_self_perf,
) {
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	size_t k = pa_kernel_attr_size();
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	unsigned char *buf = pa_guarded_tail(psz);
	size_t at = k;

	memcpy(buf, &base, sizeof(base));
	((struct perf_event_attr *)buf)->size = (uint32_t)psz;
	buf[at] = 0x01;
	pa_diag("kernel struct %zu bytes, non-zero byte at offset %zu of %zu", k, at, psz);
	EXPECT_E2BIG_SIZE((struct perf_event_attr *)buf);
}
