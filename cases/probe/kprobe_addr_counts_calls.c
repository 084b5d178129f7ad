#include "perfabi.h"
#include <sys/syscall.h>

static uint64_t ksym_addr(const char *name)
{
	char line[512], sym[256], t;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "re");
	uint64_t r = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && !strcmp(sym, name)) {
			r = a;
			break;
		}
	fclose(f);
	return r;
}

PERFABI_CASE(
	.assertion = "a kprobe given by address (kprobe_func = 0, kprobe_addr = the symbol's address) counts exactly the calls of that function",
	.ref = "perf_event_open(2), kprobe_addr \"...kprobe_func is NULL... kprobe_addr\" (since Linux 4.17)",
	.covers = "type.dynamic attr.kprobe_addr",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	uint64_t addr = ksym_addr(pa_syscall_symbol("getppid"));
	int fd;

	if (!addr)
		pa_skip("no address for %s in /proc/kallsyms (kptr_restrict?)", pa_syscall_symbol("getppid"));
	attr.type = (uint32_t)pa_pmu_type("kprobe");
	attr.exclude_kernel = 0;
	attr.kprobe_func = 0;
	attr.kprobe_addr = addr;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 6; i++)
		syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 6);
	close(fd);
}
