#include "perfabi.h"

#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * 2ab9d830262c: the AUX area of a ring was serialized only by the mapping
 * event's mmap_mutex. Two events sharing one ring (b redirected into a's
 * with PERF_EVENT_IOC_SET_OUTPUT) could mmap() its AUX area at the same
 * time through their own fds: both saw no AUX area, both allocated one
 * (the first leaked), and both set aux_mmap_count to 1, so the first
 * munmap() freed the area the other mapping still used. The fix adds
 * rb->aux_mutex around all of it.
 *
 * a and b are intel_pt events on CPU 0 for two threads of this process
 * (two task contexts: intel_pt is exclusive within one). Each round the
 * two threads map the AUX area together, a's fd and b's fd, same offset
 * and size: both succeed, and the area is then mapped twice. After one
 * munmap() it is still there: a mapping of another size is refused
 * (EINVAL); after the second it is gone: that mapping succeeds.
 */
#define BUDGET_NS	3000000000ull
#define MAX_ROUNDS	5000
#define AUX_PAGES	16
#define ALT_PAGES	8

struct race {
	atomic_int go;		/* the round to map in (-1: exit) */
	atomic_int ready;	/* the round the helper waits for */
	atomic_int done;	/* the round it mapped in */
	atomic_int tid;
	int bfd;
	size_t off, len;
	void *map;
	int err;
};

static void *helper(void *arg)
{
	struct race *r = arg;
	unsigned spins = 0;
	int seen = 0, g;

	atomic_store(&r->tid, gettid());
	for (;;) {
		atomic_store(&r->ready, seen + 1);
		while ((g = atomic_load(&r->go)) == seen)
			if (++spins % 256 == 0)
				sched_yield();
		if (g < 0)
			return NULL;
		r->map = mmap(NULL, r->len, PROT_READ, MAP_SHARED, r->bfd, (off_t)r->off);
		r->err = r->map == MAP_FAILED ? errno : 0;
		seen = g;
		atomic_store(&r->done, g);
	}
}

PERFABI_CASE(
	.assertion = "two events sharing one ring (PERF_EVENT_IOC_SET_OUTPUT) that mmap() its AUX area at the same time both succeed and the area is counted as mapped twice: after one munmap() a mapping of another size is refused with EINVAL, after the second it succeeds; over a bounded stress",
	.ref = "\"perf/aux: Fix AUX buffer serialization\" 2ab9d830262c (6.11, CVE-2024-46713; stable 6.10.10, 6.1.110): kernel/events/core.c perf_mmap() and perf_mmap_close() hold rb->aux_mutex around the AUX area",
	.covers = "mmap.aux_area ioctl.SET_OUTPUT errno.EINVAL",
	.fix = { .commit = "2ab9d830262c", .subject = "perf/aux: Fix AUX buffer serialization", .release = "6.11", .cve = "CVE-2024-46713", .stable = "6.10.10 6.1.110" },
	.pmu = "intel_pt",
	.min_kernel = "4.1",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "4.1",	/* 45bfb2e50471 "perf: Add AUX area to ring buffer for raw data streams" */
		.to = "6.11",
		.why = "two events sharing a ring each held only their own mmap_mutex: concurrent AUX mmaps both allocated the area and the first munmap freed it under the other mapping (leak, use-after-free)",
		.fix = "2ab9d830262c",
		.fixed_in = "6.10.10 6.1.110",
	},
	.timeout = 20,
) {
	struct perf_event_attr attr;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	static struct race r;
	struct pa_ring ring;
	int afd, rounds = 0, bad = 0;
	pthread_t th;

	pa_intel_pt_attr(&attr);
	ASSERT_EQ(pthread_create(&th, NULL, helper, &r), 0);
	while (!atomic_load(&r.tid))
		sched_yield();
	afd = pa_perf_open(&attr, gettid(), 0, -1, 0);
	r.bfd = afd < 0 ? -1 : pa_perf_open(&attr, atomic_load(&r.tid), 0, -1, 0);
	if (afd < 0 || r.bfd < 0) {
		int err = errno;

		atomic_store(&r.go, -1);
		pthread_join(th, NULL);
		if (err == EBUSY)
			pa_skip("intel_pt is in use (EBUSY)");
		pa_fail("intel_pt event on CPU 0: %s", pa_errno_name(err));
		pa_abort();
	}
	pa_ring_map(&ring, afd, 1);
	ASSERT_OK(ioctl(r.bfd, PERF_EVENT_IOC_SET_OUTPUT, afd));
	r.off = ring.map_len;
	r.len = AUX_PAGES * psz;

	while (rounds < MAX_ROUNDS && pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_NS) {
		void *mine, *alt;
		int err;

		ring.page->aux_offset = r.off;
		ring.page->aux_size = r.len;
		rounds++;
		while (atomic_load(&r.ready) != rounds)
			sched_yield();
		atomic_store(&r.go, rounds);
		mine = mmap(NULL, r.len, PROT_READ, MAP_SHARED, afd, (off_t)r.off);
		err = errno;
		while (atomic_load(&r.done) != rounds)
			sched_yield();
		if (mine == MAP_FAILED || r.map == MAP_FAILED) {
			pa_fail("round %d: AUX mmap through a: %s, through b: %s", rounds,
				pa_errno_name(mine == MAP_FAILED ? err : 0),
				pa_errno_name(r.err));
			bad++;
			if (mine != MAP_FAILED)
				munmap(mine, r.len);
			if (r.map != MAP_FAILED)
				munmap(r.map, r.len);
			break;
		}
		/* one of the two mappings gone: the area stays, same size only */
		ASSERT_OK(munmap(mine, r.len));
		alt = pa_ring_try_map_aux(&ring, r.off, ALT_PAGES * psz, PROT_READ);
		if (alt != MAP_FAILED) {
			pa_fail("round %d: with b's AUX mapping alive, a %d-page one mapped too",
				rounds, ALT_PAGES);
			munmap(alt, ALT_PAGES * psz);
			bad++;
		} else if (errno != EINVAL) {
			pa_fail("round %d: the %d-page AUX mmap failed with %s, not EINVAL",
				rounds, ALT_PAGES, pa_errno_name(errno));
			bad++;
		}
		/* both gone: the area is freed, any size maps */
		ASSERT_OK(munmap(r.map, r.len));
		alt = pa_ring_try_map_aux(&ring, r.off, ALT_PAGES * psz, PROT_READ);
		if (alt == MAP_FAILED) {
			pa_fail("round %d: after both munmaps a %d-page AUX mmap failed: %s",
				rounds, ALT_PAGES, pa_errno_name(errno));
			bad++;
		} else {
			munmap(alt, ALT_PAGES * psz);
		}
		if (bad)
			break;
	}
	atomic_store(&r.go, -1);
	pthread_join(th, NULL);
	pa_diag("%d rounds of concurrent AUX mmaps through a and b in %llu ms", rounds,
		(unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));
	EXPECT_GT(rounds, 0);
	EXPECT_EQ(bad, 0);
	pa_ring_unmap(&ring);
	close(r.bfd);
	close(afd);
}
