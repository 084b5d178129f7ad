// SPDX-License-Identifier: GPL-2.0
/* perfabi-report's logic: results.tsv parsing, compare, the matrix. */
#include "unit.h"
#include "../../harness/report/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void parse_text(struct rp_run *run, const char *text)
{
	char err[256];

	memset(run, 0, sizeof(*run));
	run->dir = strdup("mem");
	run->label = strdup("mem");
	assert_int_equal(rp_parse_text(run, text, err, sizeof(err)), 0);
}

static void test_parse_line(void **state)
{
	struct pa_result r;

	(void)state;
	assert_int_equal(rp_parse_line("read/x@user,paranoid=2\tfail\t12\tcheck failed: a\tb\n", &r), 0);
	assert_string_equal(r.name, "read/x@user,paranoid=2");
	assert_string_equal(r.cas, "read/x");
	assert_string_equal(r.cell, "user,paranoid=2");
	assert_int_equal(r.outcome, PA_FAIL);
	assert_int_equal(r.duration_ms, 12);
	/* a tab in the detail stays in the detail, made a space like any
	 * control character */
	assert_string_equal(r.detail, "check failed: a b");
	rp_result_free(&r);
	/* bytes that are not UTF-8 never reach the XML or HTML */
	assert_int_equal(rp_parse_line("read/x\xff@user,paranoid=2\tfail\t1\tbad \xc3(\xe2\x9c\x93)\n", &r), 0);
	assert_string_equal(r.name, "read/x?@user,paranoid=2");
	assert_string_equal(r.cas, "read/x?");
	assert_string_equal(r.detail, "bad ?(\xe2\x9c\x93)");
	rp_result_free(&r);

	/* no cell, no detail, CRLF */
	assert_int_equal(rp_parse_line("open/y\tskip\t0\t\r\n", &r), 0);
	assert_string_equal(r.cas, "open/y");
	assert_string_equal(r.cell, "");
	assert_string_equal(r.detail, "");
	assert_int_equal(r.outcome, PA_SKIP);
	rp_result_free(&r);

	/* two fields are enough */
	assert_int_equal(rp_parse_line("a/b@root,paranoid=-1\txpass", &r), 0);
	assert_int_equal(r.outcome, PA_XPASS);
	assert_int_equal(r.duration_ms, 0);
	rp_result_free(&r);

	assert_int_equal(rp_parse_line("a/b\tpassed\t1\t", &r), -1);
	assert_int_equal(rp_parse_line("a/b", &r), -1);
	assert_int_equal(rp_parse_line("\tpass\t1\t", &r), -1);
	assert_int_equal(rp_parse_line("a/b\tsupercalifragilistic\t1\t", &r), -1);
}

static void test_outcome_names(void **state)
{
	(void)state;
	for (int o = PA_PASS; o <= PA_SKIP; o++)
		assert_int_equal(pa_outcome_parse(pa_outcome_name(o)), o);
	assert_int_equal(pa_outcome_parse("missing"), -1);
	assert_string_equal(pa_outcome_name(PA_MISSING), "missing");
}

