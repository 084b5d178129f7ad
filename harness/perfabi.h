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
 * The library (libperfabi.a) supplies main(): it checks the declared
 * requirements (a missing one is a SKIP with its reason), runs the body in a
 * forked child with a timeout, kills whatever the body left behind, restores
 * every sysctl the body changed, and prints KTAP. Exit status follows
 * kselftest: 0 pass, 1 fail, 2 xfail, 3 xpass, 4 skip.
 */
#ifndef PERFABI_H
#define PERFABI_H

#include "abi.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- outcomes (the exit codes of a case binary) ------------------------- */
enum pa_outcome {
	PA_PASS = 0,
	PA_FAIL = 1,
	PA_XFAIL = 2,
	PA_XPASS = 3,
	PA_SKIP = 4,
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

/* A documented kernel deviation: the case is expected to fail on kernels in
 * [from, to); `to` is the first fixed release (NULL: not fixed yet). */
struct pa_known_bug {
	const char *from;
	const char *to;
	const char *why;
	const char *fix;	/* commit that fixed it */
};

struct pa_case {
	/* what is checked */
	const char *assertion;	/* the documented sentence, required */
	const char *ref;	/* man page section, design.txt, or a commit */
	const char *covers;	/* ABI map elements, space separated */
	const char *tags;	/* fix commits, e.g. "linux-git=382c27f4ed28" */

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
	const char *(*probe)(void); /* feature probe: NULL ok, else reason */

	/* how it runs */
	int timeout;		/* seconds, default 10 */
	bool privileged;	/* privilege-sensitive: run in every matrix cell */
	struct pa_known_bug xfail;

	void (*body)(void);
};

#ifndef PA_CASE_NAME
#define PA_CASE_NAME "unnamed"
#endif

#define PERFABI_CASE(...)						\
	static void pa_case_body(void);					\
	const struct pa_case pa_this_case = {				\
		.body = pa_case_body,					\
		__VA_ARGS__						\
	};								\
	const char *const pa_this_case_name = PA_CASE_NAME;		\
	static void pa_case_body(void)

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

int pa_paranoid(void);			/* kernel.perf_event_paranoid */
uint64_t pa_caps_effective(void);
bool pa_has_cap(int cap);
bool pa_perfmon_capable(void);		/* CAP_PERFMON or CAP_SYS_ADMIN */
int pa_online_cpus(void);
int pa_pmu_type(const char *pmu);	/* -1 when absent */
bool pa_hw_pmu_present(const char **reason);
const char *pa_tracefs(void);		/* mount point or NULL */
long pa_tracepoint_id(const char *sys, const char *event); /* -1: absent */

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
};
/* 0 when the rules allow it in this context, else the documented errno. */
int pa_expected_errno(enum pa_need need);
/* Debian-style paranoid > 2: no perf at all without CAP_SYS_ADMIN. Probed. */
bool pa_paranoid_restricts_all(void);
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
/* name is relative to /proc/sys, e.g. "kernel/perf_event_max_sample_rate".
 * The first value is saved and put back after the body, whatever happens. */
int pa_sysctl_write(const char *name, const char *value);
int pa_sysctl_read(const char *name, char *buf, size_t len);
long pa_sysctl_long(const char *name);	/* LONG_MIN when unreadable */

/* ---- reporting from the body ----------------------------------------- */
void pa_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pa_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A prerequisite found missing inside the body: SKIP, with the reason. */
void pa_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* End the body now (after a fatal assertion). */
void pa_abort(void) __attribute__((noreturn));
/* The ABI changed in `version`: returns true where the running kernel has
 * the new behaviour, and records which variant the case expected. */
bool pa_since(const char *version, const char *what);
const char *pa_errno_name(int err);

/* ---- assertions ---------------------------------------------------------- */
struct pa_val {
	uint64_t bits;
	bool is_signed;
};
#define PA_VAL(x) ((struct pa_val){ (uint64_t)(x), ((__typeof__(x))-1) < (__typeof__(x))0 })
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

#endif /* PERFABI_H */
