// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_REFRESH on a period-1 sampling event, in rounds: what
 * every implementation whose overflows go through __perf_event_overflow()
 * does (software events, tracepoints, kprobes, uprobes, breakpoints),
 * checked once here for the cases of each.
 */
#include "perfabi.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

#define AFTER	16	/* events while the limit has the event disabled */

/* one event while the event counts: counted at once (a period-1 event adds
 * in its own overflow path), then its signal, awaited (bounded at 10 s) so
 * that no two overflows share one irq_work run */
static void refresh_hit(int fd, struct pa_sigs *s, void (*hits)(int n), uint64_t before, int step)
{
	uint64_t after;

	hits(1);
	after = pa_read_one(fd);
	if (after != before + 1) {
		pa_fail("event %d after REFRESH: the count went from %llu to %llu, not by the one event",
			step, (unsigned long long)before, (unsigned long long)after);
		pa_abort();
	}
	pa_sigs_await(s, step);
}

/* AFTER events while the limit has the event disabled: none counts, none
 * is signalled (the CPU time spent first and after lets any irq_work still
 * pending run: on x86 at once, elsewhere by the next tick) */
static void refresh_after(int fd, struct pa_sigs *s, void (*hits)(int n), uint64_t count)
{
	siginfo_t si;
	int n = s->n;

	pa_work_cpu_ms(20);
	hits(AFTER);
	pa_work_cpu_ms(20);
	while (pa_sig_wait(s->sig, &si, 0))
		pa_sigs_record(s, &si);
	EXPECT_EQ(pa_read_one(fd), count);
	EXPECT_EQ(s->n, n);
}

void pa_refresh_rounds(int fd, struct pa_sigs *s, void (*hits)(int n), const int *refresh, int rounds)
{
	uint64_t count = 0;
	siginfo_t si;

	hits(1);				/* disabled: not counted */
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_sig_wait(s->sig, &si, 0), 0);
	for (int k = 0; k < rounds; k++) {
		int first = s->n;

		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, refresh[k]));
		for (int i = 1; i <= refresh[k]; i++, count++)
			refresh_hit(fd, s, hits, count, (int)count + 1);
		pa_diag("after REFRESH %d: %d signals in all", refresh[k], s->n);
		ASSERT_EQ(s->n, first + refresh[k]);
		for (int i = first; i < s->n && i < PA_MAX_SIGS; i++) {
			bool last = i == s->n - 1;

			EXPECT_EQ(s->code[i], last ? POLL_HUP : POLL_IN);
			EXPECT_EQ(s->band[i], last ? (long)(POLLHUP | POLLERR) : (long)(POLLIN | POLLRDNORM));
			EXPECT_EQ(s->fd[i], fd);
		}
		refresh_after(fd, s, hits, count);
	}
}
