#include "perfabi.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/mman.h>

/*
 * perf_event_mmap_event() resolves the mapped file's path with d_path()
 * into a PATH_MAX buffer (less 8 bytes for the padding). A file whose path
 * is longer cannot be named: the record carries the fixed name "//toolong"
 * and, as the kernel gives up before it reads the inode, zero maj, min,
 * ino and ino_generation. The file sits under a chain of 18 directories of
 * 240 characters each (over 4 KiB); they are created and removed through
 * directory fds, since the path itself is too long for any syscall.
 */
#define DEPTH	18
#define COMP	240

static int dfd[DEPTH + 1];	/* dfd[0]: the temporary directory */
static char comp[COMP + 1], top[64];
static int made;		/* directories made below top */
static bool have_file;

static void cleanup(void)
{
	if (have_file)
		unlinkat(dfd[made], "f", 0);
	for (; made > 0; made--) {
		close(dfd[made]);
		unlinkat(dfd[made - 1], comp, AT_REMOVEDIR);
	}
	if (dfd[0] >= 0)
		close(dfd[0]);
	if (top[0])
		rmdir(top);
}

PERFABI_CASE(
	.assertion = "attr.mmap2 with mmap_data: a mapping of a file whose path is longer than the kernel's PATH_MAX buffer produces PERF_RECORD_MMAP2 with filename exactly \"//toolong\" (NUL-padded to 16 bytes), maj, min, ino and ino_generation 0, and the mapping's pid, tid, addr, len, pgoff, prot and flags",
	.ref = "perf_event_open(2), PERF_RECORD_MMAP2 {..., filename}; kernel/events/core.c perf_event_mmap_event(): d_path(..., PATH_MAX - sizeof(u64)) error -> name = \"//toolong\", goto cpy_name (maj/min/ino/gen not filled)",
	.covers = "attr.mmap2 attr.mmap_data record.MMAP2",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct pa_mmap2_rec *m;
	const struct perf_event_header *h;
	static const char want[16] = "//toolong";
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	int fd, ffd = -1, n = 0, err = 0, ring = -1;
	struct pa_ring r;
	void *map = MAP_FAILED;

	memset(comp, 'd', COMP);
	dfd[0] = -1;
	snprintf(top, sizeof(top), "/tmp/pa-toolong-XXXXXX");
	if (!mkdtemp(top)) {
		top[0] = 0;
		pa_skip("mkdtemp in /tmp: %s", strerror(errno));
	}
	dfd[0] = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = dfd[0] < 0 ? errno : 0;
	while (!err && made < DEPTH) {
		if (mkdirat(dfd[made], comp, 0700)) {
			err = errno;
			break;
		}
		dfd[made + 1] = openat(dfd[made], comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd[made + 1] < 0) {
			err = errno;
			unlinkat(dfd[made], comp, AT_REMOVEDIR);
			break;
		}
		made++;
	}
	if (!err) {
		ffd = openat(dfd[made], "f", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		have_file = ffd >= 0;
		if (ffd < 0 || ftruncate(ffd, (off_t)psz))
			err = errno;
	}
	if (err) {
		if (ffd >= 0)
			close(ffd);
		cleanup();
		pa_skip("cannot build a %d-deep directory chain in /tmp: %s", DEPTH, strerror(err));
	}

	attr.disabled = 0;
	attr.mmap_data = 1;
	attr.mmap2 = 1;
	/* nothing below may abort before cleanup() removed the chain */
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		ring = pa_ring_try_map(&r, fd, 4);
	if (fd >= 0 && !ring) {
		map = mmap(NULL, psz, PROT_READ, MAP_PRIVATE, ffd, 0);
		err = map == MAP_FAILED ? errno : 0;
	}
	close(ffd);
	cleanup();
	if (fd < 0)
		return;
	ASSERT_EQ(ring, 0);
	if (map == MAP_FAILED)
		pa_skip("mmap of the deep file: %s", strerror(err));

	while ((h = pa_ring_next(&r))) {
		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		if (h->type != PERF_RECORD_MMAP2)
			continue;
		m = (const struct pa_mmap2_rec *)h;
		if (m->addr != (uint64_t)(uintptr_t)map)
			continue;
		n++;
		EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
		ASSERT_EQ((size_t)h->size, sizeof(*m) + sizeof(want));
		EXPECT_EQ(m->pid, (uint32_t)getpid());
		EXPECT_EQ(m->tid, (uint32_t)gettid());
		EXPECT_EQ(m->len, (uint64_t)psz);
		EXPECT_EQ(m->pgoff, 0u);
		EXPECT_EQ(m->maj, 0u);
		EXPECT_EQ(m->min, 0u);
		EXPECT_EQ(m->ino, 0u);
		EXPECT_EQ(m->ino_generation, 0u);
		EXPECT_EQ(m->prot, (uint32_t)PROT_READ);
		EXPECT_EQ(m->flags, (uint32_t)MAP_PRIVATE);
		EXPECT_TRUE(memcmp(m->filename, want, sizeof(want)) == 0);
		pa_diag("MMAP2 filename \"%.16s\"", m->filename);
	}
	EXPECT_EQ(n, 1);
	munmap(map, psz);
	close(fd);
}
