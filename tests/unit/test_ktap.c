// SPDX-License-Identifier: GPL-2.0
/* The KTAP emitter and parser: every outcome round-trips. */
#include "unit.h"

static void header_has_version_and_plan(void **state)
{
	char out[128];

	(void)state;
	CAPTURE(out, pa_ktap_header(f, 42));
	assert_string_equal(out, "KTAP version 1\n1..42\n");
}

static void each_outcome_is_tap(void **state)
{
	char out[256];

	(void)state;
	CAPTURE(out, pa_ktap_result(f, 1, "open/a", PA_PASS, NULL));
	assert_string_equal(out, "ok 1 open/a\n");
	CAPTURE(out, pa_ktap_result(f, 2, "open/a", PA_FAIL, "2 check(s) failed"));
	assert_string_equal(out, "not ok 2 open/a - 2 check(s) failed\n");
	CAPTURE(out, pa_ktap_result(f, 3, "open/a", PA_SKIP, "no PMU"));
	assert_string_equal(out, "ok 3 open/a # SKIP no PMU\n");
	CAPTURE(out, pa_ktap_result(f, 4, "open/a", PA_SKIP, NULL));
	assert_string_equal(out, "ok 4 open/a # SKIP no reason given\n");
	CAPTURE(out, pa_ktap_result(f, 5, "open/a", PA_XFAIL, "bug"));
	assert_string_equal(out, "not ok 5 open/a # TODO XFAIL bug\n");
	CAPTURE(out, pa_ktap_result(f, 6, "open/a", PA_XPASS, "bug"));
	assert_string_equal(out, "ok 6 open/a # TODO XPASS bug\n");
}

static void detail_newlines_are_flattened(void **state)
{
	char out[256];

	(void)state;
	CAPTURE(out, pa_ktap_result(f, 1, "x/y", PA_FAIL, "line1\nline2\tend"));
	assert_string_equal(out, "not ok 1 x/y - line1 line2 end\n");
}

static void parse_round_trip(void **state)
{
	static const enum pa_outcome all[] = { PA_PASS, PA_FAIL, PA_SKIP, PA_XFAIL, PA_XPASS };
	char line[256], name[64], detail[128];
	enum pa_outcome o;
	int n;

	(void)state;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		CAPTURE(line, pa_ktap_result(f, 7, "area/case@user,paranoid=2", all[i], "why not"));
		assert_int_equal(pa_ktap_parse_result(line, &n, name, sizeof(name), &o,
						      detail, sizeof(detail)), 1);
		assert_int_equal(n, 7);
		assert_string_equal(name, "area/case@user,paranoid=2");
		assert_int_equal(o, all[i]);
		assert_string_equal(detail, "why not");
	}
}

static void parse_rejects_non_results(void **state)
{
	char name[64], detail[64];
	enum pa_outcome o;
	int n;

	(void)state;
	assert_int_equal(pa_ktap_parse_result("# ok 1 x", &n, name, 64, &o, detail, 64), 0);
	assert_int_equal(pa_ktap_parse_result("TAP version 13", &n, name, 64, &o, detail, 64), 0);
	assert_int_equal(pa_ktap_parse_result("KTAP version 1", &n, name, 64, &o, detail, 64), 0);
	assert_int_equal(pa_ktap_parse_result("ok x", &n, name, 64, &o, detail, 64), 0);
	assert_int_equal(pa_ktap_parse_result("okay 1 x", &n, name, 64, &o, detail, 64), 0);
}

static void outcome_names(void **state)
{
	(void)state;
	assert_string_equal(pa_outcome_name(PA_PASS), "pass");
	assert_string_equal(pa_outcome_name(PA_XPASS), "xpass");
	assert_string_equal(pa_outcome_name((enum pa_outcome)99), "fail");
}

static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(pa_errno_str(EINVAL), "EINVAL");
	assert_string_equal(pa_errno_str(E2BIG), "E2BIG");
	assert_string_equal(pa_errno_str(EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(pa_errno_str(4095), "errno 4095");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_has_version_and_plan),
		cmocka_unit_test(each_outcome_is_tap),
		cmocka_unit_test(detail_newlines_are_flattened),
		cmocka_unit_test(parse_round_trip),
		cmocka_unit_test(parse_rejects_non_results),
		cmocka_unit_test(outcome_names),
		cmocka_unit_test(errno_names),
	};
	return cmocka_run_group_tests_name("ktap", tests, NULL, NULL);
}
