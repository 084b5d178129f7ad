// SPDX-License-Identifier: GPL-2.0
/*
 * Ring-buffer reader for sampling cases (perf_event_open(2), "MMAP layout").
 *
 * The mapping is 1 + 2^n pages: the control page (struct
 * perf_event_mmap_page) and the data area. The reader follows the documented
 * protocol: load data_head, then a read barrier, then read the records
 * between data_tail and data_head; after consuming, a full barrier, then store
 * data_tail. The mapping is PROT_WRITE, so the kernel honours data_tail and
 * never overwrites unread records. A record that straddles the end of the
 * data area is copied into one contiguous buffer; every record handed out is
 * such a copy, so the pointer stays valid after data_tail moved on.
 */
#include "internal.h"

#include <inttypes.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

static size_t pa_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int pa_ring_try_map(struct pa_ring *r, int fd, unsigned data_pages)
{
	size_t psz = pa_page_size();
	void *p;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->map_len = (1 + (size_t)data_pages) * psz;
	p = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->page = p;
	r->data = (unsigned char *)p + psz;
	r->data_size = (size_t)data_pages * psz;
	r->tail = __atomic_load_n(&r->page->data_tail, __ATOMIC_RELAXED);
	return 0;
}

void pa_ring_map(struct pa_ring *r, int fd, unsigned data_pages)
{
	int err = pa_ring_try_map(r, fd, data_pages);

	if (err) {
		pa_fail("mmap of the ring of fd %d (1 + %u pages) failed: %s",
			fd, data_pages, pa_errno_name(-err));
		pa_abort();
	}
}

void pa_ring_unmap(struct pa_ring *r)
{
	if (r->page)
		munmap(r->page, r->map_len);
	r->page = NULL;
	r->data = NULL;
}

uint64_t pa_ring_head(const struct pa_ring *r)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_RELAXED);

	__atomic_thread_fence(__ATOMIC_ACQUIRE);	/* rmb() after data_head */
	return head;
}

static void ring_copy(const struct pa_ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos % r->data_size);
	size_t first = r->data_size - off;

	if (first >= len) {
		memcpy(dst, r->data + off, len);
	} else {
		memcpy(dst, r->data + off, first);
		memcpy((unsigned char *)dst + first, r->data, len - first);
	}
}

const struct perf_event_header *pa_ring_next(struct pa_ring *r)
{
	uint64_t head = pa_ring_head(r);
	struct perf_event_header h;

	if (r->data_size == 0 || head == r->tail)
		return NULL;
	if (head - r->tail < sizeof(h)) {
		pa_fail("ring: %llu bytes between data_tail and data_head, less than a header",
			(unsigned long long)(head - r->tail));
		pa_abort();
	}
	ring_copy(r, r->tail, &h, sizeof(h));
	if (h.size < sizeof(h) || h.size > head - r->tail) {
		pa_fail("ring: record at %llu has size %u (type %u), %llu bytes available",
			(unsigned long long)r->tail, h.size, h.type,
			(unsigned long long)(head - r->tail));
		pa_abort();
	}
	ring_copy(r, r->tail, r->rec.bytes, h.size);
	r->tail += h.size;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* mb() before data_tail */
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELAXED);
	return &r->rec.hdr;
}

const struct perf_event_header *pa_ring_find(struct pa_ring *r, uint32_t type)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_next(r)))
		if (h->type == type)
			return h;
	return NULL;
}

int pa_ring_count(struct pa_ring *r, uint32_t type)
{
	const struct perf_event_header *h;
	int n = 0;

	while ((h = pa_ring_next(r)))
		if (h->type == type)
			n++;
	return n;
}

/* ---- PERF_RECORD_SAMPLE layout ---------------------------------------- */

size_t pa_read_format_size(uint64_t read_format, unsigned nr)
{
	size_t per = 8;		/* value */

	if (read_format & PERF_FORMAT_ID)
		per += 8;
	if (read_format & PERF_FORMAT_LOST)
		per += 8;
	if (read_format & PERF_FORMAT_GROUP) {
		size_t s = 8;	/* nr */

		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			s += 8;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			s += 8;
		return s + (size_t)nr * per;
	}
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		per += 8;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		per += 8;
	return per;
}

