// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the open/, type/ and hw/ cases: a workload the compiler cannot
 * remove, a controllable child process, CPU pinning, sysfs PMU event
 * strings, and the generic hardware event probe.
 */
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

uint64_t pa_busy_loop(uint64_t iters)
{
	uint64_t acc = 0;

	/* one conditional branch per iteration: hw/ cases count on it */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 1
#endif
	for (uint64_t i = 0; i < iters; i++) {
		acc += i ^ (acc >> 3);
		/* the compiler must assume acc is used: no folding */
		__asm__ __volatile__("" : "+r"(acc));
	}
	return acc;
}

int pa_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pa_note_global("pinned itself to a CPU");
	return sched_setaffinity(0, sizeof(set), &set);
}

int pa_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* ---- the puppet: a forked child that runs functions on request ---- */
struct pa_puppet_cmd {
	void (*fn)(int);
	int arg;
};

static void puppet_loop(int in, int out)
{
	struct pa_puppet_cmd c;
	char ack = 'k';

	while (read(in, &c, sizeof(c)) == (ssize_t)sizeof(c)) {
		if (!c.fn)
			break;
		c.fn(c.arg);
		if (write(out, &ack, 1) != 1)
			break;
	}
	_exit(0);
}

/* The parent's ends of the live puppets' pipes: a new puppet closes them,
 * or it would hold an older puppet's command pipe open and that puppet
 * would never see EOF at pa_puppet_stop() (stopping in start order hung). */
#define PA_MAX_PUPPET_FDS 64
static int puppet_fds[PA_MAX_PUPPET_FDS];
static int n_puppet_fds;

static void puppet_fds_forget(int fd)
{
	for (int i = 0; i < n_puppet_fds; i++)
		if (puppet_fds[i] == fd) {
			puppet_fds[i] = puppet_fds[--n_puppet_fds];
			return;
		}
}

