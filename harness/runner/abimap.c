// SPDX-License-Identifier: GPL-2.0
#include "abimap.h"
#include "runner.h"

#include <ctype.h>

int pa_abimap_parse(const char *text, const char *path, struct pa_abimap *m,
		    char *err, size_t errlen)
{
	int cap = 0, lineno = 0;

	memset(m, 0, sizeof(*m));
	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], *s, *name;

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (nl ? 1 : 0);
		for (s = line; isspace((unsigned char)*s); s++)
			;
		if (!*s || *s == '#')
			continue;
		name = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (strlen(name) >= sizeof(m->e[0].name) || !strchr(name, '.')) {
			snprintf(err, errlen, "%s:%d: bad element '%s' (want area.name)", path, lineno, name);
			pa_abimap_free(m);
			return -1;
		}
		/* "untestable: why" (no case can check it anywhere) or
		 * "hardware: why" (a case checks it, where the hardware exists) */
		size_t kw = !strncmp(s, "untestable:", 11) ? 11 : !strncmp(s, "hardware:", 9) ? 9 : 0;

		if (*s && !kw) {
			snprintf(err, errlen, "%s:%d: after '%s' only 'untestable: reason' or 'hardware: reason' may follow", path, lineno, name);
			pa_abimap_free(m);
			return -1;
		}
		if (*s && !s[kw + strspn(s + kw, " \t")]) {
			snprintf(err, errlen, "%s:%d: '%s' is marked %.*s without a reason", path, lineno, name,
				 (int)kw - 1, s);
			pa_abimap_free(m);
			return -1;
		}
		for (int i = 0; i < m->n; i++)
			if (!strcmp(m->e[i].name, name)) {
				snprintf(err, errlen, "%s:%d: '%s' is listed twice", path, lineno, name);
				pa_abimap_free(m);
				return -1;
			}
		if (m->n == cap) {
			struct pa_abi_element *ne;

			cap = cap ? cap * 2 : 256;
			ne = realloc(m->e, (size_t)cap * sizeof(*ne));
			if (!ne) {
				snprintf(err, errlen, "out of memory");
				pa_abimap_free(m);
				return -1;
			}
			m->e = ne;
		}
		memset(&m->e[m->n], 0, sizeof(m->e[0]));
		snprintf(m->e[m->n].name, sizeof(m->e[0].name), "%s", name);
		if (*s)
			snprintf(kw == 11 ? m->e[m->n].untestable : m->e[m->n].hardware,
				 sizeof(m->e[0].untestable), "%s", s + kw + strspn(s + kw, " \t"));
		m->n++;
	}
	return 0;
}

int pa_abimap_load(const char *path, struct pa_abimap *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!f) {
		snprintf(err, errlen, "cannot read the ABI map %s: %s", path, strerror(errno));
		return -1;
	}
	FILE *mem = open_memstream(&text, &len);
	char buf[4096];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(f);
	fclose(mem);
	rc = pa_abimap_parse(text, path, m, err, errlen);
	free(text);
	return rc;
}

void pa_abimap_free(struct pa_abimap *m)
{
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

int pa_abimap_cover(struct pa_abimap *m, const char *covers, const char *casename,
		    FILE *out)
{
	char buf[1024], *save = NULL;
	int unknown = 0;

	snprintf(buf, sizeof(buf), "%s", covers);
	for (char *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
		int i;

		for (i = 0; i < m->n; i++)
			if (!strcmp(m->e[i].name, t))
				break;
		if (i == m->n) {
			unknown++;
			if (out)
				fprintf(out, "%s: covers '%s', which is not in the ABI map\n", casename, t);
			continue;
		}
		m->e[i].covered++;
	}
	return unknown;
}

struct pa_abimap_stats pa_abimap_stats(const struct pa_abimap *m)
{
	struct pa_abimap_stats s = { m->n, 0, 0, 0, 0 };

	for (int i = 0; i < m->n; i++) {
		if (m->e[i].hardware[0])
			s.hardware++;
		if (m->e[i].covered)
			s.covered++;
		else if (m->e[i].untestable[0])
			s.untestable++;
		else
			s.missing++;
	}
	return s;
}
