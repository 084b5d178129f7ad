// SPDX-License-Identifier: GPL-2.0
/*
 * harness/abi.h against the build machine's <linux/perf_event.h>: every
 * constant the system header has, and every flag bit's position. (Field
 * offsets are checked at compile time by harness/abi_check.c.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../../harness/abi_table.h"

static void constants_agree(void **state)
{
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < pa_abi_sys_nconsts; i++) {
		const struct pa_abi_const *s = &pa_abi_sys_consts[i];
		bool found = false;

		for (size_t j = 0; j < pa_abi_our_nconsts; j++) {
			if (strcmp(s->name, pa_abi_our_consts[j].name))
				continue;
			found = true;
			if (s->value != pa_abi_our_consts[j].value)
				fail_msg("%s: system header %#llx, perfabi %#llx", s->name,
					 (unsigned long long)s->value,
					 (unsigned long long)pa_abi_our_consts[j].value);
		}
		assert_true(found);
		checked++;
	}
	assert_true(checked >= 100);
}

static void flag_bits_agree(void **state)
{
	struct pa_abi_bit sys[64], ours[64];
	size_t ns = pa_abi_sys_bits(sys, 64), no = pa_abi_our_bits(ours, 64);

	(void)state;
	assert_int_equal(ns, no);
	assert_int_equal(ns, 37);
	for (size_t i = 0; i < ns; i++) {
		assert_string_equal(sys[i].name, ours[i].name);
		if (sys[i].word != ours[i].word)
			fail_msg("%s: system bit word %#llx, perfabi %#llx", sys[i].name,
				 (unsigned long long)sys[i].word, (unsigned long long)ours[i].word);
	}
	/* and the documented positions of a few, from the man page */
	assert_int_equal(ours[0].word, 1ULL << 0);	/* disabled */
	assert_int_equal(ours[15].word, 1ULL << 15);	/* precise_ip, low bit */
	assert_int_equal(ours[36].word, 1ULL << 37);	/* sigtrap */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(constants_agree),
		cmocka_unit_test(flag_bits_agree),
	};
	return cmocka_run_group_tests_name("abi", tests, NULL, NULL);
}
