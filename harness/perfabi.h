/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfabi.h — the one header a case includes.
 *
 * A case is one C file under cases/<area>/ that checks one documented
 * behaviour of perf_event_open(2):
 *
 *	#include "perfabi.h"
 *
 *	PERFABI_CASE(
 *		.assertion = "pid == -1 and cpu == -1 is invalid",
 *		.ref = "perf_event_open(2), Arguments",
 *		.covers = "arg.pid arg.cpu errno.EINVAL",
 *	) {
 *		struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
 *		EXPECT_OPEN_FAIL(&attr, -1, -1, -1, 0, EINVAL);
 *	}
 *
 * The library (libperfabi.a) supplies main(): it picks the case by the
 * name it was run as (one program holds every case), checks the declared
 * requirements (a missing one is a SKIP with its reason), runs the body in a
 * forked child with a timeout, kills whatever the body left behind, restores
 * every sysctl the body changed, and prints KTAP. Exit status follows
 * kselftest: 0 pass, 1 fail, 2 xfail, 3 xpass, 4 skip.
 */
#ifndef PERFABI_H
#define PERFABI_H

#include "abi.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- outcomes (the exit codes of a case binary) ------------------------- */
enum pa_outcome {
	PA_PASS = 0,
	PA_FAIL = 1,
	PA_XFAIL = 2,
	PA_XPASS = 3,
	PA_SKIP = 4,
	PA_MISSING = 5,		/* reports only: no result in that cell (never
				 * a case's exit code) */
};
const char *pa_outcome_name(enum pa_outcome o);

/* Capability bits for .caps (values of <linux/capability.h>). */
#define PA_CAP(n)		(1ULL << (n))
#define PA_CAP_KILL		5
#define PA_CAP_SETUID		7
#define PA_CAP_IPC_LOCK		14
#define PA_CAP_SYS_PTRACE	19
#define PA_CAP_SYS_ADMIN	21
#define PA_CAP_SYSLOG		34
#define PA_CAP_PERFMON		38
#define PA_CAP_BPF		39

/* A documented kernel deviation: the case is expected to fail on kernels in
 * [from, to); `to` is the first fixed release (NULL: not fixed yet). */
struct pa_known_bug {
	const char *from;
	const char *to;
	const char *why;
	const char *fix;	/* commit that fixed it */
	/* stable releases that took the fix before `to`, space separated
	 * ("6.18.2 6.17.13"): a kernel of that branch at or past it is fixed */
	const char *fixed_in;
	/* more windows where the bug is, besides from..to (from may then be
	 * NULL: no mainline release had it), space separated "A..B", A in,
	 * B out, B empty: to this day. A of three numbers (5.15.77..5.15.84)
	 * is a window of that stable branch only, where a backport brought
	 * the bug; of two (6.19..) one of every release from A on. */
	const char *windows;
};

/* The kernel fix a regression case (cases/regress/) checks for. */
struct pa_fix {
	const char *commit;	/* 12-digit fix commit */
	const char *subject;	/* its subject line */
	const char *release;	/* first fixed mainline release */
	const char *cve;	/* CVE id, or NULL */
	const char *stable;	/* stable releases that took it, space separated */
	/* the bug leaves nothing the case's own checks can see (a
	 * use-after-free that corrupts no result): only the kernel log the
	 * runner reads (KASAN, WARNING, BUG) catches it, on a kernel built
	 * to report it; --info and a failure say so */
	bool log_only;
};

struct pa_case {
	/* what is checked */
	const char *assertion;	/* the documented sentence, required */
	const char *ref;	/* man page section, design.txt, or a commit */
	const char *covers;	/* ABI map elements, space separated */

	/* requirements: each unmet one is a SKIP with a reason */
	const char *min_kernel;	/* running kernel must be >= this */
	const char *max_kernel;	/* ... and < this */
	const char *pmu;	/* a PMU in /sys/bus/event_source/devices */
	bool hw_pmu;		/* a hardware PMU (PERF_TYPE_HARDWARE works) */
	bool tracefs;		/* tracefs mounted with events/ */
	int min_cpus;		/* online CPUs */
	bool root;		/* uid 0 (for set-up such as sysctls) */
	uint64_t caps;		/* PA_CAP(...) bits needed in the effective set */
	const char *paranoid;	/* perf_event_paranoid range "lo..hi" */
	const char *features;	/* optional kernel features, probed at run
				 * time, space separated: ns:net ns:uts
				 * ns:ipc ns:pid ns:user ns:cgroup ns:time
				 * cgroup bpf hrtimer (see harness/lib/features.c) */
	const char *(*probe)(void); /* feature probe: NULL ok, else reason;
				     * it may run in one process with the
				     * other cases' checks of a matrix cell
				     * (the runner's perfabi-cases --unmet),
				     * so it reads the context and changes
				     * nothing */

	/* how it runs */
	int timeout;		/* seconds, default 10 */
	bool privileged;	/* privilege-sensitive: run in every matrix cell */
	/* a kernel without the fix may crash, hang or corrupt memory running
	 * it: runs only with --destructive (the VM runner passes it), never
	 * on a kernel inside the .xfail range */
	bool destructive;
	/* must not run beside other cases (perfabi-run -j): it changes or
	 * watches something global (a sysctl, CPU-wide events, pinning and
	 * exact context-switch counts, all breakpoint slots, cgroups,
	 * tracefs probe definitions, CPU hotplug). Under -j the harness fails
	 * an undeclared case that opens a CPU-wide event, writes a sysctl or
	 * pins itself (pa_note_global) */
	bool alone;
	/* it watches its tracepoints being registered and unregistered (a
	 * static key switched on and off), or its kprobe armed: the runner
	 * must not keep them registered for the run (runner/tpkeep.c), so
	 * none it names is */
	bool tracepoint_unkept;
	struct pa_known_bug xfail;
	struct pa_fix fix;	/* a regression case: the fix it checks for */

	void (*body)(void);
};

/*
 * Every case of a build is linked into one static program (the Makefile:
 * build/cases/perfabi-cases, each build/cases/<area>/<name> a symbolic link
 * to it; main() picks the case by the name it was run as). A case registers
 * itself in the section pa_cases, named by its source file: cases/<area>/
 * <name>.c is "<area>/<name>". Everything else a case file defines stays
 * private to it (the Makefile makes its symbols local).
 */
struct pa_case_entry {
	const char *file;	/* the case's source file (__BASE_FILE__) */
	const struct pa_case *c;
};

#define PERFABI_CASE(...)						\
	static void pa_case_body(void);					\
	static const struct pa_case pa_this_case = {			\
		.body = pa_case_body,					\
		__VA_ARGS__						\
	};								\
	static const struct pa_case_entry pa_this_case_entry		\
	__attribute__((used, section("pa_cases"), aligned(sizeof(void *)))) = { \
		__BASE_FILE__, &pa_this_case				\
	};								\
	static void pa_case_body(void)

/* ---- races (race.c) ---------------------------------------------------------
 * pa_race_run(): a() on the calling thread and b() on a second one, started
 * together each round; after 16 rounds of timing both, one side is delayed
 * by a random amount within the other's mean duration, so the whole overlap
 * is tried (LTP's fuzzy sync is the model). setup(arg) runs before each
 * round, after(arg) after it (false: the bug showed, stop). It runs until
 * max_rounds (default 100000) or max_ms (default 2000) of wall time,
 * whichever comes first, says how much it ran (pa_diag), and returns the
 * rounds run. cpu_a/cpu_b: pin each side (-1: no pinning; 0 is CPU 0).
 */
struct pa_race {
	void (*setup)(void *arg);
	void (*a)(void *arg);
	void (*b)(void *arg);
	bool (*after)(void *arg);
	void *arg;
	int max_rounds, max_ms;
	int cpu_a, cpu_b;
	/* out */
	int rounds, elapsed_ms;
	bool stopped;
};
int pa_race_run(struct pa_race *r);

/* ---- the running system -------------------------------------------------- */
struct pa_kver {
	int major, minor, patch;
};

/* Parse "6.12", "6.1.0-47-amd64", "6.18.44-fc"; -1 on garbage. */
int pa_kver_parse(const char *s, struct pa_kver *v);
int pa_kver_cmp(struct pa_kver a, struct pa_kver b);
/* The running kernel's upstream version: uname -r, corrected by the
 * distribution's version string where -r hides it (Debian "6.1.0-47" is
 * 6.1.176 upstream). $PERFABI_KERNEL_VERSION overrides for testing. */
struct pa_kver pa_kernel(void);
bool pa_kernel_at_least(const char *version);

/* clock_gettime(id) in nanoseconds. */
uint64_t pa_clock_ns(clockid_t id);
/* Whether CLOCK_MONOTONIC runs on a continuous clocksource: its resolution
 * (clock_getres(), hrtimer_resolution) is 1 ns only with high-resolution
 * timers, which need one. Where it is not, it may be the jiffies
 * clocksource, which advances a tick at each tick interrupt and falls
 * behind when the host of a guest drops some (8 ms of 20 seen under QEMU
 * TCG): no bound on a count of local_clock() comes from it then. */
bool pa_wall_clock_continuous(void);
/* The most a count on local_clock() (the clock events' and perf's own
 * clock) can have advanced over an interval that two reads of a continuous
 * CLOCK_MONOTONIC measured as `wall` ns: wall + 2 % + 0.2 ms for the two
 * clocks' rates (tenths of a percent apart under emulation, 0.27 % seen
 * under QEMU TCG). */
uint64_t pa_wall_bound_ns(uint64_t wall);
/* clock_getres(id) in nanoseconds; 0 where it fails. */
uint64_t pa_clock_res_ns(clockid_t id);
/* This thread's run_delay (ns waited for a CPU, from
 * /proc/thread-self/schedstat; 0 without CONFIG_SCHED_INFO) and its
 * context switches (getrusage(RUSAGE_THREAD): ru_nvcsw + ru_nivcsw, which
 * every kernel counts). Between two calls the thread was taken off its
 * CPU and put back exactly runs1 - runs0 times. */
void pa_sched_info(uint64_t *delay, uint64_t *runs);
int pa_paranoid(void);			/* kernel.perf_event_paranoid */
uint64_t pa_caps_effective(void);
bool pa_has_cap(int cap);
bool pa_perfmon_capable(void);		/* CAP_PERFMON or CAP_SYS_ADMIN */
int pa_online_cpus(void);
/* nr_cpu_ids: one more than the highest CPU in /sys/devices/system/cpu/
 * possible; -1 where it is unreadable. */
int pa_nr_cpu_ids(void);
/* The lowest CPU that is possible but not online: the first of
 * /sys/devices/system/cpu/offline's list below nr_cpu_ids (the list also
 * names CPUs past nr_cpu_ids that the machine has and the kernel does not
 * take); -1 where there is none or the files are unreadable. */
int pa_cpu_possible_offline(void);
/* Of a sysfs CPU list file ("0-3,8\n"): its highest CPU, and its first CPU
 * if that is below nr; -1 for none (an empty list, a list that starts
 * with ",") or an unreadable file. */
int pa_cpulist_last(const char *path);
int pa_cpulist_first_below(const char *path, int nr);
int pa_pmu_type(const char *pmu);	/* -1 when absent */
bool pa_hw_pmu_present(const char **reason);
const char *pa_tracefs(void);		/* mount point or NULL */
/* -1: absent. tracefs is root-only by default: where it cannot be read, the
 * ids the runner listed as root ($PERFABI_TRACEPOINT_IDS) are used. */
long pa_tracepoint_id(const char *sys, const char *event);

/* NULL when every feature of the space-separated list is present, else
 * the reason the first missing one is missing (static storage). Unknown
 * names are reported as such. */
const char *pa_features_missing(const char *features);
/* Is name a feature pa_features_missing() knows? */
bool pa_feature_known(const char *name);

/* ---- event classes driven hit by hit (harness/lib/hits.c) ---------------
 * A behaviour documented for events in general is checked on each class
 * the kernel implements it for (cases/impl-table.md). For the classes
 * whose events are discrete hits this task makes, the event and the hits
 * are set up here once; the case keeps its oracle:
 *
 *	int want;
 *	struct perf_event_attr attr = pa_hit_attr(PA_HIT_KPROBE, &want);
 *	attr.sample_period = 4;
 *	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
 *	if (want)
 *		return;		(the refusal the rules give was the check)
 *	...ENABLE...; pa_hit(PA_HIT_KPROBE, 23); ...
 *
 * and declares the class's requirements with PA_HIT_NEEDS_<CLASS> in its
 * PERFABI_CASE() (write the fields out where the case needs more of the
 * same field, e.g. a second feature). */
