// SPDX-License-Identifier: GPL-2.0
/* tracefs format files, parsed; a second thread for tid checks (perfabi.h). */
#include "internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>

/* Parse one "field:..." line into f: true when it is one. */
static bool tp_parse_field(const char *line, struct pa_tp_field *f)
{
	const char *p = strstr(line, "field:"), *semi, *name, *o, *s, *g;
	char decl[160];
	size_t n;
	int sg;

	if (!p)
		return false;
	p += 6;
	semi = strchr(p, ';');
	if (!semi || (size_t)(semi - p) >= sizeof(decl))
		return false;
	n = (size_t)(semi - p);
	memcpy(decl, p, n);
	decl[n] = 0;
	o = strstr(semi, "offset:");
	s = strstr(semi, "size:");
	g = strstr(semi, "signed:");
	if (!o || !s || sscanf(o, "offset:%d", &f->offset) != 1 ||
	    sscanf(s, "size:%d", &f->size) != 1)
		return false;
	f->is_signed = g && sscanf(g, "signed:%d", &sg) == 1 && sg;
	/* the name is the last word of the declaration, less any [N] */
	while (n && decl[n - 1] == ' ')
		decl[--n] = 0;
	f->array = n && decl[n - 1] == ']';
	if (f->array) {
		char *b = strrchr(decl, '[');

		if (b)
			*b = 0;
		n = strlen(decl);
	}
	name = strrchr(decl, ' ');
	name = name ? name + 1 : decl;
	snprintf(f->name, sizeof(f->name), "%s", name);
	decl[name - decl] = 0;
	snprintf(f->type, sizeof(f->type), "%s", decl);
	f->data_loc = !strncmp(decl, "__data_loc", 10);
	f->rel_loc = !strncmp(decl, "__rel_loc", 9);
	return true;
}

/* 0, or -1 when the format file cannot be read or parsed. */
int pa_tp_format_load(const char *sys, const char *event,
				 struct pa_tp_format *fmt)
{
	const char *t = pa_tracefs();
	char path[512], line[512];
	FILE *f;

	memset(fmt, 0, sizeof(*fmt));
	fmt->id = -1;
	if (!t)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", t, sys, event);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "ID:", 3))
			fmt->id = strtol(line + 3, NULL, 10);
		else if (fmt->nr < PA_TP_MAX_FIELDS &&
			 tp_parse_field(line, &fmt->f[fmt->nr]))
			fmt->nr++;
	}
	fclose(f);
	return fmt->id >= 0 && fmt->nr > 0 ? 0 : -1;
}

const struct pa_tp_field *pa_tp_field(const struct pa_tp_format *fmt,
					      const char *name)
{
	for (int i = 0; i < fmt->nr; i++)
		if (!strcmp(fmt->f[i].name, name))
			return &fmt->f[i];
	return NULL;
}

/* The field, which must be in the format and inside a raw entry of
 * raw_size bytes; else the case fails here (a diagnostic names it). */
const struct pa_tp_field *pa_tp_need(const struct pa_tp_format *fmt,
					     const char *name, uint32_t raw_size)
{
	const struct pa_tp_field *f = pa_tp_field(fmt, name);

	if (!f) {
		pa_fail("field '%s' is not in the format file", name);
		pa_abort();
	}
	if (f->offset < 0 || f->size < 0 ||
	    (uint64_t)f->offset + (uint64_t)f->size > raw_size) {
		pa_fail("field '%s' (offset %d, size %d) lies outside the %u-byte raw entry",
			name, f->offset, f->size, (unsigned)raw_size);
		pa_abort();
	}
	return f;
}

/* An integer field (size 1, 2, 4 or 8), sign-extended where the format
 * says signed. */
