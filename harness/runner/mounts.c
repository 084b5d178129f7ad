// SPDX-License-Identifier: GPL-2.0
/*
 * Filesystems the cases need that the host has not mounted (tracefs): the
 * runner mounts them in a private mount namespace of its own, so the cases
 * see them and the host's mount table is never touched. Nothing to restore:
 * the namespace goes away with the runner and its children, SIGKILL too.
 */
#include "runner.h"

#include <sched.h>
#include <sys/mount.h>

static const char tracing[] = "/sys/kernel/tracing";

int pa_private_mounts(char *note, size_t len)
{
	if (pa_tracefs() || geteuid() != 0)
		return 0;
	if (access(tracing, F_OK))
		return 0;	/* kernel without tracefs: cases skip */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		snprintf(note, len, "# tracefs is not mounted and no private mount namespace could be made (%s): tracepoint cases will skip",
			strerror(errno));
		return -1;
	}
	if (mount("tracefs", tracing, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		snprintf(note, len, "# tracefs is not mounted and mounting it at %s failed (%s): tracepoint cases will skip",
			tracing, strerror(errno));
		return -1;
	}
	snprintf(note, len, "# tracefs was not mounted: mounted at %s in the runner's private mount namespace (the host's mounts are untouched)",
		tracing);
	return 1;
}
