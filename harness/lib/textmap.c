// SPDX-License-Identifier: GPL-2.0
/*
 * Every case runs from one program (build/cases/perfabi-cases), so the
 * processes of all the cases running at once (perfabi-run -j) share its
 * page cache. A process that faults on the program's code gets the pages
 * around the fault mapped too, but only those whose folio lock it takes at
 * once (filemap_map_pages(), next_uptodate_folio()): while another process
 * faults on the same code, some stay unmapped and cost a fault later. And
 * a forked child faults on the code afresh: fork() copies no page table
 * entries of a file mapping without anonymous pages (vma_needs_copy()). So
 * a forked child's exact page-fault count would move by one now and then
 * when other cases run beside it (the runner keeps two results of one case
 * apart for the same reason: harness/runner/sched.c, case_running()).
 *
 * pa_textmap_init() therefore maps the program's file-backed segments
 * (code, constants, the RELRO data made read-only at start, .data) whole
 * in the case's process and in every child it forks, before the child
 * returns from fork(). The RELRO part and .data count too: a child reads
 * pages of them its parent never touched, and a read fault there maps
 * around the fault just as on code (a page-fault count of a child moved
 * by one in 2 of 600 runs of four processes of one case, with the code
 * alone mapped whole); on .data it maps the file's pages read-only, so a
 * write later is the one fault it was before. MADV_POPULATE_READ (5.14) faults
 * them in through get_user_pages(), which counts no page-fault event (its
 * faults have no user registers: mm_account_fault() leaves perf out), so
 * the child's own faults on the code are only the few on fork()'s return
 * path, the same in every child. Before 5.14 (EINVAL) nothing is done.
 */
#include "internal.h"

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static struct {
	uintptr_t start;
	size_t len;
	bool anchor;	/* a read-only mapping: give it an anon_vma */
} ro[8];
static int nro;

static int add_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	long page = sysconf(_SC_PAGESIZE);

	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a, b;

		if ((ph->p_type != PT_LOAD && ph->p_type != PT_GNU_RELRO) ||
		    nro == (int)(sizeof(ro) / sizeof(ro[0])))
			continue;
		a = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(page - 1);
		/* a writable segment: only what the file backs (.data, and
		 * the RELRO part made read-only at start), not .bss */
		b = info->dlpi_addr + ph->p_vaddr +
		    ((ph->p_flags & PF_W) ? ph->p_filesz : ph->p_memsz);
		ro[nro].start = a;
		ro[nro].anchor = ph->p_type == PT_LOAD && !(ph->p_flags & PF_W);
		ro[nro++].len = b - a;
	}
	return 1;	/* the program only: it is static */
}

static void populate(void)
{
	int saved = errno;

	for (int i = 0; i < nro; i++)
		if (madvise((void *)ro[i].start, ro[i].len, MADV_POPULATE_READ) && errno == EINVAL)
			break;	/* before 5.14 */
	errno = saved;
}

/* fork() copies the page table entries of a mapping only where it has an
 * anon_vma (vma_needs_copy()), which a read-only file mapping gets with
 * its first anonymous page. Writing one byte of the mapping's last page
 * back unchanged through /proc/self/mem (FOLL_FORCE) makes that page an
 * anonymous copy; from then on every fork() hands the child the whole
 * mapped code, and the child takes no fault on it at all, not even
 * between fork()'s return and the populate above (the code of _Fork(),
 * the fork handlers and populate() itself: three faults that mapped
 * around them as the folio locks allowed). Where the kernel refuses
 * forced writes (CONFIG_PROC_MEM_NO_FORCE) the populate alone is left. */
static void anchor(void)
{
	int saved = errno, fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	long page = sysconf(_SC_PAGESIZE);

	if (fd < 0) {
		errno = saved;
		return;
	}
	for (int i = 0; i < nro; i++) {
		off_t at = (off_t)((ro[i].start + ro[i].len - 1) & ~(uintptr_t)(page - 1));
		unsigned char b;

		if (ro[i].anchor && pread(fd, &b, 1, at) == 1 && pwrite(fd, &b, 1, at) != 1)
			break;
	}
	close(fd);
	errno = saved;
}

void pa_textmap_init(void)
{
	dl_iterate_phdr(add_segments, NULL);
	populate();
	anchor();
	pthread_atfork(NULL, NULL, populate);
}
