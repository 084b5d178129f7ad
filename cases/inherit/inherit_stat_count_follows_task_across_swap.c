#include "perfabi.h"

#include <linux/hw_breakpoint.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * Two forked children hold clones of our context (same parent, same
 * generation), so when one blocks and the other runs next on the same CPU,
 * perf_event_context_sched_out() swaps their contexts instead of scheduling
 * events out and in; with inherit_stat, perf_event_sync_stat() then swaps
 * the counts back so each task keeps its own. The children ping-pong on
 * one CPU through pipes, calling target() N_A and N_B times per round
 * (an execute breakpoint counts each call exactly), then exec: at the exec,
 * remove_on_exec takes the inherited copy out and PERF_RECORD_READ reports
 * that child's own count, R * N_A and R * N_B. Without the swap-back the
 * values would be mixed between the two.
 *
 * We must not be a context-swap partner ourselves (a child dying with our
 * original context would end the event): after the forks we add a
 * sibling to the event's group, which bumps our context's
 * generation; it fails with EINVAL if our context already went to a child,
 * and then the set-up is redone.
 */
#define ROUNDS	20
#define N_A	3
#define N_B	5

__attribute__((noinline)) static void target(void)
{
	__asm__ volatile("" ::: "memory");
}

static void pin_or_die(int cpu)
{
	if (pa_pin_cpu(cpu))
		_exit(3);
}

/* in: token to wait for, out: where to pass it on */
static void child(int cpu, int in, int out, int go, int n)
{
	char c;

	pin_or_die(cpu);
	if (read(go, &c, 1) != 1)
		_exit(3);
	for (int r = 0; r < ROUNDS; r++) {
		if (read(in, &c, 1) != 1)
			_exit(3);
		for (int i = 0; i < n; i++)
			target();
		if (write(out, &c, 1) != 1)
			_exit(3);
	}
	execl("/bin/true", "true", (char *)NULL);
	_exit(3);
}

struct setup {
	int fd, sib, go[2];
	pid_t pid[2];
};

static void reap(struct setup *s)
{
	for (int i = 0; i < 2; i++)
		if (s->pid[i] > 0) {
			kill(s->pid[i], SIGKILL);
			waitpid(s->pid[i], NULL, 0);
		}
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: \"saving of event counts on context switch for inherited tasks\": two inherited children that keep switching with each other on one CPU each keep their own count; the PERF_RECORD_READ at each one's exec (remove_on_exec) reports exactly its own N breakpoint hits",
	.ref = "perf_event_open(2), inherit_stat; kernel/events/core.c perf_event_context_sched_out() -> context_equiv() (same parent_ctx and parent_gen) -> perf_event_sync_stat(); perf_event_remove_on_exec() -> sync_child_event() -> perf_event_read_event()",
	.covers = "attr.inherit_stat attr.inherit attr.remove_on_exec record.READ read_format.ID",
	.min_kernel = "5.13",
	.min_cpus = 2,
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr, dummy = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	static struct pa_ring ring;
	const struct perf_event_header *h;
	int seen[2] = { 0, 0 };
	int cpus[2], ab[2], ba[2], st;
	uint64_t id = 0, total;
	struct setup s;
	int tries;

	if (access("/bin/true", X_OK))
		pa_skip("/bin/true is not there to exec");
	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("need two CPUs this task may run on");
	/* we stay on cpus[0]; the event and the children are on cpus[1] */
	ASSERT_OK(pa_pin_cpu(cpus[0]));

	attr = pa_bp_attr(HW_BREAKPOINT_X, (const void *)target, sizeof(long));
	attr.disabled = 0;
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.remove_on_exec = 1;
	attr.read_format = PERF_FORMAT_ID;

	for (tries = 0; tries < 5; tries++) {
		memset(&s, 0, sizeof(s));
		/* an inherited event is mmappable only when bound to a CPU */
		s.fd = ASSERT_OPEN(&attr, 0, cpus[1], -1, 0);
		ASSERT_OK(ioctl(s.fd, PERF_EVENT_IOC_ID, &id));
		ASSERT_OK(pipe(s.go));
		ASSERT_OK(pipe(ab));
		ASSERT_OK(pipe(ba));
		s.pid[0] = fork();
		ASSERT_GE(s.pid[0], 0);
		if (s.pid[0] == 0)
			child(cpus[1], ba[0], ab[1], s.go[0], N_A);
		s.pid[1] = fork();
		if (s.pid[1] == 0)
			child(cpus[1], ab[0], ba[1], s.go[0], N_B);
		if (s.pid[1] < 0) {
			reap(&s);
			pa_fail("fork: %s", strerror(errno));
			pa_abort();
		}
		/* bump our context's generation: no longer a swap partner */
		dummy.disabled = 1;
		dummy.inherit = 1;	/* a group may not mix inherit */
		s.sib = pa_perf_open(&dummy, 0, cpus[1], s.fd, 0);
		if (s.sib >= 0)
			break;
		ASSERT_EQ(errno, EINVAL);
		pa_diag("our context went to a child before the sibling open; again");
		reap(&s);
		close(s.fd);
		close(s.go[0]);
		close(s.go[1]);
		close(ab[0]); close(ab[1]); close(ba[0]); close(ba[1]);
	}
	ASSERT_LT(tries, 5);
	pa_ring_map(&ring, s.fd, 4);

	/* release both, then hand the first token to child A */
	ASSERT_EQ(write(s.go[1], "gg", 2), 2);
	ASSERT_EQ(write(ba[1], "t", 1), 1);
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(waitpid(s.pid[i], &st, 0), s.pid[i]);
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}

	/* one READ record per child, in exec order */
	while ((h = pa_ring_find(&ring, PERF_RECORD_READ)) != NULL) {
		const struct pa_read_rec *rr = (const void *)h;
		int i = rr->pid == (uint32_t)s.pid[0] ? 0 :
			rr->pid == (uint32_t)s.pid[1] ? 1 : -1;

		EXPECT_GE(i, 0);
		if (i < 0)
			continue;
		seen[i]++;
		EXPECT_EQ(rr->h.size, sizeof(*rr));
		EXPECT_EQ(rr->tid, (uint32_t)s.pid[i]);
		EXPECT_EQ(rr->value, ROUNDS * (uint64_t)(i ? N_B : N_A));
		EXPECT_EQ(rr->id, id);
	}
	EXPECT_EQ(seen[0], 1);
	EXPECT_EQ(seen[1], 1);
	/* the parent event sums both children; we never ran on its CPU */
	{
		uint64_t v[2];

		pa_read_u64(s.fd, v, 2);
		total = v[0];
		EXPECT_EQ(total, ROUNDS * (uint64_t)(N_A + N_B));
		EXPECT_EQ(v[1], id);
	}
}
