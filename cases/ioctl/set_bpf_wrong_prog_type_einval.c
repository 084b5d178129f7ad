#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_BPF on a (non-tracing) software event needs a BPF_PROG_TYPE_PERF_EVENT program: a socket-filter program is EINVAL",
	.ref = "kernel/events/core.c perf_event_set_bpf_handler(): prog->type != BPF_PROG_TYPE_PERF_EVENT -> -EINVAL",
	.alone = true,
	.covers = "ioctl.SET_BPF",
	.features = "bpf",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint32_t id;
	uint8_t tag[8];
	int fd, prog;

	prog = pa_bpf_load_trivial("pa_setbpf", &id, tag);
	if (prog < 0)
		pa_skip("cannot load a BPF program here: %s", pa_errno_name(-prog));
	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog), EINVAL);
	close(prog);
	close(fd);
}
