// SPDX-License-Identifier: GPL-2.0
/* harness/lib/ring.c on rings and records built here: the documented
 * sample layout, the reading protocol across the wrap, and the failures
 * a malformed ring or record must give. */
#include "unit.h"

#include <fcntl.h>

/* ---- a ring in ordinary memory: control page + 2 data pages ---- */
static struct pa_ring ring;
static uint64_t wpos;		/* where the "kernel" writes next */

static int ring_setup(void **state)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(m != MAP_FAILED);
	memset(&ring, 0, sizeof(ring));
	ring.fd = -1;
	ring.page = (struct perf_event_mmap_page *)m;
	ring.data = m + psz;
	ring.data_size = 2 * psz;
	ring.map_len = 3 * psz;
	wpos = 0;
	return 0;
}

static int ring_teardown(void **state)
{
	(void)state;
	pa_ring_unmap(&ring);
	assert_null(ring.page);
	return 0;
}

/* Write len bytes at the ring position, wrapping, and publish data_head. */
static void ring_put(const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring.data[(wpos + i) % ring.data_size] = ((const unsigned char *)rec)[i];
	wpos += len;
	ring.page->data_head = wpos;
}

static void ring_put_rec(uint32_t type, uint16_t size, uint32_t first)
{
	unsigned char b[256] = { 0 };
	struct perf_event_header h = { type, 0, size };

	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), &first, sizeof(first));
	for (size_t i = sizeof(h) + 4; i < size; i++)
		b[i] = (unsigned char)i;
	ring_put(b, size);
}

static void ring_reads_records_in_order(void **state)
{
	const struct perf_event_header *h;

	(void)state;
	assert_null(pa_ring_next(&ring));	/* empty */
	ring_put_rec(PERF_RECORD_COMM, 24, 11);
	ring_put_rec(PERF_RECORD_EXIT, 40, 22);
	ring_put_rec(PERF_RECORD_COMM, 8, 0);	/* a header only */
	ring_put_rec(PERF_RECORD_COMM, 16, 33);
	h = pa_ring_next(&ring);
	assert_non_null(h);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_int_equal(h->size, 24);
	assert_int_equal(ring.page->data_tail, 24);	/* consumed */
	/* the header-only record is too short to have a pid: passed over */
	h = pa_ring_find_pid(&ring, PERF_RECORD_COMM, 33);
	assert_non_null(h);
	assert_int_equal(h->size, 16);
	assert_int_equal(ring.tail, 24 + 40 + 8 + 16);
	assert_null(pa_ring_find(&ring, PERF_RECORD_COMM));
	assert_int_equal(pa_ring_head(&ring), ring.tail);
}

static void ring_copies_a_record_across_the_wrap(void **state)
{
	unsigned char filler[64] = { 0 };
	struct perf_event_header fh = { PERF_RECORD_LOST, 0, 64 };
	const struct perf_event_header *h;
	int n = 0;

	(void)state;
	memcpy(filler, &fh, sizeof(fh));
	/* fill to 40 bytes before the end, then a 200-byte record */
	while (wpos + 64 <= ring.data_size - 40)
		ring_put(filler, 64), n++;
	while (wpos < ring.data_size - 40) {
		unsigned char small[8];
		struct perf_event_header sh = { PERF_RECORD_LOST, 0, 8 };

		memcpy(small, &sh, 8);
		ring_put(small, 8);
		n++;
	}
	/* read them first: the writer never overwrites unread data */
	assert_int_equal(pa_ring_count(&ring, PERF_RECORD_LOST), n);
	assert_int_equal(ring.page->data_tail, ring.data_size - 40);
	ring_put_rec(PERF_RECORD_MMAP, 200, 0xabcdef);
	h = pa_ring_next(&ring);
	assert_non_null(h);
	assert_int_equal(ring.tail, ring.data_size + 160);
	assert_int_equal(h->type, PERF_RECORD_MMAP);
	assert_int_equal(h->size, 200);
	assert_int_equal(*(const uint32_t *)(h + 1), 0xabcdef);
	for (size_t i = sizeof(*h) + 4; i < 200; i++)
		assert_int_equal(((const unsigned char *)h)[i], (unsigned char)i);
}

