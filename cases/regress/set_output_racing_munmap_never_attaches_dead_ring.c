#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * 68e3c69803da: PERF_EVENT_IOC_SET_OUTPUT of event b into event a's ring
 * raced with the munmap() of that ring's last mapping. perf_mmap_close()
 * dropped rb->mmap_count to 0 and then walked rb->event_list to detach
 * the redirected events; a set_output() in between saw the old count (it
 * took no lock of a's) and attached b to the dying ring after the walk:
 * b stayed attached to a ring nobody maps. Since the fix set_output holds
 * both events' mmap_mutex, so either the walk detaches b or set_output
 * sees mmap_count 0 and fails with EINVAL. Both ways b ends with no ring,
 * so it maps one of another size than a's; attached to the dead ring,
 * that mmap() fails with EINVAL (the size differs from the ring's).
 */
#define MAX_ROUNDS	200000
#define BUDGET_MS	3000

struct round {
	int a, b;
	void *map;
	size_t len;
	long ret;		/* SET_OUTPUT's return, errno */
	int err;
	int unmap_err;
	unsigned set_ok, set_einval, bad, failed;
};

/* each round: a fresh pair, a's ring mapped */
static void setup(void *arg)
{
	struct round *r = arg;
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);

	r->a = pa_perf_open(&attr, 0, -1, -1, 0);
	r->b = pa_perf_open(&attr, 0, -1, -1, 0);
	r->map = r->a < 0 ? MAP_FAILED :
		 mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->a, 0);
}

static void set_output(void *arg)
{
	struct round *r = arg;

	r->ret = ioctl(r->b, PERF_EVENT_IOC_SET_OUTPUT, r->a);
	r->err = errno;
}

static void unmap(void *arg)
{
	struct round *r = arg;

	if (r->map != MAP_FAILED && munmap(r->map, r->len))
		r->unmap_err = errno;
}

/* a's only mapping is gone: b has no ring, so a ring of any size maps */
static bool after(void *arg)
{
	struct round *r = arg;
	struct pa_ring rb;
	int map_err;

	if (r->a < 0 || r->b < 0 || r->map == MAP_FAILED) {
		pa_fail("open or mmap failed: %s", pa_errno_name(errno));
		r->failed = 1;
	} else if (!r->ret) {
		r->set_ok++;
	} else if (r->err == EINVAL) {
		r->set_einval++;
	} else {
		pa_fail("SET_OUTPUT failed with %s, not EINVAL", pa_errno_name(r->err));
		r->failed = 1;
	}
	if (!r->failed) {
		map_err = pa_ring_try_map(&rb, r->b, 4);
		if (map_err) {
			if (!r->bad++)
				pa_fail("b (SET_OUTPUT returned %ld) cannot map its own ring: %s",
					r->ret, pa_errno_name(-map_err));
		} else {
			pa_ring_unmap(&rb);
		}
	}
	close(r->b);
	close(r->a);
	return !r->failed && !r->unmap_err && r->bad <= 10;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT of b into a's ring, racing the munmap() of that ring's only mapping, never leaves b attached to the unmapped ring: whether the ioctl succeeded or failed with EINVAL, b then maps a ring of another size; checked over many rounds",
	.ref = "\"perf/core: Fix data race between perf_event_set_output() and perf_mmap_close()\" 68e3c69803da (5.19, CVE-2022-49607; stable 5.18.15): kernel/events/core.c perf_event_set_output() takes both mmap_mutex (mutex_lock_double) against perf_mmap_close()'s detach of rb->event_list",
	.alone = true,
	.covers = "ioctl.SET_OUTPUT mmap.size errno.EINVAL",
	.fix = { .commit = "68e3c69803da", .subject = "perf/core: Fix data race between perf_event_set_output() and perf_mmap_close()", .release = "5.19", .cve = "CVE-2022-49607", .stable = "5.18.15" },
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "3.10",	/* Fixes: 9bb5d40cd93c, the detach walk */
		.to = "5.19",
		.why = "set_output() raced perf_mmap_close()'s detach of the redirected events and attached the event to a ring that nobody maps",
		.fix = "68e3c69803da",
		.fixed_in = "5.18.15",
	},
	.timeout = 20,
) {
	struct round r = { .len = (size_t)sysconf(_SC_PAGESIZE) * 2 };
	struct pa_race race = { .setup = setup, .a = set_output, .b = unmap, .after = after,
				.arg = &r, .max_rounds = MAX_ROUNDS, .max_ms = BUDGET_MS,
				.cpu_a = 0, .cpu_b = 1 };

	pa_race_run(&race);
	pa_diag("SET_OUTPUT succeeded %u times, failed with EINVAL (the munmap first) %u times",
		r.set_ok, r.set_einval);
	EXPECT_EQ(r.unmap_err, 0);
	EXPECT_EQ(r.bad, 0);
	EXPECT_EQ(r.failed, 0);
	EXPECT_GT(race.rounds, 0);
}
