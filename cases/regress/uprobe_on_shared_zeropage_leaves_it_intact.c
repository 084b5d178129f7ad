#include "perfabi.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/*
 * bddf10d26e6e: UFFDIO_ZEROPAGE can map the shared zero page into a
 * private mapping of a shmem (memfd) file, a file vma a uprobe may be
 * installed in. uprobe_write_opcode() then took the zero page as the
 * page to replace: __replace_page() dropped a reference and an rss count
 * the zero page never had ("BUG: Bad page state", "BUG: Bad rss-counter
 * state": the shared zero page freed). The fix refuses it (-EINVAL), so
 * the uprobe open fails; since 15a7b4b02e39 (6.16, "kernel/events/
 * uprobes: uprobe_write_opcode() rewrite") registering breaks COW with
 * FOLL_WRITE first, so the probe goes into a fresh anonymous copy and
 * the open succeeds. Either way the zero page is never touched.
 */
#define PG 4096

PERFABI_CASE(
	.assertion = "a uprobe on a private file mapping whose page is the shared zero page (UFFDIO_ZEROPAGE) never writes or releases the zero page: perf_event_open() fails with EINVAL (6.14, 6.15) or, since the 6.16 rewrite, succeeds with the breakpoint in a private copy; the mapping, the file and fresh anonymous memory read as before",
	.ref = "\"uprobes: Reject the shared zeropage in uprobe_write_opcode()\" bddf10d26e6e (6.14, CVE-2025-21881; stable 6.12.18, 6.1.130): kernel/events/uprobes.c uprobe_write_opcode() is_zero_page(); 15a7b4b02e39 (6.16) FOLL_WRITE before the write",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset errno.EINVAL",
	.fix = { .commit = "bddf10d26e6e", .subject = "uprobes: Reject the shared zeropage in uprobe_write_opcode()", .release = "6.14", .cve = "CVE-2025-21881", .stable = "6.12.18 6.1.130" },
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
	.destructive = true,
	.xfail = {
		.from = "4.17",	/* the uprobe PMU; the bug dates from 3.5 */
		.to = "6.14",
		.why = "uprobe_write_opcode() replaced the shared zero page as if it were the mapping's own page: zero page refcount and rss underflow, the zero page freed",
		.fix = "bddf10d26e6e",
		.fixed_in = "6.12.18 6.1.130",
	},
) {
#ifndef __x86_64__
	pa_skip("the probed byte (0x90, nop) is an x86-64 instruction");
#else
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_zeropage zp;
	struct perf_event_attr attr;
	unsigned char buf[PG];
	volatile unsigned char *p, *anon;
	char path[64];
	unsigned nz = 0;
	int mfd, uffd, fd;

	if (want)
		pa_skip("the uprobe PMU is refused here (%s): %s",
			pa_errno_name(want), pa_context_string());
	mfd = memfd_create("perfabi-zp", MFD_CLOEXEC);
	if (mfd < 0)
		pa_skip("memfd_create: %s", pa_errno_name(errno));
	memset(buf, 0x90, sizeof(buf));
	ASSERT_EQ(pwrite(mfd, buf, PG, 0), PG);
	/* read-only private: a vma uprobes may write (valid_vma()) */
	p = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, mfd, 0);
	ASSERT_TRUE(p != MAP_FAILED);

	uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	/* without CAP_SYS_PTRACE (vm.unprivileged_userfaultfd 0): user-mode
	 * faults only, which is all this needs (5.11+) */
	if (uffd < 0 && errno == EPERM)
		uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK | 1);
	if (uffd < 0)
		pa_skip("userfaultfd: %s", pa_errno_name(errno));
	ASSERT_OK(ioctl(uffd, UFFDIO_API, &api));
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)p;
	reg.range.len = PG;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		pa_skip("UFFDIO_REGISTER of a private shmem mapping: %s",
			pa_errno_name(errno));
	memset(&zp, 0, sizeof(zp));
	zp.range.start = (uintptr_t)p;
	zp.range.len = PG;
	ASSERT_OK(ioctl(uffd, UFFDIO_ZEROPAGE, &zp));
	ASSERT_EQ(zp.zeropage, PG);
	/* the file holds 0x90: zeros here are the zero page */
	for (unsigned i = 0; i < PG; i++)
		nz += p[i] != 0;
	ASSERT_EQ(nz, 0);
	/* the zero page stays mapped; no later fault may wait on uffd */
	ASSERT_OK(ioctl(uffd, UFFDIO_UNREGISTER, &reg.range));

	snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)path, 0);
	if (pa_kernel_at_least("6.16")) {
		fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
		if (fd >= 0) {
			/* the breakpoint is in our private copy only */
			EXPECT_EQ(p[0], 0xcc);
			nz = 0;
			for (unsigned i = 1; i < PG; i++)
				nz += p[i] != 0;
			EXPECT_EQ(nz, 0);
			close(fd);
			/* unregistering writes back the file's instruction */
			EXPECT_EQ(p[0], 0x90);
		}
	} else {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
		EXPECT_EQ(p[0], 0);
	}

	/* the file kept its bytes; fresh anonymous memory reads zero */
	ASSERT_EQ(pread(mfd, buf, PG, 0), PG);
	nz = 0;
	for (unsigned i = 0; i < PG; i++)
		nz += buf[i] != 0x90;
	EXPECT_EQ(nz, 0);
	munmap((void *)p, PG);
	close(uffd);
	close(mfd);
	anon = mmap(NULL, 16 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(anon != MAP_FAILED);
	nz = 0;
	for (unsigned i = 0; i < 16 * PG; i++)
		nz += anon[i] != 0;
	EXPECT_EQ(nz, 0);
	munmap((void *)anon, 16 * PG);
#endif
}
