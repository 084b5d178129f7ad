// SPDX-License-Identifier: GPL-2.0
/* The KTAP emitter and parser: every outcome round-trips. */
#include "unit.h"

static void header_has_version_and_plan(void **state)
{
	char out[128];

	(void)state;
	CAPTURE(out, pa_ktap_header(f, 42));
	assert_string_equal(out, "TAP version 13\n1..42\n");
}

static void each_outcome_is_tap(void **state)
{
	char out[256];

	(void)state;
	CAPTURE(out, pa_ktap_result(f, 1, "open/a", PA_PASS, NULL));
	assert_string_equal(out, "ok 1 open/a\n");
	CAPTURE(out, pa_ktap_result(f, 2, "open/a", PA_FAIL, "2 check(s) failed"));
	assert_string_equal(out, "# detail: 2 check(s) failed\nnot ok 2 open/a\n");
	CAPTURE(out, pa_ktap_result(f, 3, "open/a", PA_SKIP, "no PMU"));
	assert_string_equal(out, "ok 3 open/a # SKIP no PMU\n");
	CAPTURE(out, pa_ktap_result(f, 4, "open/a", PA_SKIP, NULL));
	assert_string_equal(out, "ok 4 open/a # SKIP no reason given\n");
	CAPTURE(out, pa_ktap_result(f, 5, "open/a", PA_XFAIL, "bug"));
	assert_string_equal(out, "ok 5 open/a # XFAIL bug\n");
	CAPTURE(out, pa_ktap_result(f, 6, "open/a", PA_XPASS, "bug"));
	assert_string_equal(out, "ok 6 open/a # XPASS bug\n");
	CAPTURE(out, pa_ktap_result(f, 7, "open/a", PA_PASS, "new behaviour (since 6.13)"));
	assert_string_equal(out, "# detail: new behaviour (since 6.13)\nok 7 open/a\n");
}

static void detail_newlines_are_flattened(void **state)
{
	char out[256];

	(void)state;
	CAPTURE(out, pa_ktap_result(f, 1, "x/y", PA_FAIL, "line1\nline2\tend"));
	assert_string_equal(out, "# detail: line1 line2 end\nnot ok 1 x/y\n");
}

static void parse_round_trip(void **state)
{
	static const enum pa_outcome all[] = { PA_PASS, PA_FAIL, PA_SKIP, PA_XFAIL, PA_XPASS };
	char line[256], name[64], detail[128];
	enum pa_outcome o;
	int n;

	(void)state;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		char *res = line;
		const char *dl;

		CAPTURE(line, pa_ktap_result(f, 7, "area/case@user,paranoid=2", all[i], "why not"));
		/* a pass's or a failure's detail is the diagnostic line before */
		dl = pa_ktap_detail_line(line);
		if (all[i] == PA_PASS || all[i] == PA_FAIL) {
			assert_non_null(dl);
			res = strchr(line, '\n') + 1;
		} else {
			assert_null(dl);
		}
		assert_int_equal(pa_ktap_parse_result(res, &n, name, sizeof(name), &o,
						      detail, sizeof(detail)), 1);
		assert_int_equal(n, 7);
		assert_string_equal(name, "area/case@user,paranoid=2");
		assert_int_equal(o, all[i]);
		if (dl) {
			assert_int_equal(strncmp(dl, "why not\n", 8), 0);
			assert_string_equal(detail, "");
		} else {
			assert_string_equal(detail, "why not");
		}
	}
}

/* Streams written before the kselftest form still read back. */
static void parse_older_forms(void **state)
{
	char name[64], detail[64];
	enum pa_outcome o;
	int n;

	(void)state;
	assert_int_equal(pa_ktap_parse_result("not ok 5 a/b # TODO XFAIL bug", &n, name, 64, &o, detail, 64), 1);
	assert_int_equal(o, PA_XFAIL);
	assert_string_equal(detail, "bug");
	assert_int_equal(pa_ktap_parse_result("ok 6 a/b # TODO XPASS bug", &n, name, 64, &o, detail, 64), 1);
	assert_int_equal(o, PA_XPASS);
	assert_int_equal(pa_ktap_parse_result("not ok 2 a/b - 2 check(s) failed", &n, name, 64, &o, detail, 64), 1);
	assert_int_equal(o, PA_FAIL);
	assert_string_equal(name, "a/b");
	assert_string_equal(detail, "2 check(s) failed");
}

/* One place makes text valid UTF-8: overlongs, surrogates, stray
 * continuation bytes and truncated sequences become '?'. */
static void text_becomes_valid_utf8(void **state)
{
	char s[64];

	(void)state;
	strcpy(s, "caf\xc3\xa9 \xe2\x9c\x93 ok");
	pa_ktap_sanitize(s);
	assert_string_equal(s, "caf\xc3\xa9 \xe2\x9c\x93 ok");
	strcpy(s, "a\xff\xc0\xaf" "b\xed\xa0\x80" "c\x80" "d\xe2\x9c");
	pa_ktap_sanitize(s);
	assert_string_equal(s, "a???b???c?d??");
	strcpy(s, "x\ty\x1b[0mz\n");
	pa_ktap_sanitize(s);
	assert_string_equal(s, "x y [0mz ");
	strcpy(s, "one\ntwo\x01");
	pa_text_sanitize(s, true);
	assert_string_equal(s, "one\ntwo ");
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
	assert_string_equal(pa_outcome_name(PA_SKIP), "skip");
	assert_string_equal(pa_outcome_name(PA_MISSING), "missing");
	assert_string_equal(pa_outcome_name((enum pa_outcome)99), "?");
}

static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(pa_errno_name(EINVAL), "EINVAL");
	assert_string_equal(pa_errno_name(E2BIG), "E2BIG");
	assert_string_equal(pa_errno_name(EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(pa_errno_name(4095), "errno 4095");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_has_version_and_plan),
		cmocka_unit_test(each_outcome_is_tap),
		cmocka_unit_test(detail_newlines_are_flattened),
		cmocka_unit_test(parse_round_trip),
		cmocka_unit_test(parse_rejects_non_results),
		cmocka_unit_test(parse_older_forms),
		cmocka_unit_test(text_becomes_valid_utf8),
		cmocka_unit_test(outcome_names),
		cmocka_unit_test(errno_names),
	};
	return cmocka_run_group_tests_name("ktap", tests, NULL, NULL);
}
