// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs and maps for the cases that attach BPF to perf events
 * (PERF_EVENT_IOC_SET_BPF, BPF links, BPF_MAP_TYPE_PERF_EVENT_ARRAY), by
 * bpf(2) with hand-made attrs: the cases build in a tree with no libbpf and
 * no BPF compiler, and each program is a few dozen instructions.
 *
 * Apart from ring.c, which the runner links too: nothing here is the
 * runner's business.
 */
#include "internal.h"

#include <sys/syscall.h>

/* ---- a BPF program, for the KSYMBOL and BPF_EVENT records --------------- */

struct pa_bpf_load_attr {		/* union bpf_attr, BPF_PROG_LOAD part */
	uint32_t prog_type, insn_cnt;
	uint64_t insns, license;
	uint32_t log_level, log_size;
	uint64_t log_buf;
	uint32_t kern_version, prog_flags;
	char prog_name[16];
};

struct pa_bpf_info_attr {		/* union bpf_attr, BPF_OBJ_GET_INFO_BY_FD */
	uint32_t bpf_fd, info_len;
	uint64_t info;
};

int pa_bpf_load_trivial(const char *name, uint32_t *id, uint8_t tag[8])
{
	/* r0 = 0; exit */
	static const uint64_t insns[2] = { 0x00000000000000b7ULL, 0x0000000000000095ULL };
	struct pa_bpf_load_attr a;
	struct { uint32_t type, id; uint8_t tag[8]; } info;
	struct pa_bpf_info_attr ia;
	union { struct pa_bpf_load_attr l; uint8_t pad[256]; } la;
	union { struct pa_bpf_info_attr i; uint8_t pad[256]; } ua;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = 1;		/* BPF_PROG_TYPE_SOCKET_FILTER */
	a.insn_cnt = 2;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.license = (uint64_t)(uintptr_t)"GPL";
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	memset(&la, 0, sizeof(la));
	la.l = a;
	fd = (int)syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, &la, sizeof(la));
	if (fd < 0 && errno == EINVAL) {
		/* a kernel without networking has no socket filters: the
		 * same two instructions as a tracepoint program (the tag is
		 * a hash of the instructions, so it does not change) */
		la.l.prog_type = 5;	/* BPF_PROG_TYPE_TRACEPOINT */
		fd = (int)syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, &la, sizeof(la));
	}
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	memset(&ia, 0, sizeof(ia));
	ia.bpf_fd = (uint32_t)fd;
	ia.info_len = sizeof(info);
	ia.info = (uint64_t)(uintptr_t)&info;
	memset(&ua, 0, sizeof(ua));
	ua.i = ia;
	if (syscall(SYS_bpf, 15 /* BPF_OBJ_GET_INFO_BY_FD */, &ua, sizeof(ua))) {
		int err = errno;

		close(fd);
		return -err;
	}
	if (id)
		*id = info.id;
	if (tag)
		memcpy(tag, info.tag, 8);
	return fd;
}

/*
 * Whether the kernel JIT-compiled prog: bpf_prog_info.jited_prog_len (byte
 * 16) is the JITed image's length, 0 for a program the interpreter runs
 * (CONFIG_BPF_JIT off, net.core.bpf_jit_enable 0, or a JIT that gave up).
 * Only a JITed program registers a kernel symbol: bpf_prog_kallsyms_add()
 * takes fp->jited programs only, and so names the KSYMBOL records
 * (kernel/bpf/core.c bpf_prog_kallsyms_candidate(), bpf_prog_ksym_set_name()).
 * The kernel reports the length only to a bpf_capable() caller.
 */
long pa_bpf_jited_len(int prog)
{
	struct { uint32_t type, id; uint8_t tag[8]; uint32_t jited_prog_len, xlated_prog_len; } info;
	union { struct pa_bpf_info_attr i; uint8_t pad[256]; } ua;

	memset(&info, 0, sizeof(info));
	memset(&ua, 0, sizeof(ua));
	ua.i.bpf_fd = (uint32_t)prog;
	ua.i.info_len = sizeof(info);
	ua.i.info = (uint64_t)(uintptr_t)&info;
	if (syscall(SYS_bpf, 15 /* BPF_OBJ_GET_INFO_BY_FD */, &ua, sizeof(ua)))
		return -errno;
	return info.jited_prog_len;
}

