#include "perfabi.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <sys/mman.h>

struct mmap2_bid_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint8_t build_id_size, reserved_1;
	uint16_t reserved_2;
	uint8_t build_id[20];
	uint32_t prot, flags;
	char filename[];
};

extern const ElfW(Ehdr) __ehdr_start;

/* This program's NT_GNU_BUILD_ID, from its own program headers. */
static size_t own_build_id(uint8_t *out, size_t max)
{
	const ElfW(Ehdr) *eh = &__ehdr_start;
	const ElfW(Phdr) *ph = (const void *)((const char *)eh + eh->e_phoff);
	uintptr_t bias = 0;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			bias = (uintptr_t)eh - ph[i].p_vaddr;
			break;
		}
	for (int i = 0; i < eh->e_phnum; i++) {
		const char *p, *end;

		if (ph[i].p_type != PT_NOTE)
			continue;
		p = (const char *)(bias + ph[i].p_vaddr);
		end = p + ph[i].p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const void *)p;
			const char *name = p + sizeof(*n);
			const uint8_t *desc = (const uint8_t *)name + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && n->n_descsz <= max) {
				memcpy(out, desc, n->n_descsz);
				return n->n_descsz;
			}
			p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

PERFABI_CASE(
	.assertion = "attr.build_id with mmap2: PERF_RECORD_MMAP2 of an executable mapping carries the file's ELF build ID (build_id_size, build_id[20]) instead of device/inode, flagged by PERF_RECORD_MISC_MMAP_BUILD_ID",
	.ref = "include/uapi/linux/perf_event.h build_id (5.12): \"use build id in mmap2 events\"; PERF_RECORD_MMAP2 union { maj, min, ino, ino_generation | build_id_size, build_id[20] }; PERF_RECORD_MISC_MMAP_BUILD_ID",
	.covers = "attr.build_id attr.mmap2 record.MMAP2",
	.min_kernel = "5.12",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	const struct mmap2_bid_rec *m = NULL;
	uint8_t bid[20];
	size_t bid_len;
	char exe[PATH_MAX];
	struct pa_ring r;
	ssize_t n;
	void *p;
	int fd, efd;

	bid_len = own_build_id(bid, sizeof(bid));
	if (!bid_len)
		pa_skip("this binary has no GNU build-id note");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	efd = ASSERT_OK(open(exe, O_RDONLY));
	attr.disabled = 0;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.build_id = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP2))) {
		m = (const struct mmap2_bid_rec *)h;
		if (m->addr == (uint64_t)(uintptr_t)p)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_TRUE(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	EXPECT_EQ((size_t)m->build_id_size, bid_len);
	EXPECT_TRUE(memcmp(m->build_id, bid, bid_len) == 0);
	EXPECT_TRUE(strcmp(m->filename, exe) == 0);
}
