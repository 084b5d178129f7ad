// SPDX-License-Identifier: GPL-2.0
/*
 * The version gates of the library (pa_since_*()): for a kernel version
 * given in $PERFABI_KERNEL_VERSION, the variant each one decides. pa_kernel()
 * caches its answer per process, so every version is asked in a child of
 * its own, and this process never asks.
 */
#include "unit.h"

enum gate {
	G_UPROBE_SYS_ADMIN, G_AUX_ACTION, G_SET_OUTPUT, G_VMA_SPLIT,
	G_TEXT_POKE, G_CALLCHAIN, G_ATTR_SIZE, G_PROBE_PRIV_PERFMON,
	G_OTHER_USER_PERFMON, G_UPROBE_NEED_PERFMON,
};

struct ask {
	enum gate g;
	const char *version;
};

static void do_ask(void *p)
{
	struct ask *a = p;
	int v = -9;

	setenv("PERFABI_KERNEL_VERSION", a->version, 1);
	switch (a->g) {
	case G_UPROBE_SYS_ADMIN: v = pa_since_uprobe_sys_admin(); break;
	case G_AUX_ACTION: v = pa_since_aux_action(); break;
	case G_SET_OUTPUT: v = pa_since_set_output_same_task(); break;
	case G_VMA_SPLIT: v = pa_since_vma_split_refused(); break;
	case G_TEXT_POKE: v = pa_since_kernel_access_text_poke(); break;
	case G_CALLCHAIN: v = pa_since_kernel_access_callchain(); break;
	case G_ATTR_SIZE: v = (int)pa_kernel_attr_size(); break;
	case G_PROBE_PRIV_PERFMON:
		if (set_effective_caps(PA_CAP(PA_CAP_PERFMON)))
			exit(98);
		v = pa_probe_priv() != NULL;
		break;
	case G_OTHER_USER_PERFMON:
		if (set_effective_caps(PA_CAP(PA_CAP_PERFMON)))
			exit(98);
		v = pa_expected_errno(PA_NEED_OTHER_USER_TASK);
		break;
	case G_UPROBE_NEED_PERFMON:
		if (set_effective_caps(PA_CAP(PA_CAP_PERFMON)))
			exit(98);
		v = pa_expected_errno(PA_NEED_UPROBE_PMU);
		break;
	}
	printf("answer %d\n", v);
}

static int ask(enum gate g, const char *version, struct child *c)
{
	struct ask a = { g, version };
	int v = -99;
	const char *p;

	run_child(c, do_ask, &a);
	assert_int_equal(c->code, 0);
	p = strstr(c->out, "answer ");
	assert_non_null(p);
	sscanf(p, "answer %d", &v);
	return v;
}

static void uprobe_needs_sys_admin_by_branch(void **state)
{
	static const struct { const char *v; int want; } t[] = {
		{ "6.15.6", 0 }, { "6.15.7", 1 }, { "6.12.38", 0 }, { "6.12.39", 1 },
		{ "6.6.98", 0 }, { "6.6.99", 1 }, { "6.1.145", 0 }, { "6.1.146", 1 },
		{ "6.14.11", 0 }, { "6.16", 1 }, { "5.10.240", 0 },
	};
	struct child c;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(ask(G_UPROBE_SYS_ADMIN, t[i].v, &c), t[i].want);
	/* the diagnostic names the variant and the version */
	ask(G_UPROBE_SYS_ADMIN, "6.12.38", &c);
	assert_non_null(strstr(c.out, "# kernel 6.12.38: expecting the old behaviour, before 6.12.39: uprobe PMU needs CAP_SYS_ADMIN"));
	assert_non_null(strstr(c.st.variant, "old behaviour (before 6.12.39)"));
}

