// SPDX-License-Identifier: GPL-2.0
/* The paranoid journal that survives SIGKILL, the saved perf sysctls, and
 * the identity switch. */
#include "unit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[64];
static int set_calls, set_value, set_fail;

static int fake_set(int level)
{
	set_calls++;
	set_value = level;
	return set_fail ? -1 : 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/perfabi-unit-XXXXXX");
	assert_non_null(mkdtemp(dir));
	set_calls = set_value = set_fail = 0;
	return 0;
}

static int teardown(void **state)
{
	char p[128];

	(void)state;
	snprintf(p, sizeof(p), "%s/journal", dir);
	unlink(p);
	rmdir(dir);
	return 0;
}

static void no_journal_nothing_restored(void **state)
{
	(void)state;
	assert_int_equal(pa_journal_replay(dir, fake_set), PA_NO_LEVEL);
	assert_int_equal(set_calls, 0);
}

static void journal_restores_once(void **state)
{
	char p[128];
	struct stat st;

	(void)state;
	assert_int_equal(pa_journal_write(dir, 2), 0);
	assert_int_equal(pa_journal_write(dir, -1), 0);	/* last write wins */
	assert_int_equal(pa_journal_replay(dir, fake_set), -1);
	assert_int_equal(set_value, -1);
	snprintf(p, sizeof(p), "%s/journal", dir);
	assert_int_equal(stat(p, &st), -1);		/* consumed */
	assert_int_equal(pa_journal_replay(dir, fake_set), PA_NO_LEVEL);
	assert_int_equal(set_calls, 1);
}

/* A fake /proc/sys: dir/proc/kernel/<name> files. */
static void put(const char *name, const char *value)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/proc/kernel", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/kernel/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static const char *get(const char *name)
{
	static char buf[64];
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/proc/kernel/%s", dir, name);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static void sysctls_put_back_what_changed(void **state)
{
	char proc[128], note[512], p[256];
	struct stat st;

	(void)state;
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	mkdir(proc, 0755);
	put("perf_event_max_sample_rate", "100000");
	put("perf_event_mlock_kb", "516");
	assert_int_equal(pa_sysctls_save(proc, dir), 0);
	/* nothing changed: nothing restored, the file is dropped */
	assert_int_equal(pa_sysctls_restore(proc, dir, note, sizeof(note)), 0);
	assert_string_equal(note, "");
	snprintf(p, sizeof(p), "%s/sysctls", dir);
	assert_int_equal(stat(p, &st), -1);

	assert_int_equal(pa_sysctls_save(proc, dir), 0);
	put("perf_event_max_sample_rate", "25000");	/* the kernel lowered it */
	assert_int_equal(pa_sysctls_restore(proc, dir, note, sizeof(note)), 1);
	assert_string_equal(get("perf_event_max_sample_rate"), "100000");
	assert_string_equal(get("perf_event_mlock_kb"), "516");
	assert_non_null(strstr(note, "kernel/perf_event_max_sample_rate was 25000, restored it to 100000"));
	/* no saved file (no earlier run): nothing to do */
	assert_int_equal(pa_sysctls_restore(proc, dir, note, sizeof(note)), 0);
	unlink(p);
	snprintf(p, sizeof(p), "%s/proc/kernel/perf_event_max_sample_rate", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/proc/kernel/perf_event_mlock_kb", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/proc/kernel", dir);
	rmdir(p);
	rmdir(proc);
}

static void failed_restore_keeps_journal(void **state)
{
	(void)state;
	assert_int_equal(pa_journal_write(dir, 3), 0);
	set_fail = 1;
	assert_int_equal(pa_journal_replay(dir, fake_set), PA_NO_LEVEL);
	set_fail = 0;
	assert_int_equal(pa_journal_replay(dir, fake_set), 3);	/* still there */
}

static void journal_in_missing_dir_fails(void **state)
{
	(void)state;
	assert_int_equal(pa_journal_write("/nonexistent/perfabi", 2), -1);
}

/* In a child: become `name` and report uid and effective caps. */
static void become_reports(const char *name, uid_t want_uid, uint64_t want_caps)
{
	pid_t pid;
	int st;

	if (geteuid() != 0) {
		skip();
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (pa_identity_become(pa_identity_find(name)))
			_exit(10);
		if (getuid() != want_uid || geteuid() != want_uid || getgid() != 65534)
			_exit(11);
		if (pa_caps_effective() != want_caps)
			_exit(12);
		if (getgroups(0, NULL) != 0)
			_exit(13);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void become_user(void **state)
{
	(void)state;
	become_reports("user", 65534, 0);
}

static void become_perfmon(void **state)
{
	(void)state;
	become_reports("perfmon", 65534, PA_CAP(PA_CAP_PERFMON));
}

static void become_sysadmin(void **state)
{
	(void)state;
	become_reports("sysadmin", 65534, PA_CAP(PA_CAP_SYS_ADMIN));
}

/* The ambient set carries the capability across execve. */
static void perfmon_survives_exec(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	if (geteuid() != 0) {
		skip();
		return;
	}
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		if (pa_identity_become(pa_identity_find("perfmon")))
			_exit(10);
		dup2(devnull, 1);
		/* grep exits 0 when CapEff shows exactly CAP_PERFMON (bit 38) */
		execl("/bin/grep", "grep", "-q", "^CapEff:.*0000004000000000$",
		      "/proc/self/status", (char *)NULL);
		_exit(11);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(no_journal_nothing_restored, setup, teardown),
		cmocka_unit_test_setup_teardown(journal_restores_once, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_restore_keeps_journal, setup, teardown),
		cmocka_unit_test(journal_in_missing_dir_fails),
		cmocka_unit_test_setup_teardown(sysctls_put_back_what_changed, setup, teardown),
		cmocka_unit_test(become_user),
		cmocka_unit_test(become_perfmon),
		cmocka_unit_test(become_sysadmin),
		cmocka_unit_test(perfmon_survives_exec),
	};
	return cmocka_run_group_tests_name("journal+identity", tests, NULL, NULL);
}