void pa_puppet_start(struct pa_puppet *p)
{
	int down[2], up[2];
	char ready;

	if (pipe(down) || pipe(up)) {
		pa_fail("pipe: %s", pa_errno_name(errno));
		pa_abort();
	}
	p->pid = fork();
	if (p->pid < 0) {
		pa_fail("fork: %s", pa_errno_name(errno));
		pa_abort();
	}
	if (p->pid == 0) {
		close(down[1]);
		close(up[0]);
		for (int i = 0; i < n_puppet_fds; i++)
			close(puppet_fds[i]);
		ready = 'r';
		if (write(up[1], &ready, 1) != 1)
			_exit(1);
		puppet_loop(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	p->to = down[1];
	p->from = up[0];
	if (n_puppet_fds + 2 <= PA_MAX_PUPPET_FDS) {
		puppet_fds[n_puppet_fds++] = p->to;
		puppet_fds[n_puppet_fds++] = p->from;
	}
	if (read(p->from, &ready, 1) != 1) {
		pa_fail("puppet %d did not start", (int)p->pid);
		pa_abort();
	}
}

void pa_puppet_run(struct pa_puppet *p, void (*fn)(int), int arg)
{
	struct pa_puppet_cmd c = { fn, arg };
	char ack;

	if (write(p->to, &c, sizeof(c)) != (ssize_t)sizeof(c) ||
	    read(p->from, &ack, 1) != 1) {
		pa_fail("puppet %d did not run its command", (int)p->pid);
		pa_abort();
	}
}

void pa_puppet_stop(struct pa_puppet *p)
{
	if (p->pid <= 0)
		return;
	puppet_fds_forget(p->to);
	puppet_fds_forget(p->from);
	close(p->to);	/* EOF: the puppet exits */
	close(p->from);
	waitpid(p->pid, NULL, 0);
	p->pid = 0;
}

/* ---- sysfs PMU events ---- */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

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

/* Deposit value into cfg[] by the format "configN:lo-hi,lo-hi,bit". */
static int apply_format(const char *fmt, uint64_t value, uint64_t cfg[3])
{
	const char *p = fmt;
	int which;

	if (!strncmp(p, "config2:", 8)) {
		which = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		which = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		which = 0;
		p += 7;
	} else {
		return -1;
	}
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 63)
				return -1;
			p = end;
		}
		for (long b = lo; b <= hi; b++) {
			cfg[which] |= (value & 1) << b;
			value >>= 1;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return value ? -1 : 0;	/* value did not fit the field */
}

int pa_pmu_event_config(const char *pmu, const char *event, uint64_t cfg[3])
{
	char path[512], spec[256], fmt[128], *save = NULL, *term;

	cfg[0] = cfg[1] = cfg[2] = 0;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events/%s",
		 pmu, event);
	if (read_line(path, spec, sizeof(spec)))
		return -1;
	for (term = strtok_r(spec, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		uint64_t value = 1;	/* a bare term means 1 */

		while (isspace((unsigned char)*term))
			term++;
		if (eq) {
			*eq = 0;
			if (eq[1] == '?')	/* a parameter the user must give */
				return -1;
			value = strtoull(eq + 1, NULL, 0);
		}
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/format/%s", pmu, term);
		if (read_line(path, fmt, sizeof(fmt)) || apply_format(fmt, value, cfg))
			return -1;
	}
	return 0;
}

const char *pa_core_pmu_name(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "armv8_pmuv3_0",
					     "armv8_pmuv3", "cpum_cf" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (pa_pmu_type(names[i]) >= 0)
			return names[i];
	return NULL;
}

static int allowed(long lo, long hi, void *arg)
{
	const cpu_set_t *set = arg;

	for (long c = lo; c <= hi && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			return (int)c + 1;
	return 0;
}

/* The first CPU of a sysfs CPU list ("0-7,16-23") that this thread may
 * run on; -1 when none is (or the list is not one). */
static int first_allowed_cpu(const char *list)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	return pa_cpulist_each(list, allowed, &set) - 1;
}

int pa_hw_open_or_skip(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = pa_sw_attr(config);
	char cpus[256];
	int fd;

	/* hybrid x86: PERF_TYPE_HARDWARE/HW_CACHE/RAW without an extended
	 * type go to cpu_core, which counts only on its own CPUs: run on one
	 * this task may use, or SKIP (on an E-core it would count nothing) */
	if (!read_line("/sys/bus/event_source/devices/cpu_core/cpus", cpus, sizeof(cpus))) {
		int cpu = first_allowed_cpu(cpus);

		if (cpu < 0)
			pa_skip("hybrid x86: none of the cpu_core CPUs (%s) is allowed to this task", cpus);
		if (pa_pin_cpu(cpu))
			pa_skip("hybrid x86: cannot run on cpu_core CPU %d: %s", cpu, pa_errno_name(errno));
	}
	a.type = type;
	errno = 0;
	fd = pa_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	/* perf_event_open(2) ENOENT: "also returned for some unsupported
	 * generic events"; EOPNOTSUPP: no hardware support. */
	if (errno == ENOENT || errno == EOPNOTSUPP)
		pa_skip("the PMU does not support type %u config %#llx (%s)", type,
			(unsigned long long)config, pa_errno_name(errno));
	pa_fail("perf_event_open(type %u, config %#llx) failed with %s", type,
		(unsigned long long)config, pa_errno_name(errno));
	pa_abort();
}

uint64_t pa_count_over(int fd, void (*work)(int), int arg)
{
	uint64_t v;

	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		pa_fail("enable fd %d: %s", fd, pa_errno_name(errno));
		pa_abort();
	}
	work(arg);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0)) {
		pa_fail("disable fd %d: %s", fd, pa_errno_name(errno));
		pa_abort();
	}
	pa_read_u64(fd, &v, 1);
	return v;
}

void pa_work_loop(int millions)
{
	volatile uint64_t sink = pa_busy_loop((uint64_t)millions * 1000000u);

	(void)sink;
}

