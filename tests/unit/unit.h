/* SPDX-License-Identifier: GPL-2.0 */
/* Common includes for the cmocka unit tests of the harness and runner. */
#ifndef PERFABI_UNIT_H
#define PERFABI_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../../harness/runner/matrix.h"

/* Capture what a FILE-writing function prints. */
#define CAPTURE(buf, call) do {						\
	char *pa__p = NULL; size_t pa__n = 0;				\
	FILE *f = open_memstream(&pa__p, &pa__n);			\
	call;								\
	fclose(f);							\
	snprintf(buf, sizeof(buf), "%s", pa__p);			\
	free(pa__p);							\
} while (0)
#endif