static void do_ring_next(void *p)
{
	(void)p;
	pa_ring_next(&ring);
	printf("not reached\n");
}

static void ring_fails_on_a_torn_header(void **state)
{
	struct child c;

	(void)state;
	ring.page->data_head = 4;	/* less than a header */
	run_child(&c, do_ring_next, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure,
			    "ring: 4 bytes between data_tail and data_head, less than a header");
	assert_null(strstr(c.out, "not reached"));
}

static void ring_fails_on_bad_sizes(void **state)
{
	struct child c;

	(void)state;
	{
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 4 };	/* below a header */

	ring_put(&h, sizeof(h));
	ring.page->data_head = 16;
	run_child(&c, do_ring_next, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure,
			    "ring: record at 0 has size 4 (type 3), 16 bytes available");
	}
	wpos = 0;
	ring_put_rec(PERF_RECORD_COMM, 48, 0);	/* more than was published */
	ring.page->data_head = 24;
	run_child(&c, do_ring_next, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure,
			    "ring: record at 0 has size 48 (type 3), 24 bytes available");
}

/* ---- the documented PERF_RECORD_SAMPLE layout ---- */
static void sample_size_of_every_part(void **state)
{
	struct perf_event_attr a;
	struct pa_sample_var v = { .group_nr = 2 };

	(void)state;
	memset(&a, 0, sizeof(a));
	assert_int_equal(pa_sample_size(&a, NULL), 8);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	v.branch_nr = 3;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 8 + 3 * 24);
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 8 + 8 + 3 * 24);
	a.branch_sample_type |= PERF_SAMPLE_BRANCH_COUNTERS;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 8 + 8 + 3 * 24 + 3 * 8);
	a.sample_type = PERF_SAMPLE_AUX;
	v.aux_size = 40;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 8 + 40);
	a.sample_type = PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			PERF_FORMAT_TOTAL_TIME_ENABLED;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 8 + 8 + 2 * 24);
	a.read_format = PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_RUNNING;
	assert_int_equal(pa_sample_size(&a, &v), 8 + 24);
	assert_int_equal(pa_read_format_size(PERF_FORMAT_GROUP, 0), 8);
	/* the sample_id trailer */
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER |
			PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	assert_int_equal(pa_sample_id_size(&a), 0);
	a.sample_id_all = 1;
	assert_int_equal(pa_sample_id_size(&a), 48);
}

/* A sample with a branch stack (hw_idx and counters) and an AUX part. */
static size_t build_branch_aux(unsigned char *b, uint16_t extra)
{
	uint64_t *q = (uint64_t *)(b + 8);
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	size_t n = 0;

	q[n++] = 0x401000;		/* ip */
	q[n++] = 2;			/* bnr */
	q[n++] = 77;			/* hw_idx */
	for (int i = 0; i < 6; i++)	/* 2 x {from, to, flags} */
		q[n++] = 0x1000 + (uint64_t)i;
	q[n++] = 0xc1;			/* counters */
	q[n++] = 0xc2;
	q[n++] = 16;			/* aux size */
	q[n++] = 0xaaaa;
	q[n++] = 0xbbbb;
	h.size = (uint16_t)(8 + n * 8 + extra);
	memcpy(b, &h, sizeof(h));
	return h.size;
}

static struct perf_event_attr branch_aux_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_AUX;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX |
			       PERF_SAMPLE_BRANCH_COUNTERS;
	return a;
}

static void sample_parse_branch_and_aux(void **state)
{
	uint64_t b[32] = { 0 };
	struct perf_event_attr a = branch_aux_attr();
	struct pa_sample s;

	(void)state;
	build_branch_aux((unsigned char *)b, 0);
	assert_true(pa_sample_parse(&a, (struct perf_event_header *)b, &s));
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.var.branch_nr, 2);
	assert_int_equal(((const uint64_t *)s.branches)[0], 0x1000);
	assert_int_equal(((const uint64_t *)s.branches)[5], 0x1005);
	assert_int_equal(s.var.aux_size, 16);
	assert_int_equal(((const uint64_t *)s.aux)[0], 0xaaaa);
	assert_int_equal(((const uint64_t *)s.aux)[1], 0xbbbb);
}

struct parsearg {
	struct perf_event_attr attr;
	uint64_t rec[32];
};