static void aux_action_and_set_output(void **state)
{
	struct child c;

	(void)state;
	assert_int_equal(ask(G_AUX_ACTION, "6.12.23", &c), 0);
	assert_int_equal(ask(G_AUX_ACTION, "6.12.24", &c), 1);
	assert_int_equal(ask(G_AUX_ACTION, "6.13", &c), 1);
	assert_int_equal(ask(G_AUX_ACTION, "6.1.150", &c), 0);
	assert_int_equal(ask(G_SET_OUTPUT, "6.1.23", &c), 0);
	assert_int_equal(ask(G_SET_OUTPUT, "6.1.24", &c), 1);
	assert_int_equal(ask(G_SET_OUTPUT, "5.15.107", &c), 1);
	assert_int_equal(ask(G_SET_OUTPUT, "6.2.10", &c), 0);
	assert_int_equal(ask(G_SET_OUTPUT, "6.3", &c), 1);
	assert_int_equal(ask(G_SET_OUTPUT, "5.19.17", &c), 0);
}

static void branch_tables(void **state)
{
	struct child c;

	(void)state;
	/* mainline, a listed branch before and at its release, a branch
	 * whose release is not known (-1), a branch not listed */
	assert_int_equal(ask(G_VMA_SPLIT, "6.17", &c), 1);
	assert_int_equal(ask(G_VMA_SPLIT, "6.12.62", &c), 0);
	assert_int_equal(ask(G_VMA_SPLIT, "6.12.63", &c), 1);
	assert_int_equal(ask(G_VMA_SPLIT, "6.1.158", &c), 1);
	assert_int_equal(ask(G_VMA_SPLIT, "6.6.100", &c), -1);
	assert_int_equal(ask(G_VMA_SPLIT, "6.10.14", &c), 0);
	assert_int_equal(ask(G_TEXT_POKE, "6.18.56", &c), 1);
	assert_int_equal(ask(G_TEXT_POKE, "6.18.55", &c), 0);
	assert_int_equal(ask(G_TEXT_POKE, "5.15.190", &c), -1);
	assert_int_equal(ask(G_CALLCHAIN, "7.3", &c), 1);
	assert_int_equal(ask(G_CALLCHAIN, "6.12.113", &c), 1);
	assert_int_equal(ask(G_CALLCHAIN, "6.1.160", &c), -1);
}

static void attr_size_by_version(void **state)
{
	struct child c;

	(void)state;
	assert_int_equal(ask(G_ATTR_SIZE, "6.19", &c), PERF_ATTR_SIZE_VER9);
	assert_int_equal(ask(G_ATTR_SIZE, "6.12.40", &c), PERF_ATTR_SIZE_VER8);
	assert_int_equal(ask(G_ATTR_SIZE, "5.10.1", &c), PERF_ATTR_SIZE_VER6);
	assert_int_equal(ask(G_ATTR_SIZE, "2.6.32", &c), PERF_ATTR_SIZE_VER0);
}

static void perfmon_identity_by_version(void **state)
{
	struct child c;

	(void)state;
	/* root, to set the capabilities; above 2 a Debian kernel refuses
	 * everything without CAP_SYS_ADMIN, whatever the version */
	if (geteuid() != 0 || pa_paranoid() > 2)
		skip();
	/* CAP_PERFMON alone means nothing before 5.8 */
	assert_int_equal(ask(G_PROBE_PRIV_PERFMON, "5.7.19", &c), 1);
	assert_int_equal(ask(G_PROBE_PRIV_PERFMON, "5.8", &c), 0);
	/* it bypasses the ptrace check on another user's task since 5.9 */
	assert_int_equal(ask(G_OTHER_USER_PERFMON, "5.8.18", &c), EACCES);
	assert_int_equal(ask(G_OTHER_USER_PERFMON, "5.9", &c), 0);
	/* the uprobe PMU: CAP_PERFMON was enough until ba677dbe77af */
	assert_int_equal(ask(G_UPROBE_NEED_PERFMON, "6.12.38", &c), 0);
	assert_int_equal(ask(G_UPROBE_NEED_PERFMON, "6.12.39", &c), EACCES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uprobe_needs_sys_admin_by_branch),
		cmocka_unit_test(aux_action_and_set_output),
		cmocka_unit_test(branch_tables),
		cmocka_unit_test(attr_size_by_version),
		cmocka_unit_test(perfmon_identity_by_version),
	};
	return cmocka_run_group_tests_name("since", tests, NULL, NULL);
}