enum pa_hit_class {
	PA_HIT_TRACEPOINT,	/* syscalls:sys_enter_getppid, exclude_kernel set */
	PA_HIT_KPROBE,		/* a kprobe on the getppid syscall's entry function */
	PA_HIT_UPROBE,		/* a uprobe on pa_hit_uprobe_fn() of this executable */
	PA_HIT_WATCHPOINT,	/* a write watchpoint (LEN_8) on a word of the library */
};
/* Checks of one behaviour on any hit class (harness/lib/hitchecks_b.c),
 * each written once; a case calls one for its class. Each opens its
 * events with pa_hit_attr(c) and the rules' errno (a refusal where they
 * give one is the check, and the check ends there).
 * - times_equal: read_format TOTAL_TIME_ENABLED|RUNNING: 0/0/0 before the
 *   first ENABLE (1 hit); enabled, 3 hits, across a sleep: value 3,
 *   enabled == running > 0 and growing; after DISABLE (1 more hit) equal
 *   and frozen.
 * - pause_output_lost: a period-1 sampler (PERF_SAMPLE_TID; a watchpoint
 *   adds PERF_SAMPLE_ADDR, each sample at bp_addr), ring of 8 pages: 4 hits, PAUSE_OUTPUT 1, 10 hits, PAUSE_OUTPUT 0, 3 hits. The
 *   ring holds exactly 4 samples, one PERF_RECORD_LOST {id, 10}, 3
 *   samples; data_head stands still while paused; the count is 14 while
 *   paused and 17 at the end; read_format PERF_FORMAT_LOST (6.0+) reads
 *   10 while paused and after.
 * - exclude: the event with p's exclude bits counts exactly p->want over
 *   p->hits pa_hit()s and p->kernel_stores kernel-mode stores (watchpoint
 *   only: one-byte read()s from a pipe into the watched word); then a
 *   twin with both bits clear, where the rules let it open (counting the
 *   kernel), counts the same hits made again: hits + kernel_stores.
 * - inherit_folds: a non-inherited and an inherited event, enabled; the
 *   parent makes 3 hits, a forked child 5 and exits, the parent 2 more:
 *   the non-inherited one counts 5, the inherited one 10. */
struct pa_hit_exclude {
	bool exclude_user, exclude_kernel;	/* the bits of the event checked */
	int hits;				/* pa_hit(c, hits) */
	int kernel_stores;			/* watchpoint: kernel-mode stores */
	uint64_t want;				/* its exact count */
};
void pa_hit_expect_times_equal(enum pa_hit_class c);
void pa_hit_expect_pause_output_lost(enum pa_hit_class c);
void pa_hit_expect_exclude(enum pa_hit_class c, const struct pa_hit_exclude *p);
void pa_hit_expect_inherit_folds(enum pa_hit_class c);
#define PA_HIT_NEEDS_TRACEPOINT	.tracefs = true, .probe = pa_probe_self_perf
#define PA_HIT_NEEDS_KPROBE	.pmu = "kprobe", .min_kernel = "4.17", \
				.privileged = true, .probe = pa_probe_priv
#define PA_HIT_NEEDS_UPROBE	.pmu = "uprobe", .min_kernel = "4.17", \
				.alone = true, .probe = pa_probe_self_perf
#define PA_HIT_NEEDS_WATCHPOINT	.pmu = "breakpoint", .features = "bp-trap", \
				.probe = pa_probe_self_perf
/* A disabled counting attr of class c on which each pa_hit(c, 1) by a task
 * it is opened on is exactly one event; SKIP where the class cannot be set
 * up (no such tracepoint, no symbol). *want: the errno the documented rules
 * give its open here (0: it opens; pa_expected_errno(),
 * pa_kprobe_expected_errno()). */
struct perf_event_attr pa_hit_attr(enum pa_hit_class c, int *want);
/* n hits of class c by this thread, each followed by a near miss that is
 * not one (a getpid(), a call of another function, a store to the next
 * word). A forked child's pa_hit() hits the same probes. */
void pa_hit(enum pa_hit_class c, int n);
/* "tracepoint syscalls:sys_enter_getppid", ... for diagnostics. */
const char *pa_hit_class_name(enum pa_hit_class c);
/* One behaviour checked on class c (harness/lib/hitchecks_a.c): the check
 * opens its events with pa_hit_attr() (where the rules refuse the open, the
 * refusal is the check), makes the hits with pa_hit() and fails the case on
 * a deviation. Class-specific expectations are parameters.
 * - freq_adapts: freq = 1, sample_freq = 1, then a sample_period 1 twin,
 *   256 hits each: both count 256, the twin writes 256 samples, the freq
 *   event 1 to 63, the first with PERF_SAMPLE_PERIOD 1 (needs "hrtimer").
 * - sigio_each_overflow: period 1, wakeup_events 0, F_SETSIG(SIGRTMIN),
 *   O_ASYNC: 8 hits, each awaited, give count 8, 8 samples (a watchpoint's
 *   with PERF_SAMPLE_ADDR, each at bp_addr) and exactly 8 signals, each
 *   POLL_IN, band POLLIN|POLLRDNORM, si_fd the event.
 * - sigtrap_each_overflow: period 1, sigtrap, remove_on_exec, sig_data:
 *   5 hits give count 5, 5 samples and exactly 5 SIGTRAPs, each TRAP_PERF
 *   with si_addr 0 (no PERF_SAMPLE_ADDR: not for a watchpoint, whose
 *   perf_bp_event() sets the address), si_perf_data sig_data, si_perf_type
 *   si_perf_type (the event's attr.type), si_perf_flags 0.
 * - reset_zeroes_count: 10 hits read 10, RESET while running reads 0, 5
 *   more read 5; DISABLE, RESET reads 0 with the times frozen and kept;
 *   (3 hits while disabled not counted); enabled again, 3 hits read 3. */
void pa_hit_expect_freq_adapts(enum pa_hit_class c);
void pa_hit_expect_sigio_each_overflow(enum pa_hit_class c);
void pa_hit_expect_sigtrap_each_overflow(enum pa_hit_class c, uint32_t si_perf_type);
void pa_hit_expect_reset_zeroes_count(enum pa_hit_class c);

/* ---- the documented permission rules ------------------------------------ */
enum pa_need {
	PA_NEED_SELF,			/* self-monitoring, exclude_kernel set */
	PA_NEED_KERNEL,			/* counting the kernel: paranoid < 2 */
	PA_NEED_CPU,			/* cpu-wide (pid == -1): paranoid < 1 */
	PA_NEED_RAW_TRACEPOINT,		/* PERF_SAMPLE_RAW of a tracepoint: < 0 */
	PA_NEED_NAMESPACES,		/* attr.namespaces: CAP_PERFMON */
	PA_NEED_KERNEL_BREAKPOINT,	/* breakpoint on a kernel address */
	PA_NEED_UPROBE_PMU,		/* the uprobe PMU: CAP_SYS_ADMIN */
	PA_NEED_MLOCK_OVER_LIMIT,	/* mmap beyond perf_event_mlock_kb */
	PA_NEED_KPROBE_PMU,		/* the kprobe PMU: CAP_PERFMON */
	PA_NEED_OTHER_USER_TASK,	/* pid of another uid: ptrace or CAP_PERFMON */
};
/* 0 when the rules allow it in this context, else the documented errno. */
int pa_expected_errno(enum pa_need need);
/* The permission errno for need where the rules deny it, else err: "after
 * the permission check, this open fails with err". */
int pa_expected_errno_or(enum pa_need need, int err);
/* Debian-style paranoid > 2: no perf at all without CAP_SYS_ADMIN. Probed. */
bool pa_paranoid_restricts_all(void);
/* Kernel lockdown in confidentiality mode (/sys/kernel/security/lockdown
 * shows [confidentiality]): LOCKDOWN_PERF, which guards
 * PERF_SAMPLE_REGS_INTR, belongs to that level only, so integrity mode
 * does not refuse it (include/linux/security.h, enum lockdown_reason). */
bool pa_lockdown_confidentiality(void);
/* "uid 65534, caps 0, paranoid 2, kernel 6.18.44" for diagnostics. */
const char *pa_context_string(void);

/* ---- perf helpers ----------------------------------------------------- */
int pa_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		 int group_fd, unsigned long flags);
/* A counting software event that any identity may open at paranoid <= 2:
 * size = sizeof, disabled, exclude_kernel, exclude_hv. */
struct perf_event_attr pa_sw_attr(uint64_t config);
/* A sampling software event (every `period` events, not disabled). */
struct perf_event_attr pa_sw_sampling_attr(uint64_t config, uint64_t period);
/* sizeof(struct perf_event_attr) of the running kernel (by version): what
 * it writes back into attr.size on E2BIG. */
uint32_t pa_kernel_attr_size(void);
/* Read exactly n u64 values; fails the case on a short read or error. */
void pa_read_u64(int fd, uint64_t *buf, size_t n);
/* Burn a few page faults: touch `pages` fresh pages. */
void pa_touch_pages(int pages);
/* Path of a helper program under build/fixtures/. */
const char *pa_fixture(const char *name);

/* ---- globals the case changes: restored by the harness on every exit ---- */
/* name is relative to /proc/sys, e.g. "kernel/perf_event_max_sample_rate",
 * or an absolute path of another such knob (a sysfs file: "/sys/bus/...").
 * The first value is saved and put back after the body, whatever happens. */
int pa_sysctl_write(const char *name, const char *value);
int pa_sysctl_read(const char *name, char *buf, size_t len);
long pa_sysctl_long(const char *name);	/* LONG_MIN when unreadable */
/* CPU hotplug (root): pa_hotplug_cpu() is the highest online CPU but cpu0
 * with a sysfs `online` knob (skips when there is none); pa_cpu_offline()
 * writes 0 there through pa_sysctl_write, so the CPU is put back online
 * whatever happens (skips when the kernel refuses); pa_cpu_online() puts
 * it back now. */
int pa_hotplug_cpu(void);
void pa_cpu_offline(int cpu);
void pa_cpu_online(int cpu);
/* Sleep until CLOCK_MONOTONIC advanced by ms (signals do not cut it short). */
void pa_sleep_ms(int ms);

/* ---- overflow signals (harness/lib/signals.c) ---------------------- */
#include <signal.h>
#define PA_MAX_SIGS 64
struct pa_sigs {
	int sig;
	int n;				/* taken so far (may pass PA_MAX_SIGS) */
	int code[PA_MAX_SIGS];		/* si_code, in order */
	int fd[PA_MAX_SIGS];		/* si_fd */
	long band[PA_MAX_SIGS];		/* si_band */
};
void pa_sig_block(int sig);
/* Wait up to ms for the blocked sig: its number, or 0 at the timeout. */
int pa_sig_wait(int sig, siginfo_t *si, int ms);
/* Block sig and send fd's overflow notifications to this process as sig
 * (F_SETOWN, F_SETSIG, O_ASYNC); drops any sig already queued. */
void pa_sigs_route(struct pa_sigs *s, int fd, int sig);
void pa_sigs_record(struct pa_sigs *s, const siginfo_t *si);
/* Touch one fresh page (one overflow of a period-1 page-fault sampler) and
 * take its signal (a failure after 10 s), and any other already queued. */
void pa_sigs_overflow_once(struct pa_sigs *s, int step);
/* Take the signal of overflow `step` (waited for at most 10 s, else FAIL),
 * then whatever else is queued. */
void pa_sigs_await(struct pa_sigs *s, int step);
/* Take signals until `want` were taken (each wait bounded at 10 s), then
 * whatever else is queued: s->n must then equal the overflows counted. */
void pa_sigs_settle(struct pa_sigs *s, uint64_t want);

/* ---- reporting from the body ----------------------------------------- */
void pa_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pa_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A prerequisite found missing inside the body: SKIP, with the reason. */
void pa_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/*
 * An attempt that noise outside the case can spoil (an incidental page
 * fault between two measured steps, ...): attempt(arg, seen, len) returns
 * true when it got to its checks, or false after writing into seen what
 * spoiled it, as a sentence with the values (where, how much). Up to
 * `tries` attempts. When every one was spoiled and each wrote the same
 * sentence, it is no noise but what the kernel does each time: FAIL with
 * "every one of N tries: <seen>". Otherwise SKIP with `why` and what each
 * try saw. (A SKIP is about the environment, never about the behaviour.)
 */
void pa_retry(int tries, bool (*attempt)(void *arg, char *seen, size_t len),
	      void *arg, const char *why);
/* End the body now (after a fatal assertion). */
void pa_abort(void) __attribute__((noreturn));
/* The ABI changed in `version`: returns true where the running kernel has
 * the new behaviour, and records which variant the case expected. */
bool pa_since(const char *version, const char *what);
/* "EINVAL", "0 (no error)", or "errno 1234" for a number it does not know */
const char *pa_errno_name(int err);

/* ---- assertions ---------------------------------------------------------- */
struct pa_val {
	uint64_t bits;
	bool is_signed;
};
#define PA_VAL(x) ((struct pa_val){ (uint64_t)(x), !(((__typeof__(x))-1) > (__typeof__(x))0) })
enum pa_op { PA_EQ, PA_NE, PA_LT, PA_LE, PA_GT, PA_GE };
bool pa_cmp(struct pa_val a, enum pa_op op, struct pa_val b);
bool pa_check_cmp(struct pa_val a, enum pa_op op, struct pa_val b,
		  const char *as, const char *bs, const char *file, int line);
bool pa_check_true(bool ok, const char *expr, const char *file, int line);
/* expr returned `ret` (errno `err`): it must be -1 with `want`. */
bool pa_check_errno(long ret, int err, int want, const char *expr,
		    const char *file, int line);
