// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow signals, taken synchronously: the case blocks the signal, routes
 * the perf fd's notifications to itself (O_ASYNC, F_SETOWN, F_SETSIG with a
 * real-time signal, which queues one signal per overflow) and collects them
 * with sigtimedwait(), each wait bounded, so a missing signal is a failure
 * with a message, never a hang.
 */
#include "perfabi.h"

#include <fcntl.h>
#include <time.h>

void pa_sig_block(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		pa_fail("sigprocmask: %s", pa_errno_name(errno));
		pa_abort();
	}
}

int pa_sig_wait(int sig, siginfo_t *si, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	sigset_t set;
	int s;

	sigemptyset(&set);
	sigaddset(&set, sig);
	do
		s = sigtimedwait(&set, si, &ts);
	while (s < 0 && errno == EINTR);
	if (s < 0 && errno != EAGAIN) {
		pa_fail("sigtimedwait: %s", pa_errno_name(errno));
		pa_abort();
	}
	return s < 0 ? 0 : s;
}

void pa_sigs_route(struct pa_sigs *s, int fd, int sig)
{
	siginfo_t si;

	memset(s, 0, sizeof(*s));
	s->sig = sig;
	pa_sig_block(sig);
	if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, sig) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC)) {
		pa_fail("routing the overflow signal of fd %d: %s", fd, pa_errno_name(errno));
		pa_abort();
	}
	while (pa_sig_wait(sig, &si, 0))
		;	/* nothing from before */
}

void pa_sigs_record(struct pa_sigs *s, const siginfo_t *si)
{
	if (s->n < PA_MAX_SIGS) {
		s->code[s->n] = si->si_code;
		s->fd[s->n] = si->si_fd;
		s->band[s->n] = (long)si->si_band;
	}
	s->n++;
}

void pa_sigs_overflow_once(struct pa_sigs *s, int step)
{
	pa_touch_pages(1);
	pa_sigs_await(s, step);
}

void pa_sigs_await(struct pa_sigs *s, int step)
{
	siginfo_t si;

	if (!pa_sig_wait(s->sig, &si, 10000)) {
		pa_fail("no signal within 10 s of overflow %d", step);
		pa_abort();
	}
	pa_sigs_record(s, &si);
	while (pa_sig_wait(s->sig, &si, 0))
		pa_sigs_record(s, &si);
}

void pa_sigs_settle(struct pa_sigs *s, uint64_t want)
{
	siginfo_t si;

	while ((uint64_t)s->n < want && pa_sig_wait(s->sig, &si, 10000))
		pa_sigs_record(s, &si);
	while (pa_sig_wait(s->sig, &si, 0))
		pa_sigs_record(s, &si);
}
