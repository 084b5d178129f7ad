// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's taint and log around every case. A new taint bit while a
 * case ran (a WARN, an oops, a bad page...) fails it. The kernel log: a WARN, BUG, oops, KASAN/UBSAN report,
 * hung task, soft lockup or refcount_t warning logged while a case ran
 * means the kernel misbehaved under it, whatever the case concluded (a
 * WARN_ONCE that fired before leaves no new taint bit, so the taint check
 * alone misses it). /dev/kmsg hands out each record once per open file, so
 * the runner opens it at the start, skips what is already there and reads
 * what is new after each case.
 */
#include "run.h"

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

/* /proc/sys/kernel/tainted, or 0 when unreadable. */
unsigned long pa_taint_read(void)
{
	long t = pa_sysctl_long("kernel/tainted");

	return t < 0 ? 0 : (unsigned long)t;
}

/* The letters of the taint bits (Documentation/admin-guide/tainted-kernels). */
static void taint_letters(unsigned long bits, char *buf, size_t len)
{
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t n = 0;

	for (int i = 0; letters[i] && n + 1 < len; i++)
		if (bits & (1UL << i))
			buf[n++] = letters[i];
	buf[n] = 0;
}

/* TAINT_TEST (N, bit 18): kselftest-style test modules, not trouble */
#define TAINT_IGNORED (1UL << 18)

bool pa_taint_grew(unsigned long before, unsigned long after)
{
	return after & ~before & ~TAINT_IGNORED;
}

/*
 * New taint bits while a case ran (a WARN, an oops, a bad page...): the
 * kernel misbehaved under the case, so the result is a failure whatever
 * the case itself concluded.
 */
void pa_taint_after_case(struct pa_result *r, unsigned long before, unsigned long after,
			 FILE *out, FILE *tap)
{
	char was[32], now[32];

	if (!pa_taint_grew(before, after))
		return;
	taint_letters(before, was, sizeof(was));
	taint_letters(after, now, sizeof(now));
	fprintf(out, "# the kernel became tainted while %s ran: %#lx (%s) -> %#lx (%s); see dmesg\n",
		r->name, before, was, after, now);
	if (tap)
		fprintf(tap, "# kernel taint %#lx -> %#lx while %s ran\n", before, after, r->name);
	if (r->outcome != PA_FAIL) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "kernel tainted %#lx -> %#lx (%s) while it ran",
			 before, after, now);
	}
}

/* A kernel-log line of trouble (WARN, BUG, oops...) while a case ran fails
 * it, as a new taint bit does. */
void pa_kmsg_after_case(int kmsg_fd, struct pa_result *r, FILE *out, FILE *tap)
{
	char line[256];

	if (!pa_kmsg_trouble(kmsg_fd, line, sizeof(line)))
		return;
	pa_ktap_sanitize(line);
	fprintf(out, "# the kernel logged while %s ran: %s\n", r->name, line);
	if (tap)
		fprintf(tap, "# kernel log while %s ran: %s\n", r->name, line);
	if (r->outcome != PA_FAIL) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "the kernel logged while it ran: %.200s", line);
	}
}
