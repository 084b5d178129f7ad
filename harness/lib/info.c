// SPDX-License-Identifier: GPL-2.0
/*
 * A case's declaration as `case --info` prints it ("key: value" lines) and
 * as the runner reads it back into struct pa_case_info: both from the one
 * table below, so that a new field is one line of it (and, when the runner
 * keeps it, one member of struct pa_case_info).
 */
#include "internal.h"

#include <stddef.h>

enum info_kind {
	I_TEXT,		/* a string (NULL prints as "") */
	I_INT,
	I_BOOL,		/* printed 0 or 1 */
};

struct info_field {
	const char *key;
	enum info_kind kind;
	/* the value: a member of struct pa_case, or made by text() */
	ptrdiff_t at;
	void (*text)(const struct pa_case *c, char *buf, size_t len);
	bool when_set;		/* printed only when not empty */
	/* where struct pa_case_info keeps it (size 0: it does not) */
	size_t info_at, info_size;
};

static void timeout_text(const struct pa_case *c, char *buf, size_t len)
{
	snprintf(buf, len, "%d", c->timeout > 0 ? c->timeout : 10);
}

/* "commit (subject) release [CVE] [stable X Y] [(seen only in the log)]" */
static void fix_text(const struct pa_case *c, char *buf, size_t len)
{
	const struct pa_fix *f = &c->fix;

	if (!f->commit) {
		buf[0] = 0;
		return;
	}
	snprintf(buf, len, "%s (%s) %s%s%s%s%s%s", f->commit, f->subject ? f->subject : "",
		 f->release ? f->release : "?", f->cve ? " " : "", f->cve ? f->cve : "",
		 f->stable ? " stable " : "", f->stable ? f->stable : "",
		 f->log_only ? " (seen only in the kernel log: KASAN, WARNING)" : "");
}

/* "range why (fix commit)" of a known bug */
static void xfail_text(const struct pa_case *c, char *buf, size_t len)
{
	char range[160];

	if (!c->xfail.from && !c->xfail.windows) {
		buf[0] = 0;
		return;
	}
	pa_known_bug_range(&c->xfail, range, sizeof(range));
	snprintf(buf, len, "%s %s (fix %s)", range, c->xfail.why ? c->xfail.why : "",
		 c->xfail.fix ? c->xfail.fix : "unknown");
}

/* LTP's tags: the fix commit (and CVE) of .fix, else of .xfail */
static void tags_text(const struct pa_case *c, char *buf, size_t len)
{
	const char *commit = c->fix.commit ? c->fix.commit : c->xfail.fix;

	snprintf(buf, len, "%s%s%s%s", commit ? "linux-git=" : "", commit ? commit : "",
		 commit && c->fix.cve ? " cve=" : "", commit && c->fix.cve ? c->fix.cve : "");
}

#define MEMBER(k)	offsetof(struct pa_case, k), NULL
#define MADE(fn)	-1, fn
#define KEPT(k)		offsetof(struct pa_case_info, k), sizeof(((struct pa_case_info *)0)->k)
#define NOT_KEPT	0, 0

static const struct info_field fields[] = {
	{ "assertion",	I_TEXT, MEMBER(assertion),	false,	KEPT(assertion) },
	{ "ref",	I_TEXT, MEMBER(ref),		false,	NOT_KEPT },
	{ "covers",	I_TEXT, MEMBER(covers),		false,	KEPT(covers) },
	{ "tags",	I_TEXT, MADE(tags_text),	false,	NOT_KEPT },
	{ "timeout",	I_INT,	MADE(timeout_text),	false,	KEPT(timeout) },
	{ "privileged",	I_BOOL, MEMBER(privileged),	false,	KEPT(privileged) },
	{ "destructive", I_BOOL, MEMBER(destructive),	false,	KEPT(destructive) },
	{ "alone",	I_BOOL, MEMBER(alone),		false,	KEPT(alone) },
	{ "features",	I_TEXT, MEMBER(features),	false,	NOT_KEPT },
	{ "fix",	I_TEXT, MADE(fix_text),		true,	KEPT(fix) },
	{ "xfail",	I_TEXT, MADE(xfail_text),	true,	NOT_KEPT },
};

void pa_info_print(FILE *f, const struct pa_case *c, const char *name)
{
	fprintf(f, "name: %s\n", name);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct info_field *d = &fields[i];
		const char *member = (const char *)c + d->at;
		char buf[1024];

		if (d->text)
			d->text(c, buf, sizeof(buf));
		else if (d->kind == I_BOOL)
			snprintf(buf, sizeof(buf), "%d", *(const bool *)member ? 1 : 0);
		else if (d->kind == I_INT)
			snprintf(buf, sizeof(buf), "%d", *(const int *)member);
		else
			snprintf(buf, sizeof(buf), "%s", *(const char *const *)member ?
				 *(const char *const *)member : "");
		if (d->when_set && !buf[0])
			continue;
		fprintf(f, "%s: %s\n", d->key, buf);
	}
}

/* The value of "key: value" in text, or NULL; its length in *len. */
static const char *info_value(const char *text, const char *key, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			const char *v = p + kl + 1;

			while (*v == ' ')
				v++;
			*len = strcspn(v, "\n");
			return v;
		}
	}
	return NULL;
}

void pa_info_parse(const char *text, struct pa_case_info *ci)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct info_field *d = &fields[i];
		char *member = (char *)ci + d->info_at, num[32];
		size_t len = 0;
		const char *v;

		if (!d->info_size)
			continue;
		v = info_value(text, d->key, &len);
		if (d->kind == I_TEXT) {
			snprintf(member, d->info_size, "%.*s", v ? (int)len : 0, v ? v : "");
			continue;
		}
		snprintf(num, sizeof(num), "%.*s", v ? (int)len : 0, v ? v : "");
		if (d->kind == I_BOOL)
			*(bool *)member = atoi(num) == 1;
		else
			*(int *)member = atoi(num);
	}
	if (ci->timeout <= 0)
		ci->timeout = 10;
}