/* expr returned `ret` (errno `err`): it must not be -1. */
bool pa_check_ok(long ret, int err, const char *expr, const char *file, int line);

#define PA__CMP(a, op, b, fatal) do {					\
	if (!pa_check_cmp(PA_VAL(a), op, PA_VAL(b), #a, #b, __FILE__, __LINE__) && (fatal)) \
		pa_abort();						\
} while (0)
#define EXPECT_EQ(a, b)	PA__CMP(a, PA_EQ, b, 0)
#define EXPECT_NE(a, b)	PA__CMP(a, PA_NE, b, 0)
#define EXPECT_LT(a, b)	PA__CMP(a, PA_LT, b, 0)
#define EXPECT_LE(a, b)	PA__CMP(a, PA_LE, b, 0)
#define EXPECT_GT(a, b)	PA__CMP(a, PA_GT, b, 0)
#define EXPECT_GE(a, b)	PA__CMP(a, PA_GE, b, 0)
#define ASSERT_EQ(a, b)	PA__CMP(a, PA_EQ, b, 1)
#define ASSERT_NE(a, b)	PA__CMP(a, PA_NE, b, 1)
#define ASSERT_LT(a, b)	PA__CMP(a, PA_LT, b, 1)
#define ASSERT_LE(a, b)	PA__CMP(a, PA_LE, b, 1)
#define ASSERT_GT(a, b)	PA__CMP(a, PA_GT, b, 1)
#define ASSERT_GE(a, b)	PA__CMP(a, PA_GE, b, 1)
#define EXPECT_TRUE(c)	((void)pa_check_true(!!(c), #c, __FILE__, __LINE__))
#define EXPECT_FALSE(c)	((void)pa_check_true(!(c), "!(" #c ")", __FILE__, __LINE__))
#define ASSERT_TRUE(c)	do { if (!pa_check_true(!!(c), #c, __FILE__, __LINE__)) pa_abort(); } while (0)
#define ASSERT_FALSE(c)	do { if (!pa_check_true(!(c), "!(" #c ")", __FILE__, __LINE__)) pa_abort(); } while (0)

/* "This call must fail with ERR": any syscall-style expression. */
#define EXPECT_ERRNO(expr, err) ({					\
	errno = 0; long pa__r = (long)(expr);				\
	pa_check_errno(pa__r, errno, err, #expr, __FILE__, __LINE__);	\
})
#define ASSERT_ERRNO(expr, err) do {					\
	if (!EXPECT_ERRNO(expr, err)) pa_abort();			\
} while (0)
/* "This call must succeed": returns the call's value. */
#define EXPECT_OK(expr) ({						\
	errno = 0; long pa__r = (long)(expr);				\
	pa_check_ok(pa__r, errno, #expr, __FILE__, __LINE__); pa__r;	\
})
#define ASSERT_OK(expr) ({						\
	errno = 0; long pa__r = (long)(expr);				\
	if (!pa_check_ok(pa__r, errno, #expr, __FILE__, __LINE__)) pa_abort(); \
	pa__r;								\
})

/* perf_event_open() one-liners. The _FAIL forms close an fd that should not
 * have been returned; the OPEN forms return the fd. */
int pa_open_expect(struct perf_event_attr *attr, pid_t pid, int cpu,
		   int group_fd, unsigned long flags, int want_errno,
		   const char *file, int line);
#define EXPECT_OPEN_FAIL(attr, pid, cpu, group, flags, err)		\
	((void)pa_open_expect(attr, pid, cpu, group, flags, err, __FILE__, __LINE__))
#define ASSERT_OPEN_FAIL(attr, pid, cpu, group, flags, err) do {	\
	if (pa_open_expect(attr, pid, cpu, group, flags, err, __FILE__, __LINE__) != -2) \
		pa_abort();						\
} while (0)
#define EXPECT_OPEN(attr, pid, cpu, group, flags)			\
	pa_open_expect(attr, pid, cpu, group, flags, 0, __FILE__, __LINE__)
#define ASSERT_OPEN(attr, pid, cpu, group, flags) ({			\
	int pa__fd = pa_open_expect(attr, pid, cpu, group, flags, 0, __FILE__, __LINE__); \
	if (pa__fd < 0) pa_abort();					\
	pa__fd;								\
})
/* Expect success (want_errno == 0) or that errno, as the context decides. */
#define EXPECT_OPEN_RESULT(attr, pid, cpu, group, flags, want_errno)	\
	pa_open_expect(attr, pid, cpu, group, flags, want_errno, __FILE__, __LINE__)

/* ---- size helpers ---- */
/* .probe for cases that are not about privilege: a SKIP reason where the
 * paranoid level forbids every perf_event_open() to this identity (Debian
 * level 3 without CAP_SYS_ADMIN), else NULL. */
const char *pa_probe_self_perf(void);
/* A zeroed read-write buffer of `len` bytes whose last byte is the last byte
 * of a mapping: the next page is PROT_NONE. Never freed (the case exits). */
void *pa_guarded_tail(size_t len);
/* Open attr (pid 0, cpu -1): must fail E2BIG with attr->size rewritten to
 * pa_kernel_attr_size(). attr may sit in a larger buffer (size > sizeof). */
bool pa_expect_e2big_size(struct perf_event_attr *attr, const char *file, int line);
#define EXPECT_E2BIG_SIZE(attr) ((void)pa_expect_e2big_size(attr, __FILE__, __LINE__))
/* pa_since() for attr.aux_action: 6.13, and 6.12.24 on the 6.12 branch. */
bool pa_since_aux_action(void);
/* A register mask perf_reg_validate() accepts on this architecture (SP and
 * IP/PC), and one bit the architecture leaves undefined (EINVAL); both 0
 * where the harness does not know the architecture's perf_regs.h. */
uint64_t pa_regs_valid_mask(void);
uint64_t pa_regs_undefined_bit(void);

/* ---- ring buffer helpers (harness/lib/ring.c) ---- */
/* A mapped event ring: the control page and 2^n data pages, read with the
 * documented protocol (data_head, rmb; ...; mb, data_tail). The mapping is
 * writable, so the kernel does not overwrite unread records. */
struct pa_ring {
	int fd;
	struct perf_event_mmap_page *page;	/* control page */
	unsigned char *data;			/* data area */
	size_t data_size;			/* bytes in the data area */
	size_t map_len;				/* bytes mapped */
	uint64_t tail;				/* our read position */
	union {					/* the record handed out */
		struct perf_event_header hdr;
		unsigned char bytes[65536];
		uint64_t align;
	} rec;
};
/* PERF_SAMPLE_REGS_USER/INTR: the abi word, and the register numbers of
 * the instruction and stack pointers on this architecture (-1: unknown). */
#define PA_SAMPLE_REGS_ABI_NONE	0
#define PA_SAMPLE_REGS_ABI_32	1
#define PA_SAMPLE_REGS_ABI_64	2
#if defined(__x86_64__)
#define PA_REG_IP	8	/* PERF_REG_X86_IP */
#define PA_REG_SP	7	/* PERF_REG_X86_SP */
#elif defined(__aarch64__)
#define PA_REG_IP	32	/* PERF_REG_ARM64_PC */
#define PA_REG_SP	31	/* PERF_REG_ARM64_SP */
#else
#define PA_REG_IP	-1
#define PA_REG_SP	-1
#endif
/* mmap fd's ring with `data_pages` (a power of two, or 0) data pages. The
 * try form returns 0 or -errno; the other fails and ends the case. */
int pa_ring_try_map(struct pa_ring *r, int fd, unsigned data_pages);
void pa_ring_map(struct pa_ring *r, int fd, unsigned data_pages);
void pa_ring_unmap(struct pa_ring *r);
uint64_t pa_ring_head(const struct pa_ring *r);	/* data_head, then rmb */
/* The next unread record (copied whole, even across the wrap), consumed
 * (data_tail advanced); NULL when the ring is empty. Valid until the next
 * call. A malformed size fails the case. */
const struct perf_event_header *pa_ring_next(struct pa_ring *r);
/* Skip to the next record of `type`; NULL when none is left. */
const struct perf_event_header *pa_ring_find(struct pa_ring *r, uint32_t type);
/* Skip to the next record of `type` whose first field (pid) is `pid`:
 * COMM, EXIT, FORK, READ, NAMESPACES, ...; NULL when none is left. */
const struct perf_event_header *pa_ring_find_pid(struct pa_ring *r, uint32_t type, pid_t pid);
/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct pa_task_rec {
	struct perf_event_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};
/* PERF_RECORD_COMM, PERF_RECORD_MMAP and PERF_RECORD_MMAP2 (the name is
 * NUL-padded to 8 bytes; a sample_id trailer may follow). */
struct pa_comm_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[];
};
struct pa_mmap_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};
struct pa_mmap2_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};
/* Consume everything; return how many records had `type`. */
int pa_ring_count(struct pa_ring *r, uint32_t type);

/* Map one page of the case's own executable with prot, unmap it, and count
 * the PERF_RECORD_MMAP and MMAP2 records that produced in r (records
 * already in r are consumed first and not counted). */
void pa_mmap_self_records(struct pa_ring *r, int prot, int *n_mmap, int *n_mmap2);

/* The control page's time_enabled, time_running, offset and index, read
 * under its lock (the seqcount protocol of perf_event_mmap_page). */
void pa_page_times(volatile struct perf_event_mmap_page *pg, uint64_t *en,
		   uint64_t *run, int64_t *off, uint32_t *idx);
/* poll() without waiting: the revents for POLLIN (0 when none). */
short pa_poll_now(int fd);
/* The mapping of this process that starts at p (/proc/self/maps): true
 * with its end and its 4 permission letters ("rw-s"); SKIPs when the file
 * cannot be read. perm may be NULL. */
bool pa_vma_at(const void *p, uintptr_t *end, char perm[5]);
/* Read every data page of r once, so reading it later faults nothing. */
void pa_ring_prefault(struct pa_ring *r);
/* Touch one fresh page at a time (one record of `rec` bytes each, for a
 * period-1 page-fault sampler) until data_head is `want`: false when a
 * step wrote other than one record (an incidental fault: start over);
 * fails the case when a fault wrote nothing. */
bool pa_ring_fill_to(struct pa_ring *r, uint64_t want, uint64_t rec);
/* The first step since the last call at which pa_ring_fill_to() saw other
 * than one record, as a sentence for pa_retry() ("touching one fresh page
 * at data_head H wrote B bytes, not one R-byte record"); "" if none. The
 * record is cleared. */
void pa_ring_fill_deviation(char *seen, size_t len);
/* Spin on the CPU until data_head leaves 0 or this thread has used `ms`
 * milliseconds of CPU time: false when nothing was written by then (a
 * clear failure instead of the harness timeout). */
bool pa_ring_spin_for_data(struct pa_ring *r, int ms);

/* The index of the first sample (of n, by their PERF_SAMPLE_TIME) that is
 * the second of two consecutive overflows 0 < dt <= 1 ms apart, at each of
 * which the kernel adapts a freq event's period; -1 when the clock gave it
 * no such chance (harness/lib/freq.c). */
int pa_freq_chance(const uint64_t *time, int n);
/* Read the samples of a freq event at sample_freq 1 from r (sample_type by
 * a: TIME and PERIOD, TID optional) after a burst of events: the first
 * reports period 1; where the clock gave the kernel its chance, at most 2
 * samples follow it. True when the try gave its verdict (checked): the
 * period adapted, or must have. False when the clock never gave the
 * chance and most or more samples came: the try says nothing, try again. */
bool pa_freq_try_verdict(struct pa_ring *r, const struct perf_event_attr *a, int most);
/* Run try_once(arg), one burst of `events` `what` read with
 * pa_freq_try_verdict(), until a try gives its verdict: up to 3 tries 10 ms
 * apart, then SKIP (the clock never gave the kernel its chance). */
void pa_freq_expect_adapts(bool (*try_once)(void *), void *arg, int events, const char *what);

/* The variable-length parts of a PERF_RECORD_SAMPLE. */
struct pa_sample_var {
	unsigned group_nr;		/* READ with PERF_FORMAT_GROUP: nr */
	uint64_t callchain_nr;		/* CALLCHAIN: nr */
	uint32_t raw_size;		/* RAW: size */
	uint64_t branch_nr;		/* BRANCH_STACK: bnr */
	uint64_t regs_user_abi;		/* REGS_USER: 0 (NONE) has no regs */
	uint64_t regs_intr_abi;		/* REGS_INTR: likewise */
	uint64_t stack_size;		/* STACK_USER: size (0: no dyn_size) */
	uint64_t aux_size;		/* AUX: size */
};
/* A PERF_RECORD_SAMPLE taken apart in the documented field order. */
struct pa_sample {
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, res;
	uint64_t period;
	const uint64_t *read;		/* the read_format block */
	const uint64_t *callchain;	/* var.callchain_nr ips */
	const void *raw;
	const void *branches;		/* var.branch_nr {from, to, flags} */
	const uint64_t *regs_user;	/* popcount(sample_regs_user) regs */
	const void *stack;		/* var.stack_size bytes */
	uint64_t stack_dyn_size;
	uint64_t weight, data_src, transaction;
	const uint64_t *regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	const void *aux;
	struct pa_sample_var var;
};
/* Bytes of the read_format block for a group of nr events (nr ignored
 * without PERF_FORMAT_GROUP). */
