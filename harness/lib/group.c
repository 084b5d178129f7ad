// SPDX-License-Identifier: GPL-2.0
/* Helpers for the group/, flags/ and errno/ cases. */
#include "perfabi.h"

#include <sys/wait.h>

int pa_run_fixture(const char *name, const char *arg)
{
	const char *path = pa_fixture(name);
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		pa_fail("fork: %s", pa_errno_name(errno));
		return -1;
	}
	if (pid == 0) {
		execl(path, name, arg, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		pa_fail("waitpid: %s", pa_errno_name(errno));
		return -1;
	}
	if (!WIFEXITED(status)) {
		pa_fail("fixture %s did not exit (status 0x%x)", path, status);
		return -1;
	}
	if (WEXITSTATUS(status) == 127)
		pa_diag("fixture %s: exec failed (exit 127)", path);
	return WEXITSTATUS(status);
}

bool pa_since_set_output_same_task(void)
{
	static const struct { int major, minor; const char *since; } stable[] = {
		{ 6, 2, "6.2.11" }, { 6, 1, "6.1.24" }, { 5, 15, "5.15.107" },
		{ 5, 10, "5.10.178" }, { 5, 4, "5.4.241" }, { 4, 19, "4.19.281" },
	};
	const char *what = "perf_event_set_output() compares hw.target, not the "
			   "(not yet set) ctx: PERF_FLAG_FD_OUTPUT works between "
			   "per-task events at open";
	struct pa_kver k = pa_kernel();

	/* 24d3ae2f37d8 "perf/core: Fix the same task check in
	 * perf_event_set_output", upstream 6.3, in the stable releases of
	 * 13 and 20 April 2023. */
	for (size_t i = 0; i < sizeof(stable) / sizeof(stable[0]); i++)
		if (k.major == stable[i].major && k.minor == stable[i].minor)
			return pa_since(stable[i].since, what);
	return pa_since("6.3", what);
}