static void do_parse(void *p)
{
	struct parsearg *pa = p;
	struct pa_sample s;

	printf("parse %s\n", pa_sample_parse(&pa->attr, (struct perf_event_header *)pa->rec, &s) ?
	       "true" : "false");
}

static void sample_parse_refuses(void **state)
{
	struct parsearg pa = { .attr = branch_aux_attr() };
	struct perf_event_header *h = (struct perf_event_header *)pa.rec;
	struct child c;
	size_t size;

	(void)state;
	/* 8 bytes more than the layout: a size mismatch */
	size = build_branch_aux((unsigned char *)pa.rec, 8);
	run_child(&c, do_parse, &pa);
	assert_non_null(strstr(c.out, "parse false"));
	assert_string_equal(c.st.first_failure,
			    "PERF_RECORD_SAMPLE size 128, the documented layout of sample_type 0x100801 read_format 0 gives 120");
	assert_int_equal(size, 128);
	/* cut inside the AUX data: ends before the documented fields */
	h->size = 112;
	run_child(&c, do_parse, &pa);
	assert_non_null(strstr(c.out, "parse false"));
	assert_string_equal(c.st.first_failure,
			    "PERF_RECORD_SAMPLE of size 112 ends before the fields sample_type 0x100801 documents");
	/* cut before the aux size word */
	h->size = 96;
	run_child(&c, do_parse, &pa);
	assert_non_null(strstr(c.st.first_failure, "of size 96 ends before"));
	/* not a sample at all */
	h->type = PERF_RECORD_MMAP;
	run_child(&c, do_parse, &pa);
	assert_string_equal(c.st.first_failure, "record type 1 is not PERF_RECORD_SAMPLE");
}

static void do_ring_sample(void *p)
{
	struct perf_event_attr *a = p;
	struct pa_sample s;

	pa_ring_sample(&ring, a, &s);
	printf("sample ip %#llx\n", (unsigned long long)s.ip);
}

static void ring_sample_paths(void **state)
{
	struct perf_event_attr a;
	uint64_t rec[3] = { 0, 0x4242, 0x77 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 16 };
	struct child c;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP;
	run_child(&c, do_ring_sample, &a);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure, "no PERF_RECORD_SAMPLE in the ring (data_head 0)");
	memcpy(rec, &h, sizeof(h));
	ring_put_rec(PERF_RECORD_COMM, 16, 1);
	ring_put(rec, 16);
	run_child(&c, do_ring_sample, &a);
	assert_int_equal(c.code, 0);
	assert_non_null(strstr(c.out, "sample ip 0x4242"));
	/* a sample that does not parse ends the case */
	h.size = 24;
	memcpy(rec, &h, sizeof(h));
	ring_put(rec, 24);
	ring.tail = 32;
	run_child(&c, do_ring_sample, &a);
	assert_int_equal(c.code, PA_FAIL);
	assert_non_null(strstr(c.st.first_failure, "PERF_RECORD_SAMPLE size 24"));
}

/* ---- mapping failures: /dev/null cannot be mapped (no mmap: ENODEV) ---- */
static void do_map(void *p)
{
	struct pa_ring r;

	pa_ring_map(&r, *(int *)p, 2);
}

static void do_map_aux(void *p)
{
	ring.fd = *(int *)p;
	pa_ring_map_aux(&ring, 2);
}

static void ring_map_failures(void **state)
{
	int p[2] = { open("/dev/null", O_RDWR | O_CLOEXEC), -1 };
	char want[160];
	struct child c;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	assert_true(p[0] >= 0);
	run_child(&c, do_map, &p[0]);
	assert_int_equal(c.code, PA_FAIL);
	snprintf(want, sizeof(want), "mmap of the ring of fd %d (1 + 2 pages) failed: ENODEV", p[0]);
	assert_string_equal(c.st.first_failure, want);
	run_child(&c, do_map_aux, &p[0]);
	assert_int_equal(c.code, PA_FAIL);
	snprintf(want, sizeof(want), "mmap of the AUX area of fd %d (2 pages at %zu) failed: ENODEV",
		 p[0], 3 * psz);
	assert_string_equal(c.st.first_failure, want);
	close(p[0]);
}

