// SPDX-License-Identifier: GPL-2.0
/* The ABI coverage map: parsing, bad input, coverage counting. */
#include "unit.h"
#include "../../harness/runner/abimap.h"

static const char *good =
	"# comment\n"
	"\n"
	"attr.size\n"
	"  attr.config3   \n"
	"record.AUX untestable: needs a PMU with an AUX area\n"
	"sample.AUX hardware:  written by AUX PMUs only\n";

static void parses_elements_and_reasons(void **state)
{
	struct pa_abimap m;
	char err[256];

	(void)state;
	assert_int_equal(pa_abimap_parse(good, "map", &m, err, sizeof(err)), 0);
	assert_int_equal(m.n, 4);
	assert_string_equal(m.e[1].name, "attr.config3");
	assert_string_equal(m.e[2].untestable, "needs a PMU with an AUX area");
	assert_string_equal(m.e[2].hardware, "");
	assert_string_equal(m.e[3].hardware, "written by AUX PMUs only");
	assert_string_equal(m.e[3].untestable, "");
	pa_abimap_free(&m);
}

static void rejects_bad_maps(void **state)
{
	struct pa_abimap m;
	char err[256];

	(void)state;
	assert_int_equal(pa_abimap_parse("attr.size\nattr.size\n", "map", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "map:2: 'attr.size' is listed twice");
	assert_int_equal(pa_abimap_parse("nodot\n", "map", &m, err, sizeof(err)), -1);
	assert_int_equal(pa_abimap_parse("a.b untestable:\n", "map", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "map:1: 'a.b' is marked untestable without a reason");
	assert_int_equal(pa_abimap_parse("a.b because\n", "map", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "map:1: after 'a.b' only 'untestable: reason' or 'hardware: reason' may follow");
	assert_int_equal(pa_abimap_parse("a.b hardware:  \n", "map", &m, err, sizeof(err)), -1);
	assert_string_equal(err, "map:1: 'a.b' is marked hardware without a reason");
}

static void counts_coverage(void **state)
{
	struct pa_abimap m;
	struct pa_abimap_stats st;
	char err[256], out[512];

	(void)state;
	assert_int_equal(pa_abimap_parse(good, "map", &m, err, sizeof(err)), 0);
	assert_int_equal(pa_abimap_cover(&m, "attr.size", "size/x", NULL), 0);
	CAPTURE(out, assert_int_equal(pa_abimap_cover(&m, "attr.size,attr.bogus", "size/y", f), 1));
	assert_string_equal(out, "size/y: covers 'attr.bogus', which is not in the ABI map\n");
	st = pa_abimap_stats(&m);
	assert_int_equal(st.total, 4);
	assert_int_equal(st.covered, 1);
	assert_int_equal(st.untestable, 1);
	assert_int_equal(st.missing, 2);
	assert_int_equal(st.hardware, 1);
	assert_int_equal(m.e[0].covered, 2);
	pa_abimap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_elements_and_reasons),
		cmocka_unit_test(rejects_bad_maps),
		cmocka_unit_test(counts_coverage),
	};
	return cmocka_run_group_tests_name("abimap", tests, NULL, NULL);
}
