/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFABI_EXEC_H
#define PERFABI_EXEC_H
#include <sys/types.h>
#include <sys/wait.h>
#include <stdbool.h>

/* Run one binary with stdout+stderr captured, in its own process group,
 * killed with the group at the deadline. */
struct pa_exec {
	const char *path;
	const char *arg;		/* one optional argument */
	long timeout_ms;
	/* called in the child before exec (identity switch); non-zero aborts */
	int (*setup)(void *arg);
	void *setup_arg;
	/* results */
	char *output;			/* malloc'd, NUL-terminated */
	size_t len;
	int status;			/* waitpid status */
	bool timed_out;
	long duration_ms;
	/* while it runs (pa_exec_start .. pa_exec_finish) */
	pid_t pid;
	int fd;				/* the read end of its output */
	long start, deadline;
	size_t cap;
	bool stopping;
};
int pa_exec(struct pa_exec *e);
/* CLOCK_MONOTONIC in milliseconds. */
long pa_now_ms(void);
/* The same in steps, for several at once: start it; pump() reads what is
 * there (after poll() said so, or its deadline passed) and returns true
 * once the output is closed or the deadline killed it; finish() reaps. */
int pa_exec_start(struct pa_exec *e);
bool pa_exec_pump(struct pa_exec *e);
void pa_exec_finish(struct pa_exec *e);
/* Wait, at most 1 s, until one of the n started ones has output or has
 * reached its deadline (50 ms at most once *pa_exec_stop is set, so that
 * pump() passes the stop on); the caller then pumps each. */
void pa_exec_wait_any(struct pa_exec *const *e, int n);
/* When *pa_exec_stop becomes non-zero, the running case gets SIGTERM. */
#include <signal.h>
extern volatile sig_atomic_t *pa_exec_stop;
#endif
