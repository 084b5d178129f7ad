/* SPDX-License-Identifier: GPL-2.0 */
/* Common includes for the cmocka unit tests of the harness and runner. */
#ifndef PERFABI_UNIT_H
#define PERFABI_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../../harness/runner/matrix.h"

/* Capture what a FILE-writing function prints. */
#define CAPTURE(buf, call) do {						\
	char *pa__p = NULL; size_t pa__n = 0;				\
	FILE *f = open_memstream(&pa__p, &pa__n);			\
	call;								\
	fclose(f);							\
	snprintf(buf, sizeof(buf), "%s", pa__p);			\
	free(pa__p);							\
} while (0)

/*
 * Run fn(arg), case-side library code that may end the process (pa_skip,
 * pa_abort), in a forked child with pa_state in shared memory: its exit
 * status (128 + signal when killed), stdout and pa_state come back. The
 * child exits through exit(), so coverage counts are written.
 */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct child {
	int code;
	char out[16384];
	struct pa_shared st;
};

static inline void run_child(struct child *r, void (*fn)(void *), void *arg)
{
	struct pa_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	size_t n = 0;
	ssize_t got;
	int p[2], status = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (sh == MAP_FAILED || pipe(p))
		abort();
	memset(sh, 0, sizeof(*sh));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 1);
		close(p[1]);
		pa_state = sh;
		fn(arg);
		fflush(NULL);
		exit(0);
	}
	close(p[1]);
	while (n < sizeof(r->out) - 1 &&
	       (got = read(p[0], r->out + n, sizeof(r->out) - 1 - n)) > 0)
		n += (size_t)got;
	r->out[n] = 0;
	close(p[0]);
	waitpid(pid, &status, 0);
	r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r->st = *sh;
	munmap(sh, sizeof(*sh));
}

/* Set the effective capability set to exactly caps (root only): 0 or -1. */
#include <sys/syscall.h>
#include <linux/capability.h>
static inline int set_effective_caps(uint64_t caps)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective = (uint32_t)caps;
	d[1].effective = (uint32_t)(caps >> 32);
	d[0].inheritable = d[1].inheritable = 0;
	return (int)syscall(SYS_capset, &h, d);
}
#endif