size_t pa_read_format_size(uint64_t read_format, unsigned nr);
/* The documented total size (header included) of a PERF_RECORD_SAMPLE for
 * attr's sample_type, read_format, sample_regs_user/intr and
 * branch_sample_type, with the
 * variable parts `v` (NULL: group_nr 1, every other part empty / ABI NONE). */
size_t pa_sample_size(const struct perf_event_attr *attr,
		      const struct pa_sample_var *v);
/* Bytes of the sample_id trailer sample_id_all appends to other records. */
size_t pa_sample_id_size(const struct perf_event_attr *attr);
/* Parse rec by attr: false (the case failed, with a diagnostic) when rec is
 * not a SAMPLE or its size differs from pa_sample_size(attr, &s->var). */
bool pa_sample_parse(const struct perf_event_attr *attr,
		     const struct perf_event_header *rec, struct pa_sample *s);
/* The next PERF_RECORD_SAMPLE, parsed; fails and ends the case if there is
 * none or it does not parse. */
const struct perf_event_header *pa_ring_sample(struct pa_ring *r,
					       const struct perf_event_attr *attr,
					       struct pa_sample *s);
/* The next record, which must be a PERF_RECORD_SAMPLE of this thread
 * (any other record type fails the case; pid and tid are checked where
 * attr samples TID), parsed into s; false when the ring is empty. */
bool pa_ring_own_sample(struct pa_ring *r, const struct perf_event_attr *attr,
			struct pa_sample *s);
/* The cgroup hierarchy that holds the perf_event controller (a v1 mount
 * with perf_event, else cgroup2): its mount point in root, and this task's
 * directory in it in own. false when there is none. */
bool pa_perf_cgroup(char *root, size_t rlen, char *own, size_t olen);
/* A fresh cgroup "<root>/<prefix><pid>" in that hierarchy (in a private
 * cgroup2 mount where none is mounted, if mount_if_missing), after removing
 * the empty ones a killed earlier run left. It is checked to have
 * perf_event state (a cgroup event on it opens); where the kernel's cgroup2
 * design gives it none, or no cgroup can be made, the case SKIPs with the
 * reason, after undoing. Needs root (a cgroup event is CPU-wide). */
struct pa_cgroup {
	char root[2048];	/* the hierarchy's mount point */
	char dir[2200];		/* the new cgroup's directory */
	char name[64];		/* its path below root: "/<prefix><pid>" */
	char tmp[64];		/* the private mount, if one was made */
	bool v2;		/* root is a cgroup2 hierarchy */
};
void pa_cgroup_new(struct pa_cgroup *cg, const char *prefix, bool mount_if_missing);
/* Remove the cgroup (waiting while it is busy) and the private mount. */
void pa_cgroup_remove(struct pa_cgroup *cg);
/* Move pid into the cgroup: 0, or -1 with errno. */
int pa_cgroup_enter(const struct pa_cgroup *cg, pid_t pid);
/* Load a two-instruction socket-filter BPF program named `name` (needs
 * bpf() permission): its fd, with its id and 8-byte tag; -errno on error. */
int pa_bpf_load_trivial(const char *name, uint32_t *id, uint8_t tag[8]);
/* Load "r0 = ret; exit" as a BPF_PROG_TYPE_TRACEPOINT program (for
 * PERF_EVENT_IOC_SET_BPF): its fd, with its id; SKIP where this kernel or
 * context cannot load one. */
int pa_bpf_load_tracepoint(int ret, uint32_t *id);
/* bpf_prog_info.jited_prog_len of a loaded program: the JITed image's
 * bytes, 0 where the interpreter runs it (no CONFIG_BPF_JIT, or
 * net.core.bpf_jit_enable 0); -errno when the info cannot be read. Only a
 * JITed program registers a kernel symbol (PERF_RECORD_KSYMBOL, kallsyms).
 * pa_bpf_skip_unless_jited(): SKIP, with that reason, where it is 0. */
long pa_bpf_jited_len(int prog);
void pa_bpf_skip_unless_jited(int prog);
/* bpf(2) with a zeroed 128-byte attr (cmd by number) */
long pa_sys_bpf(int cmd, void *attr);
/* "r0 = ret; exit" as a BPF_PROG_TYPE_PERF_EVENT program (skips when it
 * cannot be loaded), and the times a program ran (bpf_prog_info.run_cnt:
 * counted while a BPF_ENABLE_STATS fd is held) */
int pa_bpf_load_perf_event(int ret);
uint64_t pa_bpf_run_cnt(int prog);
/* BPF_ENABLE_STATS (BPF_STATS_RUN_TIME): run_cnt counts while the
 * returned fd is open; fails the case when refused */
int pa_bpf_enable_stats(void);
/* BPF_LINK_CREATE of prog to a perf event (attach type BPF_PERF_EVENT):
 * the link fd, or -1 with errno */
long pa_bpf_perf_link(int prog, int perf_fd);
/*
 * Hand-assembled BPF programs (no libbpf, no BPF compiler here):
 * pa_bpf_emit() appends one instruction (struct bpf_insn), pa_bpf_ld_imm64()
 * the two of "dst = imm" (src 1, BPF_PSEUDO_MAP_FD: imm is a map fd). A
 * program over 128 instructions fails the case.
 */
struct pa_bpf_insn {
	uint8_t code;
	uint8_t regs;		/* dst in the low nibble, src in the high one */
	int16_t off;
	int32_t imm;
};
struct pa_bpf_prog {
	struct pa_bpf_insn insn[128];
	int n;
};
void pa_bpf_emit(struct pa_bpf_prog *p, uint8_t code, int dst, int src,
		 int off, int32_t imm);
void pa_bpf_ld_imm64(struct pa_bpf_prog *p, int dst, int src, uint64_t imm);
/* bpf_map_update_elem(map, fp + key_off, fp + value_off, BPF_ANY): the
 * program's usual way to hand what it saw to the case (r0..r5 clobbered) */
void pa_bpf_map_update_fp(struct pa_bpf_prog *p, int map, int key_off,
			  int value_off);
/* The program of the BPF-output cases, for a perf_event program on a
 * sampler S: payload = S's count i (bpf_perf_prog_read_value(), 8 bytes)
 * then the tail_len (at most 8) bytes of tail;
 * bpf_perf_event_output(ctx, perf_map, BPF_F_CURRENT_CPU, &payload,
 * 8 + tail_len); result_map[i] = its return; return 0 (no sample of S). */
void pa_bpf_output_count_prog(struct pa_bpf_prog *p, int perf_map, int result_map,
			      const uint8_t *tail, int tail_len);
/* BPF_PROG_LOAD of p as prog_type (7: BPF_PROG_TYPE_PERF_EVENT), license
 * GPL: its fd; a refused program prints the verifier's log and fails. */
int pa_bpf_prog_load(const struct pa_bpf_prog *p, uint32_t prog_type);
/* BPF_MAP_CREATE (type by number): its fd; fails the case on error. */
int pa_bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries);
/* BPF_MAP_UPDATE_ELEM (cmd 2, BPF_ANY) or BPF_MAP_LOOKUP_ELEM (cmd 1) of
 * a u32 key: bpf(2)'s result, -1 with errno (for the cases that check it) */
long pa_bpf_map_elem(int cmd, int map, uint32_t key, void *value);
/* Records a BPF program load left in r (consumed first, so only the
 * load's count): KSYMBOL and BPF_EVENT records, and of the latter those of
 * type PERF_BPF_EVENT_PROG_LOAD (1) naming the loaded program, and whether
 * the program was JITed (pa_bpf_jited_len() > 0). SKIP when the program
 * cannot be loaded. */
struct pa_bpf_load_seen {
	int ksymbol, bpf_event, prog_load;
	bool jited;
};
struct pa_bpf_load_seen pa_bpf_load_records(struct pa_ring *r, const char *name);
/* Map the AUX area (aux_pages, a power of two) right after r's mapping,
 * setting aux_offset/aux_size first; fails and ends the case on error. */
void *pa_ring_map_aux(struct pa_ring *r, unsigned aux_pages);
/* Set aux_offset/aux_size in r's control page and mmap() size bytes at
 * offset off with prot: the mapping, or MAP_FAILED with errno (for the
 * cases that check the refusals). */
void *pa_ring_try_map_aux(struct pa_ring *r, size_t off, size_t size, int prot);
/* A disabled, user-only intel_pt event with branch tracing; returns the
 * PMU type (-1: no intel_pt). */
int pa_intel_pt_attr(struct perf_event_attr *attr);

/* ---- what the environment explains (harness/lib/holders.c) ---------- */
/*
 * May something outside this case hold perf events (breakpoint slots, PMU
 * counters, ...)? True, with who written into `who` as a sentence (pids and
 * comms), where: another process than this body, its descendants, its
 * supervisor and the runner keeping tracepoints (its disabled tracepoint
 * events take neither) holds an anon_inode:[perf_event] fd or a mapping of one's
 * ring; a process is exiting past exit_files() (its events may be on
 * their way out); a process's fds cannot be read; the scan cannot be done at all (not root,
 * not in the initial pid namespace, /proc unreadable); kgdb is registered
 * (/sys/module/kgdboc/parameters/kgdboc not empty: its wide breakpoints,
 * reserved once a debugger set them, are in no process's fds); or the
 * data_breakpoint sample module is loaded. Any perf event counts, though
 * only some kinds compete (only CPU-wide breakpoints take a task's slots:
 * max_bp_pinned_slots() is cpu_pinned plus the task's own), since their
 * kind cannot be read from /proc: conservative, a SKIP. False (who "")
 * when none of these is seen: then only what no scan sees can hold one
 * (an event kept alive by a BPF perf_event_array map or in flight in an
 * SCM_RIGHTS message, a module's register_wide_hw_breakpoint()).
 */
bool pa_perf_held_elsewhere(char *who, size_t len);
/*
 * A breakpoint open failed with ENOSPC where the case's own breakpoints
 * leave a slot free (what: printf-style, the numbers seen, e.g. "only 2 of
 * x86's 4 breakpoint slots were free to this task"). SKIP, naming them,
 * where pa_perf_held_elsewhere() sees a possible holder; else FAIL: the
 * slots leaked or are miscounted. Ends the body either way.
 */
void pa_bp_enospc(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Time CPU `cpu` spent in the idle task so far, in ms (/proc/stat idle +
 * iowait, USER_HZ granularity: 10 ms at 100), or -1 when unreadable. The
 * difference of two readings says whether the CPU idled in between, from
 * the scheduler's accounting, not from perf. */
long long pa_cpu_idle_ms(int cpu);
/* Does this architecture's CPU PMU driver validate a hardware group
 * against its counters at open (x86, arm, arm64, powerpc, loongarch, mips:
 * none has 64 counters)? Where it does, 64 events accepted in one group is
 * a FAIL; elsewhere (s390, riscv, ...) the limit is not known here. */
bool pa_pmu_groups_limited(void);

/* ---- read/ioctl/inherit/breakpoint helpers (harness/lib/read.c) ---- */
/* A counting breakpoint on this task's user space: type BREAKPOINT,
 * bp_type/bp_addr/bp_len as given, disabled, exclude_kernel, exclude_hv. */
struct perf_event_attr pa_bp_attr(uint32_t bp_type, const void *addr,
				  uint64_t len);
/* read() of an event whose read_format is 0: its one u64 value. */
uint64_t pa_read_one(int fd);
/* Open attr (a page-fault counter) on this task, ENABLE, and return how
 * much its value grew while a forked child (or, with thread, a new thread)
 * touched `pages` fresh pages and was reaped (joined). */
uint64_t pa_child_faults_delta(struct perf_event_attr *attr, int pages, bool thread);
/* PERF_RECORD_READ of an event with read_format PERF_FORMAT_ID. */
struct pa_read_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t value, id;
};
/* Open attr on this task as an enabled, inherited, inherit_stat event with
 * read_format ID, bound to a CPU we pin to, its ring mapped; fork a child
 * that runs child_fn() and exits 0, reap it, and return the PERF_RECORD_READ
 * the kernel wrote for that child (NULL: none). *child gets its pid, *id
 * the event's PERF_EVENT_IOC_ID. */
const struct pa_read_rec *pa_inherit_stat_read_record(struct perf_event_attr *attr,
						      void (*child_fn)(void),
						      pid_t *child, uint64_t *id);

/* ---- open helpers (harness/lib/open.c; open/, type/, hw/ cases) ---- */
/* A loop of `iters` iterations (each at least one instruction and one
 * branch) that the compiler cannot remove; returns a junk value. */
uint64_t pa_busy_loop(uint64_t iters);
/* Workloads for pa_count_over(): millions of pa_busy_loop() iterations;
 * `pages` fresh pages touched (pa_touch_pages). */
void pa_work_loop(int millions);
void pa_work_pages(int pages);
/* use_clockid with clock clk: a page-fault sample, the sample_id_all time
 * of a COMM record and a second sample each lie between clock_gettime(clk)
 * readings around them, all records in order (harness/lib/clock.c). */