void pa_work_pages(int pages)
{
	pa_touch_pages(pages);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pa_work_cpu_ms(int ms)
{
	uint64_t start = thread_cpu_ns();

	while (thread_cpu_ns() - start < (uint64_t)ms * 1000000u)
		pa_busy_loop(10000);
}

/* ---- generic hardware events in groups (the hw/ cases) ---------------- */

/* Open generic hardware event `config` on this task (user space only),
 * leader (group -1, disabled) or member (follows the leader), reading
 * read_format; SKIP where the PMU does not support it (ENOENT, EOPNOTSUPP:
 * perf_event_open(2) "some unsupported generic events"). The first open
 * goes through pa_hw_open_or_skip(), which also pins the task to a CPU of
 * the core PMU on hybrid x86. */
int pa_hw_open_member(uint64_t config, int group, uint64_t read_format)
{
	struct perf_event_attr a = pa_sw_attr(config);
	int fd;

	if (group < 0)
		close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, config));
	a.type = PERF_TYPE_HARDWARE;
	a.disabled = group < 0;
	a.read_format = read_format;
	errno = 0;
	fd = pa_perf_open(&a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == EOPNOTSUPP)
		pa_skip("the PMU does not support generic hardware event %#llx "
			"(%s)", (unsigned long long)config, pa_errno_name(errno));
	pa_fail("perf_event_open(PERF_TYPE_HARDWARE, config %#llx) failed with %s",
		(unsigned long long)config, pa_errno_name(errno));
	pa_abort();
}

/* The n (<= 4) values of the group led by `leader`. SKIP when the group
 * never got the counters, and with `whole` also when it did not have them
 * all the time it was enabled (another user held them): an absolute count
 * is comparable with the workload only then. Members of a group always
 * count over the same intervals, so relations between them need not. */
void pa_hw_read_group(int leader, uint64_t *v, unsigned n, bool whole)
{
	uint64_t b[3 + 4];

	pa_read_u64(leader, b, 3 + n);
	ASSERT_EQ(b[0], n);
	if (!b[2] || (whole && b[2] < b[1]))
		pa_skip("the group had the counters %llu of the %llu ns it was "
			"enabled (another user holds them)",
			(unsigned long long)b[2], (unsigned long long)b[1]);
	memcpy(v, b + 3, n * sizeof(*v));
}

/* k (>= 1) iterations of exactly three instructions (no pair the CPU could
 * fuse), the last a conditional branch, taken on every iteration but the
 * last. */
void pa_loop3(uint64_t k)
{
#if defined(__x86_64__)
	__asm__ __volatile__("1:\n\t"
			     "dec %0\n\t"
			     "nop\n\t"
			     "jnz 1b"
			     : "+r"(k) : : "cc");
#elif defined(__aarch64__)
	__asm__ __volatile__("1:\n\t"
			     "subs %0, %0, #1\n\t"
			     "nop\n\t"
			     "b.ne 1b"
			     : "+r"(k) : : "cc");
#else
	(void)k;
	pa_skip("no loop of known instruction count for this architecture");
#endif
}

/* A pointer chase through the cache lines of a `bytes` buffer in one
 * random cycle (Sattolo's shuffle): each step loads a line no prefetcher
 * could have predicted. Built (and so faulted in) before counting. */
void *pa_cache_chase_build(size_t bytes)
{
	size_t n = bytes / 64;
	char *buf = aligned_alloc(64, bytes);
	uint32_t *perm = malloc(n * sizeof(*perm));
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	if (!buf || !perm) {
		pa_fail("cannot allocate %zu bytes for the pointer chase", bytes);
		pa_abort();
	}
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j;
		uint32_t t;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		j = (size_t)((x * 0x2545f4914f6cdd1dULL) >> 32) % i;
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + (size_t)perm[i] * 64) = buf + (size_t)perm[(i + 1) % n] * 64;
	free(perm);
	return buf;
}

/* k dependent loads along the chase */
void *pa_cache_chase(void *p, uint64_t k)
{
	while (k--)
		p = *(void *volatile *)p;
	return p;
}

