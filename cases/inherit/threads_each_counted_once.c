#include "perfabi.h"

#include <pthread.h>
#include <sys/mman.h>

/*
 * K threads run at once, each on a stack we give it (faulted in
 * beforehand), each touching `pages` fresh pages. Each has its own
 * inherited copy of the event; each copy must be added to the parent's
 * value exactly once. "inh" (inherit) minus "own" (no inherit: the main
 * thread alone) over create + join is the threads' share. After a warm-up
 * round (the first threads of a process take a few one-time faults in
 * libc), K threads touching N more pages each must add exactly K * N more.
 * (INH-07, the many-thread inherit stress of 2.6.35-2.6.39, in a small
 * form.)
 */
#define K 8
#define N 64
#define STACK_SIZE (256 * 1024)

static void *touch(void *pages)
{
	pa_touch_pages((int)(intptr_t)pages);
	return NULL;
}

static uint64_t threads_share(int inh, int own, char *stacks, int pages)
{
	uint64_t i0, o0, i1, o1;
	pthread_attr_t ta[K];
	pthread_t t[K];

	for (int k = 0; k < K; k++) {
		ASSERT_EQ(pthread_attr_init(&ta[k]), 0);
		ASSERT_EQ(pthread_attr_setstack(&ta[k], stacks + (size_t)k * STACK_SIZE,
						STACK_SIZE), 0);
	}
	i0 = pa_read_one(inh);
	o0 = pa_read_one(own);
	for (int k = 0; k < K; k++)
		ASSERT_EQ(pthread_create(&t[k], &ta[k], touch, (void *)(intptr_t)pages), 0);
	for (int k = 0; k < K; k++)
		ASSERT_EQ(pthread_join(t[k], NULL), 0);
	i1 = pa_read_one(inh);
	o1 = pa_read_one(own);
	for (int k = 0; k < K; k++)
		pthread_attr_destroy(&ta[k]);
	return (i1 - i0) - (o1 - o0);
}

PERFABI_CASE(
	.assertion = "with inherit set, each of 8 threads running at once is counted exactly once: 8 threads that each touch 64 more fresh pages add exactly 8 * 64 = 512 more to the parent's event once joined",
	.ref = "perf_event_open(2), inherit (threads are child tasks); BUGS: \"inherit ... with many threads\" crashed 2.6.35-2.6.39; kernel/events/core.c inherit_event(), sync_child_event()",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	uint64_t base, more;
	int inh, own;
	char *stacks;

	stacks = mmap(NULL, (size_t)K * STACK_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(stacks != MAP_FAILED);
	memset(stacks, 1, (size_t)K * STACK_SIZE);
	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	threads_share(inh, own, stacks, 1);	/* warm-up */
	base = threads_share(inh, own, stacks, 1);
	more = threads_share(inh, own, stacks, 1 + N);
	pa_diag("%d threads touching 1 page each added %llu, %d pages each %llu",
		K, (unsigned long long)base, 1 + N, (unsigned long long)more);
	EXPECT_GE(base, (uint64_t)K);
	EXPECT_EQ(more - base, (uint64_t)K * N);
	close(own);
	close(inh);
}
