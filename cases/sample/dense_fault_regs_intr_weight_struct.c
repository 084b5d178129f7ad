#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#define DATA_OFF	0x2a8	/* where in the data page the store lands */

static struct pa_frame out, warm;

/*
 * The registers of a user page fault, asked twice with different masks:
 * REGS_USER (the task's user registers) and REGS_INTR (the registers the
 * event interrupted, the same user frame here), with WEIGHT_STRUCT in the
 * weight slot. Each register holds a value no other register or field
 * has; the two masks differ, so the two blocks cannot be confused.
 */
PERFABI_CASE(
	.assertion = "a page-fault sample with IP|TID|ADDR|PERIOD|CALLCHAIN|REGS_USER|WEIGHT_STRUCT|DATA_SRC|TRANSACTION|REGS_INTR|DATA_PAGE_SIZE|CODE_PAGE_SIZE holds, in the documented order, {ip = the faulting instruction, pid/tid, addr, period 1, callchain {PERF_CONTEXT_USER, ip, the return address at rbp + 8}, regs_user {ABI_64, the sample_regs_user registers at the fault in bit order}, weight {var1_dw 0, var2_w 0, var3_w 0}, data_src PERF_MEM_NA, transaction 0, regs_intr {ABI_64, the sample_regs_intr registers of the same user frame in bit order}, data_page_size and code_page_size = the base page size}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout (ips[nr]; abi, regs[weight(mask)] for REGS_USER and REGS_INTR; union perf_sample_weight; data_src; txn; data_page_size; code_page_size); kernel/events/core.c perf_prepare_sample(): weight.full 0, data_src PERF_MEM_NA, txn 0 where the PMU set none, perf_sample_regs_intr() = the event's pt_regs; arch/x86/include/uapi/asm/perf_regs.h",
	.covers = "record.SAMPLE attr.sample_type sample.IP sample.TID sample.ADDR sample.PERIOD sample.CALLCHAIN sample.REGS_USER sample.WEIGHT_STRUCT sample.DATA_SRC sample.TRANSACTION sample.REGS_INTR sample.DATA_PAGE_SIZE sample.CODE_PAGE_SIZE attr.sample_regs_user attr.sample_regs_intr attr.exclude_callchain_kernel",
	.min_kernel = "5.12",	/* WEIGHT_STRUCT */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t want_addr, ip;
	volatile char *data, *scratch;
	unsigned char *stub;
	struct pa_sample s;
	struct pa_ring r;
	int fd, matched = 0;

	if (pa_frame_unsupported())
		pa_skip("%s", pa_frame_unsupported());
	if (pa_lockdown_confidentiality())
		pa_skip("kernel lockdown (confidentiality) forbids PERF_SAMPLE_REGS_INTR");
	/* present (the page-cache page, read-only pte): the store takes a
	 * write (copy-on-write) fault */
	data = pa_cow_page(DATA_OFF);
	scratch = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(data != NULL && scratch != MAP_FAILED);
	stub = pa_frame_store_stub();
	ASSERT_TRUE(stub != NULL);

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_WEIGHT_STRUCT |
			   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			   PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE;
	attr.exclude_callchain_kernel = 1;	/* a user callchain needs no kernel access */
	/* x86-64: AX CX SP IP for REGS_USER, BX DX SI DI BP SP IP for REGS_INTR */
	attr.sample_regs_user = 1ULL << 0 | 1ULL << 2 | 1ULL << 7 | 1ULL << 8;
	attr.sample_regs_intr = 1ULL << 1 | 1ULL << 3 | 1ULL << 4 | 1ULL << 5 |
				1ULL << 6 | 1ULL << 7 | 1ULL << 8;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	memset(&out, 0, sizeof(out));
	/* warm up: the stub, the out buffers */
	pa_frame_call(&warm, stub, (uint64_t)(uintptr_t)(scratch + 64 - 8));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_frame_call(&out, stub, (uint64_t)(uintptr_t)(data + DATA_OFF - 8));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	want_addr = (uint64_t)(uintptr_t)(data + DATA_OFF);
	ip = (uint64_t)(uintptr_t)stub;

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)getpid());
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.weight, 0u);
		EXPECT_EQ(s.transaction, 0u);
		EXPECT_TRUE(pa_data_src_is_na(s.data_src));
		if (s.addr != want_addr)
			continue;
		matched++;
		/* header, ip, tid, addr, period, callchain {nr, ips}, regs_user
		 * {abi, 4 regs}, weight, data_src, txn, regs_intr {abi, 7 regs},
		 * data_page_size, code_page_size */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 4 * 8 +
			  8 + 8 * (size_t)s.var.callchain_nr + 8 + 4 * 8 +
			  3 * 8 + 8 + 7 * 8 + 2 * 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.ip, ip);
		pa_frame_expect_callchain(&out, ip, s.callchain, s.var.callchain_nr);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(&out, want_addr - 8, ip, attr.sample_regs_user,
				     s.regs_user, "regs_user");
		ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(&out, want_addr - 8, ip, attr.sample_regs_intr,
				     s.regs_intr, "regs_intr");
		EXPECT_EQ(s.data_page_size, (uint64_t)psz);
		EXPECT_EQ(s.code_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	pa_ring_unmap(&r);
	close(fd);
}
