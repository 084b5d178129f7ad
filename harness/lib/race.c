// SPDX-License-Identifier: GPL-2.0
/*
 * pa_race_run(): two code paths run against each other, many rounds, with
 * the start of one moved across the other's duration (the idea of LTP's
 * fuzzy sync: time both sides, then delay one of them by a random amount
 * within the other's length, so every overlap gets tried, not only the
 * one the scheduler happens to give).
 */
#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

struct race_shared {
	struct pa_race *r;
	atomic_int round;	/* the round B may start; -1: stop */
	atomic_int done;	/* the last round B finished */
	atomic_long delay_b;	/* ns B spins before b() this round */
	uint64_t b_ns;		/* B's last duration */
};

static uint64_t now_ns(void)
{
	return pa_clock_ns(CLOCK_MONOTONIC);
}

static void spin_ns(long ns)
{
	uint64_t end;

	if (ns <= 0)
		return;
	end = now_ns() + (uint64_t)ns;
	while (now_ns() < end)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* best effort */
}

static void *side_b(void *p)
{
	struct race_shared *s = p;
	int seen = 0;

	pin(s->r->cpu_b);
	for (;;) {
		int want;
		uint64_t t0;

		while ((want = atomic_load(&s->round)) == seen)
			;
		if (want < 0)
			break;
		seen = want;
		spin_ns(atomic_load(&s->delay_b));
		t0 = now_ns();
		s->r->b(s->r->arg);
		s->b_ns = now_ns() - t0;
		atomic_store(&s->done, seen);
	}
	return NULL;
}

int pa_race_run(struct pa_race *r)
{
	struct race_shared s = { .r = r };
	uint64_t start = now_ns(), a_sum = 0, b_sum = 0;
	unsigned seed = (unsigned)start;
	pthread_t t;
	int calib = 16;

	if (r->max_rounds <= 0)
		r->max_rounds = 100000;
	if (r->max_ms <= 0)
		r->max_ms = 2000;
	r->rounds = 0;
	r->stopped = false;
	atomic_init(&s.round, 0);
	atomic_init(&s.done, 0);
	atomic_init(&s.delay_b, 0);
	if (pthread_create(&t, NULL, side_b, &s))
		pa_fail("race: cannot start the second thread");
	pin(r->cpu_a);
	while (r->rounds < r->max_rounds &&
	       now_ns() - start < (uint64_t)r->max_ms * 1000000) {
		long delay_a = 0, delay_b = 0;
		int n = r->rounds + 1;
		uint64_t t0, a_ns;

		if (r->setup)
			r->setup(r->arg);
		if (r->rounds >= calib && a_sum && b_sum) {
			/* an offset in [-mean(b), +mean(a)]: negative delays a,
			 * positive delays b */
			long ma = (long)(a_sum / (uint64_t)r->rounds);
			long mb = (long)(b_sum / (uint64_t)r->rounds);
			long off = (long)(rand_r(&seed) % (unsigned long)(ma + mb + 1)) - mb;

			if (off < 0)
				delay_a = -off;
			else
				delay_b = off;
		}
		atomic_store(&s.delay_b, delay_b);
		atomic_store(&s.round, n);
		spin_ns(delay_a);
		t0 = now_ns();
		r->a(r->arg);
		a_ns = now_ns() - t0;
		while (atomic_load(&s.done) != n)
			;
		a_sum += a_ns;
		b_sum += s.b_ns;
		r->rounds = n;
		if (r->after && !r->after(r->arg)) {
			r->stopped = true;
			break;
		}
	}
	atomic_store(&s.round, -1);
	pthread_join(t, NULL);
	r->elapsed_ms = (int)((now_ns() - start) / 1000000);
	pa_diag("race: %d round(s) in %d ms (budget %d rounds, %d ms)%s",
		r->rounds, r->elapsed_ms, r->max_rounds, r->max_ms,
		r->stopped ? ", stopped by the check" : "");
	return r->rounds;
}
