// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the dense sample cases: an event opened in a thread that is
 * not the main thread, by the thread itself (pid 0 there), for the fields
 * whose pid and tid must differ; the data_src of a PMU that sets none.
 */
#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

static void te_prep(void *p)
{
	struct pa_thread_event *te = p;

	te->fd = pa_perf_open(te->attr, 0, -1, -1, 0);
	if (te->fd < 0) {
		te->err = errno;
		te->failed = "perf_event_open in the thread";
		return;
	}
	if (ioctl(te->fd, PERF_EVENT_IOC_ID, &te->id) < 0) {
		te->err = errno;
		te->failed = "PERF_EVENT_IOC_ID";
		return;
	}
	te->err = -pa_ring_try_map(&te->r, te->fd, te->pages);	/* 0 or -errno */
	if (te->err) {
		te->failed = "mapping the ring";
		return;
	}
	pa_ring_prefault(&te->r);
	if (te->prep)
		te->prep(te->arg);
}

static void te_fn(void *p)
{
	struct pa_thread_event *te = p;

	if (ioctl(te->fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		te->err = errno;
		te->failed = "PERF_EVENT_IOC_ENABLE in the thread";
	}
	te->fn(te->arg);
	if (ioctl(te->fd, PERF_EVENT_IOC_DISABLE, 0) < 0 && !te->failed) {
		te->err = errno;
		te->failed = "PERF_EVENT_IOC_DISABLE in the thread";
	}
}

static void te_check(struct pa_thread_event *te)
{
	if (!te->failed)
		return;
	pa_fail("%s: %s", te->failed, pa_errno_name(te->err));
	pa_abort();
}

void pa_thread_event_start(struct pa_thread_event *te, struct perf_event_attr *attr,
			   int pages, void (*prep)(void *), void (*fn)(void *),
			   void *arg)
{
	memset(te, 0, sizeof(*te));
	te->attr = attr;
	te->pages = pages;
	te->prep = prep;
	te->fn = fn;
	te->arg = arg;
	te->fd = -1;
	pa_thread_start(&te->th, te_prep, te_fn, te);
	te_check(te);
}

void pa_thread_event_run(struct pa_thread_event *te)
{
	pa_thread_run(&te->th);
	te_check(te);
}

uint64_t pa_thread_event_end(struct pa_thread_event *te)
{
	uint64_t v[2] = { 0, 0 };

	if (te->attr->read_format == PERF_FORMAT_ID) {
		pa_read_u64(te->fd, v, 2);
		EXPECT_EQ(v[1], te->id);
	} else {
		ASSERT_EQ(te->attr->read_format, 0u);
		pa_read_u64(te->fd, v, 1);
	}
	pa_ring_unmap(&te->r);
	close(te->fd);
	te->fd = -1;
	return v[0];
}

bool pa_data_src_is_na(uint64_t data_src)
{
	uint64_t na = 1ULL << 0 | 1ULL << 5 | 1ULL << 19 | 1ULL << 24 | 1ULL << 26;

	return data_src == na || data_src == (na | 0xfULL << 33);
}

__attribute__((noinline)) uint64_t pa_store_byte(volatile char *p)
{
	uint64_t at = 0;

#if defined(__x86_64__)
	__asm__ volatile("leaq 1f(%%rip), %0\n1:\tmovb $1, (%1)"
			 : "=&r"(at) : "r"(p) : "memory");
#elif defined(__aarch64__)
	__asm__ volatile("adr %0, 1f\n1:\tstrb wzr, [%1]"
			 : "=&r"(at) : "r"(p) : "memory");
#else
	*p = 1;
#endif
	return at;
}

int pa_pin_unswapped(void)
{
	struct perf_event_attr extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int cpu;

	/* a non-inherited event of ours keeps a new thread's context from
	 * being a clone of ours, so the two are never swapped at a context
	 * switch: the thread's records come from its own instance */
	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	/* an inherited event can only be mmapped when bound to a CPU; the
	 * threads started from now on inherit the affinity */
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	return cpu;
}

__attribute__((noinline)) uint64_t pa_store_u64_ip_after(volatile uint64_t *p, uint64_t v)
{
	uint64_t after = 0;

#if defined(__x86_64__)
	__asm__ volatile("leaq 1f(%%rip), %0\n\t"
			 "movq %2, (%1)\n"
			 "1:"
			 : "=&r"(after) : "r"(p), "r"(v) : "memory");
#else
	*p = v;
#endif
	return after;
}

__attribute__((noinline)) long pa_getppid_at(uint64_t *ret_ip)
{
#if defined(__x86_64__)
	long ret;
	uint64_t at;

	__asm__ volatile("leaq 1f(%%rip), %1\n\tsyscall\n1:"
			 : "=a"(ret), "=&r"(at)
			 : "0"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
	*ret_ip = at;
	return ret;
#else
	*ret_ip = 0;
	return syscall(SYS_getppid);
#endif
}
