#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/*
 * A BPF_PROG_TYPE_PERF_EVENT program on a page-fault sampler S (period 1)
 * of a thread reads two events of that thread out of a
 * BPF_MAP_TYPE_PERF_EVENT_ARRAY with bpf_perf_event_read_value():
 * - slot 0: S itself. The software event adds the fault to its count before
 *   the overflow runs the program (perf_swevent_event()), so the i-th run
 *   reads counter i; S is ACTIVE, never multiplexed: enabled == running;
 * - slot 1: C, a page-fault counter the thread enabled and disabled before
 *   S ran: an OFF event neither counts nor accumulates time, so every run
 *   reads exactly what read(2) returns for it afterwards.
 * The program stores {ret, buf} of both reads into an ARRAY map at key
 * = the counter it read for S; the user reads keys 1..N.
 */

#define N 16
#define NREAD 2
#define ENT 40			/* one read: ret, counter, enabled, running, spare */

static struct {
	long psz;
	char *warm, *run;	/* N fresh pages each */
	int warm_fd, fd;
	int err;
} w;

static char *at(char *p, int i)
{
	return p + (size_t)w.psz * (size_t)i + 8 * (size_t)i + 3;
}

static char *fresh_pages(void)
{
	size_t len = (size_t)w.psz * N;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		w.err = errno;
		return NULL;
	}
	(void)madvise(p, len, MADV_NOHUGEPAGE);	/* one fault per page */
	return p;
}

static void prep(void *arg)
{
	(void)arg;
	w.psz = sysconf(_SC_PAGESIZE);
	w.warm = fresh_pages();
	w.run = fresh_pages();
}

/* ENABLE, one store into each of the N pages, DISABLE: the first run (on
 * C) also faults in this code and stack, so that the run on S takes
 * exactly the N faults of its stores. */
static __attribute__((noinline)) void faults(int fd, char *p)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		w.err = errno;
	for (int i = 0; i < N; i++)
		*(volatile char *)at(p, i) = 1;
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		w.err = errno;
}

static void work(void *arg)
{
	(void)arg;
	faults(w.warm_fd, w.warm);
	faults(w.fd, w.run);
}

/* ---- hand-written BPF (static here; a harness helper could share it) ---- */

struct insn {
	uint8_t code;
	uint8_t regs;		/* dst in the low nibble, src in the high one */
	int16_t off;
	int32_t imm;
};

static struct insn prog[128];
static int nprog;

static void emit(uint8_t code, int dst, int src, int off, int32_t imm)
{
	if (nprog >= (int)(sizeof(prog) / sizeof(prog[0]))) {
		pa_fail("BPF program too long");
		pa_abort();
	}
	prog[nprog++] = (struct insn){ code, (uint8_t)(dst | src << 4), (int16_t)off, imm };
}

/* dst = imm64; src 1 (BPF_PSEUDO_MAP_FD): imm is a map fd */
static void ld_imm64(int dst, int src, uint64_t imm)
{
	emit(0x18, dst, src, 0, (int32_t)(uint32_t)imm);
	emit(0x00, 0, 0, 0, (int32_t)(uint32_t)(imm >> 32));
}

static int map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries)
{
	union { uint32_t a[4]; uint8_t pad[128]; } m;
	long fd;

	memset(&m, 0, sizeof(m));
	m.a[0] = type;
	m.a[1] = key_size;
	m.a[2] = value_size;
	m.a[3] = max_entries;
	fd = pa_sys_bpf(0 /* BPF_MAP_CREATE */, &m);
	if (fd < 0) {
		pa_fail("BPF_MAP_CREATE type %u: %s", type, pa_errno_name(errno));
		pa_abort();
	}
	return (int)fd;
}

