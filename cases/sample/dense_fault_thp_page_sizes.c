#include "perfabi.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define THP_OFF(psz)	(3 * (psz) + 0x1c8)	/* a byte well inside the huge page */

static long read_long(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

/* AnonHugePages (kB) of the mapping that starts at start, -1 if none. */
static long anon_huge_kb(const void *start)
{
	char line[512], want[32];
	bool in = false;
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)(uintptr_t)start);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = !strncmp(line, want, strlen(want));
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * DATA_PAGE_SIZE and CODE_PAGE_SIZE are the sizes of the page-table
 * entries that map the data and code addresses: a write fault on a
 * present transparent huge page (write-protected for copy-on-write by a
 * fork) reports the PMD size for the data, while the instruction runs
 * from a one-page mapping (the base page size) - two different exact
 * values in adjacent fields.
 */
PERFABI_CASE(
	.assertion = "a page-fault sample with IP|TID|ADDR|PERIOD|DATA_PAGE_SIZE|CODE_PAGE_SIZE for a store that runs from a one-page anonymous executable mapping and faults on a present PMD-mapped transparent huge page holds {ip = the store, pid/tid, addr, period 1, data_page_size = the PMD size (hpage_pmd_size), code_page_size = the base page size}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE data_page_size/code_page_size (5.11, 8d97e71811aa, 995f088efebe): \"the size of the page for the data/code address\"; kernel/events/core.c perf_get_page_size(), perf_get_pgtable_size() (pmd_leaf_size() for a PMD leaf); Documentation/admin-guide/mm/transhuge.rst",
	.covers = "record.SAMPLE sample.IP sample.TID sample.ADDR sample.PERIOD sample.DATA_PAGE_SIZE sample.CODE_PAGE_SIZE",
	.min_kernel = "5.11",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE), pmd, kb;
	const struct perf_event_header *h;
	char enabled[128] = "";
	uint64_t want_addr;
	unsigned char *stub;
	struct pa_sample s;
	struct pa_ring r;
	char *raw, *q;
	int fd, wst, matched = 0;
	pid_t child;
	FILE *f;

	if (pa_frame_unsupported())	/* the store stub's machine code */
		pa_skip("%s", pa_frame_unsupported());
	pmd = read_long("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f) {
		if (!fgets(enabled, sizeof(enabled), f))
			enabled[0] = 0;
		fclose(f);
	}
	if (pmd <= psz || !enabled[0])
		pa_skip("no transparent huge pages (CONFIG_TRANSPARENT_HUGEPAGE off)");
	if (strstr(enabled, "[never]"))
		pa_skip("transparent huge pages are disabled here (enabled: [never])");

	stub = pa_frame_store_stub();	/* movb $1, 8(%rdi); ret */
	ASSERT_TRUE(stub != NULL);
	raw = mmap(NULL, 2 * (size_t)pmd, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(raw != MAP_FAILED);
	q = (char *)(((uintptr_t)raw + (uintptr_t)pmd - 1) & ~((uintptr_t)pmd - 1));
	if (madvise(q, (size_t)pmd, MADV_HUGEPAGE))
		pa_skip("madvise(MADV_HUGEPAGE): %s", pa_errno_name(errno));
	memset(q, 2, (size_t)pmd);	/* fault in: one huge page if the kernel has one */
	kb = anon_huge_kb(q);
	if (kb != pmd / 1024)
		pa_skip("the kernel mapped no transparent huge page here (AnonHugePages %ld kB)", kb);
	child = fork();			/* the huge PMD is write-protected for COW */
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &wst, 0), child);

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	want_addr = (uint64_t)(uintptr_t)(q + THP_OFF(psz));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	((void (*)(volatile char *))(uintptr_t)stub)(q + THP_OFF(psz) - 8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)getpid());
		EXPECT_EQ(s.period, 1u);
		if (s.addr != want_addr)
			continue;
		matched++;
		/* header + 6 u64 fields */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 6 * 8);
		EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)stub);
		EXPECT_EQ(s.data_page_size, (uint64_t)pmd);
		EXPECT_EQ(s.code_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	EXPECT_EQ(q[THP_OFF(psz)], 1);		/* the stub stored 1 over the 2 */
	pa_ring_unmap(&r);
	close(fd);
}
