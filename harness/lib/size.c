// SPDX-License-Identifier: GPL-2.0
/* Helpers for the attr.size and attr-field cases (cases/size, cases/field). */
#include "internal.h"

#include <sys/mman.h>

const char *pa_probe_self_perf(void)
{
	static char why[96];

	if (pa_expected_errno(PA_NEED_SELF) != EACCES)
		return NULL;
	snprintf(why, sizeof(why),
		 "paranoid %d forbids all perf use for this identity",
		 pa_paranoid());
	return why;
}

void *pa_guarded_tail(size_t len)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (len + psz - 1) / psz;
	char *base = mmap(NULL, (pages + 1) * psz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED) {
		pa_fail("mmap of %zu pages failed: %s", pages + 1,
			pa_errno_name(errno));
		pa_abort();
	}
	if (mprotect(base + pages * psz, psz, PROT_NONE)) {
		pa_fail("mprotect of the guard page failed: %s",
			pa_errno_name(errno));
		pa_abort();
	}
	return base + pages * psz - len;
}

bool pa_expect_e2big_size(struct perf_event_attr *attr, const char *file,
			  int line)
{
	uint32_t sent = attr->size;
	uint32_t want = pa_kernel_attr_size();
	int fd, err;

	pa_checked();
	errno = 0;
	fd = pa_perf_open(attr, 0, -1, -1, 0);
	err = errno;
	if (fd >= 0) {
		pa_fail("%s:%d: perf_event_open(attr.size=%u) returned fd %d, expected E2BIG",
			file, line, sent, fd);
		close(fd);
		return false;
	}
	if (err != E2BIG) {
		pa_fail("%s:%d: perf_event_open(attr.size=%u) failed with %s, expected E2BIG",
			file, line, sent, pa_errno_name(err));
		return false;
	}
	if (attr->size != want) {
		pa_fail("%s:%d: after E2BIG attr.size is %u, expected the kernel's own size %u (sent %u)",
			file, line, attr->size, want, sent);
		return false;
	}
	pa_diag("attr.size %u: E2BIG, size written back as %u", sent, attr->size);
	return true;
}

bool pa_since_aux_action(void)
{
	struct pa_kver k = pa_kernel();
	const char *what = "attr.aux_action (aux_start_paused/aux_pause/aux_resume) "
			   "replaces the low bits of __reserved_3";

	/* 6.13 upstream; backported to 6.12.24 as a dependency of "perf: Fix
	 * hang while freeing sigtrap event" (Debian linux 6.12.25-1 changelog,
	 * ChangeLog-6.12.24). */
	if (k.major == 6 && k.minor == 12)
		return pa_since("6.12.24", what);
	return pa_since("6.13", what);
}

/*
 * Register masks for sample_regs_user / sample_regs_intr, from the
 * architecture's uapi asm/perf_regs.h and its perf_reg_validate().
 */
uint64_t pa_regs_valid_mask(void)
{
#if defined(__x86_64__)
	return (1ULL << 7) | (1ULL << 8);	/* PERF_REG_X86_SP, _IP */
#elif defined(__aarch64__)
	return (1ULL << 31) | (1ULL << 32);	/* PERF_REG_ARM64_SP, _PC */
#else
	return 0;
#endif
}

uint64_t pa_regs_undefined_bit(void)
{
#if defined(__x86_64__)
	/* bits 24..31: after R15 (23), before XMM0 (32): PERF_REG_X86_RESERVED */
	return 1ULL << 31;
#elif defined(__aarch64__)
	/* above PERF_REG_ARM64_MAX (33), below the extended VG bit (46) */
	return 1ULL << 40;
#else
	return 0;
#endif
}
