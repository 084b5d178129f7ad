// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log around every case: a WARN, BUG, oops, KASAN/UBSAN report,
 * hung task, soft lockup or refcount_t warning logged while a case ran
 * means the kernel misbehaved under it, whatever the case concluded (a
 * WARN_ONCE that fired before leaves no new taint bit, so the taint check
 * alone misses it). /dev/kmsg hands out each record once per open file, so
 * the runner opens it at the start, skips what is already there and reads
 * what is new after each case.
 */
#include "runner.h"

#include <fcntl.h>

static const char *const trouble[] = {
	"WARNING:", "BUG:", "Oops", "KASAN", "UBSAN", "hung task",
	"soft lockup", "hard LOCKUP", "refcount_t", "general protection fault",
	"Kernel panic",
};

bool pa_kmsg_is_trouble(const char *msg)
{
	for (size_t i = 0; i < sizeof(trouble) / sizeof(trouble[0]); i++)
		if (strstr(msg, trouble[i]))
			return true;
	return false;
}

int pa_kmsg_open(char *why, size_t len)
{
	const char *path = getenv("PERFABI_KMSG");	/* tests: a file instead */
	int fd = open(path ? path : "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, len, "the kernel log is not readable (%s: %s): kernel warnings during a case are only seen through the taint flags",
			 path ? path : "/dev/kmsg", pa_errno_name(errno));
		return -1;
	}
	if (lseek(fd, 0, SEEK_END) < 0 && !path) {
		snprintf(why, len, "cannot skip to the end of /dev/kmsg (%s)", pa_errno_name(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Read the records logged since the last call; true when one is trouble,
 * its text (without the "prio,seq,time,flags;" prefix) in line.
 */
bool pa_kmsg_trouble(int fd, char *line, size_t len)
{
	char rec[4096];
	bool found = false;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)	/* records overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		/* one record per read from /dev/kmsg ("prio,seq,usec,flags;text"
		 * and " KEY=value" lines); a plain file (tests) gives several */
		for (char *l = rec, *nl; l && *l; l = nl) {
			char *msg = l, *semi;

			nl = strchr(l, '\n');
			if (nl)
				*nl++ = 0;
			semi = strchr(l, ';');
			if (semi && l[0] >= '0' && l[0] <= '9')
				msg = semi + 1;
			if (!found && pa_kmsg_is_trouble(msg)) {
				snprintf(line, len, "%s", msg);
				found = true;
			}
		}
	}
	return found;
}
