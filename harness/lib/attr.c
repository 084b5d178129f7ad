// SPDX-License-Identifier: GPL-2.0
/* Helpers for the attr/ cases (single-bit flags of perf_event_attr). */
#include "perfabi.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U	/* 6.3: an executable memfd where vm.memfd_noexec asks */
#endif

/*
 * A private copy of the fixture in a memfd, or -1. Two processes that exec
 * one file share its page cache, and the kernel maps the pages around a
 * faulting one only where it gets their lock at once (filemap_map_pages()):
 * an exec'd fixture's start-up faults moved by one or two while another
 * case exec'd the same file (79 of 6,000 runs of two such loops side by
 * side on 2 CPUs, none of 6,000 with a memfd copy each). The copy is
 * exec'd alone, so its start-up faults are the same from run to run.
 */
static int fixture_copy(const char *path)
{
	char buf[65536];
	ssize_t n;
	int src, fd;

	src = open(path, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return -1;
	fd = memfd_create("perfabi-fixture", MFD_CLOEXEC | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)	/* before 6.3 */
		fd = memfd_create("perfabi-fixture", MFD_CLOEXEC);
	while (fd >= 0 && (n = read(src, buf, sizeof(buf))) != 0) {
		if (n < 0 || write(fd, buf, (size_t)n) != n) {
			close(fd);
			fd = -1;
		}
	}
	close(src);
	return fd;
}

pid_t pa_exec_child_start(int *go_fd, int pages, const char *name,
			  const char *arg)
{
	const char *path = pa_fixture(name);
	int p[2], copy = fixture_copy(path);
	pid_t pid;
	char c;

	if (pipe(p)) {
		pa_fail("pipe: %s", pa_errno_name(errno));
		pa_abort();
	}
	pid = fork();
	if (pid < 0) {
		pa_fail("fork: %s", pa_errno_name(errno));
		pa_abort();
	}
	if (pid == 0) {
		char *argv[] = { (char *)name, (char *)arg, NULL };

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(126);
		close(p[0]);
		if (pages > 0)
			pa_touch_pages(pages);
		/* the copy, else (no memfd, or vm.memfd_noexec refuses to
		 * exec one) the file itself */
		if (copy >= 0)
			syscall(SYS_execveat, copy, "", argv, environ, AT_EMPTY_PATH);
		execv(path, argv);
		_exit(127);
	}
	if (copy >= 0)
		close(copy);
	close(p[0]);
	*go_fd = p[1];
	return pid;
}

pid_t pa_blocked_cat_start(int *go_fd, int *in_fd, int pages)
{
	int go[2], in[2];
	pid_t pid;

	if (access("/bin/cat", X_OK))
		pa_skip("/bin/cat is not there to exec");
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(in));
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		char c;

		close(go[1]);
		close(in[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		if (pages > 0)
			pa_touch_pages(pages);
		dup2(in[0], 0);
		if (null >= 0)
			dup2(null, 1);
		execl("/bin/cat", "cat", (char *)NULL);
		_exit(3);
	}
	close(go[0]);
	close(in[0]);
	*go_fd = go[1];
	*in_fd = in[1];
	return pid;
}

void pa_blocked_cat_go(pid_t pid, int go_fd)
{
	ASSERT_EQ(write(go_fd, "g", 1), 1);
	pa_wait_task_sleeps(pid, "cat", "the child did not exec cat and block");
}

int pa_exec_child_go(pid_t pid, int go_fd)
{
	int status;
	char c = 'g';

	if (write(go_fd, &c, 1) != 1) {
		pa_fail("write to child %d: %s", (int)pid, pa_errno_name(errno));
		return -1;
	}
	close(go_fd);
	if (waitpid(pid, &status, 0) != pid) {
		pa_fail("waitpid: %s", pa_errno_name(errno));
		return -1;
	}
	if (!WIFEXITED(status)) {
		pa_fail("child %d did not exit (status 0x%x)", (int)pid, status);
		return -1;
	}
	if (WEXITSTATUS(status) >= 126)
		pa_fail("child %d: exec of the fixture failed (exit %d)",
			(int)pid, WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

void pa_kernel_faults(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)pages * (size_t)psz;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (p == MAP_FAILED || fd < 0) {
		pa_fail("mmap/open /dev/zero: %s", pa_errno_name(errno));
		pa_abort();
	}
	madvise(p, len, MADV_NOHUGEPAGE);	/* one fault per page, THP or not */
	if (read(fd, p, len) != (ssize_t)len) {
		pa_fail("read of /dev/zero into %d fresh pages: %s", pages,
			pa_errno_name(errno));
		pa_abort();
	}
	close(fd);
	munmap(p, len);
}

void pa_flag_word_set(struct perf_event_attr *attr, int bit)
{
	uint64_t w;

	memcpy(&w, (char *)attr + 40, sizeof(w));
	w |= 1ULL << bit;
	memcpy((char *)attr + 40, &w, sizeof(w));
}

/*
 * Where a stable branch took a mainline change: the first release of the
 * branch that has it, or -1 where the release (or whether the branch took
 * it at all) is not known here. A branch not listed ended before the
 * change: it has the old behaviour, as every release before mainline's.
 */
struct pa_branch_fix {
	int major, minor, first_patch;
};

static int since_by_branch(const char *mainline, const struct pa_branch_fix *t,
			   size_t n, const char *what)
{
	struct pa_kver k = pa_kernel(), m;
	char v[32];

	pa_kver_parse(mainline, &m);
	if (pa_kver_cmp(k, m) >= 0)
		return pa_since(mainline, what);
	for (size_t i = 0; i < n; i++) {
		if (t[i].major != k.major || t[i].minor != k.minor)
			continue;
		if (t[i].first_patch < 0)
			return -1;
		snprintf(v, sizeof(v), "%d.%d.%d", k.major, k.minor, t[i].first_patch);
		return pa_since(v, what);
	}
	/* a branch that ended before the change was backported */
	return pa_since(mainline, what);
}

/*
 * "perf/core: Prevent VMA split of buffer mappings" (b024d7b56c77, mainline
 * 6.17; stable 6.12.63 and 6.1.158; other branches not known here).
 */
int pa_since_vma_split_refused(void)
{
	static const struct pa_branch_fix t[] = {
		{ 6, 12, 63 }, { 6, 1, 158 },
		{ 6, 6, -1 }, { 5, 15, -1 }, { 5, 10, -1 },
	};

	return since_by_branch("6.17", t, sizeof(t) / sizeof(t[0]),
			       "a ring mapping cannot be split (perf_mmap_may_split())");
}

/*
 * "perf: Require kernel access for text poke events": mainline 357e8a77a501
 * (v7.3-rc6), queued for every stable branch from 5.10 to 7.2 in October
 * 2026: 7.2.10 and 6.18.56 (their -rc1 pushes), 6.12.113 (Debian's
 * changelog); the 6.6, 6.1, 5.15 and 5.10 release numbers are not known.
 */
int pa_since_kernel_access_text_poke(void)
{
	static const struct pa_branch_fix t[] = {
		{ 7, 2, 10 }, { 6, 18, 56 }, { 6, 12, 113 },
		{ 6, 6, -1 }, { 6, 1, -1 }, { 5, 15, -1 }, { 5, 10, -1 },
	};

	return since_by_branch("7.3", t, sizeof(t) / sizeof(t[0]),
			       "attr.text_poke needs perf_allow_kernel()");
}

/*
 * "perf/core: Check kernel access when kernel callchains are requested":
 * mainline a4573a3838ae (v7.3 merge window), stable 7.2.10, 6.18.56 and
 * 6.12.113 only; not queued for 6.6, 6.1, 5.15 or 5.10 (as of the October
 * 2026 stable queue), so a later adapted backport there is not known here.
 */
int pa_since_kernel_access_callchain(void)
{
	static const struct pa_branch_fix t[] = {
		{ 7, 2, 10 }, { 6, 18, 56 }, { 6, 12, 113 },
		{ 6, 6, -1 }, { 6, 1, -1 }, { 5, 15, -1 }, { 5, 10, -1 },
	};

	return since_by_branch("7.3", t, sizeof(t) / sizeof(t[0]),
			       "kernel callchains (PERF_SAMPLE_CALLCHAIN without "
			       "exclude_callchain_kernel) need perf_allow_kernel()");
}
