#include "perfabi.h"

#include "clone_swap_pair.h"

/*
 * The same two children with cloned contexts as
 * inherit_stat_swap_keeps_each_childs_count, switching into each other
 * and swapped by perf_event_context_sched_out() (context_equiv()), but
 * with an inherited counter WITHOUT attr.inherit_stat. Then ctx->nr_stat
 * is 0 and perf_event_sync_stat() returns at once: the counts are not
 * swapped back, they stay with the contexts, so the count a child exits
 * with is whatever its last context accumulated (its own faults and the
 * other child's, in proportions the scheduler decides), and there is no
 * way to read it: sync_child_event() writes a PERF_RECORD_READ only for
 * inherit_stat events. What stays exact is the sum: each swap moves the
 * two contexts, whole, between the two tasks, and each child's exit adds
 * the count of the context it holds to the parent's event (child_count),
 * so every fault of either child is added exactly once.
 *
 * Set-up as there (parked/inherit/clone_swap_pair.h): M, A, B on one CPU,
 * M unable to swap with its children, A and B ping-ponging 64 turns with
 * xa and xb fresh pages a turn; the sampler witness in the same ring
 * (a stream_id sampled in both children: their contexts were swapped).
 *
 * Oracle: against a control run (1 page a turn each), after a warm-up
 * run, the measured run (1 + 2 for A, 1 + 16 for B) grows our read of the
 * counter (M's count plus both children folded in) by exactly
 * 64 * (2 + 16) = 1152; in every run the ring holds no PERF_RECORD_READ.
 *
 * PARKED: it shares its set-up's open points with
 * inherit_stat_swap_keeps_each_childs_count (M's generation bump under
 * SCHED_FIFO, a skip without CAP_SYS_NICE; fewer swaps where other tasks
 * run between A and B), and the man page says only what inherit_stat
 * enables, not what becomes of the counts without it: that the total
 * stays exact is the kernel's design (perf_event_sync_stat(),
 * sync_child_event()), not a documented promise. Passes 20/20, then
 * 100/100, on 6.18.44 (2 CPUs), and 20/20 with both CPUs busy; the
 * witness saw swaps in the measured run of each of 50 runs checked. It
 * can move to cases/inherit/ with its sibling.
 */
#define XA	2
#define XB	16

static void report(const struct swap_run *r, const char *what)
{
	pa_diag("%s: A %d: %d samples, %ld switches; B %d: %d samples, %ld switches; stream ids sampled in both: %d; total %llu; READ records %d, others %d",
		what, (int)r->a, r->nsample[0], r->csw[0], (int)r->b, r->nsample[1],
		r->csw[1], r->shared_streams, (unsigned long long)r->total,
		r->nread, r->nother);
	EXPECT_EQ(r->nread, 0);
	EXPECT_EQ(r->total_id, r->id);
}

PERFABI_CASE(
	.assertion = "attr.inherit without attr.inherit_stat: when two children with cloned contexts have their contexts swapped, the counts are not swapped back and no PERF_RECORD_READ is written, but the parent's total stays exact: against a control run, two children touching 128 and 1024 more pages grow it by exactly 1152",
	.ref = "perf_event_open(2), inherit, inherit_stat; kernel/events/core.c perf_event_context_sched_out(), perf_event_sync_stat() (returns when !ctx->nr_stat), sync_child_event()",
	.alone = true,
	.covers = "attr.inherit attr.inherit_stat record.READ read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct swap_run warm, ctl, run;
	int cpu = swap_pin();

	swap_run(cpu, false, 1, 1, &warm);
	swap_run(cpu, false, 1, 1, &ctl);
	swap_run(cpu, false, 1 + XA, 1 + XB, &run);
	report(&warm, "warm-up");
	report(&ctl, "control");
	report(&run, "measured");
	EXPECT_EQ(run.total - ctl.total, TURNS * (XA + XB));
}