uint64_t pa_tp_get_u64(const void *raw, const struct pa_tp_field *f)
{
	const unsigned char *p = (const unsigned char *)raw + f->offset;
	uint8_t v1;
	uint16_t v2;
	uint32_t v4;
	uint64_t v8 = 0;

	switch (f->size) {
	case 1:
		memcpy(&v1, p, 1);
		return f->is_signed ? (uint64_t)(int64_t)(int8_t)v1 : v1;
	case 2:
		memcpy(&v2, p, 2);
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)v2 : v2;
	case 4:
		memcpy(&v4, p, 4);
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)v4 : v4;
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	}
	pa_fail("field '%s' has size %d, not an integer size", f->name, f->size);
	pa_abort();
}

/* A string field: a char array, or a __data_loc/__rel_loc string. Copied,
 * NUL-terminated, into buf; the case fails where it lies outside the entry
 * or has no NUL within its bytes. */
const char *pa_tp_get_str(const void *raw, uint32_t raw_size,
				     const struct pa_tp_field *f, char *buf,
				     size_t len)
{
	const char *p;
	uint32_t loc;
	size_t off, n;

	if (f->data_loc || f->rel_loc) {
		memcpy(&loc, (const char *)raw + f->offset, sizeof(loc));
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->rel_loc)
			off += (size_t)f->offset + 4;
	} else {
		off = (size_t)f->offset;
		n = (size_t)f->size;
	}
	if (off + n > raw_size || n == 0) {
		pa_fail("string field '%s' (at %zu, %zu bytes) lies outside the %u-byte raw entry",
			f->name, off, n, (unsigned)raw_size);
		pa_abort();
	}
	p = (const char *)raw + off;
	if (!memchr(p, 0, n)) {
		pa_fail("string field '%s' has no NUL in its %zu bytes", f->name, n);
		pa_abort();
	}
	snprintf(buf, len, "%s", p);
	return buf;
}


/* The format of sys:event for a case that samples its RAW payload: where
 * the open is allowed (want 0) but the format cannot be read here, the
 * fields cannot be located: SKIP. */
bool pa_tp_format_or_skip(const char *sys, const char *event,
				     struct pa_tp_format *fmt, int want)
{
	if (pa_tp_format_load(sys, event, fmt) == 0)
		return true;
	if (!want)
		pa_skip("%s/%s/format not readable by uid %u (tracefs is root-only): the raw fields cannot be located",
			sys, event, (unsigned)geteuid());
	return false;
}

/* The common fields every entry starts with: common_type is the
 * tracepoint id, common_pid the thread that hit it. */
void pa_tp_expect_common(const struct pa_tp_format *fmt, const void *raw,
				    uint32_t raw_size, long id, pid_t tid)
{
	PA_TP_EXPECT_INT(fmt, raw, raw_size, "common_type", id);
	PA_TP_EXPECT_INT(fmt, raw, raw_size, "common_pid", tid);
}


static void *thread_main(void *p)
{
	struct pa_thread *t = p;
	char c = 0;

	t->tid = (pid_t)syscall(SYS_gettid);
	if (t->prep)
		t->prep(t->arg);
	if (write(t->ready[1], &c, 1) != 1 || read(t->go[0], &c, 1) != 1)
		return NULL;
	t->fn(t->arg);
	return NULL;
}

void pa_thread_start(struct pa_thread *t, void (*prep)(void *),
				   void (*fn)(void *), void *arg)
{
	char c;

	memset(t, 0, sizeof(*t));
	t->prep = prep;
	t->fn = fn;
	t->arg = arg;
	ASSERT_OK(pipe2(t->ready, O_CLOEXEC));
	ASSERT_OK(pipe2(t->go, O_CLOEXEC));
	ASSERT_EQ(pthread_create(&t->th, NULL, thread_main, t), 0);
	ASSERT_EQ(read(t->ready[0], &c, 1), 1);
	ASSERT_NE(t->tid, getpid());
}

void pa_thread_run(struct pa_thread *t)
{
	char c = 1;

	ASSERT_EQ(write(t->go[1], &c, 1), 1);
	ASSERT_EQ(pthread_join(t->th, NULL), 0);
	close(t->ready[0]);
	close(t->ready[1]);
	close(t->go[0]);
	close(t->go[1]);
}
