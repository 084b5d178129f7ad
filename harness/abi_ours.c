// SPDX-License-Identifier: GPL-2.0
/* The project's side of the tables in abi_table.h (see abi_check.c). */
#include <string.h>
#include "abi.h"
#include "abi_table.h"

#define X(n) { #n, (uint64_t)(n) },
#define X8(n) X(n)
#define X9(n) X(n)
const struct pa_abi_const pa_abi_our_consts[] = {
#include "abi_consts.def"
};
const size_t pa_abi_our_nconsts = sizeof(pa_abi_our_consts) / sizeof(pa_abi_our_consts[0]);

size_t pa_abi_our_bits(struct pa_abi_bit *out, size_t max)
{
	PA_ABI_FILL_BITS(struct perf_event_attr);
}
