#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * 3ac6487e584a: perf_event_open() of a software event into a software
 * group checked group_leader->ctx == ctx before taking any lock. A
 * concurrent open of a hardware event into the same group moves the whole
 * group to the hardware context (move_group); the software open that had
 * passed the check then took the old (software) context's mutex and
 * installed its event there, while its leader now lived in the hardware
 * context: a group member in another context than its leader (WARNs,
 * then use-after-free; CVE-2022-1729). The fix rechecks under ctx->mutex
 * and fails the open with EINVAL. Since the context rework of 6.2
 * (bd2756811766) a task has one context and the group decisions are all
 * made under its mutex, so there the software open always joins.
 *
 * Each round: a fresh software group leader L (page faults) on the main
 * thread; the main thread opens a hardware event H into it while the other
 * thread opens a software page-fault event S into it. H always joins; S
 * joins or (before 6.2) fails with EINVAL. L's group read then lists
 * exactly L and the events that joined, by id; counted over a touch of
 * fresh pages, L and S count the same faults.
 */
#define MAX_ROUNDS	20000
#define BUDGET_MS	3000
#define PAGES		16
#define FMT		(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

struct round {
	pid_t tid;			/* the main thread: every event's task */
	bool s_always;			/* 6.2+: S must join */
	struct perf_event_attr sw, hw;
	int l, h, s;
	int h_err, s_err;
	unsigned s_joined, s_einval, counted, bad;
};

static uint64_t event_id(int fd)
{
	uint64_t id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		pa_fail("PERF_EVENT_IOC_ID: %s", pa_errno_name(errno));
	return id;
}

static void setup(void *arg)
{
	struct round *r = arg;

	r->sw.disabled = 1;
	r->l = pa_perf_open(&r->sw, r->tid, -1, -1, 0);
	r->h = r->s = -1;
}

static void open_hw(void *arg)
{
	struct round *r = arg;

	r->h = pa_perf_open(&r->hw, r->tid, -1, r->l, 0);
	r->h_err = errno;
}

static void open_sw(void *arg)
{
	struct round *r = arg;
	struct perf_event_attr sw = r->sw;

	sw.disabled = 0;	/* goes with the leader */
	r->s = pa_perf_open(&sw, r->tid, -1, r->l, 0);
	r->s_err = errno;
}

/* The group read: L first, then exactly the members that joined. */
static bool check_group(struct round *r, uint64_t *v)
{
	uint64_t buf[3 + 2 * 4] = { 0 }, id[3];
	unsigned nr = 1 + (r->h >= 0) + (r->s >= 0), found = 0;
	ssize_t n = read(r->l, buf, sizeof(buf));

	id[0] = event_id(r->l);
	id[1] = r->h >= 0 ? event_id(r->h) : 0;
	id[2] = r->s >= 0 ? event_id(r->s) : 0;
	if (n != (ssize_t)(3 + 2 * nr) * 8 || buf[0] != nr) {
		pa_fail("group read of %zd bytes, nr %llu: want %u members",
			n, (unsigned long long)buf[0], nr);
		return false;
	}
	if (buf[4] != id[0]) {
		pa_fail("member 0 has id %llu, the leader %llu",
			(unsigned long long)buf[4], (unsigned long long)id[0]);
		return false;
	}
	v[0] = buf[3];
	v[1] = v[2] = 0;
	for (unsigned m = 1; m < nr; m++) {
		for (unsigned k = 1; k < 3; k++) {
			if (id[k] && buf[4 + 2 * m] == id[k] && !(found & (1u << k))) {
				found |= 1u << k;
				v[k] = buf[3 + 2 * m];
			}
		}
	}
	if (found != (r->h >= 0 ? 2u : 0) + (r->s >= 0 ? 4u : 0)) {
		pa_fail("the group's ids do not match its members (leader %llu, H %llu, S %llu)",
			(unsigned long long)id[0], (unsigned long long)id[1],
			(unsigned long long)id[2]);
		return false;
	}
	v[3] = buf[1];	/* time enabled */
	v[4] = buf[2];	/* time running */
	return true;
}

