// SPDX-License-Identifier: GPL-2.0
/* Assertions and reporting from a case's body. */
#include "internal.h"

#include <stdarg.h>

static struct pa_shared private_state;
struct pa_shared *pa_state = &private_state;

void pa_note_global(const char *what)
{
	if (!pa_state->global_actions++)
		snprintf(pa_state->global_what, sizeof(pa_state->global_what), "%s", what);
}

static void vline(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* one diagnostic line per text line, each behind '#' */
	for (char *line = buf, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		if (*line || !nl)
			printf("# %s%s\n", prefix, line);
	}
	fflush(stdout);
}

void pa_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

void pa_checked(void)
{
	__atomic_add_fetch(&pa_state->checks, 1, __ATOMIC_SEQ_CST);
}

void pa_fail(const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&pa_state->failures, 1, __ATOMIC_SEQ_CST);
	if (!pa_state->first_failure[0]) {
		va_start(ap, fmt);
		vsnprintf(pa_state->first_failure, sizeof(pa_state->first_failure), fmt, ap);
		va_end(ap);
		pa_ktap_sanitize(pa_state->first_failure);
	}
	va_start(ap, fmt);
	vline("FAIL: ", fmt, ap);
	va_end(ap);
}

void pa_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pa_state->skip_reason, sizeof(pa_state->skip_reason), fmt, ap);
	va_end(ap);
	pa_ktap_sanitize(pa_state->skip_reason);
	pa_state->skipped = 1;
	fflush(stdout);
	exit(PA_SKIP);
}

void pa_retry(int tries, bool (*attempt)(void *arg, char *seen, size_t len),
	      void *arg, const char *why)
{
	char first[256] = "", seen[256];
	bool same = true;

	for (int i = 1; i <= tries; i++) {
		seen[0] = 0;
		if (attempt(arg, seen, sizeof(seen)))
			return;
		if (!seen[0])
			snprintf(seen, sizeof(seen), "(the attempt did not say)");
		pa_diag("try %d of %d spoiled: %s", i, tries, seen);
		if (i == 1)
			snprintf(first, sizeof(first), "%s", seen);
		else if (strcmp(first, seen))
			same = false;
	}
	if (same && tries > 1) {
		pa_fail("every one of %d tries: %s", tries, first);
		pa_abort();
	}
	pa_skip("%s (%d tries, spoiled differently; the first: %s)", why, tries, first);
}

void pa_abort(void)
{
	fflush(stdout);
	exit(PA_FAIL);
}

bool pa_since(const char *version, const char *what)
{
	bool now = pa_kernel_at_least(version);
	struct pa_kver k = pa_kernel();

	snprintf(pa_state->variant, sizeof(pa_state->variant),
		 "%s behaviour (%s %s): %s", now ? "new" : "old",
		 now ? "since" : "before", version, what);
	pa_ktap_sanitize(pa_state->variant);
	pa_diag("kernel %d.%d.%d: expecting the %s behaviour, %s %s: %s",
		k.major, k.minor, k.patch, now ? "new" : "old",
		now ? "since" : "before", version, what);
	return now;
}

static const char *const opnames[] = { "==", "!=", "<", "<=", ">", ">=" };

bool pa_cmp(struct pa_val a, enum pa_op op, struct pa_val b)
{
	int c;

	/* compare mathematically, whatever the signedness of each side */
	bool aneg = a.is_signed && (int64_t)a.bits < 0;
	bool bneg = b.is_signed && (int64_t)b.bits < 0;

	if (aneg != bneg)
		c = aneg ? -1 : 1;
	else if (aneg)
		c = (int64_t)a.bits < (int64_t)b.bits ? -1 : (a.bits != b.bits);
	else
		c = a.bits < b.bits ? -1 : (a.bits != b.bits);
	switch (op) {
	case PA_EQ: return c == 0;
	case PA_NE: return c != 0;
	case PA_LT: return c < 0;
	case PA_LE: return c <= 0;
	case PA_GT: return c > 0;
	case PA_GE: return c >= 0;
	}
	return false;
}

static void fmt_val(char *buf, size_t len, struct pa_val v)
{
	if (v.is_signed && (int64_t)v.bits < 0)
		snprintf(buf, len, "%lld", (long long)(int64_t)v.bits);
	else if (v.bits > 0xffff)
		snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)v.bits,
			 (unsigned long long)v.bits);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v.bits);
}

bool pa_check_cmp(struct pa_val a, enum pa_op op, struct pa_val b,
		  const char *as, const char *bs, const char *file, int line)
{
	char av[48], bv[48];

	pa_checked();
	if (pa_cmp(a, op, b))
		return true;
	fmt_val(av, sizeof(av), a);
	fmt_val(bv, sizeof(bv), b);
	pa_fail("%s:%d: expected %s %s %s\n  %s = %s\n  %s = %s", file, line,
		as, opnames[op], bs, as, av, bs, bv);
	return false;
}

bool pa_check_true(bool ok, const char *expr, const char *file, int line)
{
	pa_checked();
	if (!ok)
		pa_fail("%s:%d: expected %s to be true", file, line, expr);
	return ok;
}

bool pa_check_errno(long ret, int err, int want, const char *expr,
		    const char *file, int line)
{
	pa_checked();
	if (ret == -1 && err == want)
		return true;
	if (ret != -1)
		pa_fail("%s:%d: %s returned %ld, expected it to fail with %s",
			file, line, expr, ret, pa_errno_name(want));
	else
		pa_fail("%s:%d: %s failed with %s, expected %s", file, line,
			expr, pa_errno_name(err), pa_errno_name(want));
	return false;
}

bool pa_check_ok(long ret, int err, const char *expr, const char *file, int line)
{
	pa_checked();
	if (ret != -1)
		return true;
	pa_fail("%s:%d: %s failed with %s, expected success", file, line,
		expr, pa_errno_name(err));
	return false;
}
