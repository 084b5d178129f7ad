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
};
int pa_exec(struct pa_exec *e);
/* When *pa_exec_stop becomes non-zero, the running case gets SIGTERM. */
#include <signal.h>
extern volatile sig_atomic_t *pa_exec_stop;
#endif