size_t pa_sample_size(const struct perf_event_attr *attr,
		      const struct pa_sample_var *v)
{
	static const struct pa_sample_var none = { .group_nr = 1 };
	uint64_t st = attr->sample_type;
	size_t s = sizeof(struct perf_event_header);

	if (!v)
		v = &none;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s += 8;
	if (st & PERF_SAMPLE_IP)
		s += 8;
	if (st & PERF_SAMPLE_TID)
		s += 8;
	if (st & PERF_SAMPLE_TIME)
		s += 8;
	if (st & PERF_SAMPLE_ADDR)
		s += 8;
	if (st & PERF_SAMPLE_ID)
		s += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		s += 8;
	if (st & PERF_SAMPLE_CPU)
		s += 8;
	if (st & PERF_SAMPLE_PERIOD)
		s += 8;
	if (st & PERF_SAMPLE_READ)
		s += pa_read_format_size(attr->read_format, v->group_nr);
	if (st & PERF_SAMPLE_CALLCHAIN)
		s += 8 + 8 * (size_t)v->callchain_nr;
	if (st & PERF_SAMPLE_RAW)	/* u32 size + data, padded to 8 */
		s += ((size_t)v->raw_size + 4 + 7) & ~(size_t)7;
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s += 8 + 24 * (size_t)v->branch_nr;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			s += 8;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			s += 8 * (size_t)v->branch_nr;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s += 8;
		if (v->regs_user_abi)
			s += 8 * (size_t)__builtin_popcountll(attr->sample_regs_user);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s += 8 + (size_t)v->stack_size;
		if (v->stack_size)
			s += 8;	/* dyn_size */
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s += 8;
	if (st & PERF_SAMPLE_DATA_SRC)
		s += 8;
	if (st & PERF_SAMPLE_TRANSACTION)
		s += 8;
	if (st & PERF_SAMPLE_REGS_INTR) {
		s += 8;
		if (v->regs_intr_abi)
			s += 8 * (size_t)__builtin_popcountll(attr->sample_regs_intr);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s += 8;
	if (st & PERF_SAMPLE_CGROUP)
		s += 8;
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s += 8;
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s += 8;
	if (st & PERF_SAMPLE_AUX)
		s += 8 + (size_t)v->aux_size;
	return s;
}

size_t pa_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	size_t s = 0;

	if (!attr->sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID)
		s += 8;
	if (st & PERF_SAMPLE_TIME)
		s += 8;
	if (st & PERF_SAMPLE_ID)
		s += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		s += 8;
	if (st & PERF_SAMPLE_CPU)
		s += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s += 8;
	return s;
}

/* A cursor over the record's body that never reads past its end. */
struct cur {
	const unsigned char *p, *end;
	bool short_read;
};