/*
 * A clock event's count over 200 ms of this thread's busy CPU time, against
 * the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) measured inside
 * ENABLE..DISABLE, where the event is on throughout, and the wall time
 * around them less the time it waited on a run queue (run_delay of
 * /proc/thread-self/schedstat):
 *
 *   - below: that CPU time less 1 ms + 5 % (the clocks' rates; the enable
 *     and disable calls lie outside it: a host that stalls the vCPU inside
 *     them adds CPU time the event never saw, 20 ms seen under QEMU TCG
 *     on a loaded host when they were inside);
 *   - above: the event's own time_enabled (perf's clock, the one the count
 *     runs on: a task event is enabled only while the task is on a CPU),
 *     and, where CLOCK_MONOTONIC is continuous (pa_wall_clock_continuous()),
 *     that wall time as pa_wall_bound_ns() allows it (2 % + 0.2 ms:
 *     local_clock() against CLOCK_MONOTONIC).
 *
 * At each switch the clocks stop and start a few microseconds apart:
 * run_delay starts at the rq clock of the __schedule() that preempts the
 * task, before pick_next_task(), and sum_exec_runtime runs from the pick
 * that chose it, while the event is removed later, in prepare_task_switch(),
 * and added only after switch_to(). 50 us per switch and one more
 * (PA_SWITCH_NS; the switches from pa_sched_info()) widens both bounds,
 * which covers a slow emulated machine.
 *
 * The DISABLE itself: __perf_event_disable() stops time_enabled at the
 * context time it takes first (update_context_time()) and the count only
 * later, where event_sched_out() removes the event (cpu-clock: local_clock()
 * in cpu_clock_event_stop()). Both lie inside the ioctl, so the count can
 * pass time_enabled by at most the ioctl's own duration; a vCPU the host
 * stops between the two (59.5 us over time_enabled, no switch, on Debian
 * 6.1 under TCG) makes that long. So the bound on time_enabled adds the
 * ioctl's duration on CLOCK_MONOTONIC (plus its resolution: a tick where
 * the clock is not continuous).
 */

void pa_clock_event_vs_cputime(uint64_t config, const char *what)
{
	struct perf_event_attr attr = pa_sw_attr(config);
	uint64_t w0, w1, d0, d1, n0, n1, c0, c1, s0, s1, v[2], tc, cpu, wall, lo, slack, stop;
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_work_cpu_ms(5);	/* fault in the code and stack first */
	w0 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_sched_info(&d0, &n0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	c0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pa_work_cpu_ms(200);
	c1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s0 = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	s1 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_sched_info(&d1, &n1);
	w1 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_read_u64(fd, v, 2);
	close(fd);

	tc = v[0];
	cpu = c1 - c0;
	wall = (w1 - w0) - (d1 - d0);
	slack = (n1 - n0 + 1) * PA_SWITCH_NS;
	stop = s1 - s0 + pa_clock_res_ns(CLOCK_MONOTONIC);
	lo = cpu - cpu / 20 - 1000000 - slack;
	pa_diag("%s %llu ns (enabled %llu ns), thread CPU time %llu ns, wall %llu ns, "
		"waited %llu ns, %llu switches, DISABLE took %llu ns", what, (unsigned long long)tc,
		(unsigned long long)v[1], (unsigned long long)cpu,
		(unsigned long long)(w1 - w0), (unsigned long long)(d1 - d0),
		(unsigned long long)(n1 - n0), (unsigned long long)(s1 - s0));
	EXPECT_GE(tc, lo);
	EXPECT_LE(tc, v[1] + slack + stop);
	if (pa_wall_clock_continuous())
		EXPECT_LE(tc, pa_wall_bound_ns(wall) + slack);
}

void pa_hw_part_within_whole(uint64_t whole, uint64_t part, uint64_t div, uint64_t slack,
			     const char *what)
{
	const uint64_t loads = 1000000;
	int lead = pa_hw_open_member(whole, -1, PA_HW_GROUP_FMT);
	int sub = pa_hw_open_member(part, lead, PA_HW_GROUP_FMT);
	void *buf = pa_cache_chase_build(32u << 20);
	volatile void *end;
	uint64_t v[2];

	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	end = pa_cache_chase(buf, loads);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	(void)end;
	pa_hw_read_group(lead, v, 2, false);
	pa_diag("%s: %llu, %llu over %llu random loads", what, (unsigned long long)v[0],
		(unsigned long long)v[1], (unsigned long long)loads);
	/* QEMU's PMUv3 lists STALL_FRONTEND/BACKEND but never counts them:
	 * "0 <= whole" there would be a pass that checked nothing */
	if (!v[1] && pa_cpu_emulated())
		pa_skip("an emulated CPU counts config %#llx as 0 over %llu random loads: it implements the event only in name",
			(unsigned long long)part, (unsigned long long)loads);
	EXPECT_LE(v[1], v[0] + v[0] / div + slack);
	free(buf);
	close(sub);
	close(lead);
}
