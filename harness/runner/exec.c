// SPDX-License-Identifier: GPL-2.0
#include "exec.h"
#include "runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void append(struct pa_exec *e, size_t *cap, const char *buf, size_t n)
{
	if (e->len + n + 1 > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 8192);
		char *p;

		while (ncap < e->len + n + 1)
			ncap *= 2;
		p = realloc(e->output, ncap);
		if (!p)
			return;		/* keep what we have */
		e->output = p;
		*cap = ncap;
	}
	memcpy(e->output + e->len, buf, n);
	e->len += n;
	e->output[e->len] = 0;
}

volatile sig_atomic_t *pa_exec_stop;

int pa_exec(struct pa_exec *e)
{
	bool stopping = false;

	int p[2];
	pid_t pid;
	long start = now_ms(), deadline = start + e->timeout_ms;
	size_t cap = 0;

	e->output = NULL;
	e->len = 0;
	e->timed_out = false;
	append(e, &cap, "", 0);
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		if (e->setup && e->setup(e->setup_arg)) {
			printf("perfabi-run: could not set up the identity for %s\n", e->path);
			_exit(127);
		}
		execl(e->path, e->path, e->arg, (char *)NULL);
		printf("perfabi-run: cannot execute %s: %s\n", e->path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long left = deadline - now_ms();
		char buf[4096];
		ssize_t n;

		if (left <= 0) {
			e->timed_out = !stopping;
			kill(-pid, SIGKILL);
			break;
		}
		if (pa_exec_stop && *pa_exec_stop && !stopping) {
			/* the case's supervisor restores what its body changed */
			stopping = true;
			kill(pid, SIGTERM);
			deadline = now_ms() + 5000;
			continue;
		}
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		n = read(p[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		append(e, &cap, buf, (size_t)n);
	}
	close(p[0]);
	while (waitpid(pid, &e->status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);	/* nothing of the case's group outlives it */
	e->duration_ms = now_ms() - start;
	return 0;
}
