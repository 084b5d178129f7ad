// SPDX-License-Identifier: GPL-2.0
/*
 * harness/lib/cgroup.c as root: a fresh cgroup is made (a killed run's
 * empty leftovers removed first) and removed again; without a perf_event
 * hierarchy (hidden in a private mount namespace) it is a skip, or a
 * private cgroup2 mount that is undone too.
 */
#include "unit.h"

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define PREFIX "pa-unit-cg-"

/* The outcome of pa_cgroup_new() is the kernel's: a cgroup with
 * perf_event state (0) or a skip that says why there is none (4). */
static void new_cgroup_outcome(const struct child *c)
{
	if (c->code == PA_SKIP)
		assert_true(strstr(c->st.skip_reason, "perf_event") ||
			    strstr(c->st.skip_reason, "cgroup"));
	else
		assert_int_equal(c->code, 0);
}

struct nr {
	char stale[2048];	/* a leftover made before */
	char own[2048];		/* this task's cgroup, to go back to */
};

static void do_new_and_remove(void *p)
{
	struct nr *a = p;
	struct pa_cgroup cg, back;

	pa_cgroup_new(&cg, PREFIX, false);
	printf("stale gone %d\n", access(a->stale, F_OK) != 0);
	printf("enter %d\n", pa_cgroup_enter(&cg, getpid()));
	/* back where it was, so the cgroup is empty and can go */
	back = cg;
	snprintf(back.dir, sizeof(back.dir), "%s", a->own);
	printf("back %d\n", pa_cgroup_enter(&back, getpid()));
	pa_cgroup_remove(&cg);
	printf("removed %d\n", access(cg.dir, F_OK) != 0 && !cg.dir[0]);
}

static void leftovers_are_removed(void **state)
{
	char root[2048];
	struct nr a;
	struct child c;

	(void)state;
	if (geteuid() != 0 || !pa_perf_cgroup(root, sizeof(root), a.own, sizeof(a.own)))
		skip();
	/* a killed run's empty cgroup: removed by the next pa_cgroup_new() */
	snprintf(a.stale, sizeof(a.stale), "%s/" PREFIX "stale%d", root, (int)getpid());
	if (mkdir(a.stale, 0755))
		skip();
	run_child(&c, do_new_and_remove, &a);
	new_cgroup_outcome(&c);
	assert_int_equal(access(a.stale, F_OK), -1);
	if (c.code == 0) {
		assert_non_null(strstr(c.out, "stale gone 1\n"));
		assert_non_null(strstr(c.out, "enter 0\nback 0\nremoved 1\n"));
	}
	rmdir(a.stale);
}

/* Hide every cgroup hierarchy in a private mount namespace. */
static bool hide_cgroups(void)
{
	char line[4096], mnt[2048], fstype[64];
	FILE *f;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return false;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (dash && sscanf(line, "%*s %*s %*s %*s %2047s", mnt) == 1 &&
		    sscanf(dash + 3, "%63s", fstype) == 1 &&
		    (!strcmp(fstype, "cgroup") || !strcmp(fstype, "cgroup2")))
			umount2(mnt, MNT_DETACH);
	}
	fclose(f);
	return true;
}

static void do_without_hierarchy(void *p)
{
	bool mount_if_missing = *(bool *)p;
	char root[2048], own[2048];
	struct pa_cgroup cg;

	if (!hide_cgroups())
		exit(97);
	printf("found %d\n", pa_perf_cgroup(root, sizeof(root), own, sizeof(own)));
	pa_cgroup_new(&cg, PREFIX, mount_if_missing);
	printf("tmp %s\n", cg.tmp);
	pa_cgroup_remove(&cg);
	printf("tmp gone %d\n", access(cg.tmp, F_OK) != 0 && !cg.tmp[0]);
}

static void without_a_hierarchy(void **state)
{
	bool mount_if_missing = false;
	struct child c;

	(void)state;
	if (geteuid() != 0)
		skip();
	run_child(&c, do_without_hierarchy, &mount_if_missing);
	if (c.code == 97)
		skip();	/* no mount namespaces */
	assert_non_null(strstr(c.out, "found 0\n"));
	assert_int_equal(c.code, PA_SKIP);
	assert_string_equal(c.st.skip_reason,
			    "no cgroup hierarchy with the perf_event controller is mounted");
	/* a private cgroup2 mount, undone with the cgroup */
	mount_if_missing = true;
	run_child(&c, do_without_hierarchy, &mount_if_missing);
	new_cgroup_outcome(&c);
	if (c.code == 0) {
		assert_non_null(strstr(c.out, "tmp /tmp/pa-cgroup2-"));
		assert_non_null(strstr(c.out, "tmp gone 1\n"));
	}
}

static void do_uncreatable(void *p)
{
	struct pa_cgroup cg;

	(void)p;
	pa_cgroup_new(&cg, "perfabi-no-such-dir/" PREFIX, false);
	printf("not reached\n");
}

static void a_cgroup_that_cannot_be_made_skips(void **state)
{
	char root[2048], own[2048], want[2200];
	struct child c;

	(void)state;
	if (geteuid() != 0 || !pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		skip();
	run_child(&c, do_uncreatable, NULL);
	assert_int_equal(c.code, PA_SKIP);
	snprintf(want, sizeof(want), "cannot create a cgroup in %s: ENOENT", root);
	assert_string_equal(c.st.skip_reason, want);
}

static void enter_a_missing_cgroup(void **state)
{
	struct pa_cgroup cg;

	(void)state;
	memset(&cg, 0, sizeof(cg));
	snprintf(cg.dir, sizeof(cg.dir), "/nonexistent-perfabi/cg");
	errno = 0;
	assert_int_equal(pa_cgroup_enter(&cg, getpid()), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(leftovers_are_removed),
		cmocka_unit_test(without_a_hierarchy),
		cmocka_unit_test(a_cgroup_that_cannot_be_made_skips),
		cmocka_unit_test(enter_a_missing_cgroup),
	};
	return cmocka_run_group_tests_name("cgroup", tests, NULL, NULL);
}
