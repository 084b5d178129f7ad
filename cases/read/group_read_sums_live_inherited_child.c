#include "perfabi.h"

#include <linux/hw_breakpoint.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * A group of two inherited write watchpoints (leader on a, sibling on b),
 * read with PERF_FORMAT_GROUP while the forked child that inherited it is
 * still alive: perf_read_group() adds each live child group's values (its
 * layout still matches ours) to ours. We never write a or b; the child
 * writes a 3 times and b 5 times, we read, it writes a 4 more times, we
 * read again. Each value is the child's exact count so far and each id is
 * our event's, in group order.
 */
#define A1	3
#define B1	5
#define A2	4

static volatile uint64_t a, b;

static void child(int go, int done)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(3);
	for (int i = 0; i < A1; i++)
		a = i;
	for (int i = 0; i < B1; i++)
		b = i;
	if (write(done, "1", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	for (int i = 0; i < A2; i++)
		a = i;
	if (write(done, "2", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	_exit(0);
}

static void expect_group(int fd, uint64_t va, uint64_t vb,
			 const uint64_t *id)
{
	uint64_t v[5];

	pa_read_u64(fd, v, 5);
	EXPECT_EQ(v[0], 2);		/* nr */
	EXPECT_EQ(v[1], va);		/* leader: writes of a */
	EXPECT_EQ(v[2], id[0]);
	EXPECT_EQ(v[3], vb);		/* sibling: writes of b */
	EXPECT_EQ(v[4], id[1]);
}

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read of an inherited group while an inheriting child is still alive includes the child's counts so far, member by member: {2, 3, id_a, 5, id_b}, then {2, 7, id_a, 5, id_b} after the child writes a 4 more times",
	.ref = "perf_event_open(2), inherit: \"counts ... of child tasks as well as the specified task\"; kernel/events/core.c perf_read_group() -> __perf_read_group_add() for each event on leader->child_list",
	.covers = "attr.inherit read_format.GROUP read_format.ID type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr la, sa;
	int go[2], done[2], fd[2], st;
	uint64_t id[2];
	pid_t pid;
	char c;

	la = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&a, sizeof(a));
	sa = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&b, sizeof(b));
	la.inherit = sa.inherit = 1;
	la.disabled = sa.disabled = 0;
	la.read_format = sa.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&la, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&sa, 0, -1, fd[0], 0);
	for (int i = 0; i < 2; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		child(go[0], done[1]);

	expect_group(fd[0], 0, 0, id);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	expect_group(fd[0], A1, B1, id);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	expect_group(fd[0], A1 + A2, B1, id);

	ASSERT_EQ(write(go[1], "x", 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
