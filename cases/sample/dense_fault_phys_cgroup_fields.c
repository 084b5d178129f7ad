#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define DATA_OFF	0x5d8	/* where in the page the store lands */

/* The physical address of the present page at v, from /proc/self/pagemap
 * (PFN in bits 0..54, present bit 63); 0 when not present or hidden. */
static uint64_t pagemap_phys(const volatile void *v, long psz)
{
	uint64_t e = 0, va = (uint64_t)(uintptr_t)v;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (off_t)(va / (uint64_t)psz * 8)) != sizeof(e))
		e = 0;
	close(fd);
	if (!(e >> 63) || !(e & ((1ULL << 55) - 1)))
		return 0;
	return (e & ((1ULL << 55) - 1)) * (uint64_t)psz + va % (uint64_t)psz;
}

/*
 * A write fault on a present, copy-on-write page, sampled with the fields
 * that need privilege or a cgroup: PHYS_ADDR (the page's frame from
 * pagemap, so root), CGROUP (this task's cgroup directory), with
 * DATA_PAGE_SIZE and the fixed-value TRANSACTION between them, so a field
 * written in another's place fails.
 */
PERFABI_CASE(
	.assertion = "a page-fault sample with IDENTIFIER|IP|TID|ADDR|ID|TRANSACTION|PHYS_ADDR|CGROUP|DATA_PAGE_SIZE holds, in the documented order, {identifier, ip, pid/tid, addr = the written address, id, transaction 0, phys_addr = the page's frame (from /proc/self/pagemap) plus the offset in the page, cgroup = the inode number of this task's cgroup directory (perf_event hierarchy), data_page_size = the base page size}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout: txn, ..., phys_addr (4.13), cgroup (5.7), data_page_size (5.11); kernel/events/core.c perf_prepare_sample(): perf_virt_to_phys() = page_to_phys(get_user_page_fast_only()) + virt % PAGE_SIZE, cgroup_id() of the perf_event css, perf_get_page_size(); Documentation/admin-guide/mm/pagemap.rst",
	.covers = "record.SAMPLE attr.sample_type sample.IDENTIFIER sample.IP sample.TID sample.ADDR sample.ID sample.TRANSACTION sample.PHYS_ADDR sample.CGROUP sample.DATA_PAGE_SIZE",
	.min_kernel = "5.11",	/* DATA_PAGE_SIZE; CGROUP is 5.7 */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),	/* pagemap frames; PHYS_ADDR's perf_allow_kernel() */
	.features = "cgroup",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	char root[2048], own[2048];
	const struct perf_event_header *h;
	uint64_t id = 0, want_phys, want_addr;
	struct pa_sample s;
	struct pa_ring r;
	volatile char *p;
	struct stat st;
	int fd, wst, matched = 0;
	pid_t child;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	if (stat(own, &st))
		pa_skip("own cgroup directory %s not found", own);
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	(void)madvise((void *)p, (size_t)psz, MADV_NOHUGEPAGE);
	p[0] = 1;			/* a real page ... */
	child = fork();			/* ... write-protected for copy-on-write */
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &wst, 0), child);
	want_addr = (uint64_t)(uintptr_t)(p + DATA_OFF);
	/* the frame now; the fault samples before it reuses or copies it */
	want_phys = pagemap_phys(p + DATA_OFF, psz);
	if (!want_phys)
		pa_skip("/proc/self/pagemap gives no frame for a present page");

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_TRANSACTION |
			   PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
			   PERF_SAMPLE_DATA_PAGE_SIZE;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p[DATA_OFF] = 2;		/* write fault on the present page */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.identifier, id);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)getpid());
		EXPECT_EQ(s.transaction, 0u);
		EXPECT_EQ(s.cgroup, (uint64_t)st.st_ino);
		if (s.addr != want_addr)
			continue;
		matched++;
		/* header + 9 u64 fields */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 9 * 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_NE(s.ip, 0u);
		EXPECT_EQ(s.phys_addr, want_phys);
		EXPECT_EQ(s.data_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	pa_diag("cgroup %s (inode %llu)", own, (unsigned long long)st.st_ino);
	pa_ring_unmap(&r);
	close(fd);
}
