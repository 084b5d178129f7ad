#include "perfabi.h"

#include <sys/syscall.h>

/*
 * Only PERF_ATTR_SIZE_VER0 (64) bytes are mapped, the next page is PROT_NONE,
 * and attr.size says VER1 (72): the kernel must read bytes 64..71 (they are
 * inside its own struct on every kernel) and faults.
 */
PERFABI_CASE(
	.assertion = "an attr whose declared size reaches into an unmapped page fails with EFAULT",
	.ref = "perf_event_open(2), EFAULT; include/linux/uaccess.h copy_struct_from_user(): \"-EFAULT: access to userspace failed\"",
	.covers = "arg.attr attr.size errno.EFAULT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(PERF_ATTR_SIZE_VER0);

	memcpy(attr, &base, PERF_ATTR_SIZE_VER0);
	attr->size = PERF_ATTR_SIZE_VER1;
	EXPECT_ERRNO(syscall(SYS_perf_event_open, attr, 0, -1, -1, 0), EFAULT);
}
