// SPDX-License-Identifier: GPL-2.0
/*
 * Rigs shared by the cases that check one generic behaviour on another
 * implementation class (cases/impl-table.md): a sampling hardware event
 * (the hw/ and hw-instructions cases), and the BPF-output rig of the
 * sample/bpf_output_* cases (a perf_event program on a page-fault sampler
 * that writes into a PERF_COUNT_SW_BPF_OUTPUT event).
 */
#include "internal.h"

#include <sched.h>
#include <sys/ioctl.h>

/* arm64: MIDR_EL1's implementer 0 is "reserved for software use", that is
 * an emulator's CPU (QEMU's -cpu max: 0x000f0510) */
bool pa_cpu_emulated(void)
{
#if defined(__aarch64__)
	char buf[64] = "";
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return buf[0] && ((strtoull(buf, NULL, 16) >> 24) & 0xff) == 0;
#else
	return false;
#endif
}

int pa_hw_open_sampler(struct perf_event_attr *a)
{
	int fd;

	/* QEMU's emulated PMUv3 raises a general counter's overflow only at
	 * the next entry to the kernel, not when it overflows (measured:
	 * ../shared/research/arm64-pmu.md); its cycle counter's comes in time */
	if (a->type == PERF_TYPE_HARDWARE && a->config != PERF_COUNT_HW_CPU_CYCLES && pa_cpu_emulated())
		pa_skip("an emulated CPU (MIDR implementer 0: QEMU's PMUv3) signals a general counter's overflow only at the next kernel entry: sampling config %#llx is not measurable here (the cycle counter's is)",
			(unsigned long long)a->config);

	/* SKIP without the generic event; on hybrid x86 pin to a core CPU.
	 * Any other type is a stand-in (a software event) and opens as is. */
	if (a->type == PERF_TYPE_HARDWARE)
		close(pa_hw_open_or_skip(a->type, a->config));
	errno = 0;
	fd = pa_perf_open(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EOPNOTSUPP && a->type == PERF_TYPE_HARDWARE)
		pa_skip("the core PMU counts config %#llx but cannot sample it (no overflow interrupt): %s",
			(unsigned long long)a->config, pa_errno_name(errno));
	if (fd < 0) {
		pa_fail("perf_event_open(type %u, config %#llx, sample_period/freq %llu) failed with %s",
			a->type, (unsigned long long)a->config,
			(unsigned long long)a->sample_period, pa_errno_name(errno));
		pa_abort();
	}
	return fd;
}

const struct perf_event_header *pa_hw_next_sample(struct pa_ring *r, const struct perf_event_attr *a,
						  struct pa_sample *s, int *throttled)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_next(r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			(*throttled)++;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u in the ring of fd %d", h->type, r->fd);
			continue;
		}
		if (s && !pa_sample_parse(a, h, s))
			pa_abort();
		return h;
	}
	return NULL;
}

int pa_pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

void pa_bpf_output_rig(struct pa_bpf_output_rig *g, int sampler_fd, int out_fd, int cpu,
		       uint32_t results)
{
	pa_bpf_output_rig_tail(g, sampler_fd, out_fd, cpu, results, NULL, 0);
}

void pa_bpf_output_rig_tail(struct pa_bpf_output_rig *g, int sampler_fd, int out_fd, int cpu,
			    uint32_t results, const uint8_t *tail, int tail_len)
{
	static struct pa_bpf_prog prog;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t v = PA_BPF_OUTPUT_SENTINEL;

	if (ncpu <= cpu)
		ncpu = cpu + 1;
	g->perf_map = pa_bpf_map_create(4 /* BPF_MAP_TYPE_PERF_EVENT_ARRAY */, 4, 4, (uint32_t)ncpu);
	ASSERT_OK(pa_bpf_map_elem(2, g->perf_map, (uint32_t)cpu, &out_fd));
	g->result_map = pa_bpf_map_create(2 /* BPF_MAP_TYPE_ARRAY */, 4, 8, results);
	for (uint32_t i = 0; i < results; i++)
		ASSERT_OK(pa_bpf_map_elem(2, g->result_map, i, &v));
	memset(&prog, 0, sizeof(prog));
	pa_bpf_output_count_prog(&prog, g->perf_map, g->result_map, tail, tail_len);
	g->prog = pa_bpf_prog_load(&prog, 7 /* BPF_PROG_TYPE_PERF_EVENT */);
	ASSERT_OK(ioctl(sampler_fd, PERF_EVENT_IOC_SET_BPF, g->prog));
}

uint64_t pa_bpf_output_ret(const struct pa_bpf_output_rig *g, uint32_t i)
{
	uint64_t v = ~0ULL;

	ASSERT_OK(pa_bpf_map_elem(1, g->result_map, i, &v));
	return v;
}

void pa_bpf_output_rig_close(struct pa_bpf_output_rig *g)
{
	close(g->prog);
	close(g->result_map);
	close(g->perf_map);
}

int pa_bpf_output_expect_records(struct pa_ring *r, const struct perf_event_attr *oattr, pid_t tid,
				 uint64_t first, int want)
{
	const struct perf_event_header *h;
	struct pa_sample s;
	uint64_t v;
	int n = 0;

	while ((h = pa_ring_next(r))) {
		ASSERT_EQ(h->type, PERF_RECORD_SAMPLE);
		if (!pa_sample_parse(oattr, h, &s))
			pa_abort();
		EXPECT_EQ(s.tid, (uint32_t)tid);
		ASSERT_EQ(s.var.raw_size, 12);	/* round_up(4 + 8, 8) - 4 */
		memcpy(&v, s.raw, 8);
		EXPECT_EQ(v, first + (uint64_t)n);	/* the overflows, in order */
		n++;
	}
	EXPECT_EQ(n, want);
	return n;
}
