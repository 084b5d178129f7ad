// SPDX-License-Identifier: GPL-2.0
/* Helpers for the attr/ cases (single-bit flags of perf_event_attr). */
#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>

pid_t pa_exec_child_start(int *go_fd, int pages, const char *name,
			  const char *arg)
{
	const char *path = pa_fixture(name);
	int p[2];
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
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(126);
		close(p[0]);
		if (pages > 0)
			pa_touch_pages(pages);
		execl(path, name, arg, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
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

int pa_since_kernel_access_text_poke_callchain(void)
{
	struct pa_kver k = pa_kernel();

	/* "perf/core: Check kernel access when kernel callchains are
	 * requested" and "perf: Require kernel access for text poke events"
	 * arrived in stable 6.12.113 (Debian linux 6.12.113-1 changelog,
	 * ChangeLog-6.12.113). The mainline release and the other stable
	 * branches that carry them are not known here. */
	if (k.major == 6 && k.minor == 12)
		return pa_since("6.12.113", "attr.text_poke and kernel callchains "
				"(PERF_SAMPLE_CALLCHAIN without exclude_callchain_kernel) "
				"need perf_allow_kernel()");
	return -1;
}