void pa_check_clockid_times(clockid_t clk, const char *clk_name);
/* Spin until this thread has used `ms` milliseconds of CPU time. */
void pa_work_cpu_ms(int ms);
/* This thread's context switches so far, voluntary and not
 * (getrusage(RUSAGE_THREAD)), or -1: a try switched out between two points
 * (a software event's period restarts at sched-in) says nothing. */
long pa_thread_switches(void);
/* Of those, the voluntary ones (ru_nvcsw), or -1: the thread blocked
 * (__schedule() with a sleeping state). Preemption, cond_resched() and a
 * reschedule on the way back to user space count as involuntary. */
long pa_thread_vswitches(void);
/* Sleep (2 ms nanosleep()s) until this thread was switched out voluntarily
 * at least n times by the kernel's count (ru_nvcsw), bounded at 5 s (then
 * SKIP: the environment never let it sleep); returns how many times. A
 * sleep whose timer expired before the task slept (a stalled vCPU) does
 * not switch: a case that needs switches waits for them, not for time. */
long pa_sleep_until_vswitches(long n);
/* Work until this task's perf context time has moved: every event of this
 * task enabled before the call then has time_enabled > 0. perf_clock()
 * can advance only at ticks (no usable TSC: the sweep's minimal kernel),
 * where an event enabled and sampled within one tick rightly shows 0.
 * FAILs if 2 s of CPU time do not move it. */
void pa_work_until_ctx_time_moves(void);
/* The least time an event of this task that was on (enabled, or running)
 * throughout pa_work_cpu_ms(ms) shows: perf switches the task's events
 * out in prepare_task_switch() and back in finish_task_switch(), while the
 * thread's CPU time also counts the switch path between them, tens of
 * microseconds a switch on a loaded machine (seen: 19.9 ms for 20 ms of
 * work, 2 CPUs running 8 cases). Half the work is a bound no correct
 * kernel misses; an event that was off shows about none of it. */
#define PA_WORKED_NS_MIN(ms) ((uint64_t)(ms) * 500000ull)
/* RESET + ENABLE fd, run work(arg), DISABLE, read the one u64 value. */
uint64_t pa_count_over(int fd, void (*work)(int), int arg);
/* Count clock event config (task-clock, cpu-clock) over 200 ms of this
 * thread's busy CPU time and check it lies between the thread's CPU time
 * and its wall time on a CPU (harness/lib/open.c gives the allowances);
 * `what` names it in the diagnostics. */
void pa_clock_event_vs_cputime(uint64_t config, const char *what);
/* VmPin of /proc/self/status (the mm's pinned_vm) in kB, as printed: a
 * negative pinned_vm shows as a huge number, so compare modulo 2^64;
 * ~0ull when there is no such line. */
unsigned long long pa_vm_pin_kb(void);
/* The state letter (R, S, D, T, Z...) of a task from /proc: of thread tid
 * of process pid (tid 0: the process itself); with comm non-NULL only while
 * the task's comm is comm (so a task that has not exec'd yet reads 0);
 * 0 when unreadable. */
char pa_task_state(pid_t pid, pid_t tid, const char *comm);
/* Wait (at most 10 s) until task pid sleeps (state S; with comm non-NULL,
 * only once its comm is comm); where it does not, the case fails with
 * "<what> (state 'X')", the task is killed and reaped, and the body ends. */
void pa_wait_task_sleeps(pid_t pid, const char *comm, const char *what);
/* Pin the calling thread to one CPU (sched_setaffinity's return). */
int pa_pin_cpu(int cpu);
/* The CPUs this thread may run on, ascending, at most max: how many. */
int pa_allowed_cpus(int *cpus, int max);
/* A forked child that runs fn(arg) when told to and waits otherwise: a
 * pid > 0 target the case controls. stop closes its pipes and reaps it. */
struct pa_puppet {
	pid_t pid;
	int to, from;
};
void pa_puppet_start(struct pa_puppet *p);
void pa_puppet_run(struct pa_puppet *p, void (*fn)(int), int arg);
void pa_puppet_stop(struct pa_puppet *p);
/* attr.config/config1/config2 of sysfs event <pmu>/events/<event>, its
 * terms placed by <pmu>/format/: 0, or -1 (absent, unparsable, or a
 * "?" parameter). */
int pa_pmu_event_config(const char *pmu, const char *event, uint64_t cfg[3]);
/* The core (CPU) PMU's sysfs name ("cpu", "cpu_core", ...) or NULL. */
const char *pa_core_pmu_name(void);
/* Open a counting event of this type/config (pid 0, cpu -1, exclude_kernel
 * like pa_sw_attr): its fd; SKIP where the PMU answers ENOENT/EOPNOTSUPP
 * (unsupported generic event), FAIL on any other error. On hybrid x86 it
 * first pins the caller to a cpu_core CPU, where such events count. */
int pa_hw_open_or_skip(uint32_t type, uint64_t config);
/* Generic hardware event config on this task (user space only): a leader
 * (group -1, opened disabled, through pa_hw_open_or_skip()) or a member of
 * group, reading read_format; SKIP where the PMU does not support it. */
int pa_hw_open_member(uint64_t config, int group, uint64_t read_format);
#define PA_HW_GROUP_FMT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)
/* The n (<= 4) values of the PA_HW_GROUP_FMT group led by leader; SKIP when
 * the group never had the counters, and with `whole` also when it did not
 * have them all the time it was enabled (multiplexed). */
void pa_hw_read_group(int leader, uint64_t *v, unsigned n, bool whole);
/* k (>= 1) iterations of exactly three instructions, the last a conditional
 * branch taken on every iteration but the last (x86-64, arm64; SKIP
 * elsewhere): 3k instructions, k branches. */
void pa_loop3(uint64_t k);
/* ---- what the machine says of its PMU (harness/lib/hwexact.c) ---- */
/* Whether the PMU counts exactly: PERFABI_PMU_EXACT=1, which the VM
 * runner's arm64 guest sets (QEMU -icount shift=0, one vCPU: every retired
 * instruction counted, cycles == instructions). pa_need_exact_pmu() SKIPs
 * without it. */
bool pa_pmu_exact(void);
void pa_need_exact_pmu(void);
/* The hardware counters the kernel reported at boot (PERFABI_PMU_COUNTERS,
 * set by the guest's init from "N counters available"), or 0 when not
 * known; pa_need_pmu_counters() SKIPs then. */
int pa_pmu_counters(void);
int pa_need_pmu_counters(void);
/* An emulator's CPU (arm64: MIDR_EL1 implementer 0, "reserved for software
 * use": QEMU's -cpu max), whose PMU implements some events only in name */
bool pa_cpu_emulated(void);
/* fd (a counting event with read_format 0) counted over pa_loop3(2k) and
 * over pa_loop3(k) (pa_count_over(), k < 2^30), the second count from the
 * first: what k iterations add, with the constant cost of the enable and
 * disable calls cancelled out (3k instructions exactly on an exact PMU) */
uint64_t pa_hw_loop_delta(int fd, uint64_t k);

/* ---- hardware counting, inherit, permissions (harness/lib/hwcount.c) ---- */
/* PERF_TYPE_HARDWARE config as pa_sw_attr() sets it up: counting,
 * disabled, user space only (exclude_kernel, exclude_hv). */
struct perf_event_attr pa_hw_attr(uint64_t config);
/* Open a (FD_CLOEXEC) on pid/cpu in group: its fd; SKIP where the PMU
 * answers ENOENT/EOPNOTSUPP, FAIL on any other error. A generic
 * PERF_TYPE_HARDWARE event goes through pa_hw_open_or_skip() first. */
int pa_hw_open_attr(struct perf_event_attr *a, pid_t pid, int cpu, int group);
/* The group led by leader (PA_HW_GROUP_FMT, n <= 4 values) reset, enabled
 * over pa_loop3(k) and disabled: its n values in v (pa_hw_read_group(),
 * whole: SKIP unless it had the counters throughout). */
void pa_hw_group_loop(int leader, uint64_t k, uint64_t *v, unsigned n);
/* pa_loop3(k) as a puppet's function (pa_puppet_run()). */
void pa_loop3_int(int k);
/* fd (read_format 0) reset and enabled; a child forked that runs
 * pa_loop3(k) and exits; waited for; fd disabled: its count. */
uint64_t pa_hw_fork_count(int fd, uint64_t k);
/* pa_hw_fork_count(2k) - pa_hw_fork_count(k), after one run to warm the
 * path: what k more iterations of the child add to fd's count. */
uint64_t pa_hw_fork_delta(int fd, uint64_t k);

/* (end of hwcount.c) */

/* ---- hardware groups, multiplexing, pinned, exclusive
 *      (harness/lib/hwsched.c) ---- */
/*
 * The scheduling cases count PERF_COUNT_HW_CPU_CYCLES in user space: every
 * counter of the PMU can count cycles (arm64's dedicated cycle counter
 * counts nothing else, so only cycles events can fill all
 * pa_need_pmu_counters() counters at once); on an exact PMU (QEMU -icount
 * shift=0) cycles == retired instructions, and one virtual nanosecond is
 * one instruction.
 */
#define PA_SCHED_PINNED		1u	/* attr.pinned */
#define PA_SCHED_EXCLUSIVE	2u	/* attr.exclusive */
#define PA_SCHED_ENABLED	4u	/* attr.disabled clear */
/* {value, time_enabled, time_running}: read_format TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING of one event */
struct pa_sched_val {
	uint64_t value, enabled, running;
};
/* A user-space cycles event of this task (pid 0, cpu -1) with read_format
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | fmt and the PA_SCHED_ flags,
 * opened disabled unless PA_SCHED_ENABLED. */
struct perf_event_attr pa_sched_attr(unsigned flags, uint64_t fmt);
/* Open pa_sched_attr(flags, 0) in group (-1: a leader): the fd; SKIP where
 * the PMU has no cycles event (ENOENT, EOPNOTSUPP), FAIL on another error. */
int pa_sched_open(unsigned flags, int group);
/* read() of such an event: the bytes read, 0 being end of file (the error
 * state of a pinned event that could not go on), else a full
 * pa_sched_val; a failed or other-sized read fails the case and ends it. */
ssize_t pa_sched_read(int fd, struct pa_sched_val *v);
/* prctl(PR_TASK_PERF_EVENTS_ENABLE), pa_loop3(k), [a read() of peek_fd
 * into *peek where peek_fd >= 0, while every event is still enabled: its
 * size the return value, else 0], prctl(PR_TASK_PERF_EVENTS_DISABLE).
 * Every event this task created is enabled and disabled in the kernel, so
 * each one running throughout counts the same user instructions (3k and a
 * constant; on an exact PMU exactly the same). */
ssize_t pa_sched_run(uint64_t k, int peek_fd, struct pa_sched_val *peek);
/* That count, from one event alone (opened, run, read and closed here,
 * with no other event of this task open), peeking at itself where peek
 * (the same user instructions as a run that peeks): the truth an event
 * running throughout pa_sched_run(k, ...) counts. SKIP where the lone
 * event did not have a counter the whole time (another user held them). */
uint64_t pa_sched_truth(uint64_t k, bool peek);
/* The core PMU's perf_event_mux_interval_ms (its sysfs path into path),
 * or SKIP where it cannot be read. */
int pa_sched_mux_interval_ms(char *path, size_t len);

/* (end of hwsched.c) */

/* ---- hardware sampling and overflow on the cycle counter
 *      (harness/lib/hwsample.c) ---- */
/*
 * The exact cycle-counter rig of the hw/ sampling cases. Under QEMU's
 * -icount shift=0 with one vCPU (PERFABI_PMU_EXACT) a user-only
 * PERF_COUNT_HW_CPU_CYCLES event counts exactly the user instructions
 * retired, and the kernel gives it the dedicated cycle counter, whose
 * overflow QEMU signals in time (the general counters' only at the next
 * kernel entry). pa_hws_need() SKIPs elsewhere: on real hardware cycles
 * are not instructions.
 */
void pa_hws_need(void);
/* A user-only (exclude_kernel, exclude_hv) PERF_COUNT_HW_CPU_CYCLES
 * sampler: sample_period period, sample_type st, read_format
 * PA_HW_GROUP_FMT, opened disabled (through pa_hw_open_sampler()). */
struct perf_event_attr pa_hws_attr(uint64_t period, uint64_t sample_type);
/* k (>= 1) iterations of exactly three instructions (pa_loop3()'s body)
 * at a known place: pa_hws_ip_in_loop(ip) says whether ip is one of the
 * loop's three instructions (where an interrupt taken in the loop
 * returns to). */
void pa_hws_loop3(uint64_t k);
bool pa_hws_ip_in_loop(uint64_t ip);
/* ENABLE fd, pa_hws_loop3() over halves * period / 2 instructions
 * (period a multiple of 6), DISABLE. */
void pa_hws_run_halves(int fd, uint64_t period, uint64_t halves);
/* The count of fd (read_format PA_HW_GROUP_FMT, alone), disabled: SKIP
 * where it did not have the counter all the time it was enabled. */
