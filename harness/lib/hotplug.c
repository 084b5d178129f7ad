// SPDX-License-Identifier: GPL-2.0
/* perfabi case library: taking a CPU offline and back (root only). */
#include "internal.h"

/* ---- CPU hotplug -------------------------------------------------------- */

#define PA_CPU_DIR "/sys/devices/system/cpu"

static void cpu_online_path(int cpu, char *buf, size_t len)
{
	snprintf(buf, len, PA_CPU_DIR "/cpu%d/online", cpu);
}

/* The highest online CPU but cpu0 that has an `online` file, or -1. */
static int hotpluggable_cpu(void)
{
	char list[512], *p = list, *end;
	int best = -1;

	if (pa_sysctl_read(PA_CPU_DIR "/online", list, sizeof(list)))
		return -1;
	while (*p) {
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = hi; c >= lo && c > best && c > 0; c--) {
			char f[96];

			cpu_online_path((int)c, f, sizeof(f));
			if (!access(f, F_OK)) {
				best = (int)c;
				break;
			}
		}
		p = *end == ',' ? end + 1 : end;
	}
	return best;
}

int pa_hotplug_cpu(void)
{
	int cpu = hotpluggable_cpu();

	if (cpu < 0)
		pa_skip("no online CPU other than cpu0 has " PA_CPU_DIR
			"/cpuN/online (none is hotpluggable)");
	return cpu;
}

void pa_cpu_offline(int cpu)
{
	char path[96];
	int err;

	cpu_online_path(cpu, path, sizeof(path));
	errno = 0;
	if (pa_sysctl_write(path, "0")) {
		err = errno;
		if (err == EPERM || err == EBUSY || err == EINVAL || err == EACCES ||
		    err == EROFS)
			pa_skip("cpu%d cannot be taken offline: %s", cpu, pa_errno_name(err));
		pa_fail("writing 0 to %s: %s", path, pa_errno_name(err));
		pa_abort();
	}
	pa_diag("cpu%d offline", cpu);
}

void pa_cpu_online(int cpu)
{
	char path[96];

	cpu_online_path(cpu, path, sizeof(path));
	if (pa_sysctl_write(path, "1")) {
		pa_fail("writing 1 to %s: %s", path, pa_errno_name(errno));
		pa_abort();
	}
	pa_diag("cpu%d back online", cpu);
}