void pa_bpf_skip_unless_jited(int prog)
{
	long len = pa_bpf_jited_len(prog);

	if (len < 0) {
		pa_fail("BPF_OBJ_GET_INFO_BY_FD: %s", pa_errno_name((int)-len));
		pa_abort();
	}
	if (!pa_has_cap(PA_CAP_SYS_ADMIN) && !pa_has_cap(PA_CAP_BPF))
		pa_skip("no CAP_BPF or CAP_SYS_ADMIN: a program loaded without them registers no kernel symbol (bpf_prog_kallsyms_add()), and jited_prog_len is hidden");
	if (len == 0)
		pa_skip("the BPF program was not JITed (jited_prog_len 0: CONFIG_BPF_JIT off or net.core.bpf_jit_enable 0): an interpreted program registers no kernel symbol");
}

struct pa_bpf_load_seen pa_bpf_load_records(struct pa_ring *r, const char *name)
{
	struct pa_bpf_load_seen seen = { 0, 0, 0, false };
	const struct perf_event_header *h;
	uint32_t id;
	uint8_t tag[8];
	int prog;

	while (pa_ring_next(r))
		;
	prog = pa_bpf_load_trivial(name, &id, tag);
	if (prog < 0)
		pa_skip("cannot load a BPF program: %s", pa_errno_name(-prog));
	seen.jited = pa_bpf_jited_len(prog) > 0;
	while ((h = pa_ring_next(r))) {
		seen.ksymbol += h->type == PERF_RECORD_KSYMBOL;
		if (h->type == PERF_RECORD_BPF_EVENT) {
			/* {u16 type, u16 flags, u32 id, u8 tag[8]} */
			uint16_t type;
			uint32_t rid;

			memcpy(&type, h + 1, sizeof(type));
			memcpy(&rid, (const char *)(h + 1) + 4, sizeof(rid));
			seen.bpf_event++;
			seen.prog_load += type == 1 && rid == id;
		}
	}
	close(prog);
	return seen;
}

/* ---- a tracepoint BPF program, for SET_BPF and QUERY_BPF ---------------- */

int pa_bpf_load_tracepoint(int ret, uint32_t *id)
{
	uint64_t insns[2] = { 0xb7 | (uint64_t)(uint32_t)ret << 32, 0x95 }; /* r0 = ret; exit */
	union { struct pa_bpf_load_attr l; uint8_t pad[256]; } la;
	union { struct pa_bpf_info_attr i; uint8_t pad[256]; } ia;
	struct { uint32_t type, id; uint8_t tag[8]; } info;
	int fd;

	memset(&la, 0, sizeof(la));
	la.l.prog_type = 5;			/* BPF_PROG_TYPE_TRACEPOINT */
	la.l.insn_cnt = 2;
	la.l.insns = (uint64_t)(uintptr_t)insns;
	la.l.license = (uint64_t)(uintptr_t)"GPL";
	snprintf(la.l.prog_name, sizeof(la.l.prog_name), "pa_tp_ret%d", ret);
	fd = (int)syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, &la, sizeof(la));
	if (fd < 0)
		pa_skip("cannot load a BPF_PROG_TYPE_TRACEPOINT program: %s",
			pa_errno_name(errno));
	memset(&info, 0, sizeof(info));
	memset(&ia, 0, sizeof(ia));
	ia.i.bpf_fd = (uint32_t)fd;
	ia.i.info_len = sizeof(info);
	ia.i.info = (uint64_t)(uintptr_t)&info;
	if (syscall(SYS_bpf, 15 /* BPF_OBJ_GET_INFO_BY_FD */, &ia, sizeof(ia))) {
		pa_fail("BPF_OBJ_GET_INFO_BY_FD: %s", pa_errno_name(errno));
		pa_abort();
	}
	*id = info.id;
	return fd;
}

/* ---- BPF_PROG_TYPE_PERF_EVENT programs, for SET_BPF and BPF links ------ */

long pa_sys_bpf(int cmd, void *attr)
{
	return syscall(SYS_bpf, cmd, attr, 128);
}

int pa_bpf_load_perf_event(int ret)
{
	uint64_t insns[2] = { 0xb7 | (uint64_t)(uint32_t)ret << 32, 0x95 };
	union {
		struct { uint32_t prog_type, insn_cnt; uint64_t insns, license; } l;
		uint8_t pad[128];
	} a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.l.prog_type = 7;
	a.l.insn_cnt = 2;
	a.l.insns = (uint64_t)(uintptr_t)insns;
	a.l.license = (uint64_t)(uintptr_t)"GPL";
	fd = (int)pa_sys_bpf(5 /* BPF_PROG_LOAD */, &a);
	if (fd < 0)
		pa_skip("cannot load a BPF_PROG_TYPE_PERF_EVENT program: %s",
			pa_errno_name(errno));
	return fd;
}

