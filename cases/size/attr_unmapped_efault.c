#include "perfabi.h"

#include <sys/mman.h>
#include <sys/syscall.h>

/* The attr pointer names a page that was mapped and then unmapped. */
PERFABI_CASE(
	.assertion = "an attr pointer into unmapped memory fails with EFAULT",
	.ref = "perf_event_open(2), EFAULT: \"the attr pointer points at an invalid memory address\"; kernel/events/core.c perf_copy_attr(): get_user(size, &uattr->size)",
	.covers = "arg.attr errno.EFAULT",
	.probe = pa_probe_self_perf,
) {
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_OK(munmap(p, psz));
	EXPECT_ERRNO(syscall(SYS_perf_event_open, p, 0, -1, -1, 0), EFAULT);
}
