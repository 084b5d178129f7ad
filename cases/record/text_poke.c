#include "perfabi.h"

#include <fcntl.h>
#include <elf.h>
#include <stdio.h>

/*
 * A tracepoint's call sites sit behind a static key: on x86 with
 * CONFIG_JUMP_LABEL each is a NOP that static_key_enable() patches into a
 * JMP (and static_key_disable() back) through the text_poke_bp batch,
 * which reports every patched site with perf_event_text_poke() (5.9,
 * arch/x86/kernel/alternative.c). Opening a perf tracepoint event
 * registers the first probe of an unused tracepoint (key off -> on);
 * closing it removes the last one (on -> off). sched_kthread_stop_ret has
 * a call site in kernel/kthread.c kthread_stop(), built into every kernel.
 *
 * Whether the text really changed is read from the kernel itself: the
 * text (_stext.._etext) is read from /proc/kcore before the open, after it
 * and after the close. Every byte that changed must lie in a TEXT_POKE
 * record whose old bytes are the text before and new bytes the text after,
 * so a missing record is a failure; the text_poke events are CPU-wide on
 * every CPU, so patching by any task in the window is reported. Without
 * /proc/kcore (CONFIG_PROC_KCORE=n, or lockdown) the case cannot tell and
 * SKIPs; if nothing changed at the open (the key was already on) it SKIPs
 * too, once every change in both windows was checked for its record.
 */
struct text_poke_rec {
	struct perf_event_header h;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];	/* old bytes, new bytes, padding to 8 */
};

static const uint8_t nop2[2] = { 0x66, 0x90 };
static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The address of kernel symbol `name` (0: not listed or hidden); *seen
 * tells whether the name is listed at all. */
static uint64_t ksym(const char *name, bool *seen)
{
	char line[512], sym[256], t;
	unsigned long long a;
	uint64_t addr = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	*seen = false;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && !strcmp(sym, name)) {
			*seen = true;
			addr = a;
			break;
		}
	fclose(f);
	return addr;
}

static const char *jump_label_text_poke(void)
{
	bool seen;

#if !defined(__x86_64__)
	return "PERF_RECORD_TEXT_POKE for jump labels is emitted by x86's text patching only";
#endif
	ksym("perf_event_text_poke", &seen);
	if (!seen)
		return "no perf_event_text_poke in /proc/kallsyms (kernel without text poke records, or no CONFIG_KALLSYMS)";
	ksym("arch_jump_label_transform_queue", &seen);
	if (!seen)
		return "no arch_jump_label_transform_queue in /proc/kallsyms: kernel without CONFIG_JUMP_LABEL, tracepoints patch no text";
	return NULL;
}

/* /proc/kcore's PT_LOAD segments. */
static struct { uint64_t va, off, len; } seg[128];
static int nseg, kcore = -1;

