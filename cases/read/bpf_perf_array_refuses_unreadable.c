#include "perfabi.h"

#include <fcntl.h>

/*
 * bpf_perf_event_read_value() and bpf_perf_event_output() can only use what
 * a BPF_MAP_TYPE_PERF_EVENT_ARRAY slot holds, and the update of a slot
 * (perf_event_fd_array_get_ptr()) takes only a perf event the helpers can
 * read: perf_event_get() refuses a descriptor that is not a perf event
 * (EBADF: a closed number, or a pipe), and an event with attr.inherit is
 * refused (EOPNOTSUPP: perf_event_read_local() cannot sum the children
 * from the program's atomic context). The same counter without inherit is
 * taken.
 */

PERFABI_CASE(
	.assertion = "BPF_MAP_UPDATE_ELEM of a BPF_MAP_TYPE_PERF_EVENT_ARRAY slot takes a perf event file descriptor only: a closed descriptor or a pipe fails with EBADF, a counter opened with attr.inherit fails with EOPNOTSUPP, and the same counter without inherit is taken",
	.ref = "include/uapi/linux/bpf.h, BPF_MAP_TYPE_PERF_EVENT_ARRAY (bpf_perf_event_read_value(), \"the nature of the perf event counter is selected when map is updated with perf event file descriptors\"); kernel/bpf/arraymap.c perf_event_fd_array_get_ptr(); kernel/events/core.c perf_event_get(), perf_event_read_local() (inherit: -EOPNOTSUPP)",
	.alone = true,
	.covers = "attr.inherit errno.EBADF errno.EOPNOTSUPP",
	.features = "bpf",
	.root = true,		/* BPF_MAP_CREATE (unprivileged_bpf_disabled) */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int map, p[2], closed, inh, plain;

	map = pa_bpf_map_create(4 /* BPF_MAP_TYPE_PERF_EVENT_ARRAY */, 4, 4, 1);
	ASSERT_OK(pipe(p));
	attr.inherit = 1;
	inh = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.inherit = 0;
	plain = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	closed = ASSERT_OK(open("/dev/null", O_RDONLY));
	close(closed);			/* a number no file has now */

	EXPECT_ERRNO(pa_bpf_map_elem(2, map, 0, &closed), EBADF);
	EXPECT_ERRNO(pa_bpf_map_elem(2, map, 0, &p[0]), EBADF);
	EXPECT_ERRNO(pa_bpf_map_elem(2, map, 0, &inh), EOPNOTSUPP);
	EXPECT_OK(pa_bpf_map_elem(2, map, 0, &plain));
	close(plain);
	close(inh);
	close(p[0]);
	close(p[1]);
	close(map);
}
