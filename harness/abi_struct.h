/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfabi: the perf_event_open(2) structures, written from the documented
 * layout (man 2 perf_event_open; include/uapi/linux/perf_event.h as published).
 *
 * This file only declares structures, under tag names chosen by the includer
 * (PA_TAG_ATTR, PA_TAG_MMAP_PAGE, PA_TAG_HEADER), so that harness/abi_check.c
 * can place it beside the build machine's <linux/perf_event.h> and assert at
 * compile time that every field the system header knows sits at the same
 * offset. Cases never include this file directly: they include perfabi.h.
 */
#include <stdint.h>

struct PA_TAG_ATTR {
	uint32_t type;			/*   0 */
	uint32_t size;			/*   4 */
	uint64_t config;		/*   8 */
	union {				/*  16 */
		uint64_t sample_period;
		uint64_t sample_freq;
	};
	uint64_t sample_type;		/*  24 */
	uint64_t read_format;		/*  32 */

	/* flag word at offset 40: bit n of the u64 */
	uint64_t disabled		:  1, /*  0 */
		 inherit		:  1, /*  1 */
		 pinned			:  1, /*  2 */
		 exclusive		:  1, /*  3 */
		 exclude_user		:  1, /*  4 */
		 exclude_kernel		:  1, /*  5 */
		 exclude_hv		:  1, /*  6 */
		 exclude_idle		:  1, /*  7 */
		 mmap			:  1, /*  8 */
		 comm			:  1, /*  9 */
		 freq			:  1, /* 10 */
		 inherit_stat		:  1, /* 11 */
		 enable_on_exec		:  1, /* 12 */
		 task			:  1, /* 13 */
		 watermark		:  1, /* 14 */
		 precise_ip		:  2, /* 15-16 */
		 mmap_data		:  1, /* 17 */
		 sample_id_all		:  1, /* 18 */
		 exclude_host		:  1, /* 19 */
		 exclude_guest		:  1, /* 20 */
		 exclude_callchain_kernel : 1, /* 21 */
		 exclude_callchain_user	:  1, /* 22 */
		 mmap2			:  1, /* 23 */
		 comm_exec		:  1, /* 24 */
		 use_clockid		:  1, /* 25 */
		 context_switch		:  1, /* 26 */
		 write_backward		:  1, /* 27 */
		 namespaces		:  1, /* 28 */
		 ksymbol		:  1, /* 29 */
		 bpf_event		:  1, /* 30 */
		 aux_output		:  1, /* 31 */
		 cgroup			:  1, /* 32 */
		 text_poke		:  1, /* 33 */
		 build_id		:  1, /* 34 */
		 inherit_thread		:  1, /* 35 */
		 remove_on_exec		:  1, /* 36 */
		 sigtrap		:  1, /* 37 */
		 defer_callchain	:  1, /* 38: 6.19 */
		 defer_output		:  1, /* 39: 6.19 */
		 __reserved_1		: 24; /* 40-63 */

	union {				/*  48 */
		uint32_t wakeup_events;
		uint32_t wakeup_watermark;
	};
	uint32_t bp_type;		/*  52 */
	union {				/*  56 */
		uint64_t bp_addr;
		uint64_t kprobe_func;
		uint64_t uprobe_path;
		uint64_t config1;
	};
	/* PERF_ATTR_SIZE_VER0 ends here (64) */
	union {				/*  64 */
		uint64_t bp_len;
		uint64_t kprobe_addr;
		uint64_t probe_offset;
		uint64_t config2;
	};
	/* VER1 (72) */
	uint64_t branch_sample_type;	/*  72 */
	/* VER2 (80) */
	uint64_t sample_regs_user;	/*  80 */
	uint32_t sample_stack_user;	/*  88 */
	int32_t  clockid;		/*  92 */
	/* VER3 (96) */
	uint64_t sample_regs_intr;	/*  96 */
	/* VER4 (104) */
	uint32_t aux_watermark;		/* 104 */
	uint16_t sample_max_stack;	/* 108 */
	uint16_t __reserved_2;		/* 110 */
	/* VER5 (112) */
	uint32_t aux_sample_size;	/* 112 */
	union {				/* 116 */
		uint32_t aux_action;	/* 6.13: the whole word was __reserved_3 */
		struct {
			uint32_t aux_start_paused :  1,
				 aux_pause        :  1,
				 aux_resume       :  1,
				 __reserved_3     : 29;
		};
	};
	/* VER6 (120) */
	uint64_t sig_data;		/* 120 */
	/* VER7 (128) */
	uint64_t config3;		/* 128 */
	/* VER8 (136) */
	uint64_t config4;		/* 136: 6.19 */
	/* VER9 (144) */
};

struct PA_TAG_HEADER {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

struct PA_TAG_MMAP_PAGE {
	uint32_t version;		/*    0 */
	uint32_t compat_version;	/*    4 */
	uint32_t lock;			/*    8 */
	uint32_t index;			/*   12 */
	int64_t  offset;		/*   16 */
	uint64_t time_enabled;		/*   24 */
	uint64_t time_running;		/*   32 */
	union {				/*   40 */
		uint64_t capabilities;
		struct {
			uint64_t cap_bit0		: 1,
				 cap_bit0_is_deprecated	: 1,
				 cap_user_rdpmc		: 1,
				 cap_user_time		: 1,
				 cap_user_time_zero	: 1,
				 cap_user_time_short	: 1,
				 cap_____res		: 58;
		};
	};
	uint16_t pmc_width;		/*   48 */
	uint16_t time_shift;		/*   50 */
	uint32_t time_mult;		/*   52 */
	uint64_t time_offset;		/*   56 */
	uint64_t time_zero;		/*   64 */
	uint32_t size;			/*   72 */
	uint32_t __reserved_1;		/*   76 */
	uint64_t time_cycles;		/*   80 */
	uint64_t time_mask;		/*   88 */
	uint8_t  __reserved[116 * 8];	/*   96 */
	uint64_t data_head;		/* 1024 */
	uint64_t data_tail;		/* 1032 */
	uint64_t data_offset;		/* 1040 */
	uint64_t data_size;		/* 1048 */
	uint64_t aux_head;		/* 1056 */
	uint64_t aux_tail;		/* 1064 */
	uint64_t aux_offset;		/* 1072 */
	uint64_t aux_size;		/* 1080 */
};
