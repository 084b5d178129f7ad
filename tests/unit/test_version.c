// SPDX-License-Identifier: GPL-2.0
/* Kernel versions, known-bug ranges and result classification. */
#include "unit.h"

static struct pa_kver V(const char *s)
{
	struct pa_kver v = { -1, -1, -1 };

	assert_int_equal(pa_kver_parse(s, &v), 0);
	return v;
}

static void parses_release_strings(void **state)
{
	struct pa_kver v;

	(void)state;
	v = V("6.18.44-fc-v782");
	assert_int_equal(v.major, 6); assert_int_equal(v.minor, 18); assert_int_equal(v.patch, 44);
	v = V("6.1.0-47-amd64");
	assert_int_equal(v.minor, 1); assert_int_equal(v.patch, 0);
	v = V("6.12");
	assert_int_equal(v.patch, 0);
	assert_int_equal(pa_kver_parse("", &v), -1);
	assert_int_equal(pa_kver_parse("six", &v), -1);
	assert_int_equal(pa_kver_parse("6", &v), -1);
	assert_int_equal(pa_kver_parse(NULL, &v), -1);
	assert_int_equal(pa_kver_parse("999999999.1", &v), -1);
}

static void compares(void **state)
{
	(void)state;
	assert_true(pa_kver_cmp(V("6.1"), V("6.12")) < 0);
	assert_true(pa_kver_cmp(V("6.12.117"), V("6.12.39")) > 0);
	assert_int_equal(pa_kver_cmp(V("6.3"), V("6.3.0")), 0);
	assert_true(pa_kver_cmp(V("5.19.9"), V("6.0")) < 0);
}

static void debian_upstream_version_wins(void **state)
{
	struct pa_kver v;

	(void)state;
	assert_int_equal(pa_kver_from_uname("6.1.0-47-amd64",
		"#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2025-10-01)", &v), 0);
	assert_int_equal(v.patch, 176);
	/* a different series in the version string is not trusted */
	assert_int_equal(pa_kver_from_uname("6.12.0-1-amd64", "#1 Debian 6.1.99-1", &v), 0);
	assert_int_equal(v.minor, 12); assert_int_equal(v.patch, 0);
	assert_int_equal(pa_kver_from_uname("6.18.44", "#1 SMP PREEMPT_DYNAMIC @0", &v), 0);
	assert_int_equal(v.patch, 44);
	assert_int_equal(pa_kver_from_uname("garbage", NULL, &v), -1);
}

static void known_bug_ranges(void **state)
{
	struct pa_known_bug b = { .from = "6.16", .to = "6.17.3", .why = "x", .fix = "abc" };
	struct pa_known_bug open_ended = { .from = "6.16" };
	struct pa_known_bug none = { 0 };

	(void)state;
	assert_false(pa_known_bug_applies(&b, V("6.15.9")));
	assert_true(pa_known_bug_applies(&b, V("6.16")));
	assert_true(pa_known_bug_applies(&b, V("6.17.2")));
	assert_false(pa_known_bug_applies(&b, V("6.17.3")));
	assert_true(pa_known_bug_applies(&open_ended, V("7.0")));
	assert_false(pa_known_bug_applies(&none, V("6.16")));
	/* a stable branch that took the fix before mainline's `to` */
	struct pa_known_bug backported = { .from = "5.13", .to = "6.19", .fixed_in = "6.18.2 6.17.13" };
	assert_true(pa_known_bug_applies(&backported, V("6.18.1")));
	assert_false(pa_known_bug_applies(&backported, V("6.18.2")));
	assert_true(pa_known_bug_applies(&backported, V("6.17.12")));
	assert_false(pa_known_bug_applies(&backported, V("6.17.20")));
	assert_true(pa_known_bug_applies(&backported, V("6.12.200")));
	assert_false(pa_known_bug_applies(&backported, V("6.19")));
	assert_false(pa_known_bug_applies(NULL, V("6.16")));
	/* a bug only stable backports brought: windows of single branches */
	struct pa_known_bug stable_only = { .windows = "5.15.77..5.15.84 6.0.7..6.0.14" };
	assert_false(pa_known_bug_applies(&stable_only, V("5.15.76")));
	assert_true(pa_known_bug_applies(&stable_only, V("5.15.77")));
	assert_true(pa_known_bug_applies(&stable_only, V("5.15.83")));
	assert_false(pa_known_bug_applies(&stable_only, V("5.15.84")));
	assert_false(pa_known_bug_applies(&stable_only, V("5.16")));	/* never had it */
	assert_false(pa_known_bug_applies(&stable_only, V("6.0.6")));
	assert_true(pa_known_bug_applies(&stable_only, V("6.0.13")));
	assert_false(pa_known_bug_applies(&stable_only, V("6.1")));
	/* a mainline range plus a later one and open stable windows */
	struct pa_known_bug twice = { .from = "5.13", .to = "6.15", .fixed_in = "6.12.23",
				      .windows = "6.19.. 6.18.2.. 6.17.13.." };
	assert_true(pa_known_bug_applies(&twice, V("6.12.22")));
	assert_false(pa_known_bug_applies(&twice, V("6.12.117")));
	assert_false(pa_known_bug_applies(&twice, V("6.16.3")));
	assert_false(pa_known_bug_applies(&twice, V("6.18.1")));
	assert_true(pa_known_bug_applies(&twice, V("6.18.44")));
	assert_true(pa_known_bug_applies(&twice, V("6.17.13")));
	assert_false(pa_known_bug_applies(&twice, V("6.17.12")));
	assert_true(pa_known_bug_applies(&twice, V("6.19")));
	assert_true(pa_known_bug_applies(&twice, V("7.2.1")));
	struct pa_known_bug bad = { .windows = "6.1 x..y ..6.2 6.3..zz" };
	assert_false(pa_known_bug_applies(&bad, V("6.1")));
	assert_false(pa_known_bug_applies(&bad, V("6.2")));
	assert_false(pa_known_bug_applies(&bad, V("6.4")));	/* bad end: not applied */
	char range[160];
	pa_known_bug_range(&twice, range, sizeof(range));
	assert_string_equal(range, "5.13..6.15, fixed in 6.12.23; 6.19.. 6.18.2.. 6.17.13..");
	pa_known_bug_range(&stable_only, range, sizeof(range));
	assert_string_equal(range, "5.15.77..5.15.84 6.0.7..6.0.14");
}

static void classification(void **state)
{
	struct pa_known_bug b = { .from = "6.16", .to = "6.18" };

	(void)state;
	assert_int_equal(pa_classify(PA_FAIL, &b, V("6.17")), PA_XFAIL);
	assert_int_equal(pa_classify(PA_PASS, &b, V("6.17")), PA_XPASS);
	assert_int_equal(pa_classify(PA_SKIP, &b, V("6.17")), PA_SKIP);
	assert_int_equal(pa_classify(PA_FAIL, &b, V("6.18")), PA_FAIL);
	assert_int_equal(pa_classify(PA_PASS, &b, V("6.1")), PA_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_release_strings),
		cmocka_unit_test(compares),
		cmocka_unit_test(debian_upstream_version_wins),
		cmocka_unit_test(known_bug_ranges),
		cmocka_unit_test(classification),
	};
	return cmocka_run_group_tests_name("version", tests, NULL, NULL);
}