uint64_t pa_hws_count(int fd);
/* The overflows of a run of (2m + 1) half periods: the count c is the
 * loop's instructions plus a constant of the ENABLE and DISABLE paths
 * (and of any handler), tens of instructions, far below half a period:
 * c / period must be m, and `seen` (samples, signals) m, exactly. */
void pa_hws_expect_overflows(const char *what, uint64_t seen, uint64_t c, uint64_t period, uint64_t m);
/* The overflows one 1 ms tick can hold at one instruction per ns (the
 * icount rate): the burst for pa_throttled_in_burst(). */
#define PA_HWS_BURST(period) ((int)((1000000ULL + (period) - 1) / (period)))

/* (end of hwsample.c) */

/* ---- arm64's own ABI: breakpoints, registers, callchains, user
 *      counter access (harness/lib/arm64.c) ---- */

/* The value pa_arm64_regs_stub() gives x<n> (0..30) at pa_arm64_regs_bp. */
#define PA_ARM64_REGVAL(n) (0x5a5a000000000000ULL + ((uint64_t)(n) << 40) + 0x100 + (n))
/* aarch64 only (not defined elsewhere: guard each use with __aarch64__).
 * pa_arm64_regs_stub(sp_out): stores its sp into *sp_out, loads x0..x30
 * with PA_ARM64_REGVAL(n) and runs the nop at pa_arm64_regs_bp with those
 * values and that sp; then restores them all and returns. */
void pa_arm64_regs_stub(uint64_t *sp_out);
extern const char pa_arm64_regs_bp[];
/* pa_arm64_cc_h(ret_out) calls pa_arm64_cc_g, which calls pa_arm64_cc_f;
 * each keeps an AAPCS64 frame record {fp, lr} at x29. h's record has fp 0
 * (a frame-pointer walk ends there) and lr the return address into h's
 * caller, also stored into *ret_out. pa_arm64_cc_f: f's first instruction
 * (its record not yet made); pa_arm64_cc_f_body: the nop after f's
 * prologue; pa_arm64_cc_ret_g/_h: the return addresses of the calls made
 * in g and h. */
void pa_arm64_cc_h(uint64_t *ret_out);
extern const char pa_arm64_cc_f[], pa_arm64_cc_f_body[];
extern const char pa_arm64_cc_ret_g[], pa_arm64_cc_ret_h[];
/* pa_arm64_store_stub(addr, val): *addr = val by the one instruction
 * "str x1, [x0]" at pa_arm64_store_insn. */
void pa_arm64_store_stub(volatile uint64_t *addr, uint64_t val);
extern const char pa_arm64_store_insn[];
/* The PMUv3 counter that control-page index names (index - 1: 0..30
 * PMEVCNTR<n>_EL0, 31 PMCCNTR_EL0; perf_event_mmap_page.index), read from
 * EL0 (traps unless the kernel opened PMUSERENR_EL0); another index fails
 * the case. */
uint64_t pa_arm64_read_counter(uint32_t index);
/* The self-monitoring read of perf_event_mmap_page: under the lock
 * seqcount, offset plus the counter (pmc_width bits, sign-extended) when
 * cap_user_rdpmc and index are set, offset alone otherwise; *index (if
 * not NULL) gets the index the read used. */
uint64_t pa_arm64_self_read(volatile struct perf_event_mmap_page *pc, uint32_t *index);
/* The attr.config1 bit of the core PMU's "rdpmc" format term (sysfs
 * <pmu>/format/rdpmc, "config1:1" on arm64 PMUv3): an event asking for
 * user-space counter access. SKIPs where no PMU has that term or there is
 * no kernel/perf_user_access sysctl (any architecture but arm64, or
 * before 5.17). Defined on every architecture. */
uint64_t pa_arm64_rdpmc_config1(void);

/* (end of arm64.c) */

/* A pointer chase through the cache lines of a `bytes` buffer in one
 * random cycle (built, and faulted in, before counting), and k dependent
 * loads along it: each load a line no prefetcher could predict. */
void *pa_cache_chase_build(size_t bytes);
void *pa_cache_chase(void *p, uint64_t k);
/* Two generic hardware events in one group, `whole` the leader and `part`
 * an event that counts a subset of what it counts (cache misses of the
 * references, stalled cycles of the cycles): over 1M loads of a pointer
 * chase through 32 MiB, part <= whole + whole / div + slack (the counters
 * not starting and stopping in the same cycle). `what` names the two in
 * the diagnostic ("references, misses"). */
void pa_hw_part_within_whole(uint64_t whole, uint64_t part, uint64_t div, uint64_t slack,
			     const char *what);

/* ---- group/flags/errno helpers (harness/lib/group.c) ---- */
/* fork + execv the fixture `name` with one argument; its exit status
 * (0..255), or -1 when it did not exit normally (the case has failed). */
int pa_run_fixture(const char *name, const char *arg);
/* pa_since() for PERF_FLAG_FD_OUTPUT between per-task events at open time
 * (24d3ae2f37d8, 6.3; stable 6.2.11, 6.1.24, 5.15.107, 5.10.178, 5.4.241,
 * 4.19.281). Before it, such an open failed with EINVAL. */
bool pa_since_set_output_same_task(void);

/* ---- privilege/tracepoint/probe helpers (harness/lib/privilege.c) ---- */
/* .probe for privilege cases: SKIP for the CAP_PERFMON-only identity on a
 * kernel that predates CAP_PERFMON (5.8). */
const char *pa_probe_priv(void);
/* A task owned by another uid: as root a forked child that switched to
 * PA_OTHER_UID (killed with the body), else pid 1 (SKIP if it is ours). */
#define PA_OTHER_UID 65533
pid_t pa_other_uid_task(void);
/* The tracepoint's id, or SKIP (tracefs absent, unreadable, no such event). */
long pa_tp_id_or_skip(const char *sys, const char *event);
/* A disabled counting tracepoint attr (exclude_hv; exclude_kernel clear). */
struct perf_event_attr pa_tp_attr(uint64_t id);
/* A disabled uprobe PMU attr: uprobe_path (a pointer, or a bad one on
 * purpose) and probe_offset; exclude_kernel like pa_sw_attr. SKIP without
 * the uprobe PMU. */
struct perf_event_attr pa_uprobe_attr(uint64_t path, uint64_t offset);
/* A disabled kprobe PMU attr on kernel function func (kprobe_func),
 * exclude_kernel clear; retprobe sets format/retprobe (config:0). Where
 * func is getppid's entry, asks the runner to keep a kprobe there for the
 * run (runner/tpkeep.c), so the case's own arms and disarms nothing. */
struct perf_event_attr pa_kprobe_attr(const char *func, bool retprobe);
/* The errno the rules give a kprobe PMU open here: counting the kernel
 * (paranoid), then the PMU's own CAP_PERFMON check; 0 when allowed. */
int pa_kprobe_expected_errno(void);
/* Open attr (disabled) on this task expecting want (0: an fd); with an
 * fd: one getppid(), ENABLE, n getppid() each followed by a getpid(),
 * DISABLE, one more getppid(); the count must be exactly n. */
void pa_expect_getppid_count(struct perf_event_attr *attr, int want, int n);
/* File offset of function `name` in ELF64 `path` (for uprobe config2). */
long pa_elf_sym_offset(const char *path, const char *name);
const char *pa_self_exe(void);
/* pa_elf_sym_offset() of name in this executable (pa_self_exe()); SKIP
 * where it cannot be found (harness/lib/uprobe_events.c). */
long pa_self_sym_offset(const char *name);
/* The offset in this executable's file of addr, from /proc/self/maps,
 * and (perm, if not NULL) the permissions of its mapping ("r--p"): -1
 * where no mapping of that file holds addr (harness/lib/uprobe_events.c). */
long pa_self_file_offset(const void *addr, char perm[5]);
/* A uprobe trace event through tracefs uprobe_events (harness/lib/
 * uprobe_events.c): "KIND:GROUP/NAME PATH:0xOFFSET", kind 'p' (entry) or
 * 'r' (return), NAME = "u<pid>" written to name. Every probe of group (a
 * killed run's too) is deleted first, and again when the case exits, on
 * every path. SKIP where uprobe_events is absent or not writable; 0, or
 * -1 with errno where the kernel refused the definition. */
int pa_uprobe_event_add(const char *group, char kind, const char *path,
			long offset, char *name, size_t len);
/* Disable (in ftrace) and delete every uprobe event of group. */
void pa_uprobe_events_remove(const char *group);
/* The uprobe PMU needs CAP_SYS_ADMIN (else CAP_PERFMON was enough):
 * ba677dbe77af, 6.16 and stable 6.15.7, 6.12.39, 6.6.99, 6.1.146. */
bool pa_since_uprobe_sys_admin(void);
/* Kernel symbol of a syscall's entry ("__x64_sys_getppid"). */
const char *pa_syscall_symbol(const char *name);
/* Some address in kernel space (for breakpoints), or SKIP. */
uint64_t pa_kernel_text_addr(void);
/* Open the breakpoint a (on a kernel address) expecting want (0: an fd):
 * on this task, but CPU-wide on arm64, which refuses a per-task kernel
 * breakpoint to everyone (EINVAL) before the capability check; a
 * CPU-wide one's own rule (perf_allow_cpu()) comes after the breakpoint's.
 * The fd or -1, the result checked (EXPECT_OPEN_RESULT). */
int pa_kernel_bp_open(struct perf_event_attr *a, int want);
/* Root only: switch to a uid of our own (2000000000 + pid % 1000000) that
 * no other process uses (its own perf mlock budget); capabilities are lost. */
void pa_become_fresh_uid(void);

/* ---- attr helpers (harness/lib/attr.c) ---- */
/* A forked child that waits until told to go, then touches `pages` fresh
 * pages (0: none) and execs fixture `name` with `arg` (a private memfd
 * copy of it where one can be exec'd, so that no other process's exec of
 * the same file moves its start-up page faults): its pid; *go_fd is
 * the pipe that tells it. pa_exec_child_go() tells it, reaps it and returns
 * its exit status (-1, and the case failed, when it did not exit). */
pid_t pa_exec_child_start(int *go_fd, int pages, const char *name,
			  const char *arg);
int pa_exec_child_go(pid_t pid, int go_fd);
/* A forked child that waits until told to go, then touches `pages` fresh
 * pages (0: none) and execs /bin/cat reading a pipe (its output to
 * /dev/null): the new image then sleeps in read() until *in_fd is closed
 * (EOF: it exits 0; the caller reaps it). SKIP where /bin/cat is missing.
 * pa_blocked_cat_go() tells it to go and waits (at most 10 s) until the
 * exec'd cat sleeps; where it does not, the case fails and ends (the child
 * killed). */
pid_t pa_blocked_cat_start(int *go_fd, int *in_fd, int pages);
void pa_blocked_cat_go(pid_t pid, int go_fd);
/* `pages` page faults taken in kernel mode: read() of /dev/zero into fresh
 * anonymous pages (the copy to user space faults them in). */
void pa_kernel_faults(int pages);
/* Set bit `bit` (0..63) of the flag word at offset 40 of attr. */
void pa_flag_word_set(struct perf_event_attr *attr, int bit);
/* Whether this kernel has the kernel-access check for attr.text_poke, and
 * for kernel callchains (PERF_SAMPLE_CALLCHAIN without
 * exclude_callchain_kernel): mainline 7.3 and the stable releases that took
 * them (harness/lib/attr.c lists them with the evidence). 1 yes, 0 no (both
 * via pa_since()), -1 where it is not known from which release of this
 * kernel's stable branch (if any) it has the check. */
int pa_since_kernel_access_text_poke(void);
int pa_since_kernel_access_callchain(void);
/* The same for the refusal to split a ring mapping (munmap, mprotect or
 * mremap of part of it: EINVAL), "perf/core: Prevent VMA split of buffer
 * mappings". */
int pa_since_vma_split_refused(void);

/* ---- tracefs format files (harness/lib/tpformat.c) --------------------
 * A tracepoint's events/<sys>/<event>/format, parsed, for the cases that
 * check PERF_SAMPLE_RAW payloads field by field. Each line reads
 *	field:TYPE NAME;	offset:N;	size:N;	signed:N;
 * and the layout differs by kernel version (an __array on one kernel is a
 * __data_loc string on another; syscall arguments are all unsigned long
 * slots), so every offset and size comes from the running kernel. tracefs
 * is root-only by default: pa_tp_format_load() fails where it cannot be
 * read, and the case decides what that means. */

#define PA_TP_MAX_FIELDS 64

struct pa_tp_field {
	char name[64];
	char type[96];
	int offset, size;
	bool is_signed;
	bool data_loc;		/* __data_loc: u32 {u16 offset, u16 len} */
	bool rel_loc;		/* __rel_loc: the offset counts from the field's end */
	bool array;		/* NAME[N] */
};


struct pa_tp_format {
	long id;		/* the "ID:" line */
	int nr;			/* fields, common ones included, in file order */
	struct pa_tp_field f[PA_TP_MAX_FIELDS];
};


