#include "perfabi.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* path's content, "" when absent (errno set) */
static const char *read_path(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = 0;
	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static void expect_format(const char *pmu, const char *term, const char *want)
{
	char path[256], buf[128];

	snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, term);
	if (!read_path(path, buf, sizeof(buf))) {
		pa_fail("%s: %s (expected \"%s\")", path, pa_errno_name(errno), want);
		return;
	}
	pa_diag("%s: %.*s", path, (int)strcspn(buf, "\n"), buf);
	if (strcmp(buf, want))
		pa_diag("%s is \"%.*s\", expected \"%.*s\"", path,
			(int)strcspn(buf, "\n"), buf, (int)strcspn(want, "\n"), want);
	EXPECT_TRUE(!strcmp(buf, want));
}

PERFABI_CASE(
	.assertion = "the kprobe and uprobe PMUs publish retprobe as bit 0 of "
		     "config (format/retprobe is \"config:0\"), and the uprobe "
		     "PMU the USDT reference counter offset as config bits 32-63 "
		     "(format/ref_ctr_offset is \"config:32-63\", since 4.20)",
	.ref = "perf_event_open(2), kprobe and uprobe: \"set retprobe (bit 0 of "
	       "config, see /sys/bus/event_source/devices/[k,u]probe/format/"
	       "retprobe)\"; kernel/events/core.c PMU_FORMAT_ATTR(retprobe, "
	       "\"config:0\"), PMU_FORMAT_ATTR(ref_ctr_offset, \"config:32-63\") "
	       "(a6ca88b241d5, 4.20)",
	.covers = "sysfs.format attr.config type.dynamic",
	.min_kernel = "4.17",
) {
	bool kprobe = pa_pmu_type("kprobe") >= 0;
	bool uprobe = pa_pmu_type("uprobe") >= 0;

	if (!kprobe && !uprobe)
		pa_skip("no kprobe or uprobe PMU (CONFIG_KPROBE_EVENTS and "
			"CONFIG_UPROBE_EVENTS off)");
	if (kprobe)
		expect_format("kprobe", "retprobe", "config:0\n");
	if (uprobe) {
		expect_format("uprobe", "retprobe", "config:0\n");
		if (pa_kernel_at_least("4.20"))
			expect_format("uprobe", "ref_ctr_offset", "config:32-63\n");
	}
}
