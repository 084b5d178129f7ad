#include "perfabi.h"
/* Harness self-test: pa_race_run() runs both sides once per round, stops
 * at its budget or when after() says so, and counts the rounds. */
struct st { int a, b, setups, stop_at; };
static void st_setup(void *p) { ((struct st *)p)->setups++; }
static void st_a(void *p) { ((struct st *)p)->a++; }
static void st_b(void *p) { ((struct st *)p)->b++; }
static bool st_after(void *p)
{
	struct st *s = p;

	return !s->stop_at || s->a < s->stop_at;
}

PERFABI_CASE(.assertion = "selftest: pa_race_run") {
	struct st s = { 0 };
	struct pa_race r = { .setup = st_setup, .a = st_a, .b = st_b, .after = st_after,
			     .arg = &s, .max_rounds = 500, .max_ms = 5000, .cpu_a = -1, .cpu_b = -1 };

	EXPECT_EQ(pa_race_run(&r), 500);	/* the round budget */
	EXPECT_EQ(s.a, 500);
	EXPECT_EQ(s.b, 500);
	EXPECT_EQ(s.setups, 500);
	EXPECT_FALSE(r.stopped);

	s = (struct st){ .stop_at = 50 };
	r.max_rounds = 0;	/* the default, 100000 */
	EXPECT_EQ(pa_race_run(&r), 50);	/* after() stops it */
	EXPECT_TRUE(r.stopped);
	EXPECT_EQ(s.b, 50);

	s = (struct st){ 0 };
	r.max_rounds = 1 << 30;
	r.max_ms = 100;	/* the time budget */
	pa_race_run(&r);
	EXPECT_GT(r.rounds, 0);
	EXPECT_LT(r.rounds, 1 << 30);
	EXPECT_GE(r.elapsed_ms, 100);
	EXPECT_EQ(s.a, r.rounds);
}
