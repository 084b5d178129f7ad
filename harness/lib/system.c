// SPDX-License-Identifier: GPL-2.0
/* What the running system is: kernel, identity, sysctls, PMUs, tracefs. */
#include "internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

int pa_sysctl_read_at(const char *procsys, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	/* an absolute name is a file of its own (a sysfs knob) */
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", procsys, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int pa_sysctl_write_at(const char *procsys, const char *name, const char *value)
{
	char path[512];
	FILE *f;

	/* an absolute name is a file of its own (a sysfs knob) */
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", procsys, name);
	f = fopen(path, "we");
	if (!f)
		return -1;
	if (fprintf(f, "%s\n", value) < 0) {
		int e = errno;

		fclose(f);
		errno = e;
		return -1;
	}
	return fclose(f) ? -1 : 0;	/* the kernel's answer comes at the flush */
}

int pa_sysctl_read(const char *name, char *buf, size_t len)
{
	return pa_sysctl_read_at("/proc/sys", name, buf, len);
}

long pa_sysctl_long(const char *name)
{
	char buf[64], *end;
	long v;

	if (pa_sysctl_read(name, buf, sizeof(buf)))
		return LONG_MIN;
	v = strtol(buf, &end, 10);
	return end == buf ? LONG_MIN : v;
}

int pa_paranoid(void)
{
	long v = pa_sysctl_long("kernel/perf_event_paranoid");

	return v == LONG_MIN ? INT_MIN : (int)v;
}

uint64_t pa_caps_effective(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return 0;
	return (uint64_t)d[0].effective | ((uint64_t)d[1].effective << 32);
}

bool pa_has_cap(int cap)
{
	return pa_caps_effective() & PA_CAP(cap);
}

bool pa_perfmon_capable(void)
{
	return pa_has_cap(PA_CAP_PERFMON) || pa_has_cap(PA_CAP_SYS_ADMIN);
}

int pa_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int pa_cpulist_each(const char *list, int (*fn)(long lo, long hi, void *arg), void *arg)
{
	const char *p = list;
	char *end;
	int r = 0;

	while (!r) {
		long lo = strtol(p, &end, 10), hi;

		if (end == p)
			break;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		r = fn(lo, hi, arg);
		if (*p != ',')
			break;
		p++;
	}
	return r;
}

/* pa_cpulist_each() over the list in a sysfs file; -1 where it is
 * unreadable */
static int cpulist_each(const char *path, int (*fn)(long lo, long hi, void *arg), void *arg)
{
	char buf[1024];

	if (pa_sysctl_read(path, buf, sizeof(buf)))
		return -1;
	return pa_cpulist_each(buf, fn, arg);
}

static int highest(long lo, long hi, void *arg)
{
	(void)lo;
	if (hi > *(long *)arg)
		*(long *)arg = hi;
	return 0;
}

int pa_cpulist_last(const char *path)
{
	long hi = -1;

	cpulist_each(path, highest, &hi);
	return (int)hi;
}

struct below { long nr, found; };

static int first_below(long lo, long hi, void *arg)
{
	struct below *b = arg;

	(void)hi;
	if (lo < b->nr)
		b->found = lo;
	return 1;	/* the list is sorted: its first number decides */
}

int pa_cpulist_first_below(const char *path, int nr)
{
	struct below b = { nr, -1 };

	cpulist_each(path, first_below, &b);
	return (int)b.found;
}

int pa_nr_cpu_ids(void)
{
	int hi = pa_cpulist_last("/sys/devices/system/cpu/possible");

	return hi < 0 ? -1 : hi + 1;
}

int pa_cpu_possible_offline(void)
{
	int nr = pa_nr_cpu_ids();

	return nr < 0 ? -1 : pa_cpulist_first_below("/sys/devices/system/cpu/offline", nr);
}

struct pa_kver pa_kernel(void)
{
	static struct pa_kver cached;
	static bool have;
	struct utsname u;
	const char *env = getenv("PERFABI_KERNEL_VERSION");

	if (have)
		return cached;
	if (env && !pa_kver_parse(env, &cached)) {
		have = true;
		return cached;
	}
	if (uname(&u) || pa_kver_from_uname(u.release, u.version, &cached))
		cached = (struct pa_kver){ 0, 0, 0 };
	have = true;
	return cached;
}

bool pa_kernel_at_least(const char *version)
{
	struct pa_kver v;

	if (pa_kver_parse(version, &v)) {
		pa_fail("bad kernel version '%s' in the case", version);
		return false;
	}
	return pa_kver_cmp(pa_kernel(), v) >= 0;
}

int pa_pmu_type(const char *pmu)
{
	char path[256], buf[32];
	FILE *f;
	int type = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		type = atoi(buf);
	fclose(f);
	return type;
}

const char *pa_tracefs(void)
{
	static const char *const places[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct stat st;
	char path[128];

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", places[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return places[i];
	}
	return NULL;
}

long pa_tracepoint_listed_id(const char *sys, const char *event)
{
	const char *list = getenv("PERFABI_TRACEPOINT_IDS");
	char line[512], s[256], e[256];
	long id = -1, v;
	FILE *f = list ? fopen(list, "re") : NULL;

	while (f && id < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %255s %ld", s, e, &v) == 3 &&
		    !strcmp(s, sys) && !strcmp(e, event))
			id = v;
	if (f)
		fclose(f);
	return id;
}

bool pa_tracepoint_unkept;

/* Ask the runner to keep the tracepoint (or, for sys PA_KEEP_KPROBE, a
 * kprobe on the syscall named event) registered for the rest of the run
 * (runner/tpkeep.c): its later closes then wait for no grace period. One
 * line to the FIFO it named, never blocking; nothing without a runner or
 * for a case that declared .tracepoint_unkept. */
static void keep_ask(const char *sys, const char *event)
{
	const char *fifo = getenv("PERFABI_TRACEPOINT_KEEP");
	char line[300];
	int fd, n;

	if (!fifo || pa_tracepoint_unkept)
		return;
	n = snprintf(line, sizeof(line), "%s %s\n", sys, event);
	if (n <= 0 || n >= (int)sizeof(line))
		return;
	fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		/* a full FIFO: the tracepoint is not kept, nothing else */
	}
	close(fd);
}