/* BPF_MAP_UPDATE_ELEM (cmd 2) or BPF_MAP_LOOKUP_ELEM (cmd 1) of a u32 key */
static long map_elem(int cmd, int map, uint32_t key, void *value)
{
	union {
		struct { uint32_t map_fd, pad; uint64_t key, value, flags; } e;
		uint8_t pad[128];
	} a;

	memset(&a, 0, sizeof(a));
	a.e.map_fd = (uint32_t)map;
	a.e.key = (uint64_t)(uintptr_t)&key;
	a.e.value = (uint64_t)(uintptr_t)value;
	return pa_sys_bpf(cmd, &a);
}

/* BPF_PROG_LOAD of prog[] as BPF_PROG_TYPE_PERF_EVENT; on failure the
 * verifier's log is printed and the case fails. */
static int prog_load(void)
{
	static char log[65536];
	union {
		struct {
			uint32_t prog_type, insn_cnt;
			uint64_t insns, license;
			uint32_t log_level, log_size;
			uint64_t log_buf;
		} l;
		uint8_t pad[128];
	} a;
	long fd;
	int err;

	memset(&a, 0, sizeof(a));
	a.l.prog_type = 7;			/* BPF_PROG_TYPE_PERF_EVENT */
	a.l.insn_cnt = (uint32_t)nprog;
	a.l.insns = (uint64_t)(uintptr_t)prog;
	a.l.license = (uint64_t)(uintptr_t)"GPL";	/* the helper is GPL-only */
	fd = pa_sys_bpf(5 /* BPF_PROG_LOAD */, &a);
	if (fd >= 0)
		return (int)fd;
	err = errno;
	a.l.log_level = 1;
	a.l.log_size = sizeof(log);
	a.l.log_buf = (uint64_t)(uintptr_t)log;
	(void)pa_sys_bpf(5, &a);
	for (char *s = strtok(log, "\n"); s; s = strtok(NULL, "\n"))
		pa_diag("verifier: %s", s);
	pa_fail("BPF_PROG_LOAD: %s", pa_errno_name(err));
	pa_abort();
}

/*
 * For read j (flags[j]): the helper fills the 24 bytes at fp - NREAD*ENT +
 * ENT*j + 8, and its return value goes to the 8 bytes before; then the
 * NREAD*ENT bytes go to result[key], key = the counter of read 0.
 */
static void build(int perf_map, int result_map, const uint64_t *flags)
{
	const int v = -NREAD * ENT;	/* the value, on the stack */

	for (int j = 0; j < NREAD; j++) {
		emit(0x7a, 10, 0, v + ENT * j + 32, 0x5a5a5a5a);	/* *(u64 *)(fp + spare) = pattern */
		ld_imm64(1, 1, (uint64_t)perf_map);	/* r1 = &perf_map */
		ld_imm64(2, 0, flags[j]);		/* r2 = flags: the index */
		emit(0xbf, 3, 10, 0, 0);		/* r3 = fp */
		emit(0x07, 3, 0, 0, v + ENT * j + 8);	/* r3 += buf */
		emit(0xb7, 4, 0, 0, 24);		/* r4 = sizeof(struct bpf_perf_event_value) */
		emit(0x85, 0, 0, 0, 55);		/* call bpf_perf_event_read_value */
		emit(0x7b, 10, 0, v + ENT * j, 0);	/* *(u64 *)(fp + ret) = r0 */
	}
	emit(0x79, 1, 10, v + 8, 0);		/* r1 = read 0's counter */
	emit(0x63, 10, 1, v - 8, 0);		/* *(u32 *)(fp + v - 8) = r1: the key */
	ld_imm64(1, 1, (uint64_t)result_map);	/* r1 = &result */
	emit(0xbf, 2, 10, 0, 0);		/* r2 = fp */
	emit(0x07, 2, 0, 0, v - 8);		/* r2 = &key */
	emit(0xbf, 3, 10, 0, 0);		/* r3 = fp */
	emit(0x07, 3, 0, 0, v);			/* r3 = &value */
	emit(0xb7, 4, 0, 0, 0);			/* r4 = BPF_ANY */
	emit(0x85, 0, 0, 0, 2);			/* call bpf_map_update_elem */
	emit(0xb7, 0, 0, 0, 0);			/* r0 = 0: no sample of S */
	emit(0x95, 0, 0, 0, 0);			/* exit */
}

