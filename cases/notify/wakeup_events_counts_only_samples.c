#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * "wakeup_events counts only PERF_RECORD_SAMPLE record types": with
 * wakeup_events = 1, side-band records do not wake the reader, the first
 * sample does. A page-fault sampler (period 1, PERF_SAMPLE_IP) with
 * attr.mmap = 1 gets a PERF_RECORD_MMAP for each executable mapping the
 * task makes (perf_event_mmap_output(), which does not touch rb->events);
 * mmap() and munmap() take no page fault. So 4 PROT_EXEC mappings of the
 * case's own executable write 4 MMAP records (well below the half-buffer
 * byte watermark) and poll() must not report POLLIN; one page fault then
 * writes a sample and poll() must.
 *
 * What the measured steps execute runs once before ENABLE; an attempt in
 * which a sample came before the mappings' records were checked (an
 * incidental fault) starts over, and the same samples among the mappings
 * in all 3 attempts are the kernel's doing: a FAIL (pa_retry()).
 */
#define MAPS 4

static void map_exec(int file)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *m = mmap(NULL, (size_t)psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);

	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, (size_t)psz);
}

static bool attempt(void *arg, char *seen, size_t len)
{
	int file = *(int *)arg;
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	int n_mmap = 0, n_sample = 0, n_other = 0, n_sample_early = 0;
	uint64_t head_maps, head_sample, rec, off;
	short after_maps, after_sample;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.mmap = 1;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	map_exec(file);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < MAPS; i++)
		map_exec(file);
	head_maps = pa_ring_head(&r);
	after_maps = pa_poll_now(fd);
	pa_touch_pages(1);
	head_sample = pa_ring_head(&r);
	after_sample = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((off = r.tail, h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_MMAP)
			n_mmap++;
		else if (h->type == PERF_RECORD_SAMPLE) {
			n_sample++;
			n_sample_early += off < head_maps;
		} else
			n_other++;
	}
	pa_ring_unmap(&r);
	close(fd);
	if (n_sample_early) {	/* an incidental fault among the mappings? */
		snprintf(seen, len, "%d of %d samples came among the records of %d mappings (%d MMAP records)",
			 n_sample_early, n_sample, MAPS, n_mmap);
		return false;
	}
	if (head_sample - head_maps != rec) {	/* or next to the fault */
		snprintf(seen, len, "touching one fresh page after the mappings wrote %llu bytes, not one %llu-byte record",
			 (unsigned long long)(head_sample - head_maps), (unsigned long long)rec);
		return false;
	}
	pa_diag("%d MMAP records (%llu bytes): revents %#x; then %d samples of %llu bytes: revents %#x; %d other records",
		n_mmap, (unsigned long long)head_maps, after_maps, n_sample,
		(unsigned long long)rec, after_sample, n_other);
	ASSERT_EQ(n_mmap, MAPS);
	ASSERT_LT(head_maps, r.data_size / 2);	/* the byte watermark stays away */
	EXPECT_EQ(after_maps, 0);		/* side-band records do not count */
	EXPECT_EQ(after_sample, POLLIN);	/* the first sample does */
	return true;
}

PERFABI_CASE(
	.assertion = "wakeup_events counts only PERF_RECORD_SAMPLE records: with wakeup_events = 1, 4 PERF_RECORD_MMAP records do not make the fd "
		     "readable, the first sample after them does",
	.ref = "perf_event_open(2), wakeup_events: \"wakeup_events counts only PERF_RECORD_SAMPLE record types. To receive overflow notification for all "
	       "PERF_RECORD types choose watermark and set wakeup_watermark to 1\"; kernel/events/core.c perf_output_sample(), perf_event_mmap_output()",
	.covers = "fd.poll attr.wakeup_events attr.mmap record.MMAP",
	.probe = pa_probe_self_perf,
) {
	int file = ASSERT_OK(open(pa_self_exe(), O_RDONLY | O_CLOEXEC));

	pa_retry(3, attempt, &file,
		 "incidental page faults among the mappings: the side-band records could not be isolated");
	close(file);
}