/* ---- waiting for data that never comes ---- */
static void do_fill(void *p)
{
	(void)p;
	pa_ring_fill_to(&ring, 64, 32);
	printf("not reached\n");
}

static void ring_waits_end(void **state)
{
	struct child c;

	(void)state;
	/* nothing writes this ring: a bounded spin says false */
	assert_false(pa_ring_spin_for_data(&ring, 5));
	ring.page->data_head = 8;
	assert_true(pa_ring_spin_for_data(&ring, 5));
	ring.page->data_head = 0;
	run_child(&c, do_fill, NULL);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure, "a page fault wrote no sample (data_head stays 0)");
	ring.page->data_head = 64;
	assert_true(pa_ring_fill_to(&ring, 64, 32));	/* already there */
}

/* ---- a stand-in kernel behind pa_touch_pages() (linked with
 * --wrap=pa_touch_pages): each touch writes `stand_in` bytes into the
 * ring, or the real pages are touched when it is 0 ---- */
void __real_pa_touch_pages(int pages);
static uint64_t stand_in;

void __wrap_pa_touch_pages(int pages)
{
	if (!stand_in) {
		__real_pa_touch_pages(pages);
		return;
	}
	wpos += stand_in;
	ring.page->data_head = wpos;
}

static bool fill_attempt(void *arg, char *seen, size_t len)
{
	uint64_t *per_touch = arg;

	ring.page->data_head = wpos = 0;
	stand_in = *per_touch;
	if (pa_ring_fill_to(&ring, 4 * 16, 16)) {
		EXPECT_EQ(pa_ring_head(&ring), 4 * 16);
		return true;
	}
	pa_ring_fill_deviation(seen, len);
	return false;
}

static void do_fill_retry(void *p)
{
	pa_retry(3, fill_attempt, p, "incidental page faults");
}

static void ring_fill_fails_a_kernel_that_writes_two_records(void **state)
{
	uint64_t per_touch = 16;
	char seen[128];
	struct child c;

	(void)state;
	/* one 16-byte record a fault: the edge is reached */
	run_child(&c, do_fill_retry, &per_touch);
	assert_int_equal(c.code, 0);
	assert_int_equal(c.st.failures, 0);
	/* two records a fault, every time: a FAIL naming the step, not a SKIP */
	per_touch = 32;
	run_child(&c, do_fill_retry, &per_touch);
	assert_int_equal(c.code, PA_FAIL);
	assert_string_equal(c.st.first_failure,
			    "every one of 3 tries: touching one fresh page at data_head 0 wrote 32 bytes, not one 16-byte record");
	/* the deviation is read once */
	stand_in = 32;
	ring.page->data_head = wpos = 0;
	assert_false(pa_ring_fill_to(&ring, 64, 16));
	pa_ring_fill_deviation(seen, sizeof(seen));
	assert_non_null(strstr(seen, "wrote 32 bytes"));
	pa_ring_fill_deviation(seen, sizeof(seen));
	assert_string_equal(seen, "");
	stand_in = 0;
}

static void intel_pt_attr_is_user_only_branch_tracing(void **state)
{
	struct perf_event_attr a;
	int type;

	(void)state;
	memset(&a, 0xff, sizeof(a));
	type = pa_intel_pt_attr(&a);
	assert_int_equal(type, pa_pmu_type("intel_pt"));
	assert_int_equal(a.type, (uint32_t)type);
	assert_int_equal(a.size, sizeof(a));
	assert_int_equal(__builtin_popcountll(a.config), 1);
	assert_true(a.disabled && a.exclude_kernel && a.exclude_hv);
	assert_int_equal(a.sample_type, 0);
	assert_false(a.exclude_user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ring_reads_records_in_order, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_copies_a_record_across_the_wrap, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_fails_on_a_torn_header, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_fails_on_bad_sizes, ring_setup, ring_teardown),
		cmocka_unit_test(sample_size_of_every_part),
		cmocka_unit_test(sample_parse_branch_and_aux),
		cmocka_unit_test(sample_parse_refuses),
		cmocka_unit_test_setup_teardown(ring_sample_paths, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_map_failures, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_waits_end, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(ring_fill_fails_a_kernel_that_writes_two_records, ring_setup, ring_teardown),
		cmocka_unit_test(intel_pt_attr_is_user_only_branch_tracing),
	};
	return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
