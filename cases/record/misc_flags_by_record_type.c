#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

/*
 * header.misc of every record a task's life produces (samples, MMAP2 of code
 * and data, COMM from prctl and from exec, FORK, EXIT, SWITCH) holds only
 * what include/uapi/linux/perf_event.h documents for that record type:
 *   SAMPLE of a software event  cpumode USER (exclude_kernel), no EXACT_IP
 *   MMAP2                       USER, with MMAP_DATA exactly when the
 *                               mapping is not executable
 *   COMM                        COMM_EXEC exactly for the exec's comm
 *   FORK, EXIT, LOST            0 (FORK_EXEC is perf-tool internal)
 *   SWITCH                      0 in, SWITCH_OUT out, + SWITCH_OUT_PREEMPT
 * and bits 3..12 and EXT_RESERVED (15) are never set by the kernel
 * (PROC_MAP_PARSE_TIMEOUT, bit 12, is the perf tool's).
 */
#define NAME "pa-misc-rename"
#define MISC_UNUSED (0x1ff8 | PERF_RECORD_MISC_EXT_RESERVED)

static void child_life(int go)
{
	struct timespec ts = { 0, 1000000 };
	struct rusage ru;
	long start;
	char c;
	void *d, *x;
	pid_t g;
	int fd;

	if (read(go, &c, 1) != 1)
		_exit(2);
	/* a data mapping and an executable file mapping */
	d = mmap(NULL, 4096 * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/bin/true", O_RDONLY);
	x = fd >= 0 ? mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	if (d == MAP_FAILED || x == MAP_FAILED)
		_exit(3);
	memset(d, 1, 4096 * 4);			/* samples */
	prctl(PR_SET_NAME, NAME, 0, 0, 0);	/* COMM, not exec */
	/* three real switches out and in: a sleep whose timer expired
	 * before the task slept (slow emulation) does not switch, so sleep
	 * until the kernel counted three voluntary switches */
	getrusage(RUSAGE_THREAD, &ru);
	start = ru.ru_nvcsw;
	for (int i = 0; i < 1000 && ru.ru_nvcsw - start < 3; i++) {
		nanosleep(&ts, NULL);
		getrusage(RUSAGE_THREAD, &ru);
	}
	g = fork();				/* FORK */
	if (g == 0)
		_exit(0);
	if (g < 0 || waitpid(g, NULL, 0) != g)
		_exit(4);
	execl("/bin/true", "true", (char *)NULL);	/* COMM_EXEC, MMAP2 */
	_exit(5);
}

PERFABI_CASE(
	.assertion = "header.misc of each record holds only the flags documented for its type: a software sample's cpumode (USER) without EXACT_IP; MMAP2 USER plus MMAP_DATA exactly for a non-executable mapping; COMM_EXEC exactly on the exec's COMM; 0 on FORK and EXIT; SWITCH_OUT (and SWITCH_OUT_PREEMPT only with it) on switch-outs, 0 on switch-ins; never bits 3..12 or EXT_RESERVED",
	.ref = "include/uapi/linux/perf_event.h PERF_RECORD_MISC_* (\"PERF_RECORD_MISC_MMAP_DATA - PERF_RECORD_MMAP* events, PERF_RECORD_MISC_COMM_EXEC - PERF_RECORD_COMM event, PERF_RECORD_MISC_FORK_EXEC - PERF_RECORD_FORK event (perf internal), PERF_RECORD_MISC_SWITCH_OUT_PREEMPT\"); perf_event_open(2), misc; kernel/events/core.c perf_event_mmap_event(), perf_event_comm_output(), perf_event_task_output(), perf_event_switch_output()",
	.covers = "record.misc record.SAMPLE record.MMAP2 record.COMM record.FORK record.EXIT record.SWITCH attr.mmap_data attr.comm_exec",
	.min_kernel = "4.3",	/* context_switch */
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	int fd, p[2], st, n_sample = 0, n_data = 0, n_code = 0, n_comm = 0,
	    n_exec = 0, n_fork = 0, n_exit = 0, n_in = 0, n_out = 0, n_all = 0;
	struct pa_ring r;
	pid_t child;
	char go = 'x';

	if (access("/bin/true", X_OK))
		pa_skip("/bin/true is not there to map and exec");
	ASSERT_OK(pipe(p));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(p[1]);
		child_life(p[0]);
	}
	close(p[0]);
	attr.sample_type = PERF_SAMPLE_TID;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.mmap_data = 1;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.context_switch = 1;
	fd = ASSERT_OPEN(&attr, child, -1, -1, 0);
	pa_ring_map(&r, fd, 64);
	ASSERT_EQ(write(p[1], &go, 1), 1);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	while ((h = pa_ring_next(&r))) {
		uint16_t m = h->misc, mode = m & PERF_RECORD_MISC_CPUMODE_MASK;

		n_all++;
		EXPECT_EQ(m & MISC_UNUSED, 0);
		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			n_sample++;
			EXPECT_EQ(m, PERF_RECORD_MISC_USER);
			break;
		case PERF_RECORD_MMAP2: {
			const struct pa_mmap2_rec *mr = (const void *)h;
			bool exec = mr->prot & PROT_EXEC;

			EXPECT_EQ(mode, PERF_RECORD_MISC_USER);
			EXPECT_EQ(m & ~PERF_RECORD_MISC_CPUMODE_MASK,
				  exec ? 0 : PERF_RECORD_MISC_MMAP_DATA);
			if (exec)
				n_code++;
			else
				n_data++;
			break;
		}
		case PERF_RECORD_COMM: {
			const struct pa_comm_rec *cr = (const void *)h;
			bool is_exec = !strcmp(cr->comm, "true");

			EXPECT_TRUE(is_exec || !strcmp(cr->comm, NAME));
			EXPECT_EQ(m, is_exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
			n_comm++;
			n_exec += is_exec;
			break;
		}
		case PERF_RECORD_FORK:
			n_fork++;
			EXPECT_EQ(m, 0);
			break;
		case PERF_RECORD_EXIT:
			n_exit++;
			EXPECT_EQ(m, 0);
			break;
		case PERF_RECORD_SWITCH:
			if (m & PERF_RECORD_MISC_SWITCH_OUT) {
				n_out++;
				EXPECT_EQ(m & ~(PERF_RECORD_MISC_SWITCH_OUT |
						PERF_RECORD_MISC_SWITCH_OUT_PREEMPT), 0);
			} else {
				n_in++;
				EXPECT_EQ(m, 0);
			}
			break;
		case PERF_RECORD_LOST:
			EXPECT_EQ(m, 0);
			break;
		default:
			pa_fail("unexpected record type %u (misc %#x)", h->type, m);
		}
	}
	pa_diag("%d records: %d samples, MMAP2 %d code %d data, COMM %d (%d exec), FORK %d, EXIT %d, SWITCH %d in %d out",
		n_all, n_sample, n_code, n_data, n_comm, n_exec, n_fork, n_exit, n_in, n_out);
	/* every kind was there to be checked */
	EXPECT_GE(n_sample, 4);
	EXPECT_GE(n_data, 1);
	EXPECT_GE(n_code, 1);
	EXPECT_EQ(n_comm, 2);
	EXPECT_EQ(n_exec, 1);
	EXPECT_EQ(n_fork, 1);	/* the grandchild (not inherited: no EXIT of it) */
	EXPECT_EQ(n_exit, 1);	/* the child itself */
	EXPECT_GE(n_out, 3);
	EXPECT_GE(n_in, 3);
	pa_ring_unmap(&r);
	close(fd);
}