/* 0, or -1 where the format file cannot be read or parsed. */
int pa_tp_format_load(const char *sys, const char *event, struct pa_tp_format *fmt);
/* The field called name, or NULL. */
const struct pa_tp_field *pa_tp_field(const struct pa_tp_format *fmt, const char *name);
/* The same, failing the case (and ending it) where the field is missing or
 * lies outside a raw entry of raw_size bytes. */
const struct pa_tp_field *pa_tp_need(const struct pa_tp_format *fmt, const char *name,
				     uint32_t raw_size);
/* An integer field's value (sign-extended where the format says signed). */
uint64_t pa_tp_get_u64(const void *raw, const struct pa_tp_field *f);
/* A string field (a char array or a __data_loc/__rel_loc string), copied
 * into buf. */
const char *pa_tp_get_str(const void *raw, uint32_t raw_size, const struct pa_tp_field *f,
			  char *buf, size_t len);
/* The format of sys:event for a case that samples its RAW payload: where
 * the open is allowed (want 0) but the format cannot be read here, the
 * fields cannot be located: SKIP. false where want != 0 and it is unread. */
bool pa_tp_format_or_skip(const char *sys, const char *event,
			  struct pa_tp_format *fmt, int want);
/* common_type is the tracepoint id, common_pid the thread that hit it. */
void pa_tp_expect_common(const struct pa_tp_format *fmt, const void *raw,
			 uint32_t raw_size, long id, pid_t tid);

/* EXPECT_EQ for a named integer field, and for a string field. */
#define PA_TP_EXPECT_INT(fmt, raw, raw_size, name, want) do {		\
	const struct pa_tp_field *tp__f = pa_tp_need(fmt, name, raw_size);	\
	pa_check_cmp(PA_VAL(pa_tp_get_u64(raw, tp__f)), PA_EQ,		\
		     PA_VAL((uint64_t)(int64_t)(want)),			\
		     "raw field " name, #want, __FILE__, __LINE__);	\
} while (0)


#define PA_TP_EXPECT_STR(fmt, raw, raw_size, name, want) do {		\
	const struct pa_tp_field *tp__f = pa_tp_need(fmt, name, raw_size);	\
	char tp__b[256];						\
	const char *tp__s = pa_tp_get_str(raw, raw_size, tp__f, tp__b, sizeof(tp__b)); \
	if (!pa_check_true(!strcmp(tp__s, want), "raw field " name " == " #want, \
			   __FILE__, __LINE__))				\
		pa_diag("raw field %s is \"%s\", expected \"%s\"", name, tp__s, want); \
} while (0)


/*
 * A thread that is not the main thread (its tid differs from the pid), for
 * the tid fields: pa_thread_start() runs prep(arg) in it, returns with its
 * tid known and the thread waiting; pa_thread_run() lets it run fn(arg)
 * and joins it. Open the event on t->tid in between.
 */
struct pa_thread {
	pthread_t th;
	pid_t tid;
	int ready[2], go[2];
	void (*prep)(void *);
	void (*fn)(void *);
	void *arg;
};

void pa_thread_start(struct pa_thread *t, void (*prep)(void *),
		     void (*fn)(void *), void *arg);
void pa_thread_run(struct pa_thread *t);

/*
 * A PERF_SAMPLE_TID|RAW sampler (period 1) of tracepoint sys:event on such
 * a thread, its payload read at the offsets of the format file (harness/
 * lib/tpcase.c):
 * - pa_tp_raw_setup(): tr->id (SKIP without the event), tr->attr, tr->fmt
 *   (pa_tp_format_or_skip()); false where the open must fail with want
 *   and the format is unreadable: the refusal was checked, the case ends
 *   (the case may add sample_type bits to tr->attr before the run);
 * - pa_tp_raw_run(): pa_thread_start(prep, fn, arg), the open on its tid
 *   expecting want; opened, a ring is mapped and the event enabled while
 *   the thread runs fn, and it returns true; else the thread runs, false;
 * - pa_tp_raw_next(): the next sample, parsed into tr->s, with pid =
 *   getpid(), tid = the thread and common_type/common_pid checked; false
 *   when there is none left;
 * - pa_tp_raw_end(): exactly n samples were read; unmap, close.
 */
struct pa_tp_raw {
	long id;
	int want;
	struct perf_event_attr attr;
	struct pa_tp_format fmt;
	struct pa_thread t;
	int fd, n;
	struct pa_ring r;
	struct pa_sample s;
};

bool pa_tp_raw_setup(struct pa_tp_raw *tr, const char *sys, const char *event, int want);
bool pa_tp_raw_run(struct pa_tp_raw *tr, void (*prep)(void *), void (*fn)(void *),
		   void *arg);
bool pa_tp_raw_next(struct pa_tp_raw *tr);
void pa_tp_raw_end(struct pa_tp_raw *tr, int n);
/* ftrace:function's id, or SKIP: it exists only with
 * CONFIG_FUNCTION_TRACER (a SKIP that says so where the event list could
 * be read, else pa_tp_id_or_skip()'s). */
long pa_ftrace_function_id_or_skip(void);
/* Control: attr with config = sys:event's id opens on this task (as
 * pa_expected_errno(PA_NEED_SELF) allows); SKIP without that event. */
void pa_tp_expect_opens_on(const struct perf_event_attr *attr, const char *sys,
			   const char *event);

/*
 * An event opened by such a thread on itself (pid 0, cpu -1), harness/lib/
 * dense.c: pa_thread_event_start() starts the thread, which opens attr
 * (keep it disabled), reads its PERF_EVENT_IOC_ID into te->id, maps and
 * prefaults a `pages`-page ring (te->r), then runs prep(arg) (may be
 * NULL); it returns with the thread waiting (tid in te->th.tid). Then
 * pa_thread_event_run() has the thread ENABLE the event, run fn(arg) and
 * DISABLE it, and joins it. A failure of any step there fails the case
 * (te->th.tid != getpid() is checked by pa_thread_start()).
 */
struct pa_thread_event {
	struct pa_thread th;
	struct perf_event_attr *attr;
	int pages;
	void (*prep)(void *);
	void (*fn)(void *);
	void *arg;
	int fd;
	uint64_t id;
	struct pa_ring r;
	int err;		/* errno of the step that failed */
	const char *failed;	/* which step, or NULL */
};

void pa_thread_event_start(struct pa_thread_event *te, struct perf_event_attr *attr,
			   int pages, void (*prep)(void *), void (*fn)(void *),
			   void *arg);
void pa_thread_event_run(struct pa_thread_event *te);
/* The event's count (read_format 0, or ID: then its id must be te->id);
 * the ring unmapped and the fd closed. */
uint64_t pa_thread_event_end(struct pa_thread_event *te);
/* data_src of a sample whose PMU set none: PERF_MEM_NA, i.e.
 * PERF_MEM_S(OP|LVL|SNOOP|LOCK|TLB, NA), with or without LVLNUM NA
 * (0xf << 33), which joined PERF_MEM_NA after 6.1 and is there by 6.12. */
bool pa_data_src_is_na(uint64_t data_src);
/* One byte store of 1 to p: the address of the storing instruction (x86-64,
 * arm64), where a page fault there leaves the sample's ip; 0 elsewhere. */
uint64_t pa_store_byte(volatile char *p);
/*
 * One page whose first store takes a write fault on a present pte, on any
 * correct kernel: a one-page MAP_PRIVATE mapping of a memfd page (filled by
 * pwrite, so the page is in the page cache), read once at off. The read maps
 * the page-cache page read-only (a private mapping must not write through
 * to the file), so the store is a copy-on-write fault on a present page. A
 * read of a fresh anonymous page need not map the shared zero page
 * (pvm_no_zero_page, s390 mm_forbids_zeropage, userfaultfd): it may map a
 * writable page, and the store then takes no fault at all. The mapping is
 * one page, so whatever THP or shmem huge pages do with the memfd's folio,
 * the page tables map it (and, after the fault, its anonymous copy) by a
 * base pte. NULL with errno on failure.
 */
char *pa_cow_page(size_t off);
/*
 * Exactly n page faults in a thread: pa_fault_pages_prep() maps a set of n
 * fresh pages (no huge pages: one fault each), pa_fault_pages_run() enables
 * fd, stores one byte into each page of a set (at pa_fault_pages_addr()),
 * and disables fd. Run it first on a warm-up set and some counter of the
 * thread: that run also faults in the code and stack of the run, so that
 * each later run on a fresh set takes exactly the n faults of its stores.
 * Call them in the thread (pa_thread prep and work); err keeps the errno of
 * a failed mmap or ioctl (0 if none), ip, if set, gets pa_store_byte()'s
 * address of each store of the last run. With timed set (fd's read_format
 * must have PERF_FORMAT_TOTAL_TIME_ENABLED), a run reads fd after the
 * ENABLE until its time_enabled is above 0 before the first store (err
 * ETIME if CLOCK_MONOTONIC moved 5 s first): perf_clock() can stand still
 * for a while (a guest whose tick the host holds back clamps local_clock()
 * to the last tick + 1 tick), and an event enabled and read within that
 * while rightly shows 0.
 */
struct pa_fault_pages {
	int n;
	long psz;
	int err;
	bool timed;
	uint64_t *ip;		/* NULL, or n entries */
};
char *pa_fault_pages_prep(struct pa_fault_pages *f, int n);
char *pa_fault_pages_addr(const struct pa_fault_pages *f, char *p, int i);
void pa_fault_pages_run(struct pa_fault_pages *f, int fd, char *p);
/*
 * The usual shape of those cases, on a pa_thread: pa_fault_thread_start()
 * starts the thread, which maps a warm-up set (ft->warm) and `runs` sets
 * (ft->run[]) of n pages, then calls ft->prep(ft) if set; it opens attr
 * (disabled: the thread enables it) as ft->fd and cattr, a counter for
 * the warm-up run, as ft->warm_fd on the thread. pa_fault_thread_run() lets
 * the thread run: the warm-up run on warm_fd, then each set on fd, with
 * ft->between(ft, i) after run i but the last, and joins it. A failed mmap
 * or ioctl, or an err that prep or between set in ft->pg.err, fails the
 * case. Set prep, between, arg and pg.ip (if wanted) in a zeroed ft first.
 */
#define PA_FAULT_RUNS 2
struct pa_fault_thread {
	struct pa_fault_pages pg;
	struct pa_thread t;
	int runs;
	char *warm, *run[PA_FAULT_RUNS];
	int warm_fd, fd;
	void (*prep)(struct pa_fault_thread *ft);
	void (*between)(struct pa_fault_thread *ft, int i);
	void *arg;
};
void pa_fault_thread_start(struct pa_fault_thread *ft, int n, int runs,
			   struct perf_event_attr *attr,
			   struct perf_event_attr *cattr);
void pa_fault_thread_run(struct pa_fault_thread *ft);
/* Read r's records after run `run` sampled with attr (TID, ADDR, READ):
 * each sample is a user-mode one of this process's thread, the i-th at
 * the i-th faulting address of that run with read value first_read + i.
 * Returns the number of samples (records of other types are noted). */
int pa_fault_thread_samples(struct pa_fault_thread *ft, const struct perf_event_attr *attr,
			    struct pa_ring *r, int run, uint64_t first_read);
/*
 * An event of this thread that is throttled soon after every tick, for
 * the cases that time its PERF_RECORD_UNTHROTTLE: pa_throttle_open() sets
 * kernel.perf_cpu_time_max_percent 25 and perf_event_max_sample_rate 1
 * (SKIP where it cannot), opens a 10 us task-clock sampler with
 * use_clockid CLOCK_MONOTONIC and a ring, and enables it; throttled, it is
 * the kernel that writes THROTTLE and UNTHROTTLE records. After some CPU
 * work, pa_throttle_scan() reads the records since the last scan, checks
 * each {size, misc 0, id, stream_id = the event's id} and that they
 * alternate, and says whether the event was throttled at time t0 (the
 * last record at or before t0 is a THROTTLE, its time into *last_thr),
 * with *unthr the time of the first UNTHROTTLE after t0 (0: none).
 * pa_throttle_close() closes it and puts the sysctls back.
 */
struct pa_throttle {
	int fd;
	uint64_t id;
	uint32_t last;		/* type of the last record: they alternate */
	struct pa_ring r;
	char rate[32], pct[32];
};
void pa_throttle_open(struct pa_throttle *t);
bool pa_throttle_scan(struct pa_throttle *t, uint64_t t0, uint64_t *last_thr,
		      uint64_t *unthr);
void pa_throttle_close(struct pa_throttle *t);
/*
 * A PERF_RECORD_THROTTLE came among the samples of a burst of `burst`
 * overflows. The kernel throttles an event at its max_samples_per_tick-th
 * overflow within one tick (__perf_event_account_interrupt()), and
 * max_samples_per_tick is perf_event_max_sample_rate / HZ rounded up, HZ at
 * most 1000: a rate (read now: the kernel only ever lowers it) above
 * burst * 1000 allows the whole burst in any tick, so the throttle is the
 * kernel's fault: FAIL with the numbers. Otherwise SKIP naming the rate.
 */
