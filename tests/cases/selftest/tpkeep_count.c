#include "perfabi.h"

#include <dirent.h>

/* Harness self-test (runner/tpkeep.c, tests/integration/tp_keep.sh): the
 * runner above this case holds $PERFABI_SELFTEST_KEPT perf events, and
 * pa_perf_held_elsewhere() does not count it as another perf user. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;
	int ppid = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

static bool is_runner(pid_t pid)
{
	char path[64], exe[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = 0;
	n = (ssize_t)strlen(exe);
	return n >= 11 && !strcmp(exe + n - 11, "perfabi-run");
}

PERFABI_CASE(.assertion = "selftest: the runner holds $PERFABI_SELFTEST_KEPT perf events", .root = true) {
	const char *want = getenv("PERFABI_SELFTEST_KEPT");
	pid_t pid = getpid();
	char path[64], link[64], fdpath[320], who[2048];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (!want)
		pa_skip("run by tests/integration/tp_keep.sh");
	while (pid > 1 && !is_runner(pid))
		pid = parent_of(pid);
	ASSERT_GT(pid, 1);
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	ASSERT_TRUE(d != NULL);
	while ((e = readdir(d))) {
		ssize_t k;

		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, e->d_name);
		k = readlink(fdpath, link, sizeof(link) - 1);
		if (k > 0) {
			link[k] = 0;
			n += !strcmp(link, "anon_inode:[perf_event]");
		}
	}
	closedir(d);
	pa_diag("the runner (pid %d) holds %d perf events", (int)pid, n);
	EXPECT_EQ(n, atoi(want));
	/* its kept tracepoints explain no busy breakpoint slot or counter */
	snprintf(fdpath, sizeof(fdpath), "pid %d (", (int)pid);
	pa_perf_held_elsewhere(who, sizeof(who));
	pa_diag("other perf users: %s", who[0] ? who : "none");
	EXPECT_TRUE(strstr(who, fdpath) == NULL);
}