PERFABI_CASE(
	.assertion = "bpf_perf_event_read_value() in a BPF_PROG_TYPE_PERF_EVENT program fills {counter, enabled, running} of the event at the BPF_MAP_TYPE_PERF_EVENT_ARRAY index in flags and returns 0: run i of the program on a thread's period-1 page-fault sampler S reads S's own count i with enabled == running > 0 (never decreasing, at most what read(2) gives after), and reads a disabled counter of that thread as exactly the count, time_enabled and time_running read(2) gives",
	.ref = "include/uapi/linux/bpf.h, bpf_perf_event_read_value() (since Linux 4.15, commit 908432ca84fc); kernel/trace/bpf_trace.c get_map_perf_counter(); kernel/events/core.c perf_event_read_local(), perf_swevent_event() (the count is added before the overflow)",
	.covers = "ioctl.SET_BPF attr.sample_period sw.PAGE_FAULTS read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "4.15",	/* bpf_perf_event_read_value() */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t flags[NREAD] = { 0, 1 };
	uint64_t res[NREAD * ENT / 8], s_end[3], c_end[3], prev = 0;
	struct pa_thread t;
	int perf_map, result_map, fd;

	close(pa_bpf_load_perf_event(0));	/* SKIP where the type is missing */
	pa_thread_start(&t, prep, work, NULL);
	if (!w.warm || !w.run) {
		pa_fail("mmap in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	attr.disabled = 1;
	attr.read_format = cattr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING;
	w.fd = ASSERT_OPEN(&attr, t.tid, -1, -1, 0);
	w.warm_fd = ASSERT_OPEN(&cattr, t.tid, -1, -1, 0);

	perf_map = map_create(4 /* BPF_MAP_TYPE_PERF_EVENT_ARRAY */, 4, 4, 2);
	ASSERT_OK(map_elem(2, perf_map, 0, &w.fd));
	ASSERT_OK(map_elem(2, perf_map, 1, &w.warm_fd));
	result_map = map_create(2 /* BPF_MAP_TYPE_ARRAY */, 4, NREAD * ENT, N + 1);
	build(perf_map, result_map, flags);
	fd = prog_load();
	ASSERT_OK(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, fd));

	pa_thread_run(&t);
	if (w.err) {
		pa_fail("ioctl in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	pa_read_u64(w.fd, s_end, 3);
	pa_read_u64(w.warm_fd, c_end, 3);
	EXPECT_EQ(s_end[0], N);
	EXPECT_GE(c_end[0], N);		/* the stores, and the warm-up's own */
	for (uint32_t i = 1; i <= N; i++) {
		ASSERT_OK(map_elem(1, result_map, i, res));
		/* read 0: S itself, at its i-th overflow */
		EXPECT_EQ((int64_t)res[0], 0);
		EXPECT_EQ(res[1], i);
		EXPECT_GT(res[2], 0);
		EXPECT_EQ(res[2], res[3]);	/* enabled == running */
		EXPECT_GE(res[2], prev);
		EXPECT_LE(res[2], s_end[1]);
		EXPECT_EQ(res[4], 0x5a5a5a5a);	/* 24 bytes written, no more */
		prev = res[2];
		/* read 1: C, disabled before S ran */
		EXPECT_EQ((int64_t)res[5], 0);
		EXPECT_EQ(res[6], c_end[0]);
		EXPECT_EQ(res[7], c_end[1]);
		EXPECT_EQ(res[8], c_end[2]);
		EXPECT_EQ(res[9], 0x5a5a5a5a);
	}
	close(fd);
	close(result_map);
	close(perf_map);
	close(w.fd);
	close(w.warm_fd);
}