static uint64_t take_u64(struct cur *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->short_read = true;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static const void *take(struct cur *c, size_t n)
{
	const void *at = c->p;

	if ((size_t)(c->end - c->p) < n) {
		c->short_read = true;
		c->p = c->end;
		return NULL;
	}
	c->p += n;
	return at;
}

/* The fixed-size fields at the front of a sample, IDENTIFIER to PERIOD. */
static void take_fixed(uint64_t st, struct cur *c, struct pa_sample *s)
{
	uint64_t w;

	if (st & PERF_SAMPLE_IDENTIFIER)
		s->identifier = take_u64(c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take_u64(c);
	if (st & PERF_SAMPLE_TID) {
		w = take_u64(c);
		s->pid = (uint32_t)w;
		s->tid = (uint32_t)(w >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take_u64(c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take_u64(c);
	if (st & PERF_SAMPLE_ID)
		s->id = take_u64(c);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take_u64(c);
	if (st & PERF_SAMPLE_CPU) {
		w = take_u64(c);
		s->cpu = (uint32_t)w;
		s->res = (uint32_t)(w >> 32);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take_u64(c);
}

/* The fields whose size the record itself gives, READ to STACK_USER. */
static void take_variable(const struct perf_event_attr *attr, struct cur *c,
			  struct pa_sample *s)
{
	uint64_t st = attr->sample_type, rf = attr->read_format;

	if (st & PERF_SAMPLE_READ) {
		s->read = (const uint64_t *)c->p;
		if ((rf & PERF_FORMAT_GROUP) && c->end - c->p >= 8) {
			uint64_t nr;

			memcpy(&nr, c->p, 8);	/* peek: nr is part of the block */
			s->var.group_nr = (unsigned)nr;
		}
		take(c, pa_read_format_size(rf, s->var.group_nr));
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->var.callchain_nr = take_u64(c);
		s->callchain = take(c, 8 * s->var.callchain_nr);
	}
	if (st & PERF_SAMPLE_RAW) {
		const uint32_t *sz = take(c, 4);

		s->var.raw_size = sz ? *sz : 0;
		s->raw = take(c, s->var.raw_size);
		take(c, (8 - ((4 + s->var.raw_size) & 7)) & 7);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->var.branch_nr = take_u64(c);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			take_u64(c);
		s->branches = take(c, 24 * s->var.branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			take(c, 8 * s->var.branch_nr);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->var.regs_user_abi = take_u64(c);
		if (s->var.regs_user_abi)
			s->regs_user = take(c, 8 * (size_t)__builtin_popcountll(attr->sample_regs_user));
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s->var.stack_size = take_u64(c);
		s->stack = take(c, s->var.stack_size);
		if (s->var.stack_size)
			s->stack_dyn_size = take_u64(c);
	}
}

/* The fields after the user stack, WEIGHT to AUX. */
static void take_tail(const struct perf_event_attr *attr, struct cur *c,
		      struct pa_sample *s)
{
	uint64_t st = attr->sample_type;

	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take_u64(c);
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = take_u64(c);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = take_u64(c);
	if (st & PERF_SAMPLE_REGS_INTR) {
		s->var.regs_intr_abi = take_u64(c);
		if (s->var.regs_intr_abi)
			s->regs_intr = take(c, 8 * (size_t)__builtin_popcountll(attr->sample_regs_intr));
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = take_u64(c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = take_u64(c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = take_u64(c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = take_u64(c);
	if (st & PERF_SAMPLE_AUX) {
		s->var.aux_size = take_u64(c);
		s->aux = take(c, s->var.aux_size);
	}
}

bool pa_sample_parse(const struct perf_event_attr *attr,
		     const struct perf_event_header *rec, struct pa_sample *s)
{
	uint64_t st = attr->sample_type, rf = attr->read_format;
	struct cur c = { (const unsigned char *)(rec + 1),
			 (const unsigned char *)rec + rec->size, false };
	size_t want;

	pa_checked();

	memset(s, 0, sizeof(*s));
	s->var.group_nr = 1;
	if (rec->type != PERF_RECORD_SAMPLE) {
		pa_fail("record type %u is not PERF_RECORD_SAMPLE", rec->type);
		return false;
	}
	/* in the order of the documented layout */
	take_fixed(st, &c, s);
	take_variable(attr, &c, s);
	take_tail(attr, &c, s);
	if (c.short_read) {
		pa_fail("PERF_RECORD_SAMPLE of size %u ends before the fields sample_type %#llx documents",
			rec->size, (unsigned long long)st);
		return false;
	}
	want = pa_sample_size(attr, &s->var);
	if (want != rec->size) {
		pa_fail("PERF_RECORD_SAMPLE size %u, the documented layout of sample_type %#llx read_format %#llx gives %zu",
			rec->size, (unsigned long long)st,
			(unsigned long long)rf, want);
		return false;
	}
	return true;
}

const struct perf_event_header *pa_ring_sample(struct pa_ring *r,
					       const struct perf_event_attr *attr,
					       struct pa_sample *s)
{
	const struct perf_event_header *h = pa_ring_find(r, PERF_RECORD_SAMPLE);

	if (!h) {
		pa_fail("no PERF_RECORD_SAMPLE in the ring (data_head %llu)",
			(unsigned long long)pa_ring_head(r));
		pa_abort();
	}
	if (!pa_sample_parse(attr, h, s))
		pa_abort();
	return h;
}

bool pa_ring_own_sample(struct pa_ring *r, const struct perf_event_attr *attr,
			struct pa_sample *s)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_next(r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u in the ring of fd %d", h->type, r->fd);
			continue;
		}
		if (!pa_sample_parse(attr, h, s))
			pa_abort();
		if (attr->sample_type & PERF_SAMPLE_TID) {
			EXPECT_EQ(s->pid, (uint32_t)getpid());
			EXPECT_EQ(s->tid, (uint32_t)syscall(SYS_gettid));
		}
		return true;
	}
	return false;
}

/* ---- the AUX area ------------------------------------------------------ */

void *pa_ring_try_map_aux(struct pa_ring *r, size_t off, size_t size, int prot)
{
	r->page->aux_offset = off;
	r->page->aux_size = size;
	return mmap(NULL, size, prot, MAP_SHARED, r->fd, (off_t)off);
}

void *pa_ring_map_aux(struct pa_ring *r, unsigned aux_pages)
{
	size_t psz = pa_page_size(), len = (size_t)aux_pages * psz;
	void *p;

	p = pa_ring_try_map_aux(r, r->map_len, len, PROT_READ | PROT_WRITE);
	if (p == MAP_FAILED) {
		pa_fail("mmap of the AUX area of fd %d (%u pages at %zu) failed: %s",
			r->fd, aux_pages, r->map_len, pa_errno_name(errno));
		pa_abort();
	}
	return p;
}

int pa_intel_pt_attr(struct perf_event_attr *attr)
{
	int type = pa_pmu_type("intel_pt"), bit = 13;
	FILE *f = fopen("/sys/bus/event_source/devices/intel_pt/format/branch", "r");

	if (f) {
		if (fscanf(f, "config:%d", &bit) != 1)
			bit = 13;
		fclose(f);
	}
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = (uint32_t)type;
	attr->config = 1ULL << bit;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	return type;
}

void pa_mmap_self_records(struct pa_ring *r, int prot, int *n_mmap, int *n_mmap2)
{
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	int file = ASSERT_OK(open(pa_self_exe(), O_RDONLY | O_CLOEXEC));
	void *m;

	while (pa_ring_next(r))
		;
	m = mmap(NULL, (size_t)psz, prot, MAP_PRIVATE, file, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, (size_t)psz);
	close(file);
	*n_mmap = *n_mmap2 = 0;
	while ((h = pa_ring_next(r))) {
		*n_mmap += h->type == PERF_RECORD_MMAP;
		*n_mmap2 += h->type == PERF_RECORD_MMAP2;
	}
}

const struct perf_event_header *pa_ring_find_pid(struct pa_ring *r, uint32_t type, pid_t pid)
{
	const struct perf_event_header *h;
	uint32_t first;

	while ((h = pa_ring_find(r, type))) {
		if (h->size < sizeof(*h) + sizeof(first))
			continue;
		memcpy(&first, h + 1, sizeof(first));
		if (first == (uint32_t)pid)
			return h;
	}
	return NULL;
}

/* ---- wakeup edges: the ring filled one record at a time ---------------- */

short pa_poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, 0);

	if (n < 0) {
		pa_fail("poll: %s", pa_errno_name(errno));
		pa_abort();
	}
	return n ? p.revents : 0;
}

void pa_ring_prefault(struct pa_ring *r)
{
	volatile unsigned char *d = r->data;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < r->data_size; off += psz)
		(void)d[off];
	(void)pa_ring_head(r);
}

/* One fresh page at a time until data_head is `want`: false when a step
 * wrote other than one `rec`-byte record. */
static char fill_seen[128];

void pa_ring_fill_deviation(char *seen, size_t len)
{
	snprintf(seen, len, "%s", fill_seen);
	fill_seen[0] = 0;
}

bool pa_ring_fill_to(struct pa_ring *r, uint64_t want, uint64_t rec)
{
	uint64_t h = pa_ring_head(r), n;

	while (h < want) {
		pa_touch_pages(1);
		n = pa_ring_head(r);
		if (n == h) {
			pa_fail("a page fault wrote no sample (data_head stays %llu)",
				(unsigned long long)h);
			pa_abort();
		}
		if (n != h + rec) {
			if (!fill_seen[0])
				snprintf(fill_seen, sizeof(fill_seen),
					 "touching one fresh page at data_head %llu wrote %llu bytes, not one %llu-byte record",
					 (unsigned long long)h, (unsigned long long)(n - h),
					 (unsigned long long)rec);
			return false;
		}
		h = n;
	}
	return h == want;
}

/* time_enabled, time_running, offset and index read under the page lock */
void pa_page_times(volatile struct perf_event_mmap_page *pg, uint64_t *en,
		       uint64_t *run, int64_t *off, uint32_t *idx)
{
	uint32_t seq;

	do {
		seq = pg->lock;
		__sync_synchronize();
		*en = pg->time_enabled;
		*run = pg->time_running;
		*off = pg->offset;
		*idx = pg->index;
		__sync_synchronize();
	} while (pg->lock != seq || (seq & 1));
}

bool pa_ring_spin_for_data(struct pa_ring *r, int ms)
{
	uint64_t end = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)ms * 1000000ULL;
	volatile uint64_t spin = 0;

	while (pa_ring_head(r) == 0) {
		if (pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) >= end)
			return pa_ring_head(r) != 0;
		spin++;
	}
	return true;
}

bool pa_vma_at(const void *p, uintptr_t *end, char perm[5])
{
	char line[512], pm[5] = "";
	uintptr_t s, e;
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		pa_skip("/proc/self/maps: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &s, &e, pm) == 3 &&
		    s == (uintptr_t)p) {
			*end = e;
			if (perm)
				memcpy(perm, pm, 5);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}