static void test_parse_text_errors(void **state)
{
	struct rp_run run = { .dir = "d" };
	char err[256];

	(void)state;
	assert_int_equal(rp_parse_text(&run, "a/b\tpass\t1\t\n\nbogus line\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "d/results.tsv:3"));
	for (int i = 0; i < run.n; i++)
		rp_result_free(&run.r[i]);
	free(run.r);
}

static void test_compare(void **state)
{
	struct rp_run a, b;
	struct rp_diff d;
	char out[4096];

	(void)state;
	parse_text(&a,
		   "c/reg@root,paranoid=2\tpass\t1\t\n"
		   "c/fix@root,paranoid=2\tfail\t1\tbroken\n"
		   "c/skp@root,paranoid=2\tpass\t1\t\n"
		   "c/same@root,paranoid=2\tskip\t1\tno pmu\n"
		   "c/gone@root,paranoid=2\tpass\t1\t\n"
		   "c/xf@root,paranoid=2\txfail\t1\tknown\n"
		   "c/uns@root,paranoid=2\tskip\t1\told\n");
	parse_text(&b,
		   "c/reg@root,paranoid=2\tfail\t1\tnow EINVAL\n"
		   "c/fix@root,paranoid=2\tpass\t1\t\n"
		   "c/skp@root,paranoid=2\tskip\t1\tno tracefs\n"
		   "c/same@root,paranoid=2\tskip\t1\tno pmu\n"
		   "c/new@root,paranoid=2\tpass\t1\t\n"
		   "c/xf@root,paranoid=2\tfail\t1\tworse\n"
		   "c/uns@root,paranoid=2\tpass\t1\t\n");
	CAPTURE(out, assert_int_equal(rp_compare(&a, &b, f, &d), 2));
	assert_int_equal(d.regressed, 2);	/* pass -> fail, xfail -> fail */
	assert_int_equal(d.fixed, 1);
	assert_int_equal(d.newly_skipped, 1);
	assert_int_equal(d.unskipped, 1);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);
	assert_int_equal(d.other, 0);
	assert_int_equal(d.same, 1);
	assert_non_null(strstr(out, "## regressions (pass -> fail)\n  pass    -> fail    c/reg@root,paranoid=2  # now EINVAL\n"));
	assert_non_null(strstr(out, "xfail   -> fail    c/xf@root,paranoid=2"));
	assert_non_null(strstr(out, "## new results (only in B)\n  missing -> pass    c/new@root,paranoid=2\n"));
	assert_non_null(strstr(out, "## removed results (only in A)\n  pass    -> missing c/gone@root,paranoid=2\n"));
	assert_non_null(strstr(out, "newly skipped\n  pass    -> skip    c/skp@root,paranoid=2  # no tracefs\n"));

	/* the same run against itself: nothing changed */
	assert_int_equal(rp_compare(&a, &a, NULL, &d), 0);
	assert_int_equal(d.same, a.n);
	assert_int_equal(d.fixed + d.added + d.removed + d.newly_skipped + d.other, 0);
	rp_run_free(&a);
	rp_run_free(&b);
}

/* The rename map: old names pair with new ones across a move */
static void test_renames(void **state)
{
	struct rp_renames m;
	struct rp_run a, b;
	struct rp_diff d;
	char err[512], out[4096];

	(void)state;
	assert_int_equal(rp_renames_parse(&m,
		"# moves\n"
		"\n"
		"attr/comm_bit old/comm_bit  # then moved again\n"
		"old/comm_bit\trecord/comm_bit\r\n"
		"field/wakeup notify/wakeup\n", "map", err, sizeof(err)), 0);
	assert_int_equal(m.n, 3);
	/* a case moved twice ends at its last name; one never moved has none */
	assert_string_equal(rp_renamed(&m, "attr/comm_bit"), "record/comm_bit");
	assert_string_equal(rp_renamed(&m, "old/comm_bit"), "record/comm_bit");
	assert_string_equal(rp_renamed(&m, "field/wakeup"), "notify/wakeup");
	assert_null(rp_renamed(&m, "record/comm_bit"));
	assert_null(rp_renamed(&m, "field/wakeup_x"));

	/* an old reference against a run after the moves: every result pairs */
	parse_text(&a,
		   "attr/comm_bit@root,paranoid=2\tpass\t1\t\n"
		   "attr/comm_bit@user,paranoid=2\tskip\t1\tno\n"
		   "field/wakeup\tpass\t1\t\n"
		   "read/id@root,paranoid=2\tpass\t1\t\n");
	parse_text(&b,
		   "record/comm_bit@root,paranoid=2\tfail\t1\tnow EINVAL\n"
		   "record/comm_bit@user,paranoid=2\tskip\t1\tno\n"
		   "notify/wakeup\tpass\t1\t\n"
		   "read/id@root,paranoid=2\tpass\t1\t\n");
	assert_int_equal(rp_compare(&a, &b, NULL, &d), 0);
	assert_int_equal(d.added + d.removed, 6);	/* unpaired before */
	assert_int_equal(rp_rename_run(&a, &m), 3);
	assert_int_equal(rp_rename_run(&b, &m), 0);
	assert_string_equal(a.r[0].name, "record/comm_bit@root,paranoid=2");
	assert_string_equal(a.r[0].cas, "record/comm_bit");
	assert_string_equal(a.r[0].cell, "root,paranoid=2");
	assert_string_equal(a.r[2].name, "notify/wakeup");	/* no cell */
	assert_string_equal(a.r[2].cell, "");
	CAPTURE(out, assert_int_equal(rp_compare_ex(&a, &b, f, &d, false), 1));
	assert_int_equal(d.regressed, 1);
	assert_int_equal(d.added + d.removed, 0);
	assert_int_equal(d.same, 3);
	assert_string_equal(out, "## regressions (pass -> fail)\n"
			    "  pass    -> fail    record/comm_bit@root,paranoid=2  # now EINVAL\n");
	rp_run_free(&a);
	rp_run_free(&b);
	rp_renames_free(&m);
	assert_int_equal(m.n, 0);

	/* what is not a move */
	assert_int_equal(rp_renames_parse(&m, "a/b\n", "map", err, sizeof(err)), -1);
	assert_string_equal(err, "map:1: not a move \"OLD-AREA/CASE NEW-AREA/CASE\"");
	assert_int_equal(rp_renames_parse(&m, "# x\na/b c/d e/f\n", "map", err, sizeof(err)), -1);
	assert_string_equal(err, "map:2: not a move \"OLD-AREA/CASE NEW-AREA/CASE\"");
	assert_int_equal(rp_renames_parse(&m, "a/b@root,paranoid=2 c/d\n", "map", err, sizeof(err)), -1);
	assert_int_equal(rp_renames_parse(&m, "ab c/d\n", "map", err, sizeof(err)), -1);
	assert_int_equal(rp_renames_parse(&m, "a/b/c c/d\n", "map", err, sizeof(err)), -1);
	assert_int_equal(rp_renames_parse(&m, "a/b a/b\n", "map", err, sizeof(err)), -1);
	assert_int_equal(rp_renames_parse(&m, "a/b c/d\na/b e/f\n", "map", err, sizeof(err)), -1);
	assert_string_equal(err, "map:2: a/b moved twice from the same name");
	assert_int_equal(rp_renames_parse(&m, "a/b c/d\nc/d e/f\ne/f a/b\n", "map", err, sizeof(err)), -1);
	assert_string_equal(err, "map: the moves of a/b go round in a circle");
	assert_int_equal(m.n, 0);
	/* an empty map moves nothing */
	assert_int_equal(rp_renames_parse(&m, "", "map", err, sizeof(err)), 0);
	assert_null(rp_renamed(&m, "a/b"));
	rp_renames_free(&m);
	assert_int_equal(rp_renames_load(&m, "/nonexistent/renames.txt", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read /nonexistent/renames.txt"));
}

static void test_cell_order(void **state)
{
	(void)state;
	assert_true(rp_cell_cmp("user,paranoid=-1", "root,paranoid=0") < 0);
	assert_true(rp_cell_cmp("root,paranoid=2", "perfmon,paranoid=2") < 0);
	assert_true(rp_cell_cmp("sysadmin,paranoid=2", "user,paranoid=2") < 0);
	assert_int_equal(rp_cell_cmp("user,paranoid=3", "user,paranoid=3"), 0);
}

static void test_matrix(void **state)
{
	struct rp_runs runs = { 0 };
	struct rp_matrix m;
	char out[4096], big[32768];

	(void)state;
	runs.v = calloc(2, sizeof(*runs.v));
	runs.n = runs.cap = 2;
	parse_text(&runs.v[0],
		   "b/two@user,paranoid=2\tskip\t1\tno <pmu> & \"x\"\n"
		   "b/two@root,paranoid=2\tpass\t1\t\n"
		   "a/one@root,paranoid=2\tfail\t1\tbad\n");
	parse_text(&runs.v[1], "a/one@root,paranoid=3\tpass\t1\t\n");
	free(runs.v[1].label);
	runs.v[1].label = strdup("k2");

	rp_matrix_build(&m, &runs);
	assert_int_equal(m.ncases, 2);
	assert_string_equal(m.cases[0], "a/one");
	assert_int_equal(m.ncols, 3);
	assert_string_equal(m.cols[0].cell, "root,paranoid=2");	/* root before user */
	assert_string_equal(m.cols[1].cell, "user,paranoid=2");
	assert_string_equal(m.cols[2].cell, "root,paranoid=3");
	assert_null(rp_matrix_at(&m, 1, "a/one"));
	assert_int_equal(rp_matrix_at(&m, 1, "b/two")->outcome, PA_SKIP);

	CAPTURE(out, rp_matrix_text(f, &m, false));
	assert_non_null(strstr(out, "a/one F. P\n"));
	assert_non_null(strstr(out, "b/two Ps .\n"));
	assert_non_null(strstr(out, "# FAIL [mem] a/one@root,paranoid=2: bad\n"));

	CAPTURE(big, rp_matrix_html(f, &m, &runs));
	assert_non_null(strstr(big, "no &lt;pmu&gt; &amp; &quot;x&quot;"));
	/* the overview: a case's worst outcome per run, every cell in the title */
	assert_non_null(strstr(big, "<td class=\"fail first\" title=\"mem: a/one&#10;root,paranoid=2: fail \xe2\x80\x94 bad\">"));
	assert_non_null(strstr(big, "<td class=\"pass first\" title=\"mem: b/two&#10;user,paranoid=2: skip"));
	assert_non_null(strstr(big, "<th colspan=\"2\">mem</th><th colspan=\"1\">k2</th>"));

	CAPTURE(out, rp_junit(f, &runs.v[0]));
	assert_non_null(strstr(out, "tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""));
	assert_non_null(strstr(out, "<failure message=\"bad\"/>"));
	rp_matrix_free(&m);
	rp_runs_free(&runs);
}

static void test_load_dirs(void **state)
{
	char tmpl[] = "/tmp/perfabi-report-XXXXXX", path[256], err[512];
	struct rp_runs runs = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	/* a VM run: one subdirectory per kernel */
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", tmpl, k ? "6.12" : "6.1");
		assert_int_equal(mkdir(path, 0755), 0);
		strcat(path, "/results.tsv");
		f = fopen(path, "w");
		fprintf(f, "x/y@root,paranoid=3\tpass\t1\t\n");
		fclose(f);
	}
	assert_int_equal(rp_load(&runs, tmpl, err, sizeof(err)), 0);
	assert_int_equal(runs.n, 2);
	assert_string_equal(runs.v[0].label, "6.1");
	assert_string_equal(runs.v[1].label, "6.12");
	/* the same directory twice: labels stay apart */
	snprintf(path, sizeof(path), "%s/6.1/", tmpl);
	assert_int_equal(rp_load(&runs, path, err, sizeof(err)), 0);
	assert_string_equal(runs.v[2].label, "6.1#2");
	rp_runs_free(&runs);
	/* a default run id names the run by its kernel release */
	snprintf(path, sizeof(path), "%s/20261124-214412-6.18.44", tmpl);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/results.tsv");
	f = fopen(path, "w");
	fprintf(f, "x/y@root,paranoid=2\tpass\t1\t\n");
	fclose(f);
	*strrchr(path, '/') = 0;
	assert_int_equal(rp_load(&runs, path, err, sizeof(err)), 0);
	assert_string_equal(runs.v[0].label, "6.18.44");
	rp_runs_free(&runs);
	strcat(path, "/results.tsv");
	unlink(path);
	*strrchr(path, '/') = 0;
	rmdir(path);

	assert_int_equal(rp_load(&runs, "/nonexistent/run", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a run directory"));
	snprintf(path, sizeof(path), "%s/6.1/results.tsv", tmpl);
	assert_int_equal(rp_load(&runs, path, err, sizeof(err)), -1);
	rp_runs_free(&runs);

	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s/results.tsv", tmpl, k ? "6.12" : "6.1");
		unlink(path);
		*strrchr(path, '/') = 0;
		rmdir(path);
	}
	assert_int_equal(rp_load(&runs, tmpl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no results.tsv"));
	rmdir(tmpl);
}

/* KCIDB: dotted stable paths, the outcome mapping, the origin rule */
static void test_kcidb_names(void **state)
{
	struct pa_result r = { 0 };
	char p[256];

	(void)state;
	rp_kcidb_path(p, sizeof(p), "read/short_buffer_enospc@user,paranoid=2");
	assert_string_equal(p, "perfabi.read.short_buffer_enospc.user_p2");
	rp_kcidb_path(p, sizeof(p), "open/x@root,paranoid=-1");
	assert_string_equal(p, "perfabi.open.x.root_p-1");
	rp_kcidb_path(p, sizeof(p), "vm/hung@6.12.0+deb12 x//y/");
	assert_string_equal(p, "perfabi.vm.hung.6_12_0_deb12_x.y");
	r.detail[0] = 0;
	r.outcome = PA_XFAIL;
	assert_string_equal(rp_kcidb_status(&r), "FAIL");
	r.outcome = PA_XPASS;
	assert_string_equal(rp_kcidb_status(&r), "PASS");
	r.outcome = PA_SKIP;
	assert_string_equal(rp_kcidb_status(&r), "SKIP");
	r.outcome = PA_FAIL;
	assert_string_equal(rp_kcidb_status(&r), "FAIL");
	snprintf(r.detail, sizeof(r.detail), "runner: case binary exited 127");
	assert_string_equal(rp_kcidb_status(&r), "ERROR");
	assert_true(rp_kcidb_origin_ok("perfabi"));
	assert_true(rp_kcidb_origin_ok("lkft_2"));
	assert_false(rp_kcidb_origin_ok("perf-abi"));
	assert_false(rp_kcidb_origin_ok("Perfabi"));
	assert_false(rp_kcidb_origin_ok(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_outcome_names),
		cmocka_unit_test(test_parse_text_errors),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_renames),
		cmocka_unit_test(test_cell_order),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_load_dirs),
		cmocka_unit_test(test_kcidb_names),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
