// SPDX-License-Identifier: GPL-2.0
/*
 * The pure parts of the harness: version arithmetic, requirement evaluation,
 * outcome classification and the KTAP emitter/parser. No I/O except to the
 * FILE handed in, so tests/unit/ covers them with cmocka.
 */
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>

const char *pa_outcome_name(enum pa_outcome o)
{
	switch (o) {
	case PA_PASS: return "pass";
	case PA_FAIL: return "fail";
	case PA_XFAIL: return "xfail";
	case PA_XPASS: return "xpass";
	case PA_SKIP: return "skip";
	case PA_MISSING: return "missing";
	}
	return "?";
}

int pa_outcome_parse(const char *s)
{
	for (int o = PA_PASS; o <= PA_SKIP; o++)
		if (!strcmp(s, pa_outcome_name((enum pa_outcome)o)))
			return o;
	return -1;
}

void pa_result_name(struct pa_result *r, const char *name)
{
	size_t at = strcspn(name, "@");

	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->cas, sizeof(r->cas), "%.*s", (int)at, name);
	snprintf(r->cell, sizeof(r->cell), "%s", name[at] ? name + at + 1 : "");
}

static const struct { int err; const char *name; } errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
	{ EINTR, "EINTR" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" },
	{ ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" }, { EXDEV, "EXDEV" }, { ENODEV, "ENODEV" },
	{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
	{ ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
	{ EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" },
	{ EROFS, "EROFS" }, { EPIPE, "EPIPE" }, { ERANGE, "ERANGE" },
	{ ENOSYS, "ENOSYS" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EOVERFLOW, "EOVERFLOW" }, { ETIMEDOUT, "ETIMEDOUT" },
	{ ENOTSUP, "ENOTSUP" }, { EBADFD, "EBADFD" }, { ENODATA, "ENODATA" },
};

const char *pa_errno_name(int err)
{
	static __thread char buf[32];

	if (err == 0)
		return "0 (no error)";
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* ---- versions ---------------------------------------------------------- */
int pa_kver_parse(const char *s, struct pa_kver *v)
{
	int n[3] = { 0, 0, 0 }, i = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	while (i < 3) {
		if (!isdigit((unsigned char)*s))
			return -1;
		long x = 0;
		while (isdigit((unsigned char)*s)) {
			x = x * 10 + (*s++ - '0');
			if (x > 100000)
				return -1;
		}
		n[i++] = (int)x;
		if (*s != '.')
			break;
		s++;
	}
	if (i < 2)
		return -1;
	v->major = n[0];
	v->minor = n[1];
	v->patch = n[2];
	return 0;
}

int pa_kver_cmp(struct pa_kver a, struct pa_kver b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.patch != b.patch)
		return a.patch < b.patch ? -1 : 1;
	return 0;
}

/*
 * Debian names its kernels by ABI ("6.1.0-47-amd64") and keeps the upstream
 * version in uname -v ("#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (...)").
 * Stable backports are ranged by the upstream version, so prefer it.
 */
int pa_kver_from_uname(const char *release, const char *version,
		       struct pa_kver *out)
{
	struct pa_kver r;

	if (pa_kver_parse(release, &r))
		return -1;
	*out = r;
	if (version) {
		const char *d = strstr(version, "Debian ");
		struct pa_kver dv;

		if (d && !pa_kver_parse(d + 7, &dv) && dv.major == r.major &&
		    dv.minor == r.minor && pa_kver_cmp(dv, r) > 0)
			*out = dv;
	}
	return 0;
}

/* ---- requirements --------------------------------------------------------- */
int pa_range_parse(const char *s, int *lo, int *hi)
{
	char *end;
	const char *dots = strstr(s, "..");

	*lo = INT_MIN;
	*hi = INT_MAX;
	if (!dots) {
		long v = strtol(s, &end, 10);
		if (end == s || *end)
			return -1;
		*lo = *hi = (int)v;
		return 0;
	}
	if (dots != s) {
		long v = strtol(s, &end, 10);
		if (end != dots)
			return -1;
		*lo = (int)v;
	}
	if (dots[2]) {
		long v = strtol(dots + 2, &end, 10);
		if (*end || end == dots + 2)
			return -1;
		*hi = (int)v;
	}
	return *lo <= *hi ? 0 : -1;
}

int pa_context_pmu_type(const struct pa_context *ctx, const char *name)
{
	for (int i = 0; i < ctx->npmus; i++)
		if (!strcmp(ctx->pmus[i].name, name))
			return ctx->pmus[i].type;
	return -1;
}

static const char *capname(int cap)
{
	switch (cap) {
	case PA_CAP_KILL: return "CAP_KILL";
	case PA_CAP_SETUID: return "CAP_SETUID";
	case PA_CAP_IPC_LOCK: return "CAP_IPC_LOCK";
	case PA_CAP_SYS_PTRACE: return "CAP_SYS_PTRACE";
	case PA_CAP_SYS_ADMIN: return "CAP_SYS_ADMIN";
	case PA_CAP_SYSLOG: return "CAP_SYSLOG";
	case PA_CAP_PERFMON: return "CAP_PERFMON";
	}
	return "a capability";
}

#define UNMET(...) (snprintf(buf, len, __VA_ARGS__), buf)

const char *pa_requirements_unmet(const struct pa_case *c,
				  const struct pa_context *ctx,
				  char *buf, size_t len)
{
	struct pa_kver v;
	int lo, hi;

	if (c->min_kernel) {
		if (pa_kver_parse(c->min_kernel, &v))
			return UNMET("bad min_kernel '%s' in the case", c->min_kernel);
		if (pa_kver_cmp(ctx->kernel, v) < 0)
			return UNMET("kernel %d.%d.%d is older than %s",
				     ctx->kernel.major, ctx->kernel.minor,
				     ctx->kernel.patch, c->min_kernel);
	}
	if (c->max_kernel) {
		if (pa_kver_parse(c->max_kernel, &v))
			return UNMET("bad max_kernel '%s' in the case", c->max_kernel);
		if (pa_kver_cmp(ctx->kernel, v) >= 0)
			return UNMET("kernel %d.%d.%d is %s or newer",
				     ctx->kernel.major, ctx->kernel.minor,
				     ctx->kernel.patch, c->max_kernel);
	}
	if (c->root && ctx->uid != 0)
		return UNMET("needs root (running as uid %u)", (unsigned)ctx->uid);
	for (int cap = 0; cap < 64; cap++)
		if ((c->caps & PA_CAP(cap)) && !(ctx->caps & PA_CAP(cap)))
			return UNMET("needs %s in the effective set", capname(cap));
	if (c->paranoid) {
		if (pa_range_parse(c->paranoid, &lo, &hi))
			return UNMET("bad paranoid range '%s' in the case", c->paranoid);
		if (ctx->paranoid < lo || ctx->paranoid > hi)
			return UNMET("needs perf_event_paranoid in %s (it is %d)",
				     c->paranoid, ctx->paranoid);
	}
	if (c->min_cpus > 0 && ctx->ncpus < c->min_cpus)
		return UNMET("needs %d online CPUs (%d online)", c->min_cpus, ctx->ncpus);
	if (c->pmu && pa_context_pmu_type(ctx, c->pmu) < 0)
		return UNMET("no '%s' PMU in /sys/bus/event_source/devices", c->pmu);
	if (c->tracefs && !ctx->tracefs && !ctx->tracepoint_ids && ctx->uid != 0)
		return UNMET("tracefs events/ not readable by uid %u (tracefs is root-only by default) or not mounted",
			     (unsigned)ctx->uid);
	if (c->tracefs && !ctx->tracefs && !ctx->tracepoint_ids)
		return UNMET("tracefs is not mounted (looked in /sys/kernel/tracing and /sys/kernel/debug/tracing)");
	if (c->hw_pmu && ctx->hw_pmu != 1)
		return UNMET("no hardware PMU: %s",
			     ctx->hw_pmu_reason[0] ? ctx->hw_pmu_reason : "not probed");
	if (c->destructive && !ctx->destructive)
		return UNMET("destructive: a kernel without fix %s may crash or hang; runs only under --vm or with --destructive",
			     c->fix.commit ? c->fix.commit : "(none named)");
	if (c->destructive && pa_known_bug_applies(&c->xfail, ctx->kernel)) {
		char range[160];

		pa_known_bug_range(&c->xfail, range, sizeof(range));
		return UNMET("destructive, not run: kernel %d.%d.%d is in the known range of the bug (%s) fixed by %s",
			     ctx->kernel.major, ctx->kernel.minor, ctx->kernel.patch, range,
			     c->xfail.fix ? c->xfail.fix : c->fix.commit ? c->fix.commit : "?");
	}
	return NULL;
}

void pa_known_bug_range(const struct pa_known_bug *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s",
		 b->from ? b->from : "", b->from ? ".." : "", b->from && b->to ? b->to : "",
		 b->from && b->fixed_in ? ", fixed in " : "", b->from && b->fixed_in ? b->fixed_in : "",
		 b->from && b->windows ? "; " : "", b->windows ? b->windows : "");
}

/* k inside one "A..B" of pa_known_bug.windows (perfabi.h) */
static bool in_window(const char *w, size_t len, struct pa_kver k)
{
	char a[32] = "", z[32] = "";
	const char *dots = memmem(w, len, "..", 2);
	struct pa_kver lo, hi;

	if (!dots || (size_t)(dots - w) >= sizeof(a) || len - (size_t)(dots - w) - 2 >= sizeof(z))
		return false;
	memcpy(a, w, (size_t)(dots - w));
	memcpy(z, dots + 2, len - (size_t)(dots - w) - 2);
	if (pa_kver_parse(a, &lo) || pa_kver_cmp(k, lo) < 0)
		return false;
	/* three numbers: that stable branch only */
	if (strchr(strchr(a, '.') + 1, '.') && (k.major != lo.major || k.minor != lo.minor))
		return false;
	return !z[0] || (!pa_kver_parse(z, &hi) && pa_kver_cmp(k, hi) < 0);
}

static bool in_windows(const char *ws, struct pa_kver k)
{
	for (const char *p = ws; p && *p; ) {
		size_t n = strcspn(p, " ");

		if (n && in_window(p, n, k))
			return true;
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

bool pa_known_bug_applies(const struct pa_known_bug *b, struct pa_kver k)
{
	struct pa_kver from, to;

	if (b && in_windows(b->windows, k))
		return true;
	if (!b || !b->from || pa_kver_parse(b->from, &from))
		return false;
	if (pa_kver_cmp(k, from) < 0)
		return false;
	if (b->to && !pa_kver_parse(b->to, &to) && pa_kver_cmp(k, to) >= 0)
		return false;
	for (const char *p = b->fixed_in; p && *p; ) {
		char one[32];
		size_t n = strcspn(p, " ");
		struct pa_kver f;

		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (!pa_kver_parse(one, &f) && f.major == k.major && f.minor == k.minor &&
		    k.patch >= f.patch)
			return false;
		p += n;
		p += strspn(p, " ");
	}
	return true;
}

enum pa_outcome pa_classify(enum pa_outcome raw, const struct pa_known_bug *b,
			    struct pa_kver k)
{
	if (!pa_known_bug_applies(b, k))
		return raw;
	if (raw == PA_FAIL)
		return PA_XFAIL;
	if (raw == PA_PASS)
		return PA_XPASS;
	return raw;
}

/* A JSON string (RFC 8259): quotes, backslashes and control characters
 * escaped; the text is UTF-8 already (pa_text_sanitize()). */
void pa_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* ---- KTAP ------------------------------------------------------------- */
void pa_ktap_header(FILE *f, int planned)
{
	fprintf(f, PA_KTAP_VERSION "\n1..%d\n", planned);
}

/*
 * Text from the kernel or a case reaches KTAP, TSV, JSON, JUnit and HTML:
 * make it one line of valid UTF-8 here, once. Control characters become a
 * space; a byte that does not start or continue a well-formed UTF-8
 * sequence (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF)
 * becomes '?'.
 */
static size_t utf8_seq(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n;
	unsigned int lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

void pa_text_sanitize(char *s, bool keep_newlines)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq(p);

		if (n == 0) {
			*p++ = '?';
		} else if (n == 1) {
			if ((*p < 0x20 && !(keep_newlines && *p == '\n')) || *p == 0x7f)
				*p = ' ';
			p++;
		} else {
			p += n;
		}
	}
}

void pa_ktap_sanitize(char *s)
{
	pa_text_sanitize(s, false);
}

/*
 * Result lines as the kernel's own tools write them (ktap.rst, kselftest.h):
 * "ok N name", "not ok N name", "ok N name # SKIP reason", and kselftest's
 * expected-failure pair "ok N name # XFAIL reason" / "ok N name # XPASS
 * reason". The name is the result's stable name and nothing else: a pass's
 * note or a failure's reason is a "# detail: ..." diagnostic line printed
 * just before the result line.
 */
void pa_ktap_result(FILE *f, int n, const char *name, enum pa_outcome o,
		    const char *detail)
{
	char d[512] = "";

	if (detail) {
		snprintf(d, sizeof(d), "%s", detail);
		pa_ktap_sanitize(d);
	}
	switch (o) {
	case PA_SKIP:
		fprintf(f, "ok %d %s # SKIP %s\n", n, name, d[0] ? d : "no reason given");
		break;
	case PA_XFAIL:
		fprintf(f, "ok %d %s # XFAIL %s\n", n, name, d);
		break;
	case PA_XPASS:
		fprintf(f, "ok %d %s # XPASS %s\n", n, name, d);
		break;
	default:
		if (d[0])
			fprintf(f, "%s%s\n", PA_KTAP_DETAIL, d);
		fprintf(f, "%s %d %s\n", o == PA_FAIL ? "not ok" : "ok", n, name);
	}
	fflush(f);
}

const char *pa_ktap_detail_line(const char *line)
{
	size_t l = strlen(PA_KTAP_DETAIL);

	return strncmp(line, PA_KTAP_DETAIL, l) ? NULL : line + l;
}

int pa_ktap_parse_result(const char *line, int *n, char *name, size_t nlen,
			 enum pa_outcome *o, char *detail, size_t dlen)
{
	bool ok;
	const char *p = line, *dir;
	size_t l;

	if (!strncmp(p, "not ok ", 7)) {
		ok = false;
		p += 7;
	} else if (!strncmp(p, "ok ", 3)) {
		ok = true;
		p += 3;
	} else {
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	*n = (int)strtol(p, (char **)&p, 10);
	while (*p == ' ')
		p++;
	l = strcspn(p, " \n");
	snprintf(name, nlen, "%.*s", (int)l, p);
	p += l;
	detail[0] = 0;
	*o = ok ? PA_PASS : PA_FAIL;
	dir = strstr(p, " # ");
	if (dir) {
		const char *w = dir + 3;
		if (!strncmp(w, "TODO ", 5) && (!strncmp(w + 5, "XFAIL", 5) || !strncmp(w + 5, "XPASS", 5)))
			w += 5;	/* results written before kselftest's form */
		if (!strncmp(w, "SKIP", 4)) {
			*o = PA_SKIP;
			w += 4;
		} else if (!strncmp(w, "XFAIL", 5)) {
			*o = PA_XFAIL;
			w += 5;
		} else if (!strncmp(w, "XPASS", 5)) {
			*o = PA_XPASS;
			w += 5;
		} else if (!strncmp(w, "TODO", 4)) {
			*o = ok ? PA_XPASS : PA_XFAIL;
			w += 4;
		}
		while (*w == ' ')
			w++;
		snprintf(detail, dlen, "%s", w);
	} else if (!strncmp(p, " - ", 3)) {
		snprintf(detail, dlen, "%s", p + 3);
	}
	detail[strcspn(detail, "\n")] = 0;
	return 1;
}
