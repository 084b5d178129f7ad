// SPDX-License-Identifier: GPL-2.0
/*
 * A page-fault workload with an exact count, for the cases that sample
 * PERF_COUNT_SW_PAGE_FAULTS at period 1 and check one record (or one BPF
 * run) per fault.
 */
#include "internal.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

char *pa_cow_page(size_t off)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *buf, *p;
	ssize_t w;
	int fd, e;

	if (off >= (size_t)psz) {
		errno = EINVAL;
		return NULL;
	}
	fd = memfd_create("perfabi-cow", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = calloc(1, (size_t)psz);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	memset(buf, 0x5a, (size_t)psz);
	w = pwrite(fd, buf, (size_t)psz, 0);
	e = errno;
	free(buf);
	if (w != (ssize_t)psz) {
		close(fd);
		errno = w < 0 ? e : EIO;
		return NULL;
	}
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	e = errno;
	close(fd);		/* the mapping keeps the file */
	if (p == MAP_FAILED) {
		errno = e;
		return NULL;
	}
	(void)madvise(p, (size_t)psz, MADV_NOHUGEPAGE);
	(void)*(volatile char *)(p + off);	/* maps the page-cache page read-only */
	return p;
}

char *pa_fault_pages_prep(struct pa_fault_pages *f, int n)
{
	size_t len;
	char *p;

	f->n = n;
	f->psz = sysconf(_SC_PAGESIZE);
	len = (size_t)f->psz * (size_t)n;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		f->err = errno;
		return NULL;
	}
	(void)madvise(p, len, MADV_NOHUGEPAGE);	/* one fault per page */
	return p;
}

/* page i, at an offset that differs from page to page: a sample's addr
 * names the page and cannot be a page boundary by chance */
char *pa_fault_pages_addr(const struct pa_fault_pages *f, char *p, int i)
{
	return p + (size_t)f->psz * (size_t)i + 8 * (size_t)i + 3;
}

/*
 * noinline, so that this code and its stack frame are the same for every
 * run: the warm-up run faults them in, and a later run takes only the
 * faults of its stores. The stores are volatile so that none is dropped or
 * merged.
 */
__attribute__((noinline)) void pa_fault_pages_run(struct pa_fault_pages *f,
						  int fd, char *p)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		f->err = errno;
	if (f->timed) {
		uint64_t v[4] = { 0, 0, 0, 0 }, t0 = pa_clock_ns(CLOCK_MONOTONIC);

		while (!f->err && v[1] == 0) {
			errno = EIO;	/* a short read */
			if (read(fd, v, sizeof(v)) < 16)
				f->err = errno;
			else if (v[1] == 0 && pa_clock_ns(CLOCK_MONOTONIC) - t0 > 5000000000ull)
				f->err = ETIME;
		}
	}
	for (int i = 0; i < f->n; i++) {
		if (f->ip)
			f->ip[i] = pa_store_byte(pa_fault_pages_addr(f, p, i));
		else
			*(volatile char *)pa_fault_pages_addr(f, p, i) = 1;
	}
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		f->err = errno;
}

static void fault_thread_prep(void *arg)
{
	struct pa_fault_thread *ft = arg;

	ft->warm = pa_fault_pages_prep(&ft->pg, ft->pg.n);
	for (int i = 0; i < ft->runs; i++)
		ft->run[i] = pa_fault_pages_prep(&ft->pg, ft->pg.n);
	if (ft->prep)
		ft->prep(ft);
}

/* the warm-up run faults in the code and stack of the runs: each run on
 * fd, from the same frame, takes exactly the faults of its stores */
static void fault_thread_work(void *arg)
{
	struct pa_fault_thread *ft = arg;

	pa_fault_pages_run(&ft->pg, ft->warm_fd, ft->warm);
	for (int i = 0; i < ft->runs; i++) {
		if (i && ft->between)
			ft->between(ft, i - 1);
		pa_fault_pages_run(&ft->pg, ft->fd, ft->run[i]);
	}
}

void pa_fault_thread_start(struct pa_fault_thread *ft, int n, int runs,
			   struct perf_event_attr *attr,
			   struct perf_event_attr *cattr)
{
	bool mapped;

	ASSERT_TRUE(runs >= 1 && runs <= PA_FAULT_RUNS);
	ft->pg.n = n;
	ft->runs = runs;
	pa_thread_start(&ft->t, fault_thread_prep, fault_thread_work, ft);
	mapped = ft->warm;
	for (int i = 0; i < runs; i++)
		mapped = mapped && ft->run[i];
	if (!mapped || ft->pg.err) {
		pa_fail("%s in the thread: %s", mapped ? "set-up" : "mmap",
			pa_errno_name(ft->pg.err));
		pa_abort();
	}
	attr->disabled = 1;
	ft->fd = ASSERT_OPEN(attr, ft->t.tid, -1, -1, 0);
	ft->warm_fd = ASSERT_OPEN(cattr, ft->t.tid, -1, -1, 0);
}

void pa_fault_thread_run(struct pa_fault_thread *ft)
{
	pa_thread_run(&ft->t);
	if (ft->pg.err == ETIME && ft->pg.timed) {
		pa_fail("an enabled event's time_enabled stayed 0 for 5 s of CLOCK_MONOTONIC in the thread");
		pa_abort();
	}
	if (ft->pg.err) {
		pa_fail("ioctl%s in the thread: %s", ft->between ? " or a step between runs" : "",
			pa_errno_name(ft->pg.err));
		pa_abort();
	}
}

int pa_fault_thread_samples(struct pa_fault_thread *ft, const struct perf_event_attr *attr,
			    struct pa_ring *r, int run, uint64_t first_read)
{
	const struct perf_event_header *h;
	struct pa_sample s;
	int n = 0, other = 0;

	while ((h = pa_ring_next(r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (!pa_sample_parse(attr, h, &s))
			pa_abort();
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)ft->t.tid);
		if (n < ft->pg.n) {
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)pa_fault_pages_addr(&ft->pg, ft->run[run], n));
			EXPECT_EQ(s.read[0], first_read + (uint64_t)n);
		}
		n++;
	}
	if (other)
		pa_diag("%d records other than samples", other);
	return n;
}