static bool kcore_open(void)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	kcore = open("/proc/kcore", O_RDONLY);
	if (kcore < 0)
		return false;
	if (pread(kcore, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	for (int i = 0; i < eh.e_phnum && nseg < 128; i++) {
		if (pread(kcore, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) != sizeof(ph))
			return false;
		if (ph.p_type == PT_LOAD)
			seg[nseg].va = ph.p_vaddr, seg[nseg].off = ph.p_offset,
			seg[nseg++].len = ph.p_filesz;
	}
	return nseg > 0;
}

/* Read kernel text [va, va + len) through /proc/kcore. */
static bool kread(uint64_t va, void *buf, size_t len)
{
	for (int i = 0; i < nseg; i++)
		if (va >= seg[i].va && va + len <= seg[i].va + seg[i].len)
			return pread(kcore, buf, len, (off_t)(seg[i].off + va - seg[i].va)) == (ssize_t)len;
	return false;
}

/* A jump label site switched on: a NOP of the site's size becomes a JMP. */
static bool is_jump_on(const struct text_poke_rec *t)
{
	const uint8_t *o = t->bytes, *n = t->bytes + t->old_len;

	if (t->old_len != t->new_len)
		return false;
	if (t->old_len == 2)
		return !memcmp(o, nop2, 2) && n[0] == 0xeb;
	if (t->old_len == 5)
		return !memcmp(o, nop5, 5) && n[0] == 0xe9;
	return false;
}

/*
 * Check every TEXT_POKE in the rings: its layout, and for one in
 * [stext, etext) that its old bytes are `before` and its new bytes
 * `after`; mark the bytes it covers. Returns how many records came and
 * leaves the first jump-on record of this kernel text in *j.
 */
static int check_pokes(struct pa_ring *r, int ncpu, uint64_t stext, uint64_t etext,
		       const uint8_t *before, const uint8_t *after, uint8_t *covered,
		       unsigned char *j)
{
	const struct perf_event_header *h;
	int n = 0;

	for (int c = 0; c < ncpu; c++)
		while ((h = pa_ring_next(&r[c]))) {
			const struct text_poke_rec *t = (const void *)h;
			size_t tot, pad;
			uint64_t o;

			ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
			if (h->type != PERF_RECORD_TEXT_POKE)
				continue;
			n++;
			tot = 4u + t->old_len + t->new_len;
			pad = ((tot + 7) & ~(size_t)7) - tot;
			EXPECT_EQ(h->misc, PERF_RECORD_MISC_KERNEL);
			ASSERT_EQ((size_t)h->size, sizeof(*h) + 8 + tot + pad);
			for (size_t i = 0; i < pad; i++)
				EXPECT_EQ(((const uint8_t *)&t->old_len)[tot + i], 0);
			EXPECT_GE(t->addr, (uint64_t)1 << 63);	/* kernel half */
			if (t->addr < stext || t->addr + t->new_len > etext)
				continue;	/* not kernel text (a trampoline) */
			o = t->addr - stext;
			EXPECT_EQ(t->old_len, t->new_len);
			EXPECT_TRUE(!memcmp(t->bytes, before + o, t->old_len));
			EXPECT_TRUE(!memcmp(t->bytes + t->old_len, after + o, t->new_len));
			memset(covered + o, 1, t->new_len);
			if (j && !j[0] && h->size <= 64 && is_jump_on(t))
				memcpy(j, h, h->size);
		}
	return n;
}

/* Bytes that differ between a and b and no record covered. */
static size_t uncovered(const uint8_t *a, const uint8_t *b, const uint8_t *covered,
			size_t len, size_t *changed, uint64_t stext)
{
	size_t n = 0;

	*changed = 0;
	for (size_t i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		(*changed)++;
		if (!covered[i] && n++ < 4)
			pa_diag("text at %#llx changed %02x -> %02x with no TEXT_POKE",
				(unsigned long long)(stext + i), a[i], b[i]);
	}
	return n;
}

PERFABI_CASE(
	.assertion = "attr.text_poke: switching an unused tracepoint on patches its jump label NOP into a JMP, and every change of kernel text is reported by PERF_RECORD_TEXT_POKE {addr, old_len, new_len, bytes} with misc PERF_RECORD_MISC_KERNEL, old_len == new_len, old bytes the text before and new bytes the text after, zero padding to 8; switching it off reports the reverse patch at the same addr",
	.ref = "perf_event_open(2), text_poke (5.8): \"enables recording of PERF_RECORD_TEXT_POKE records when the kernel text is modified\"; include/uapi/linux/perf_event.h PERF_RECORD_TEXT_POKE {addr, old_len, new_len, bytes[]}; kernel/events/core.c perf_event_text_poke(); arch/x86/kernel/alternative.c text_poke_bp_batch() (5.9); arch/x86/kernel/jump_label.c",
	.covers = "attr.text_poke record.TEXT_POKE",
	.min_kernel = "5.9",
	.tracefs = true,
	.root = true,
	.timeout = 60,
	/* it compares all kernel text before and after with the records: a
	 * case beside it that switches a static key or a tracepoint (any
	 * first event of a kind does) patches a site twice in the window,
	 * and the second record's old bytes are not the text before (seen
	 * in a -j2 guest run of 6.1) */
	.alone = true,
	/* its tracepoint's key must go on at its open and off at its close
	 * (with it kept, a guest run skipped: "its key was already on") */
	.tracepoint_unkept = true,
	.probe = jump_label_text_poke,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	static unsigned char jbuf[64];
	const struct text_poke_rec *j = (const void *)jbuf;
	uint8_t *t0, *t1, *t2, *cov;
	struct perf_event_attr tp;
	static struct pa_ring r[64];
	int ncpu, fd, kfd, non, noff;
	uint64_t stext, etext;
	size_t len, ch1, ch2, un1, un2;
	bool seen;

	stext = ksym("_stext", &seen);
	etext = ksym("_etext", &seen);
	if (!stext || !etext || etext <= stext)
		pa_skip("kernel text bounds are not readable in /proc/kallsyms");
	if (!kcore_open())
		pa_skip("cannot read kernel text from /proc/kcore (%s): whether the text was patched is unknown",
			pa_errno_name(errno));
	len = etext - stext;
	t0 = malloc(len);
	t1 = malloc(len);
	t2 = malloc(len);
	cov = calloc(1, len);
	ASSERT_TRUE(t0 && t1 && t2 && cov);
	tp = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_kthread_stop_ret"));

	/* CPU-wide on every online CPU: any patching in the window is
	 * reported, whichever task does it */
	ncpu = 0;
	attr.disabled = 0;
	attr.text_poke = 1;
	attr.exclude_kernel = 0;
	for (int c = 0; c < (int)sysconf(_SC_NPROCESSORS_CONF) && ncpu < 64; c++) {
		fd = pa_perf_open(&attr, -1, c, -1, 0);
		if (fd < 0 && errno == ENODEV)
			continue;	/* offline */
		ASSERT_GE(fd, 0);
		pa_ring_map(&r[ncpu++], fd, 16);
	}
	ASSERT_GT(ncpu, 0);

	/* Quiet text first: a perf event closed just before (the case that
	 * ran before, say) switches perf's own static keys off a jiffy-scale
	 * delay later (static_branch_dec_deferred), and such a patch landing
	 * while /proc/kcore is read would be half in a snapshot. Wait until
	 * the text stays the same over a second (at most 10 tries). */
	ASSERT_TRUE(kread(stext, t0, len));
	for (int i = 0; i < 10; i++) {
		struct timespec ts = { 1, 200000000 };

		nanosleep(&ts, NULL);
		ASSERT_TRUE(kread(stext, t1, len));
		if (!memcmp(t0, t1, len))
			break;
		memcpy(t0, t1, len);
	}
	/* what was patched while waiting is not this window's: drop it */
	for (int c = 0; c < ncpu; c++)
		while (pa_ring_next(&r[c]))
			;
	/* CPU-wide, so that the event itself switches no perf static key
	 * (a task-bound event turns perf_sched_events on, and off again
	 * later, deferred) */
	kfd = ASSERT_OPEN(&tp, -1, 0, -1, 0);
	ASSERT_TRUE(kread(stext, t1, len));
	non = check_pokes(r, ncpu, stext, etext, t0, t1, cov, jbuf);
	un1 = uncovered(t0, t1, cov, len, &ch1, stext);
	memset(cov, 0, len);
	close(kfd);
	ASSERT_TRUE(kread(stext, t2, len));
	noff = check_pokes(r, ncpu, stext, etext, t1, t2, cov, NULL);
	un2 = uncovered(t1, t2, cov, len, &ch2, stext);
	pa_diag("switch on: %zu bytes of text changed, %d TEXT_POKE; off: %zu bytes, %d TEXT_POKE",
		ch1, non, ch2, noff);
	/* every change of text in either window needs its record, whoever
	 * made it: checked before anything may SKIP */
	EXPECT_EQ(un1, 0u);
	EXPECT_EQ(un2, 0u);
	if (!ch1) {
		/* The key was already on: a user outside this case holds the
		 * tracepoint. Some show (ftrace's enable, another process's
		 * perf events); a BPF raw_tp or a module's probe does not.
		 * What changed while closing says nothing either way: other
		 * tasks patch text too (perf's own static keys, as other
		 * cases open and close events beside this one). */
		char en[16] = "?", who[512];

		if (pa_tracefs()) {
			char path[512];

			snprintf(path, sizeof(path), "%s/events/sched/sched_kthread_stop_ret/enable",
				 pa_tracefs());
			if (pa_sysctl_read(path, en, sizeof(en)))
				snprintf(en, sizeof(en), "?");
		}
		if (!pa_perf_held_elsewhere(who, sizeof(who)))
			snprintf(who, sizeof(who), "no other process holds a perf event");
		pa_skip("switching sched:sched_kthread_stop_ret on patched no kernel text: its key was already on (ftrace enable %s; %s)",
			en, who);
	}
	if (!jbuf[0]) {
		pa_fail("no TEXT_POKE turning a jump label NOP into a JMP among the %d records", non);
		pa_abort();
	}
	/* switched off: the same site goes back */
	EXPECT_TRUE(!memcmp(t2 + (j->addr - stext), j->bytes, j->old_len));
}