static bool after(void *arg)
{
	struct round *r = arg;
	uint64_t v[5];
	bool ok = true;

	if (r->l < 0) {
		pa_fail("the leader did not open: %s", pa_errno_name(errno));
		r->bad++;
		return false;
	}
	if (r->h < 0) {
		pa_fail("the hardware join (move_group) failed: %s", pa_errno_name(r->h_err));
		ok = false;
	}
	if (r->s >= 0) {
		r->s_joined++;
	} else if (r->s_err == EINVAL && !r->s_always) {
		r->s_einval++;
	} else {
		pa_fail("the software join failed with %s; want it to join%s",
			pa_errno_name(r->s_err), r->s_always ? "" : " or EINVAL");
		ok = false;
	}
	if (ok && !check_group(r, v))
		ok = false;
	if (ok) {
		/* count the group over a touch of fresh pages */
		pa_touch_pages(1);
		if (ioctl(r->l, PERF_EVENT_IOC_ENABLE, 0) ||
		    (pa_touch_pages(PAGES), ioctl(r->l, PERF_EVENT_IOC_DISABLE, 0))) {
			pa_fail("ENABLE/DISABLE of the leader: %s", pa_errno_name(errno));
			ok = false;
		} else if (!check_group(r, v)) {
			ok = false;
		} else if (v[3] && v[3] == v[4]) {
			/* the whole group ran the whole time */
			r->counted++;
			if (v[0] < PAGES || v[0] > PAGES + 16 || !v[1] ||
			    (r->s >= 0 && v[2] != v[0])) {
				pa_fail("counts: L %llu (want %d..%d), H %llu (want > 0), S %llu (want L's)",
					(unsigned long long)v[0], PAGES, PAGES + 16,
					(unsigned long long)v[1], (unsigned long long)v[2]);
				ok = false;
			}
		}
	}
	if (r->s >= 0)
		close(r->s);
	if (r->h >= 0)
		close(r->h);
	close(r->l);
	if (!ok)
		r->bad++;
	return ok;
}

PERFABI_CASE(
	.assertion = "a software event's perf_event_open() into a software group, racing a hardware event's open into the same group (which moves the group to the hardware context), either joins the group or (before 6.2) fails with EINVAL, while the hardware open always joins: the leader's group read lists exactly the members that joined, by id, and the leader and the software member count the same page faults; over a bounded race",
	.ref = "\"perf: Fix sys_perf_event_open() race against self\" 3ac6487e584a (5.18, CVE-2022-1729; stable 5.17.10): kernel/events/core.c perf_event_open() rechecks group_leader->ctx == ctx under ctx->mutex (EINVAL)",
	.alone = true,
	.covers = "arg.group_fd read_format.GROUP read_format.ID read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING errno.EINVAL type.HARDWARE sw.PAGE_FAULTS",
	.fix = { .commit = "3ac6487e584a", .subject = "perf: Fix sys_perf_event_open() race against self", .release = "5.18", .cve = "CVE-2022-1729", .stable = "5.17.10" },
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "4.0",	/* Fixes: f63a8daa5812 "perf: Fix event->ctx locking" */
		.to = "5.18",
		.why = "the !move_group open checked group_leader->ctx == ctx without a lock: racing a move_group open it installed its event in the old software context while its leader had moved to the hardware one (WARNs, use-after-free)",
		.fix = "3ac6487e584a",
		/* Debian changelogs: ChangeLog-5.17.10 */
		.fixed_in = "5.17.10",
	},
	.timeout = 20,
) {
	struct round r = {
		.tid = gettid(),
		.sw = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS),
		.hw = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS),
	};
	struct pa_race race = { .setup = setup, .a = open_hw, .b = open_sw, .after = after,
				.arg = &r, .max_rounds = MAX_ROUNDS, .max_ms = BUDGET_MS,
				.cpu_a = 0, .cpu_b = 1 };

	close(pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	r.s_always = pa_since("6.2", "a software join racing a move_group always joins (one context per task, decided under its mutex)");
	r.sw.read_format = FMT;
	r.hw.type = PERF_TYPE_HARDWARE;
	r.hw.disabled = 0;	/* goes with the leader */
	r.hw.read_format = FMT;

	pa_race_run(&race);
	pa_diag("the software join: %u joined, %u EINVAL; %u round(s) counted whole",
		r.s_joined, r.s_einval, r.counted);
	EXPECT_EQ(r.bad, 0);
	EXPECT_GT(race.rounds, 0);
}
