#include "perfabi.h"

#include <fcntl.h>
#include <sys/prctl.h>

#define OLD_NAME	"pa-old-main"
#define NEW_NAME	"pa-new-main"
#define OOM_ADJ		345	/* raising it needs no privilege */

struct rename_res {
	char path[64];
	ssize_t n;
	int err;
};

/* Rename the main thread through /proc: the tracepoint fires in this
 * thread (common_pid) for another task (pid). */
static void do_rename(void *arg)
{
	struct rename_res *r = arg;
	int fd = open(r->path, O_WRONLY | O_CLOEXEC);

	r->n = -1;
	r->err = errno;
	if (fd < 0)
		return;
	r->n = write(fd, NEW_NAME, strlen(NEW_NAME));
	r->err = errno;
	close(fd);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * A second thread writes /proc/self/task/<main>/comm: task:task_rename
 * fires in the writer with the renamed task as its subject, so every field
 * has a value of its own: common_pid the writer's tid, pid the main
 * thread's, the old and new names, and the process's oom_score_adj.
 */
PERFABI_CASE(
	.assertion = "the PERF_SAMPLE_RAW entry of task:task_rename, read at the offsets of its tracefs format file, holds common_type = the tracepoint id, common_pid = the thread that renamed, pid = the renamed thread, oldcomm and newcomm = its names before and after, oom_score_adj = the process's oom_score_adj",
	.ref = "include/trace/events/task.h TRACE_EVENT(task_rename); fs/exec.c __set_task_comm(); fs/proc/base.c comm_write(); perf_event_open(2) PERF_SAMPLE_RAW; tracefs events/task/task_rename/format",
	.covers = "type.TRACEPOINT sample.RAW sample.TID",
	.tracefs = true,
) {
	/* counting the kernel, then RAW of a tracepoint without CAP_ANY */
	int want = pa_expected_errno_or(PA_NEED_KERNEL,
					pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	struct rename_res res;
	struct pa_tp_raw tr;
	char name[32], adj[16];

	if (!pa_tp_raw_setup(&tr, "task", "task_rename", want))
		return;
	ASSERT_OK(prctl(PR_SET_NAME, OLD_NAME, 0, 0, 0));
	snprintf(adj, sizeof(adj), "%d", OOM_ADJ);
	if (write_file("/proc/self/oom_score_adj", adj))
		pa_skip("cannot set /proc/self/oom_score_adj to %d: %s", OOM_ADJ, strerror(errno));
	memset(&res, 0, sizeof(res));
	snprintf(res.path, sizeof(res.path), "/proc/self/task/%d/comm", (int)getpid());
	if (!pa_tp_raw_run(&tr, NULL, do_rename, &res))
		return;
	if (res.n != (ssize_t)strlen(NEW_NAME))
		pa_fail("writing %s: %zd (%s)", res.path, res.n, strerror(res.err));
	ASSERT_OK(prctl(PR_GET_NAME, name, 0, 0, 0));
	EXPECT_EQ(strcmp(name, NEW_NAME), 0);
	while (pa_tp_raw_next(&tr)) {
		const void *raw = tr.s.raw;
		uint32_t size = tr.s.var.raw_size;

		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "pid", getpid());
		PA_TP_EXPECT_STR(&tr.fmt, raw, size, "oldcomm", OLD_NAME);
		PA_TP_EXPECT_STR(&tr.fmt, raw, size, "newcomm", NEW_NAME);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "oom_score_adj", OOM_ADJ);
	}
	pa_tp_raw_end(&tr, 1);
}
