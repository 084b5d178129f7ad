#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/*
 * A ring wakeup caused by a record that is not a sample (here a COMM
 * record crossing wakeup_watermark) is also signalled to an O_ASYNC
 * owner, as POLL_IN: perf_output_wakeup() sets pending_kill = POLL_IN
 * when the event has a fasync owner and no overflow set it before (a
 * non-sampling event never overflows). With F_SETSIG the signal carries
 * si_code POLL_IN, si_fd the event's fd and si_band POLLIN | POLLRDNORM
 * (fs/fcntl.c send_sigio_to_task()).
 *
 * The dummy event watches a worker thread (pid != tid in its record),
 * which stays alive until the checks are done (its exit would write an
 * EXIT record, which attr.comm also enables: perf_event_task_match());
 * the signal is blocked in every thread (blocked before the worker is
 * made), so the main thread takes it with a bounded sigtimedwait().
 */
#define NAME "pa-wmark-comm"	/* 13 chars: comm[] is 16 bytes */

static int go[2], done[2];
static volatile pid_t worker_tid;

static void *worker(void *unused)
{
	char c;

	(void)unused;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (write(done[1], "t", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	prctl(PR_SET_NAME, NAME, 0, 0, 0);
	if (write(done[1], "n", 1) != 1)
		return NULL;
	/* stay until checked: its exit writes an EXIT record (comm implies it) */
	if (read(go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "a wakeup caused by a non-sample record is signalled too: with O_ASYNC and F_SETSIG, a COMM record that crosses wakeup_watermark (1 byte) of a non-sampling dummy event brings exactly that signal with si_code POLL_IN, si_fd the event's fd and si_band POLLIN|POLLRDNORM, and the ring holds that one COMM record {pid, tid, comm}",
	.ref = "perf_event_open(2), wakeup_events/wakeup_watermark (\"bytes ... happen before an overflow signal happens\") and Overflow handling (O_ASYNC, F_SETSIG, POLL_IN); kernel/events/ring_buffer.c perf_output_wakeup() (pending_kill = POLL_IN when fasync and none pending), core.c perf_event_wakeup() -> kill_fasync(); fs/fcntl.c send_sigio_to_task(). Since 6.10: \"perf/ring_buffer: Trigger IO signals for watermark_wakeup\" (Kyle Huey, 2024); before it a wakeup that no overflow caused sent no signal (Debian 6.1.192 sends none)",
	.min_kernel = "6.10",
	.covers = "attr.watermark attr.wakeup_watermark attr.comm record.COMM fd.O_ASYNC fd.F_SETSIG",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct pa_comm_rec *c;
	const struct perf_event_header *h;
	struct pa_sigs sigs;
	struct pa_ring r;
	siginfo_t si;
	pthread_t th;
	char ch;
	int fd, sig = SIGRTMIN;

	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	pa_sig_block(sig);		/* inherited by the worker */
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(read(done[0], &ch, 1), 1);

	attr.disabled = 0;
	attr.comm = 1;
	attr.watermark = 1;
	attr.wakeup_watermark = 1;
	fd = ASSERT_OPEN(&attr, worker_tid, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	pa_sigs_route(&sigs, fd, sig);

	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &ch, 1), 1);

	memset(&si, 0, sizeof(si));
	ASSERT_EQ(pa_sig_wait(sig, &si, 5000), sig);
	EXPECT_EQ(si.si_code, POLL_IN);
	EXPECT_EQ(si.si_fd, fd);
	EXPECT_EQ((long)si.si_band, (long)(POLLIN | POLLRDNORM));
	/* one record, one wakeup: no second signal is queued */
	EXPECT_EQ(pa_sig_wait(sig, &si, 0), 0);

	h = pa_ring_next(&r);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_COMM);
	EXPECT_EQ(h->size, (uint16_t)(sizeof(*c) + 16));
	c = (const struct pa_comm_rec *)h;
	EXPECT_EQ(c->pid, (uint32_t)getpid());
	EXPECT_EQ(c->tid, (uint32_t)worker_tid);
	EXPECT_EQ(strncmp(c->comm, NAME, 16), 0);
	EXPECT_TRUE(pa_ring_next(&r) == NULL);
	close(fd);
	ASSERT_EQ(write(go[1], "x", 1), 1);
	pthread_join(th, NULL);
}
