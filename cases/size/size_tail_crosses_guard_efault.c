#include "perfabi.h"

#include <sys/syscall.h>

/*
 * The kernel's own struct is mapped in full, but attr.size declares 8 more
 * bytes that lie in a PROT_NONE page. The kernel has to check that unknown
 * tail for zeroes, faults while reading it, and says EFAULT (not E2BIG).
 */
PERFABI_CASE(
	.assertion = "when the unknown tail beyond the kernel's struct cannot be read, the open fails with EFAULT",
	.ref = "include/linux/uaccess.h copy_struct_from_user() / check_zeroed_user(): \"-EFAULT: access to userspace failed\"; kernel/events/core.c perf_copy_attr()",
	.covers = "arg.attr attr.size errno.EFAULT",
	.probe = pa_probe_self_perf,
) {
	uint32_t k = pa_kernel_attr_size();
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(k);

	memcpy(attr, &base, k);
	attr->size = k + 8;
	pa_diag("kernel struct %u bytes mapped, attr.size %u", k, k + 8);
	EXPECT_ERRNO(syscall(SYS_perf_event_open, attr, 0, -1, -1, 0), EFAULT);
}
