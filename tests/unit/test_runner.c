// SPDX-License-Identifier: GPL-2.0
/* perfabi-run: command line, selection, totals, JSON, the matrix plan. */
#include "unit.h"

#define ARGV(...) ((char *[]){ "perfabi-run", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(v[0]) - 1))

static int parse(int argc, char **argv, struct pa_opts *o, char *err)
{
	return pa_parse_opts(argc, argv, o, err, 256);
}

static void defaults(void **state)
{
	struct pa_opts o;
	char err[256];
	char *argv[] = { "perfabi-run", NULL };

	(void)state;
	assert_int_equal(parse(1, argv, &o, err), 0);
	assert_string_equal(o.results_dir, "results");
	assert_true(o.timeout_scale == 1.0);
	assert_int_equal(o.repeat, 1);
	assert_false(o.list);
	assert_int_equal(o.npatterns, 0);
}

static void options_and_patterns(void **state)
{
	struct pa_opts o;
	char err[256];
	char *v[] = { "perfabi-run", "-l", "--area", "open", "--results=/tmp/r", "read/*",
		      "--timeout-scale", "3", "--identity", "root,user",
		      "--paranoid=-1,2", "--matrix", "full", "--", "-odd-name", NULL };

	(void)state;
	assert_int_equal(parse(ARGC(v), v, &o, err), 0);
	assert_true(o.list);
	assert_int_equal(o.nareas, 1);
	assert_string_equal(o.areas[0], "open");
	assert_string_equal(o.results_dir, "/tmp/r");
	assert_int_equal(o.npatterns, 2);
	assert_string_equal(o.patterns[1], "-odd-name");
	assert_true(o.timeout_scale == 3.0);
	assert_string_equal(o.identities, "root,user");
	assert_string_equal(o.paranoids, "-1,2");
	assert_string_equal(o.matrix, "full");
}

static void bad_usage_is_reported(void **state)
{
	struct pa_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(2, ARGV("--bogus"), &o, err), -1);
	assert_string_equal(err, "unknown option '--bogus' (try --help)");
	assert_int_equal(parse(2, ARGV("--area"), &o, err), -1);
	assert_string_equal(err, "option '--area' needs an argument");
	assert_int_equal(parse(3, ARGV("--timeout-scale", "-1"), &o, err), -1);
	assert_int_equal(parse(3, ARGV("--timeout-scale", "2x"), &o, err), -1);
	assert_int_equal(parse(3, ARGV("--matrix", "most"), &o, err), -1);
	assert_string_equal(err, "bad --matrix 'most': default or full");
	assert_int_equal(parse(3, ARGV("--run-id", "../x"), &o, err), -1);
	assert_int_equal(parse(2, ARGV("--listing"), &o, err), -1);
	assert_int_equal(parse(3, ARGV("--repeat", "0"), &o, err), -1);
	assert_string_equal(err, "bad --repeat '0': a whole number from 1 to 100 is needed");
	assert_int_equal(parse(3, ARGV("--repeat", "101"), &o, err), -1);
}

static void selection(void **state)
{
	struct pa_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(3, ARGV("open/*", "read/enospc"), &o, err), 0);
	assert_true(pa_name_selected(&o, "open/pid"));
	assert_true(pa_name_selected(&o, "read/enospc"));
	assert_false(pa_name_selected(&o, "read/enospc_group"));
	assert_int_equal(parse(3, ARGV("-a", "read"), &o, err), 0);
	assert_true(pa_name_selected(&o, "read/x"));
	assert_false(pa_name_selected(&o, "reader/x"));
	assert_false(pa_name_selected(&o, "open/x"));
}

static void totals_line_is_plain(void **state)
{
	struct pa_counts c = { { 0 } };
	char out[256];

	(void)state;
	for (int i = 0; i < 40; i++)
		pa_count(&c, PA_PASS);
	pa_count(&c, PA_FAIL);
	pa_count(&c, PA_SKIP);
	pa_count(&c, PA_SKIP);
	pa_count(&c, PA_XFAIL);
	pa_count(&c, (enum pa_outcome)17);	/* ignored */
	CAPTURE(out, pa_print_totals(f, &c));
	assert_string_equal(out, "# totals: 40 pass, 1 fail, 2 skip, 1 xfail, 0 xpass\n"
				 "# 40 passed, 1 failed, 2 skipped\n");
}

