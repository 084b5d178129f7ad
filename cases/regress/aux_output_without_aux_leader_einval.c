#include "perfabi.h"

/*
 * da9ec3d3dd0f: an aux_output event must be in a group whose leader is an
 * AUX event it can write into (perf_get_aux_event()). When that check
 * failed, perf_event_open() went to its error path with err still 0: the
 * event was freed and the syscall "returned fd 0" (success, no new fd).
 * Since the fix it fails with EINVAL.
 *
 * The aux_output event needs a PMU that can do it (Intel PEBS via PT:
 * PERF_PMU_CAP_AUX_OUTPUT); the software PMU is refused earlier
 * (EOPNOTSUPP). So: the PEBS event opens under an intel_pt leader (the
 * control: this CPU can do it), and is refused with EINVAL under a
 * software leader and with no leader at all.
 */
PERFABI_CASE(
	.assertion = "perf_event_open() of an aux_output event whose PMU can do aux_output (PEBS via PT) fails with EINVAL, never success or fd 0, when its group leader is not an AUX event (a software leader) or it has no leader; the same event opens under an intel_pt leader",
	.ref = "\"perf: Correctly handle failed perf_get_aux_event()\" da9ec3d3dd0f (5.5; stable 5.4.14): kernel/events/core.c perf_event_open(): !perf_get_aux_event() -> err = -EINVAL",
	.covers = "attr.aux_output arg.group_fd errno.EINVAL",
	.fix = { .commit = "da9ec3d3dd0f", .subject = "perf: Correctly handle failed perf_get_aux_event()", .release = "5.5", .stable = "5.4.14" },
	.min_kernel = "5.4",	/* aux_output (ab43762ef010) */
	.pmu = "intel_pt",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "5.4",	/* Fixes: ab43762ef010 */
		.to = "5.5",
		.why = "perf_event_open() left err 0 when perf_get_aux_event() failed: the event was freed and the call returned 0",
		.fix = "da9ec3d3dd0f",
		.fixed_in = "5.4.14",	/* Debian changelog: ChangeLog-5.4.14 */
	},
) {
	struct perf_event_attr pt, sw = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr pebs = pa_sw_sampling_attr(PERF_COUNT_HW_CPU_CYCLES, 100003);
	int pfd, sfd, fd;

	pa_intel_pt_attr(&pt);
	pebs.type = PERF_TYPE_HARDWARE;
	pebs.disabled = 1;
	pebs.precise_ip = 1;
	pebs.aux_output = 1;
	pebs.sample_type = PERF_SAMPLE_IP;

	pfd = ASSERT_OPEN(&pt, 0, -1, -1, 0);
	fd = pa_perf_open(&pebs, 0, -1, pfd, 0);
	if (fd < 0 && (errno == EINVAL || errno == EOPNOTSUPP || errno == ENOENT))
		pa_skip("no PEBS-via-PT (aux_output) on this CPU: %s", pa_errno_name(errno));
	ASSERT_GT(fd, 0);
	close(fd);
	close(pfd);

	sfd = ASSERT_OPEN(&sw, 0, -1, -1, 0);
	EXPECT_OPEN_FAIL(&pebs, 0, -1, sfd, 0, EINVAL);
	close(sfd);
	EXPECT_OPEN_FAIL(&pebs, 0, -1, -1, 0, EINVAL);
}
