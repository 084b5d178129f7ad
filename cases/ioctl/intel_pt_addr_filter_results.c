#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The documented result of each PERF_EVENT_IOC_SET_FILTER address filter
 * string on an intel_pt event, each repeated many times. (7bdb157cdebb,
 * 5.10, fixed a leak of the "@file" name on the refusing paths; the leak
 * changes none of these results and nothing else user space can see
 * exactly, so this case does not claim that fix: it was
 * regress/intel_pt_addr_filter_ioctl_results.)
 *
 *   "filter 0x1000/0x100@EXE"        0 (a file range, per-task event)
 *   "filter 0x1000/0@EXE"            EINVAL ("filter" needs a size)
 *   "filter 0x1000/0x100@/missing"   ENOENT (kern_path())
 *   "filter 0x1000/0x100@/"          EINVAL (not a regular file)
 *   "stop 0x1000@EXE"                EOPNOTSUPP (intel_pt: no single
 *                                    address triggers)
 *   the same file filter on a CPU-wide event: EOPNOTSUPP
 */
#define REPEATS		2000
#define NR_PATH		"/sys/bus/event_source/devices/intel_pt/nr_addr_filters"

static int set_filter(int fd, const char *f)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, f) ? errno : 0;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_FILTER on an intel_pt event returns, every time, the documented result of each address filter string: 0 for a file range, EINVAL for a \"filter\" of size 0 or a non-regular file, ENOENT for a missing file, EOPNOTSUPP for a single-address \"stop\" and for a file filter on a CPU-wide event",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_FILTER; kernel/events/core.c perf_event_parse_addr_filter() (kern_path(), the size and file rules), perf_event_set_addr_filter() (a file filter on a CPU-wide event); arch/x86/events/intel/pt.c pt_event_addr_filters_validate()",
	.covers = "ioctl.SET_FILTER errno.EINVAL errno.ENOENT errno.EOPNOTSUPP sysfs.nr_addr_filters",
	.pmu = "intel_pt",
	.min_kernel = "4.8",	/* intel_pt address filters */
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr;
	const char *exe = pa_self_exe();
	char ok[512], zero[512], stop[512];
	unsigned bad[6] = { 0 };
	int want_cpu, fd, nr = 0;
	FILE *f;

	if (!exe)
		pa_skip("cannot resolve /proc/self/exe");
	f = fopen(NR_PATH, "r");
	if (!f || fscanf(f, "%d", &nr) != 1)
		nr = 0;
	if (f)
		fclose(f);
	if (nr < 1)
		pa_skip("intel_pt takes no address filters here (%s: %d)", NR_PATH, nr);
	snprintf(ok, sizeof(ok), "filter 0x1000/0x100@%s", exe);
	snprintf(zero, sizeof(zero), "filter 0x1000/0@%s", exe);
	snprintf(stop, sizeof(stop), "stop 0x1000@%s", exe);

	pa_intel_pt_attr(&attr);
	fd = pa_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EBUSY)
		pa_skip("intel_pt is in use by a CPU-wide session (EBUSY)");
	ASSERT_NE(fd, -1);
	for (int i = 0; i < REPEATS; i++) {
		int r[5] = {
			set_filter(fd, ok),
			set_filter(fd, zero),
			set_filter(fd, "filter 0x1000/0x100@/nonexistent/perfabi"),
			set_filter(fd, "filter 0x1000/0x100@/"),
			set_filter(fd, stop),
		};
		const int want[5] = { 0, EINVAL, ENOENT, EINVAL, EOPNOTSUPP };

		for (int k = 0; k < 5; k++)
			if (r[k] != want[k] && !bad[k]++)
				pa_fail("repeat %d, filter %d: %s, want %s", i, k,
					pa_errno_name(r[k]), pa_errno_name(want[k]));
	}
	close(fd);

	/* file filters are per-task only */
	want_cpu = pa_expected_errno(PA_NEED_CPU);
	if (want_cpu) {
		pa_diag("CPU-wide intel_pt refused here (%s): %s", pa_errno_name(want_cpu),
			pa_context_string());
	} else {
		fd = pa_perf_open(&attr, -1, 0, -1, 0);
		if (fd < 0 && errno == EBUSY)
			pa_skip("intel_pt on CPU 0 is in use by a per-task session (EBUSY)");
		ASSERT_NE(fd, -1);
		for (int i = 0; i < REPEATS; i++) {
			int r = set_filter(fd, ok);

			if (r != EOPNOTSUPP && !bad[5]++)
				pa_fail("repeat %d, CPU-wide file filter: %s, want EOPNOTSUPP",
					i, pa_errno_name(r));
		}
		close(fd);
	}
	pa_diag("%d repeats of each filter string; nr_addr_filters %d", REPEATS, nr);
	for (int k = 0; k < 6; k++)
		EXPECT_EQ(bad[k], 0);
}
