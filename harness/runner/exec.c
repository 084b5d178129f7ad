// SPDX-License-Identifier: GPL-2.0
#include "exec.h"
#include "runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

long pa_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void append(struct pa_exec *e, const char *buf, size_t n)
{
	if (e->len + n + 1 > e->cap) {
		size_t ncap = (e->cap ? e->cap * 2 : 8192);
		char *p;

		while (ncap < e->len + n + 1)
			ncap *= 2;
		p = realloc(e->output, ncap);
		if (!p)
			return;		/* keep what we have */
		e->output = p;
		e->cap = ncap;
	}
	memcpy(e->output + e->len, buf, n);
	e->len += n;
	e->output[e->len] = 0;
}

volatile sig_atomic_t *pa_exec_stop;

/* The child of vfork(): it shares the runner's memory until it execs, so it
 * writes nothing the runner owns (no stdio, no malloc) and takes no signal
 * into the runner's handlers. */
static void __attribute__((noreturn)) exec_child(struct pa_exec *e, int out, const sigset_t *mask)
{
	static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char msg[600];
	int n;

	/* the child's own handler table (vfork shares no CLONE_SIGHAND) */
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &dfl, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	setpgid(0, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (e->setup && e->setup(e->setup_arg)) {
		n = snprintf(msg, sizeof(msg), "perfabi-run: could not set up the identity for %s\n", e->path);
	} else {
		execl(e->path, e->path, e->arg, (char *)NULL);
		n = snprintf(msg, sizeof(msg), "perfabi-run: cannot execute %s: %s\n", e->path, strerror(errno));
	}
	if (n > 0 && write(1, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
		_exit(126);
	_exit(127);
}

int pa_exec_start(struct pa_exec *e)
{
	sigset_t all, old;
	int p[2];
	pid_t pid;

	e->output = NULL;
	e->len = 0;
	e->cap = 0;
	e->timed_out = false;
	e->stopping = false;
	e->fd = -1;
	e->start = pa_now_ms();
	e->deadline = e->start + e->timeout_ms;
	append(e, "", 0);
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(NULL);
	/* vfork(): a fork() of the runner copies its page tables and then
	 * tears them down at the exec, a third of the runner's CPU in a
	 * default matrix (perf record); signals wait until the child has
	 * set its handlers to the default */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0)
		exec_child(e, p[1], &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	setpgid(pid, pid);
	close(p[1]);
	e->pid = pid;
	e->fd = p[0];
	fcntl(e->fd, F_SETFL, O_NONBLOCK);
	return 0;
}

bool pa_exec_pump(struct pa_exec *e)
{
	char buf[4096];
	ssize_t n;

	if (pa_now_ms() >= e->deadline) {
		e->timed_out = !e->stopping;
		kill(-e->pid, SIGKILL);
		return true;
	}
	if (pa_exec_stop && *pa_exec_stop && !e->stopping) {
		/* the case's supervisor restores what its body changed */
		e->stopping = true;
		kill(e->pid, SIGTERM);
		e->deadline = pa_now_ms() + 5000;
	}
	while ((n = read(e->fd, buf, sizeof(buf))) > 0)
		append(e, buf, (size_t)n);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return true;
	return false;
}

void pa_exec_finish(struct pa_exec *e)
{
	close(e->fd);
	e->fd = -1;
	while (waitpid(e->pid, &e->status, 0) < 0 && errno == EINTR)
		;
	kill(-e->pid, SIGKILL);	/* nothing of the case's group outlives it */
	e->duration_ms = pa_now_ms() - e->start;
}

void pa_exec_wait_any(struct pa_exec *const *e, int n)
{
	struct pollfd pfd[64];
	long wait = 1000, now = pa_now_ms();

	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		pfd[i] = (struct pollfd){ .fd = e[i]->fd, .events = POLLIN };
		if (e[i]->deadline - now < wait)
			wait = e[i]->deadline - now;
	}
	if (pa_exec_stop && *pa_exec_stop && wait > 50)
		wait = 50;
	if (n && wait > 0)
		poll(pfd, (nfds_t)n, (int)wait);
}

int pa_exec(struct pa_exec *e)
{
	if (pa_exec_start(e))
		return -1;
	for (;;) {
		struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
		long left = e->deadline - pa_now_ms();

		if (left > 0 && !(pa_exec_stop && *pa_exec_stop && !e->stopping))
			poll(&pfd, 1, (int)left);
		if (pa_exec_pump(e))
			break;
	}
	pa_exec_finish(e);
	return 0;
}
