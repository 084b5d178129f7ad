#include "perfabi.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * sched:sched_waking names the woken task with __perf_task(p): perf_tp_event()
 * also delivers the hit to the tracepoint events of that task's context
 * that are bound to the CPU the hit happens on (perf_tp_event_target_task(),
 * event->cpu == smp_processor_id()), although the woken task is not
 * running there. Thread B sleeps in read() of a pipe on CPU d; the main
 * thread, pinned to CPU c, wakes it N times by writing to the pipe. B's
 * event is bound to CPU c, where B never runs: it is never active, so only
 * these deliveries can count, and each write to a sleeping B is exactly
 * one waking of B from CPU c.
 */

#define N_WAKES 6

static atomic_int b_tid, b_acks;
static int b_cpu, go[2];

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	if (pa_pin_cpu(b_cpu))
		atomic_store(&b_tid, -1);
	else
		atomic_store(&b_tid, (int)syscall(SYS_gettid));
	for (int i = 0; i < N_WAKES; i++) {
		if (read(go[0], &c, 1) != 1)
			break;
		atomic_fetch_add(&b_acks, 1);
	}
	return NULL;
}

/* B's state letter from /proc (its third field); '?' when unreadable */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Wait (10 s at most) until B is asleep in its read(): state S after it
 * acknowledged `acks` wakings. A write before that would find B awake
 * and wake nobody. */
static bool wait_asleep(pid_t tid, int acks)
{
	uint64_t end = pa_clock_ns(CLOCK_MONOTONIC) + 10000000000ULL;

	while (pa_clock_ns(CLOCK_MONOTONIC) < end) {
		if (atomic_load(&b_acks) == acks && task_state(tid) == 'S')
			return true;
		sched_yield();
	}
	return false;
}

PERFABI_CASE(
	.assertion = "a tracepoint that names a target task (__perf_task: sched:sched_waking's woken task) is delivered to that task's tracepoint events bound to the CPU it fires on even though another task runs there: an event on thread B bound to CPU c, where B never runs, counts exactly the N wakings of B done from CPU c",
	.ref = "kernel/events/core.c perf_tp_event(): \"If we got specified a target task, also iterate its context and deliver this event there too\" (perf_tp_event_target_task(): events of the task's context on this CPU); e6dab5ffab59 \"perf/trace: Add ability to set a target task for events\"; include/trace/events/sched.h sched_wakeup_template TP_ARGS(__perf_task(p))",
	.alone = true,
	.covers = "type.TRACEPOINT arg.pid arg.cpu",
	.tracefs = true,
	.min_cpus = 2,
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	long id = pa_tp_id_or_skip("sched", "sched_waking");
	struct perf_event_attr a = pa_tp_attr((uint64_t)id);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int cpus[2], c, fd;
	pthread_t th;
	pid_t tid;

	if (want)
		pa_skip("a tracepoint event counting the kernel is not open to this identity (%s, %s)",
			pa_errno_name(want), pa_context_string());
	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("fewer than 2 CPUs are allowed to this task");
	c = cpus[0];
	b_cpu = cpus[1];
	ASSERT_OK(pa_pin_cpu(c));
	ASSERT_OK(pipe(go));
	ASSERT_EQ(pthread_create(&th, NULL, sleeper, NULL), 0);
	while (!(tid = atomic_load(&b_tid)))
		sched_yield();
	ASSERT_GT(tid, 0);
	ASSERT_TRUE(wait_asleep(tid, 0));

	fd = ASSERT_OPEN(&a, tid, c, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N_WAKES; i++) {
		if (!wait_asleep(tid, i)) {
			pa_fail("thread %d did not go back to sleep after waking %d", (int)tid, i);
			break;
		}
		ASSERT_EQ(write(go[1], "x", 1), 1);
	}
	/* B took the last one: nothing of B's is left to count */
	for (uint64_t end = pa_clock_ns(CLOCK_MONOTONIC) + 10000000000ULL;
	     atomic_load(&b_acks) < N_WAKES && pa_clock_ns(CLOCK_MONOTONIC) < end;)
		sched_yield();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(atomic_load(&b_acks), N_WAKES);
	EXPECT_EQ(pa_read_one(fd), N_WAKES);
	close(fd);
	close(go[1]);		/* B's read gets EOF if it is still waiting */
	pthread_join(th, NULL);
	close(go[0]);
}