/* bpf_prog_info.run_cnt is at byte 200 */
uint64_t pa_bpf_run_cnt(int prog)
{
	uint64_t info[26];
	union {
		struct { uint32_t bpf_fd, info_len; uint64_t info; } i;
		uint8_t pad[128];
	} a;

	memset(info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.i.bpf_fd = (uint32_t)prog;
	a.i.info_len = sizeof(info);
	a.i.info = (uint64_t)(uintptr_t)info;
	ASSERT_OK(pa_sys_bpf(15 /* BPF_OBJ_GET_INFO_BY_FD */, &a));
	return info[25];
}

/* ---- hand-assembled programs and maps ----------------------------------- */

void pa_bpf_emit(struct pa_bpf_prog *p, uint8_t code, int dst, int src,
		 int off, int32_t imm)
{
	if (p->n >= (int)(sizeof(p->insn) / sizeof(p->insn[0]))) {
		pa_fail("BPF program longer than %zu instructions",
			sizeof(p->insn) / sizeof(p->insn[0]));
		pa_abort();
	}
	p->insn[p->n++] = (struct pa_bpf_insn){
		code, (uint8_t)(dst | src << 4), (int16_t)off, imm
	};
}

/* BPF_LD | BPF_DW | BPF_IMM takes two slots: the high half of imm is the
 * second slot's imm */
void pa_bpf_ld_imm64(struct pa_bpf_prog *p, int dst, int src, uint64_t imm)
{
	pa_bpf_emit(p, 0x18, dst, src, 0, (int32_t)(uint32_t)imm);
	pa_bpf_emit(p, 0x00, 0, 0, 0, (int32_t)(uint32_t)(imm >> 32));
}

void pa_bpf_map_update_fp(struct pa_bpf_prog *p, int map, int key_off,
			  int value_off)
{
	pa_bpf_ld_imm64(p, 1, 1, (uint64_t)map);	/* r1 = &map */
	pa_bpf_emit(p, 0xbf, 2, 10, 0, 0);		/* r2 = fp */
	pa_bpf_emit(p, 0x07, 2, 0, 0, key_off);		/* r2 = &key */
	pa_bpf_emit(p, 0xbf, 3, 10, 0, 0);		/* r3 = fp */
	pa_bpf_emit(p, 0x07, 3, 0, 0, value_off);	/* r3 = &value */
	pa_bpf_emit(p, 0xb7, 4, 0, 0, 0);		/* r4 = BPF_ANY */
	pa_bpf_emit(p, 0x85, 0, 0, 0, 2);		/* call bpf_map_update_elem */
}

int pa_bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries)
{
	union { uint32_t a[4]; uint8_t pad[128]; } m;
	long fd;

	memset(&m, 0, sizeof(m));
	m.a[0] = type;
	m.a[1] = key_size;
	m.a[2] = value_size;
	m.a[3] = max_entries;
	fd = pa_sys_bpf(0 /* BPF_MAP_CREATE */, &m);
	if (fd < 0) {
		pa_fail("BPF_MAP_CREATE type %u: %s", type, pa_errno_name(errno));
		pa_abort();
	}
	return (int)fd;
}

long pa_bpf_map_elem(int cmd, int map, uint32_t key, void *value)
{
	union {
		struct { uint32_t map_fd, pad; uint64_t key, value, flags; } e;
		uint8_t pad[128];
	} a;

	memset(&a, 0, sizeof(a));
	a.e.map_fd = (uint32_t)map;
	a.e.key = (uint64_t)(uintptr_t)&key;
	a.e.value = (uint64_t)(uintptr_t)value;
	return pa_sys_bpf(cmd, &a);
}