/* The syscalls on whose entry function the runner keeps a kprobe when a
 * case asks (runner/tpkeep.c): the ones the library's kprobes probe. */
static const char *const pa_kprobe_keepable[] = { "getppid", NULL };

bool pa_kprobe_keepable_syscall(const char *name)
{
	for (int i = 0; pa_kprobe_keepable[i]; i++)
		if (!strcmp(name, pa_kprobe_keepable[i]))
			return true;
	return false;
}

void pa_kprobe_keep_ask(const char *func)
{
	char sym[128];

	for (int i = 0; pa_kprobe_keepable[i]; i++) {
		pa_syscall_symbol_into(pa_kprobe_keepable[i], sym, sizeof(sym));
		if (!strcmp(func, sym)) {
			keep_ask(PA_KEEP_KPROBE, pa_kprobe_keepable[i]);
			return;
		}
	}
}

static long tracefs_id(const char *sys, const char *event)
{
	const char *t = pa_tracefs();
	char path[512], buf[32];
	FILE *f;
	long id = -1;

	if (!t)
		return pa_tracepoint_listed_id(sys, event);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", t, sys, event);
	f = fopen(path, "re");
	if (!f)
		return pa_tracepoint_listed_id(sys, event);
	if (fgets(buf, sizeof(buf), f))
		id = strtol(buf, NULL, 10);
	fclose(f);
	return id;
}

long pa_tracepoint_id(const char *sys, const char *event)
{
	long id = tracefs_id(sys, event);

	if (id >= 0)
		keep_ask(sys, event);
	return id;
}

/*
 * A hardware PMU is there when a generic hardware event opens. ENOENT,
 * ENODEV and EOPNOTSUPP mean no PMU serves it (a VM without a vPMU). Where
 * the open is refused for privilege, fall back to sysfs: x86 core PMUs are
 * "cpu", or "cpu_core"/"cpu_atom" on hybrid parts; arm64 names start "armv".
 */
bool pa_hw_pmu_present(const char **reason)
{
	static char why[160];
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd, err;

	a.type = PERF_TYPE_HARDWARE;
	fd = pa_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	err = errno;
	if (err == EACCES || err == EPERM) {
		DIR *d = opendir("/sys/bus/event_source/devices");
		struct dirent *e;
		bool found = false;

		while (d && (e = readdir(d)))
			if (!strcmp(e->d_name, "cpu") || !strncmp(e->d_name, "cpu_", 4) ||
			    !strncmp(e->d_name, "armv", 4))
				found = true;
		if (d)
			closedir(d);
		if (found)
			return true;
	}
	snprintf(why, sizeof(why),
		 "PERF_TYPE_HARDWARE/INSTRUCTIONS open fails with %s",
		 pa_errno_name(err));
	if (reason)
		*reason = why;
	return false;
}