void pa_throttled_in_burst(int burst);
/*
 * PERF_EVENT_IOC_PERIOD from a's sample_period (OLD) to newp (NEW) on an
 * enabled sampling event of this task that is running; hits(n) makes n of
 * its events (harness/lib/period.c). The sequence of every implementation
 * that sets its periods in perf_swevent_set_period(): 5 events of the old
 * period give no sample; after the ioctl the 1st event overflows at once
 * (period_left 0), the OLD-th after it next (hw.last_period still holds the
 * old period, once), then every NEW-th; data_head steps by one record
 * exactly there, 4 samples in all (each with PERF_SAMPLE_ADDR == bp_addr
 * for a breakpoint asking for it), and the count is every event while
 * enabled. A try switched out from ENABLE to DISABLE (sched-in restarts a
 * period) or throttled is run again, up to 20 times; PERIOD blocking in
 * every try, or a throttle the rate cannot explain, is a FAIL. a must not
 * ask for PERF_SAMPLE_PERIOD (with it a tracepoint or probe samples every
 * hit).
 */
void pa_period_old_once(const struct perf_event_attr *a, uint64_t newp, void (*hits)(int n));
/*
 * PERF_EVENT_IOC_REFRESH in rounds on fd, a disabled sampling event with
 * sample_period 1 whose signals go to s (pa_sigs_route()); hits(n) makes n
 * of its events (harness/lib/refresh.c). One event first, disabled: no
 * count, no signal. Then for each of refresh[0..rounds): REFRESH(n), and n
 * events, each counted at once and signalled (awaited, at most 10 s) with
 * si_fd fd, POLL_IN (band POLLIN|POLLRDNORM) but the n-th POLL_HUP (band
 * POLLHUP|POLLERR); then 16 more events neither count nor signal: the
 * limit disabled the event.
 */
void pa_refresh_rounds(int fd, struct pa_sigs *s, void (*hits)(int n), const int *refresh, int rounds);
/* The same rule without the SKIP: FAILs where the rate cannot explain the
 * throttle, else returns the rate (a case that retries goes on). */
long pa_throttle_check(int burst);
/* One 8-byte store of v to p: the address of the instruction right after
 * it, where an x86 data breakpoint (a trap) leaves the sample's ip; 0 where
 * that is not known (not x86-64). */
uint64_t pa_store_u64_ip_after(volatile uint64_t *p, uint64_t v);
/*
 * A child this process traces (harness/lib/tracee.c). pa_tracee_start()
 * forks it: it asks to be traced (PTRACE_TRACEME), stops with SIGSTOP,
 * then runs fn (may be NULL) and exits 0; it returns the child's pid once
 * it has stopped. SKIP where PTRACE_TRACEME is refused; a child that does
 * not stop within PA_TRACEE_WAIT_MS, or stops otherwise, is killed and fails the case.
 * pa_tracee_wait(): waitpid() of pid bounded at timeout_ms, true when it
 * changed state within it (*status set). pa_tracee_kill(): SIGKILL, then
 * reap it (bounded at PA_TRACEE_WAIT_MS). x86-64: PTRACE_PEEKUSER of
 * u_debugreg[n] (an error fails the case), and PTRACE_POKEUSER of it
 * (ptrace()'s return).
 */
#define PA_TRACEE_WAIT_MS 10000
pid_t pa_tracee_start(void (*fn)(void));
/* x86 DR7 bits of slot 0, for pa_tracee_debugreg_set(pid, 7, ...): local
 * enable, break on writes, 8 bytes long; WATCH0_8 is all three */
#define PA_DR7_L0		0x1UL
#define PA_DR7_RW0_W		(0x1UL << 16)
#define PA_DR7_LEN0_8		(0x3UL << 18)
#define PA_DR7_WATCH0_8		(PA_DR7_L0 | PA_DR7_RW0_W | PA_DR7_LEN0_8)
bool pa_tracee_wait(pid_t pid, int timeout_ms, int *status);
void pa_tracee_kill(pid_t pid);
#if defined(__x86_64__)
unsigned long pa_tracee_debugreg_get(pid_t pid, int n);
long pa_tracee_debugreg_set(pid_t pid, int n, unsigned long value);
/* PTRACE_CONT, then (bounded) a stop by stopsig, or with stopsig 0 an
 * exit with status 0; false (the case failed) otherwise. `after` says
 * what the tracee was to do ("after the one write"). */
bool pa_tracee_cont_until(pid_t pid, int stopsig, const char *after);
/* The tracee's u64 at addr (PTRACE_PEEKDATA) is value. */
void pa_tracee_expect_word(pid_t pid, const void *addr, uint64_t value);
/* x86-64: the tracee stopped on a hardware breakpoint trap (SIGTRAP,
 * TRAP_HWBKPT) with si_addr and rip at ip. */
void pa_tracee_expect_hwbkpt_at(pid_t pid, uint64_t ip);
#endif
/* For an inherited event sampled in a thread started later: keep an open
 * non-inherited event (so this task's context is never a clone of the
 * thread's, and the two are never swapped: the thread's records come from
 * its own instance) and pin this thread to the CPU it is on, which new
 * threads inherit (an inherited event maps a ring only bound to a CPU).
 * Returns that CPU. */
int pa_pin_unswapped(void);
/* getppid() through a syscall instruction of its own: its return value;
 * *ret_ip gets the address the syscall returns to, the user ip of a
 * syscalls:sys_enter_getppid sample (x86-64; 0 where it is not known). */
long pa_getppid_at(uint64_t *ret_ip);

/* ---- a known user frame (harness/lib/frame.c) ----------------------------
 * pa_frame_call(out, stub, arg) builds a frame-pointer frame, pushes
 * PA_FRAME_PUSH0..3 (PUSH0 first, so highest), loads rax rcx rdx rsi r8 r9
 * r10 with PA_FRAME_AX..PA_FRAME_R10, rdi with arg and rbx with out, and
 * calls stub; where stub's code (or a probe on it) is sampled:
 *	ip = stub's instruction, sp = out->sp, bp = out->bp, rbx = out,
 *	[sp] = out->ret, then PUSH3 PUSH2 PUSH1 PUSH0,
 *	user callchain {ip, out->caller} (the stub has no frame of its own:
 *	the walk from rbp gives the return address at rbp + 8).
 * After the call, out->rax is what the stub left in rax and out->stack
 * the PA_FRAME_STACK bytes at out->sp (compare a STACK_USER dump with
 * it); the frame has that much room above sp whatever the caller's depth.
 * x86-64 only: elsewhere pa_frame_unsupported() gives the SKIP reason
 * (NULL on x86-64) and pa_frame_call() does nothing.
 */
#define PA_FRAME_STACK	1024
#define PA_FRAME_AX	0x0a0a0a0a11111111ULL
#define PA_FRAME_CX	0x0c0c0c0c33333333ULL
#define PA_FRAME_DX	0x0d0d0d0d44444444ULL
#define PA_FRAME_SI	0x050505055555555aULL
#define PA_FRAME_R8	0x0808080888888888ULL
#define PA_FRAME_R9	0x0909090999999999ULL
#define PA_FRAME_R10	0x101010100a0a0a0aULL
#define PA_FRAME_DI	0x060606066666666dULL	/* an arg no other register has */
#define PA_FRAME_PUSH0	0x7070707001010101ULL
#define PA_FRAME_PUSH1	0x7171717102020202ULL
#define PA_FRAME_PUSH2	0x7272727203030303ULL
#define PA_FRAME_PUSH3	0x7373737304040404ULL

struct pa_frame {
	uint64_t sp;		/* rsp in the stub */
	uint64_t ret;		/* the return address the call pushed */
	uint64_t caller;	/* the frame's own return address, at rbp + 8 */
	uint64_t bp;		/* rbp in the stub */
	uint64_t rax;		/* rax when the stub returned */
	unsigned char stack[PA_FRAME_STACK];	/* [sp, sp + PA_FRAME_STACK) after it */
};

const char *pa_frame_unsupported(void);
void pa_frame_call(struct pa_frame *out, const void *stub, uint64_t arg);
/* Stubs for pa_frame_call():
 * - pa_frame_store_stub(): a fresh one-page mapping (read+exec, no THP)
 *   holding "movb $1, 8(%rdi); ret": a store to arg + 8 (a write fault
 *   on a page not yet written); NULL with errno on failure;
 * - pa_frame_probe_target: an in-binary function ("xorl %eax, %eax; ret")
 *   to put a uprobe on (pa_self_sym_offset("pa_frame_probe_target"));
 * - pa_frame_getppid_stub: "getppid(); ret" through the syscall
 *   instruction (it clobbers rax rcx r11); pa_frame_getppid_ip() is the
 *   address after that instruction (the syscall's user ip). */
void *pa_frame_store_stub(void);
void pa_frame_probe_target(void);
void pa_frame_getppid_stub(void);
const void *pa_frame_getppid_ip(void);
/* Checks of a sample taken in the stub (ip: the sampled instruction, arg:
 * what pa_frame_call() put in rdi):
 * - regs (REGS_USER or REGS_INTR, `what` names it) against the frame, one
 *   register per bit of mask in bit order; asking a register without a
 *   known value (anything but ax bx cx dx si di bp sp ip r8 r9 r10) fails,
 *   and the mask must leave out those the stub changed before the sample;
 * - the user callchain {PERF_CONTEXT_USER, ip, f->caller};
 * - a STACK_USER dump of size bytes (40..PA_FRAME_STACK): f->ret, PUSH3,
 *   PUSH2, PUSH1, PUSH0, and every byte equal to f->stack. */
void pa_frame_expect_regs(const struct pa_frame *f, uint64_t arg, uint64_t ip,
			  uint64_t mask, const uint64_t *regs, const char *what);
void pa_frame_expect_callchain(const struct pa_frame *f, uint64_t ip,
			       const uint64_t *cc, uint64_t nr);
void pa_frame_expect_stack(const struct pa_frame *f, const void *stack, uint64_t size);

/* ---- rigs for one behaviour on another class (harness/lib/classrig.c) ---- */
/* A sampling event of attr on this task (pid 0, cpu -1): its fd. For
 * PERF_TYPE_HARDWARE it first goes through pa_hw_open_or_skip() (SKIP
 * without the generic event; on hybrid x86 pinned to a core CPU) and SKIPs
 * where the PMU counts but cannot sample (EOPNOTSUPP: no overflow
 * interrupt); any other type opens as is (a software stand-in for trying
 * a hardware case's oracle here). Any other error fails the case. */
int pa_hw_open_sampler(struct perf_event_attr *a);
/* The next PERF_RECORD_SAMPLE in r, parsed into *s with a's layout where s
 * is not NULL; NULL when the ring is read out. THROTTLE and UNTHROTTLE
 * records are counted in *throttled (the case weighs them with
 * pa_throttled_in_burst()); any other record fails the case. */
const struct perf_event_header *pa_hw_next_sample(struct pa_ring *r, const struct perf_event_attr *a,
						  struct pa_sample *s, int *throttled);
/* Pin the calling thread to the CPU it is on (bpf_perf_event_output()'s
 * BPF_F_CURRENT_CPU picks that CPU's slot): that CPU, or -1 with errno. */
int pa_pin_here(void);
/* The BPF-output rig: a PERF_EVENT_ARRAY with out_fd in the slot of cpu,
 * an ARRAY of `results` u64 filled with PA_BPF_OUTPUT_SENTINEL, and
 * pa_bpf_output_count_prog() (no tail) loaded and attached to sampler_fd
 * (PERF_EVENT_IOC_SET_BPF): each overflow i of the sampler writes i into
 * out_fd's ring and the helper's return into results[i]. */
#define PA_BPF_OUTPUT_SENTINEL 0x5e5e5e5eULL
struct pa_bpf_output_rig {
	int perf_map, result_map, prog;
};
void pa_bpf_output_rig(struct pa_bpf_output_rig *g, int sampler_fd, int out_fd, int cpu,
		       uint32_t results);
/* The same with the program's payload followed by tail_len (at most 8)
 * bytes of tail (pa_bpf_output_count_prog()). */
void pa_bpf_output_rig_tail(struct pa_bpf_output_rig *g, int sampler_fd, int out_fd, int cpu,
			    uint32_t results, const uint8_t *tail, int tail_len);
/* results[i]: the helper's return for overflow i (the sentinel: no run) */
uint64_t pa_bpf_output_ret(const struct pa_bpf_output_rig *g, uint32_t i);
void pa_bpf_output_rig_close(struct pa_bpf_output_rig *g);
/* The records pa_bpf_output_rig()'s program wrote into the output event's
 * ring r (sample_type oattr's): each a SAMPLE of thread tid whose raw
 * payload (12 bytes: round_up(4 + 8, 8) - 4) is the overflow's number,
 * first, first + 1, ... in order, and exactly want of them; returns how
 * many there were. */
int pa_bpf_output_expect_records(struct pa_ring *r, const struct perf_event_attr *oattr, pid_t tid,
				 uint64_t first, int want);
/* The allowance per run on a CPU between a clock event's count and the
 * task's CPU time (harness/lib/open.c, pa_clock_event_vs_cputime(), says
 * why): 50 us. */
#define PA_SWITCH_NS 50000u

#endif /* PERFABI_H */
