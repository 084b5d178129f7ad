/* SPDX-License-Identifier: GPL-2.0 */
/* The ABI coverage map (cases/abi-map.txt) and which cases cover it. */
#ifndef PERFABI_ABIMAP_H
#define PERFABI_ABIMAP_H
#include <stdio.h>

struct pa_abi_element {
	char name[64];
	char untestable[256];	/* the written reason, or "" */
	char hardware[256];	/* why only hardware can show it, or "" */
	int covered;		/* number of cases naming it */
};

struct pa_abimap {
	int n;
	struct pa_abi_element *e;
};

/* Parse the map text; -1 with a message (file and line) on bad input. */
int pa_abimap_parse(const char *text, const char *path, struct pa_abimap *m,
		    char *err, size_t errlen);
int pa_abimap_load(const char *path, struct pa_abimap *m, char *err, size_t errlen);
void pa_abimap_free(struct pa_abimap *m);
/* Count a case's .covers; unknown names are reported to `out` (if set) and
 * counted in the return value. */
int pa_abimap_cover(struct pa_abimap *m, const char *covers, const char *casename,
		    FILE *out);
/* hardware: elements marked "hardware:" (counted in covered/missing too) */
struct pa_abimap_stats { int total, covered, untestable, missing, hardware; };
struct pa_abimap_stats pa_abimap_stats(const struct pa_abimap *m);
#endif