void pa_context_read(struct pa_context *ctx)
{
	struct utsname u;
	DIR *d;
	struct dirent *e;

	memset(ctx, 0, sizeof(*ctx));
	ctx->kernel = pa_kernel();
	if (!uname(&u))
		snprintf(ctx->release, sizeof(ctx->release), "%s", u.release);
	ctx->paranoid = pa_paranoid();
	ctx->uid = geteuid();
	ctx->caps = pa_caps_effective();
	ctx->ncpus = pa_online_cpus();
	ctx->tracefs = pa_tracefs();
	ctx->tracepoint_ids = getenv("PERFABI_TRACEPOINT_IDS") &&
			      !access(getenv("PERFABI_TRACEPOINT_IDS"), R_OK);
	ctx->hw_pmu = -1;
	ctx->destructive = getenv("PERFABI_DESTRUCTIVE") &&
			   !strcmp(getenv("PERFABI_DESTRUCTIVE"), "1");
	d = opendir("/sys/bus/event_source/devices");
	while (d && (e = readdir(d)) && ctx->npmus < PA_MAX_PMUS) {
		int type;

		if (e->d_name[0] == '.')
			continue;
		type = pa_pmu_type(e->d_name);
		if (type < 0)
			continue;
		snprintf(ctx->pmus[ctx->npmus].name, sizeof(ctx->pmus[0].name),
			 "%s", e->d_name);
		ctx->pmus[ctx->npmus++].type = type;
	}
	if (d)
		closedir(d);
}

uint64_t pa_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t pa_clock_res_ns(clockid_t id)
{
	struct timespec res;

	if (clock_getres(id, &res))
		return 0;
	return (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
}

bool pa_wall_clock_continuous(void)
{
	uint64_t r = pa_clock_res_ns(CLOCK_MONOTONIC);

	return r && r <= 1000;
}

uint64_t pa_wall_bound_ns(uint64_t wall)
{
	return wall + wall / 50 + 200000;
}

void pa_sched_info(uint64_t *delay, uint64_t *runs)
{
	unsigned long long sum, d = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	struct rusage ru = { 0 };

	if (f && fscanf(f, "%llu %llu", &sum, &d) != 2)
		d = 0;
	if (f)
		fclose(f);
	*delay = d;
	/* switches, not schedstat's pcount: every kernel counts them (a
	 * kernel without CONFIG_SCHED_INFO has no schedstat, and a count of 0
	 * there let a clock case's allowance miss a guest's preemptions) */
	getrusage(RUSAGE_THREAD, &ru);	/* fails only for a bad who or buffer */
	*runs = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

void pa_sleep_ms(int ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += (long)ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

char pa_task_state(pid_t pid, pid_t tid, const char *comm)
{
	char path[96], buf[512], want[48], *p;
	ssize_t n;
	int fd;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (comm) {
		snprintf(want, sizeof(want), "(%s) ", comm);
		p = strstr(buf, want);
		return p ? p[strlen(want)] : 0;
	}
	p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
	return p && p[1] == ' ' ? p[2] : 0;
}

void pa_wait_task_sleeps(pid_t pid, const char *comm, const char *what)
{
	char st = 0;

	for (int i = 0; i < 10000; i++) {
		st = pa_task_state(pid, 0, comm);
		if (st == 'S')
			return;
		pa_sleep_ms(1);
	}
	pa_fail("%s (state '%c')", what, st ? st : '?');
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	pa_abort();
}

unsigned long long pa_vm_pin_kb(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long kb = ~0ull;
	char line[256];

	if (!f)
		return kb;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* A throttle among a burst of overflows: the rate decides whose it is
 * (perfabi.h). Here, not in throttle.c, which needs case_main.c. */
long pa_throttle_check(int burst)
{
	long rate = pa_sysctl_long("kernel/perf_event_max_sample_rate");

	if (rate == LONG_MIN)
		pa_skip("the samples were throttled, and kernel.perf_event_max_sample_rate is unreadable");
	if (rate > (long)burst * 1000) {
		pa_fail("PERF_RECORD_THROTTLE within a burst of %d overflows while kernel.perf_event_max_sample_rate is %ld: "
			"at HZ <= 1000 an event may take at least %ld overflows a tick",
			burst, rate, (rate + 999) / 1000);
		pa_abort();
	}
	return rate;
}

void pa_throttled_in_burst(int burst)
{
	long rate = pa_throttle_check(burst);

	pa_skip("the samples were throttled, which kernel.perf_event_max_sample_rate %ld may explain (at HZ 1000: %ld overflows a tick; the burst is %d)",
		rate, (rate + 999) / 1000, burst);
}