int pa_bpf_prog_load(const struct pa_bpf_prog *p, uint32_t prog_type)
{
	static char log[65536];
	union {
		struct {
			uint32_t prog_type, insn_cnt;
			uint64_t insns, license;
			uint32_t log_level, log_size;
			uint64_t log_buf;
		} l;
		uint8_t pad[128];
	} a;
	long fd;
	int err;

	memset(&a, 0, sizeof(a));
	a.l.prog_type = prog_type;
	a.l.insn_cnt = (uint32_t)p->n;
	a.l.insns = (uint64_t)(uintptr_t)p->insn;
	/* the perf helpers (bpf_perf_event_read_value() ...) are GPL-only */
	a.l.license = (uint64_t)(uintptr_t)"GPL";
	fd = pa_sys_bpf(5 /* BPF_PROG_LOAD */, &a);
	if (fd >= 0)
		return (int)fd;
	/* the verifier's log only for a refused program: say why it was */
	err = errno;
	a.l.log_level = 1;
	a.l.log_size = sizeof(log);
	a.l.log_buf = (uint64_t)(uintptr_t)log;
	(void)pa_sys_bpf(5, &a);
	for (char *s = strtok(log, "\n"); s; s = strtok(NULL, "\n"))
		pa_diag("verifier: %s", s);
	pa_fail("BPF_PROG_LOAD: %s", pa_errno_name(err));
	pa_abort();
}

int pa_bpf_enable_stats(void)
{
	union { uint32_t type; uint8_t pad[128]; } st;	/* 0: BPF_STATS_RUN_TIME */

	memset(&st, 0, sizeof(st));
	return (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));
}

long pa_bpf_perf_link(int prog, int perf_fd)
{
	union {
		struct { uint32_t prog_fd, target_fd, attach_type, flags; } l;
		uint8_t pad[128];
	} lc;

	memset(&lc, 0, sizeof(lc));
	lc.l.prog_fd = (uint32_t)prog;
	lc.l.target_fd = (uint32_t)perf_fd;
	lc.l.attach_type = 41;			/* BPF_PERF_EVENT */
	return pa_sys_bpf(28 /* BPF_LINK_CREATE */, &lc);
}

void pa_bpf_output_count_prog(struct pa_bpf_prog *p, int perf_map, int result_map,
			      const uint8_t *tail, int tail_len)
{
	pa_bpf_emit(p, 0xbf, 6, 1, 0, 0);		/* r6 = r1: ctx */
	pa_bpf_emit(p, 0xbf, 2, 10, 0, 0);		/* r2 = fp */
	pa_bpf_emit(p, 0x07, 2, 0, 0, -24);		/* r2 = fp - 24: a bpf_perf_event_value */
	pa_bpf_emit(p, 0xb7, 3, 0, 0, 24);		/* r3 = its size */
	pa_bpf_emit(p, 0x85, 0, 0, 0, 56);		/* call bpf_perf_prog_read_value(ctx, r2, r3) */
	pa_bpf_emit(p, 0x79, 1, 10, -24, 0);		/* r1 = S's counter: i */
	pa_bpf_emit(p, 0x7b, 10, 1, -48, 0);		/* payload[0..8] = i, at fp - 48 */
	for (int k = 0; k < tail_len && k < 8; k++)	/* payload[8..] = the tail */
		pa_bpf_emit(p, 0x72, 10, 0, -40 + k, tail[k]);
	pa_bpf_emit(p, 0xbf, 1, 6, 0, 0);		/* r1 = ctx */
	pa_bpf_ld_imm64(p, 2, 1, (uint64_t)perf_map);	/* r2 = &perf_map */
	pa_bpf_emit(p, 0xb4, 3, 0, 0, -1);		/* w3 = 0xffffffff: BPF_F_CURRENT_CPU */
	pa_bpf_emit(p, 0xbf, 4, 10, 0, 0);		/* r4 = fp */
	pa_bpf_emit(p, 0x07, 4, 0, 0, -48);		/* r4 = &payload */
	pa_bpf_emit(p, 0xb7, 5, 0, 0, 8 + tail_len);	/* r5 = its size */
	pa_bpf_emit(p, 0x85, 0, 0, 0, 25);		/* call bpf_perf_event_output */
	pa_bpf_emit(p, 0x7b, 10, 0, -56, 0);		/* *(u64 *)(fp - 56) = r0 */
	pa_bpf_emit(p, 0x79, 1, 10, -24, 0);		/* r1 = i */
	pa_bpf_emit(p, 0x63, 10, 1, -64, 0);		/* *(u32 *)(fp - 64) = i: the key */
	pa_bpf_map_update_fp(p, result_map, -64, -56);	/* result[i] = ret */
	pa_bpf_emit(p, 0xb7, 0, 0, 0, 0);		/* r0 = 0: no sample of S itself */
	pa_bpf_emit(p, 0x95, 0, 0, 0, 0);		/* exit */
}
