// SPDX-License-Identifier: GPL-2.0
/* Helpers for the read/ioctl/inherit/breakpoint cases. */
#include "perfabi.h"

struct perf_event_attr pa_bp_attr(uint32_t bp_type, const void *addr,
				  uint64_t len)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.config = 0;
	a.bp_type = bp_type;
	a.bp_addr = (uint64_t)(uintptr_t)addr;
	a.bp_len = len;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

uint64_t pa_read_one(int fd)
{
	uint64_t v = 0;

	pa_read_u64(fd, &v, 1);
	return v;
}