static void json_escaping(void **state)
{
	char out[128];

	(void)state;
	CAPTURE(out, pa_json_str(f, "a\"b\\c\nd\te\x01"));
	assert_string_equal(out, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

static void levels_and_identities(void **state)
{
	int lv[8];
	const struct pa_identity *ids[4];
	char err[256];

	(void)state;
	assert_int_equal(pa_parse_levels("-1,0,1,2,3,4", lv, 8, err, sizeof(err)), 6);
	assert_int_equal(lv[0], -1);
	assert_int_equal(pa_parse_levels("5", lv, 8, err, sizeof(err)), -1);
	assert_int_equal(pa_parse_levels("1,,2", lv, 8, err, sizeof(err)), -1);
	assert_int_equal(pa_parse_levels("", lv, 8, err, sizeof(err)), -1);
	assert_int_equal(pa_parse_identities("user,perfmon", ids, 4, err, sizeof(err)), 2);
	assert_string_equal(ids[1]->name, "perfmon");
	assert_int_equal(ids[1]->caps, PA_CAP(PA_CAP_PERFMON));
	assert_int_equal(pa_parse_identities("admin", ids, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown identity 'admin': root, perfmon, sysadmin or user");
	assert_ptr_equal(pa_identity_current(0, 0), pa_identity_find("root"));
	assert_ptr_equal(pa_identity_current(65534, 0), pa_identity_find("user"));
	assert_ptr_equal(pa_identity_current(65534, PA_CAP(PA_CAP_SYS_ADMIN)), pa_identity_find("sysadmin"));
	assert_ptr_equal(pa_identity_current(1000, 0), pa_identity_find("user"));
	assert_null(pa_identity_current(1000, 3));
}

static struct pa_case_info two_cases[2] = {
	{ .name = "open/plain", .timeout = 10, .privileged = false },
	{ .name = "privilege/cpu_wide", .timeout = 10, .privileged = true },
};

static struct pa_context root_ctx(void)
{
	struct pa_context ctx = { .uid = 0, .caps = ~0ULL, .paranoid = 2 };
	return ctx;
}

static void default_plan(void **state)
{
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = root_ctx();
	char err[256];

	pa_plan_init(&p);
	(void)state;
	parse(1, (char *[]){ "x", NULL }, &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	/* plain: root and user at the current level; privileged: 4 x 6 */
	assert_int_equal(p.nplanned, 2 + 24);
	assert_string_equal(p.planned[0].name, "open/plain@root,paranoid=2");
	assert_string_equal(p.planned[1].name, "open/plain@user,paranoid=2");
	assert_string_equal(p.planned[2].name, "privilege/cpu_wide@root,paranoid=-1");
	assert_string_equal(p.planned[25].name, "privilege/cpu_wide@user,paranoid=4");
	for (int i = 0; i < p.nplanned; i++)
		assert_string_equal(p.planned[i].skip_reason, "");
	free(p.planned);
}

/* Debian's level 3 forbids unprivileged users everything: the plain cases
 * also run as user at the upstream default level 2, and the header says so */
static void restricting_level_adds_user_at_2(void **state)
{
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = root_ctx();
	char err[256];

	(void)state;
	ctx.paranoid = 3;
	ctx.restricts_all = true;
	pa_plan_init(&p);
	parse(1, (char *[]){ "x", NULL }, &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 3 + 24);
	assert_string_equal(p.planned[0].name, "open/plain@root,paranoid=3");
	assert_string_equal(p.planned[1].name, "open/plain@user,paranoid=3");
	assert_string_equal(p.planned[2].name, "open/plain@user,paranoid=2");
	assert_non_null(strstr(p.notes, "user also runs the plain cases at the upstream default level 2"));
	free(p.planned);
	/* a level 3 that forbids nothing (upstream treats it as 2), or a
	 * chosen matrix: no extra cell */
	ctx.restricts_all = false;
	pa_plan_init(&p);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 2 + 24);
	assert_string_equal(p.notes, "");
	free(p.planned);
	ctx.restricts_all = true;
	pa_plan_init(&p);
	parse(3, ARGV("--identity", "user"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 1 + 6);
	free(p.planned);
}

/* the start order under -j: one paranoid level's results together (the
 * machine's level first, as the plan reaches it), .alone ones after the
 * others of their level, identity by identity, destructive ones last;
 * -j1: plan order */
static void start_order(void **state)
{
	struct pa_case_info cs[4] = {
		{ .name = "a/plain", .timeout = 10 },
		{ .name = "b/alone", .timeout = 10, .alone = true },
		{ .name = "c/priv", .timeout = 10, .privileged = true },
		{ .name = "d/destructive", .timeout = 10, .destructive = true },
	};
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = root_ctx();
	char err[256];
	int order[64], seen[64] = { 0 };

	(void)state;
	pa_plan_init(&p);
	parse(1, (char *[]){ "x", NULL }, &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, cs, 4, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 2 + 2 + 24 + 2);
	pa_plan_order(&p, false, order);
	for (int i = 0; i < p.nplanned; i++)
		assert_int_equal(order[i], i);
	pa_plan_order(&p, true, order);
	for (int i = 0; i < p.nplanned; i++) {
		assert_true(order[i] >= 0 && order[i] < p.nplanned);
		assert_int_equal(seen[order[i]]++, 0);	/* each result once */
	}
	/* level 2 is where the plan starts (the plain cases); its results come
	 * first: the plain ones by identity, then the .alone ones */
	assert_string_equal(p.planned[order[0]].name, "a/plain@root,paranoid=2");
	assert_string_equal(p.planned[order[1]].name, "c/priv@root,paranoid=2");
	assert_string_equal(p.planned[order[2]].name, "c/priv@perfmon,paranoid=2");
	assert_string_equal(p.planned[order[3]].name, "c/priv@sysadmin,paranoid=2");
	assert_string_equal(p.planned[order[4]].name, "a/plain@user,paranoid=2");
	assert_string_equal(p.planned[order[5]].name, "c/priv@user,paranoid=2");
	assert_string_equal(p.planned[order[6]].name, "b/alone@root,paranoid=2");
	assert_string_equal(p.planned[order[7]].name, "b/alone@user,paranoid=2");
	/* then the other levels, in the plan's order of them */
	assert_string_equal(p.planned[order[8]].name, "c/priv@root,paranoid=-1");
	for (int i = 8; i < p.nplanned - 2; i++)
		assert_int_not_equal(p.planned[order[i]].level, 2);
	/* the destructive case last, whatever its level */
	assert_string_equal(p.planned[order[p.nplanned - 2]].name, "d/destructive@root,paranoid=2");
	assert_string_equal(p.planned[order[p.nplanned - 1]].name, "d/destructive@user,paranoid=2");
	free(p.planned);
}

static void full_and_selected_plans(void **state)
{
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = root_ctx();
	char err[256];

	pa_plan_init(&p);
	(void)state;
	parse(3, ARGV("--matrix", "full"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 48);
	free(p.planned);
	parse(5, ARGV("--identity", "user", "--paranoid", "1,2"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 4);
	assert_string_equal(p.planned[0].name, "open/plain@user,paranoid=1");
	free(p.planned);
	parse(3, ARGV("--paranoid", "9"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), -1);
	/* --repeat: each result N times in a row, same name */
	parse(7, ARGV("--identity", "user", "--paranoid", "1,2", "--repeat", "3"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 12);
	assert_string_equal(p.planned[0].name, "open/plain@user,paranoid=1");
	assert_string_equal(p.planned[2].name, "open/plain@user,paranoid=1");
	assert_string_equal(p.planned[3].name, "open/plain@user,paranoid=2");
	free(p.planned);
}

/* A runner that is not root cannot switch identity or level: by default it
 * plans only its own cell (uid != 0 without capabilities is `user`), one
 * result per case, and the header note says what it left out and why */
static void unprivileged_runner_plans_its_own_cell(void **state)
{
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = { .uid = 1000, .caps = 0, .paranoid = 2 };
	char err[256], json[256];

	(void)state;
	pa_plan_init(&p);
	parse(1, (char *[]){ "x", NULL }, &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 2);
	assert_string_equal(p.planned[0].name, "open/plain@user,paranoid=2");
	assert_string_equal(p.planned[1].name, "privilege/cpu_wide@user,paranoid=2");
	for (int i = 0; i < p.nplanned; i++)
		assert_string_equal(p.planned[i].skip_reason, "");
	/* as root: user and root at 2 for the plain case, 4 x 6 for the other;
	 * all but user at 2 need root */
	assert_string_equal(p.notes, "# perfabi: not root (uid 1000): runs as this user "
			    "(identity user) at paranoid 2 only; the other identities and "
			    "levels (23 cells, 24 results) need root");
	CAPTURE(json, pa_plan_json(f, &p));
	assert_string_equal(json, "{\"identities\": [\"user\"], \"paranoid\": [2], \"results\": 2}");
	free(p.planned);
	/* only plain cases: the one other cell is root's */
	pa_plan_init(&p);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 1, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 1);
	assert_non_null(strstr(p.notes, "(1 cell, 1 result) need root"));
	free(p.planned);
	/* with CAP_PERFMON alone it is perfmon; --repeat still repeats */
	ctx.caps = PA_CAP(PA_CAP_PERFMON);
	ctx.paranoid = 3;
	pa_plan_init(&p);
	parse(3, ARGV("--repeat", "2"), &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 4);
	assert_string_equal(p.planned[0].name, "open/plain@perfmon,paranoid=3");
	assert_string_equal(p.planned[3].name, "privilege/cpu_wide@perfmon,paranoid=3");
	assert_non_null(strstr(p.notes, "(identity perfmon) at paranoid 3 only"));
	free(p.planned);
}

/* Cells asked for that a non-root runner cannot run stay planned, as skips
 * that say why; so does everything when its capabilities match no identity */
static void unprivileged_runner_plans_skips(void **state)
{
	static const char *const asked[][3] = {
		{ "--identity", "root,user", NULL },
		{ "--paranoid", "1,2", NULL },
		{ "--matrix", "full", NULL },
	};
	static const int want_jobs[] = { 2 + 12, 2 * 2 + 4 * 2, 48 };
	struct pa_opts o;
	struct pa_plan p;
	struct pa_context ctx = { .uid = 65534, .caps = 0, .paranoid = 2 };
	char err[256];

	(void)state;
	for (int a = 0; a < 3; a++) {
		char *v[] = { "perfabi-run", (char *)asked[a][0], (char *)asked[a][1], NULL };
		int runnable = 0;

		pa_plan_init(&p);
		assert_int_equal(parse(3, v, &o, err), 0);
		assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
		assert_int_equal(p.nplanned, want_jobs[a]);
		assert_string_equal(p.notes, "");
		for (int i = 0; i < p.nplanned; i++) {
			if (!p.planned[i].skip_reason[0]) {
				runnable++;
				assert_true(strstr(p.planned[i].name, "@user,paranoid=2") != NULL);
			} else {
				assert_non_null(strstr(p.planned[i].skip_reason, "not root"));
			}
		}
		assert_int_equal(runnable, 2);	/* one cell per case: its own */
		free(p.planned);
	}
	/* capabilities that are no identity's: nothing can run, all say why */
	ctx.caps = 3;
	pa_plan_init(&p);
	parse(1, (char *[]){ "x", NULL }, &o, err);
	assert_int_equal(pa_plan_build(&p, &o, &ctx, two_cases, 2, err, sizeof(err)), 0);
	assert_int_equal(p.nplanned, 2 + 24);
	for (int i = 0; i < p.nplanned; i++)
		assert_non_null(strstr(p.planned[i].skip_reason, "not root"));
	free(p.planned);
}

/* Every option that takes an argument says so when it has none, and the
 * lists have limits. */
static void missing_arguments_and_limits(void **state)
{
	static const char *const takes[] = {
		"-a", "--cases", "--results", "--run-id", "--timeout-scale", "--repeat",
		"--identity", "--paranoid", "--abi-check", "--abi-map", "--matrix",
	};
	char *many[PA_MAX_PATTERNS + 3];
	struct pa_opts o;
	char err[256], want[80];
	int lv[8];
	const struct pa_identity *ids[4];

	(void)state;
	for (size_t i = 0; i < sizeof(takes) / sizeof(takes[0]); i++) {
		char *v[] = { "perfabi-run", (char *)takes[i], NULL };

		assert_int_equal(parse(2, v, &o, err), -1);
		snprintf(want, sizeof(want), "option '%s' needs an argument", takes[i]);
		assert_string_equal(err, want);
	}
	assert_int_equal(parse(2, ARGV("-v"), &o, err), 0);
	assert_true(o.verbose);
	assert_int_equal(parse(3, ARGV("--abi-check", "m.txt"), &o, err), 0);
	assert_string_equal(o.abi_check, "m.txt");
	assert_int_equal(parse(2, ARGV("--abi-map=m2.txt"), &o, err), 0);
	assert_string_equal(o.abi_map, "m2.txt");
	/* PA_MAX_PATTERNS patterns are fine, one more is not */
	many[0] = "perfabi-run";
	for (int i = 1; i <= PA_MAX_PATTERNS + 1; i++)
		many[i] = "x/*";
	many[PA_MAX_PATTERNS + 2] = NULL;
	assert_int_equal(parse(PA_MAX_PATTERNS + 1, many, &o, err), 0);
	assert_int_equal(o.npatterns, PA_MAX_PATTERNS);
	assert_int_equal(parse(PA_MAX_PATTERNS + 2, many, &o, err), -1);
	assert_string_equal(err, "too many patterns (max 64)");
	for (int i = 1; i <= PA_MAX_PATTERNS + 1; i++)
		many[i] = "--area=x";
	assert_int_equal(parse(PA_MAX_PATTERNS + 2, many, &o, err), -1);
	assert_string_equal(err, "too many --area options");
	/* the matrix lists */
	assert_int_equal(pa_parse_levels("-1,0,1,2,3,4,2,1,0", lv, 8, err, sizeof(err)), -1);
	assert_string_equal(err, "too many paranoid levels (max 8)");
	assert_int_equal(pa_parse_identities("root,user,perfmon,sysadmin,root", ids, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "too many identities");
	assert_int_equal(pa_parse_identities(",", ids, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "empty identity list");
	/* becoming root is a no-op for root, refused otherwise */
	errno = 0;
	assert_int_equal(pa_identity_become(pa_identity_find("root")), geteuid() == 0 ? 0 : -1);
	assert_int_equal(errno, geteuid() == 0 ? 0 : EPERM);
}

/* runner/tpkeep.c: a dynamic event of any kind (kprobe, kretprobe with
 * maxactive, uprobe, synthetic) in any of tracefs's three lists is never
 * kept; a static tracepoint, or a name that only starts like one, is not
 * dynamic */
static void tracepoint_keep_skips_dynamic_events(void **state)
{
	char dir[] = "/tmp/perfabi-unit-tpkeep.XXXXXX", path[128];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_false(pa_tp_dynamic_event(dir, "sched", "sched_switch"));	/* no lists */
	snprintf(path, sizeof(path), "%s/dynamic_events", dir);
	f = fopen(path, "w");
	fputs("p:kprobes/pa_k do_sys_open\nr10:grp/pa_kret vfs_read\ns:synthetic/pa_syn u64 x\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	f = fopen(path, "w");
	fputs("p:perfabi_uraw/pa_u /bin/true:0x0000000000001040\n", f);
	fclose(f);
	assert_true(pa_tp_dynamic_event(dir, "kprobes", "pa_k"));
	assert_true(pa_tp_dynamic_event(dir, "grp", "pa_kret"));
	assert_true(pa_tp_dynamic_event(dir, "synthetic", "pa_syn"));
	assert_true(pa_tp_dynamic_event(dir, "perfabi_uraw", "pa_u"));
	assert_false(pa_tp_dynamic_event(dir, "kprobes", "pa"));
	assert_false(pa_tp_dynamic_event(dir, "perfabi_uraw", "pa_u2"));
	assert_false(pa_tp_dynamic_event(dir, "sched", "sched_switch"));
	snprintf(path, sizeof(path), "%s/dynamic_events", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	unlink(path);
	rmdir(dir);
}

/* Only the syscalls of pa_kprobe_keepable[] are kept, by exact name: the
 * runner places a kprobe on no function a FIFO line spells out. */
static void kprobe_keep_only_listed_syscalls(void **state)
{
	(void)state;
	assert_true(pa_kprobe_keepable_syscall("getppid"));
	assert_false(pa_kprobe_keepable_syscall("getpp"));
	assert_false(pa_kprobe_keepable_syscall("getppid2"));
	assert_false(pa_kprobe_keepable_syscall("commit_creds"));
	assert_false(pa_kprobe_keepable_syscall("__x64_sys_getppid"));
	assert_false(pa_kprobe_keepable_syscall(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(options_and_patterns),
		cmocka_unit_test(bad_usage_is_reported),
		cmocka_unit_test(missing_arguments_and_limits),
		cmocka_unit_test(selection),
		cmocka_unit_test(totals_line_is_plain),
		cmocka_unit_test(json_escaping),
		cmocka_unit_test(levels_and_identities),
		cmocka_unit_test(default_plan),
		cmocka_unit_test(restricting_level_adds_user_at_2),
		cmocka_unit_test(start_order),
		cmocka_unit_test(full_and_selected_plans),
		cmocka_unit_test(unprivileged_runner_plans_its_own_cell),
		cmocka_unit_test(unprivileged_runner_plans_skips),
		cmocka_unit_test(tracepoint_keep_skips_dynamic_events),
		cmocka_unit_test(kprobe_keep_only_listed_syscalls),
	};
	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
