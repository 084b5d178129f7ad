#!/usr/bin/env perl
# perfabi: how strong each case's oracle is, by its deciding checks, per area
# and in total.
#
#   ./harness/tools/oracle-strength.pl [--list] [--helpers] [AREA...]
#
#   (default)  per area: cases, exact (split value / errno / layout), bound,
#              open, unclassified, and the share of cases that decide
#              exactly; how many exact cases are so only through a helper's
#              check or only through an outcome the context decides; then
#              every unclassified case with the reason
#   --list     first each case: its class, the deciding check (file:line,
#              text, [why]; "via" a helper chain), and a note where #if
#              branches for other arches hold checks. The class carries
#              "(helper)" when the exact check is only inside a harness/lib
#              helper, "(context)" when only an EXPECT_OPEN_RESULT whose
#              expected errno the context or kernel version decides
#   --helpers  the table of harness/lib functions: the strongest kind and
#              the non-plumbing checks each holds, directly or through the
#              helpers it calls
#   ORACLE_DEBUG=1 in the environment prints every check of every case, with
#              its kind, to stderr
#
# What is read. A case's checks are every check in its PERFABI_CASE body, in
# the static functions of its file that the body reaches (called, or named as
# a thread, race or work function), and in the harness/lib functions those
# reach, transitively (the --helpers table; the functions that implement the
# check macros, and case_main.c, are left out). A check is an EXPECT_* or
# ASSERT_* macro, PA_TP_EXPECT_INT/STR, a direct pa_check_cmp(),
# pa_check_true() or pa_open_expect(), or a pa_fail() read through the
# condition that reaches it (if, else, a switch default; a report-once guard
# such as "if (!bad++)" is looked through). #if is evaluated as on the host
# arch, x86_64 with GCC (__x86_64__ and __GNUC__ defined; __i386__,
# __aarch64__, __clang__ and the other arches not; unknown identifiers are 0
# as in C; a defined() of a macro it does not know takes the branch if the
# answer does not matter, else the #if branch): the checks of that branch
# count, those of the branches for other arches are only noted (--list).
#
# The kinds of check:
#   exact-value  an equality on a value the kernel produced: a count, a
#                record or sample field, an id, a read() value, a flag bit
#                (x & F == F, != 0, TRUE/FALSE(x & F)), a poll mask, a
#                signal and its si_code, ptrace PEEK data, memcmp/strcmp ==
#                0, PA_TP_EXPECT_INT/STR; "absent": a bool or pointer find
#                that must be false/NULL, a flag that must stay 0 (FALSE(x),
#                "if (x) pa_fail"); a tally of records counted without
#                per-item checks (the count is the behaviour)
#   exact-errno  EXPECT/ASSERT_OPEN_FAIL, EXPECT/ASSERT_ERRNO, errno or a
#                saved errno == an E... constant (or != it in a pa_fail
#                condition); EXPECT_OPEN_RESULT and pa_open_expect() with an
#                errno. When that errno is not a literal (pa_expected_errno(),
#                "known ? 0 : EINVAL") the context or the kernel version
#                decides between the errno and success: such a check decides
#                the case only when the case checks nothing stronger than an
#                open once the open is allowed; otherwise the case is
#                classified by those checks (the path that runs where the
#                open is allowed)
#   exact-layout an equality on a size, offset or length: h->size, a field
#                named *size/*len/*offset, sizeof/offsetof, a read() that
#                returns other than the length it asked for (the read_format
#                size), EXPECT_E2BIG_SIZE (E2BIG and the size written back),
#                pa_sample_parse()'s "sample size == the documented layout of
#                sample_type and read_format"
#   bound        an inequality or range (LT/LE/GT/GE on values, NE other than
#                a bit test, lo <= x && x <= hi), a disjunction ("errno is A
#                or B"), a predicate that must hold (a record is found,
#                data arrived, a helper returns nonzero), a switch default
#                (a value outside the expected set), a pa_fail reached when
#                a loop found nothing
#   open         only an outcome: an open (EXPECT/ASSERT_OPEN,
#                EXPECT_OPEN_RESULT with 0), EXPECT_OK, a perf ioctl or
#                prctl, mmap/munmap/mprotect/pa_ring_try_map, a perf fd that
#                must be >= 0 / != -1 / != MAP_FAILED, or such a call that
#                must fail without its errno being checked
#   plumbing     set-up, ignored: ASSERT_OK; the result of pthread_*,
#                waitpid, fork, pipe, write, close, kill, sched_*,
#                setresuid, malloc, open/fopen/stat, a non-perf ioctl or
#                prctl (PR_SET_NAME), pa_allowed_cpus, pa_pin_cpu, ...; a
#                wait status (WIFEXITED, WEXITSTATUS == 0); a read()/pread()
#                that returns the length it asked for; a sign check on a
#                handle that is not a perf fd (pid >= 0, tracepoint id >= 0)
#                or on a status (ret < 0); errno == 0; capability and version
#                predicates (pa_has_cap, pa_since); a field of the attr the
#                case built (the kernel writes back only size); a read-back
#                of what the case wrote (x = v; ...; x == v with x untouched
#                between; READ(a, ...) == v after WRITE(a, ..., v) that was
#                not itself a refused write); a tally: a counter that only
#                counts up in a loop whose body holds checks, compared after
#                it (it says how many items the per-item checks ran on, the
#                checks in the loop are the behaviour); the harness's own
#                computations (pa_sample_size() == constant) and arithmetic
#                preconditions (x % rec == 0); a child's set-up report
#                (rep.setup == 0); in harness/lib, a step a helper needs to
#                succeed (an ioctl, an mmap) and every check of the helpers
#                listed in %PLUMB_HELPER (ring reading, threads, fixtures,
#                cgroups, BPF loading, ...), which only report a failed
#                set-up
#   unknown      a check it cannot read (reported with the case)
#
# The case's class is its strongest kind (exact > bound > open): "exact"
# when at least one deciding check is exact; the sub-kind is that of its own
# exact checks (a helper's only when it has none): errno when its assertion
# names an errno (or its name ends in _e<errno>) and it has an errno check,
# layout when it is about a size, layout, offset or trailer and it has a
# layout check, else value, then layout, then errno. The deciding check
# listed is the first check of that sub-kind. "unclassified" (always listed,
# with the reason): its strongest readable check is below exact and some
# check could not be read, or it has no check beyond plumbing.
#
# Limits: a heuristic read of the C text, no compiler; a check in a loop
# counts once; an alias is followed one assignment back; the harness's own
# SKIP logic and checks made by fixtures are not seen; an exact check that
# is only a precondition (a disabled event reads 0 before the stimulus)
# counts as exact like any other.
#
# (A Perl program: it reads C text; it runs from the repository root.)
use strict;
use warnings;
use FindBin;
chdir "$FindBin::Bin/../.." or die "oracle-strength: cannot reach the repository root: $!\n";

my ($LIST, $HELPERS) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^-/) {
	my $o = shift @ARGV;
	if ($o eq '--list') { $LIST = 1 }
	elsif ($o eq '--helpers') { $HELPERS = 1 }
	elsif ($o eq '-h' || $o eq '--help') {
		print "usage: harness/tools/oracle-strength.pl [--list] [--helpers] [AREA...]\n";
		exit 0;
	} else { print STDERR "oracle-strength: unknown option $o\n"; exit 2 }
}
my @AREAS = @ARGV;
unless (@AREAS) {
	opendir(my $d, 'cases') or die "oracle-strength: no cases/\n";
	@AREAS = sort grep { !/^\./ && -d "cases/$_" } readdir $d;
	closedir $d;
}
for my $a (@AREAS) { die "oracle-strength: no area cases/$a\n" unless -d "cases/$a" }

my %RANK = (value => 3, errno => 3, layout => 3, bound => 2, open => 1,
	    plumb => 0, unknown => -1);

my @ERRNOS = qw(EPERM ENOENT ESRCH EINTR EIO ENXIO E2BIG ENOEXEC EBADF ECHILD
	EAGAIN ENOMEM EACCES EFAULT EBUSY EEXIST EXDEV ENODEV ENOTDIR EISDIR EINVAL
	ENFILE EMFILE ENOTTY EFBIG ENOSPC ESPIPE EROFS EMLINK EPIPE EDOM ERANGE
	EDEADLK ENAMETOOLONG ENOLCK ENOSYS ENOTEMPTY ELOOP EWOULDBLOCK ENOMSG
	EOVERFLOW EOPNOTSUPP ENOTSUP ENOTSUPP ESTALE ENOTCONN ETIMEDOUT EALREADY
	EINPROGRESS ENOBUFS ENODATA ETXTBSY EPROTO ECANCELED EOWNERDEAD EBADFD
	ENOKEY EKEYREJECTED ENOTUNIQ EREMOTEIO EHWPOISON ERESTARTSYS);
my %ERRNO = map { $_ => 1 } @ERRNOS;

# calls whose result is set-up, not behaviour
my $PLUMB_CALL = qr/^(?:pthread_\w+|waitpid|wait|wait3|wait4|waitid|write|pwrite|
	writev|pipe|pipe2|close|fork|vfork|clone|clone3|kill|tgkill|tkill|raise|
	sched_\w+|setresuid|setresgid|setuid|setgid|seteuid|setegid|setgroups|
	getuid|geteuid|getpid|gettid|getppid|sigaction|sigprocmask|sigemptyset|
	sigaddset|sigwait|sigtimedwait|signal|open|openat|fopen|fdopen|fclose|
	fgets|fread|fwrite|fprintf|fflush|ferror|feof|stat|fstat|lstat|access|
	unlink|mkdir|mkdtemp|rmdir|chdir|chmod|chown|dup|dup2|dup3|unshare|setns|
	nanosleep|usleep|sleep|clock_gettime|clock_nanosleep|getrlimit|setrlimit|
	prlimit|madvise|mlock|munlock|memfd_create|ftruncate|fallocate|
	posix_fadvise|epoll_create1?|epoll_ctl|socketpair|socket|eventfd|
	timerfd_\w+|ptrace|system|exec\w*|malloc|calloc|realloc|strdup|aligned_alloc|
	posix_memalign|snprintf|sprintf|strtoul|strtoull|strtol|strtoll|atoi|
	opendir|readdir|closedir|getenv|mount|umount2?|sem_\w+|
	pa_allowed_cpus|pa_pin_cpu|pa_exec_child_go|pa_exec_child_start|
	pa_blocked_cat_start|pa_cgroup_enter|pa_cgroup_new|pa_uprobe_event_add|
	pa_tracepoint_id|pa_tp_id_or_skip|pa_tracefs|pa_fixture|pa_self_exe|
	pa_self_sym_offset|pa_elf_sym_offset|pa_self_file_offset|pa_pmu_type_or_skip|
	pa_has_cap|pa_perfmon_capable|pa_kernel_at_least|pa_since\w*|pa_paranoid|
	pa_online_cpus|pa_hotplug_cpu|pa_other_uid_task|pa_tracee_start|
	pa_tracee_wait|pa_tracee_cont_until|pa_pin_unswapped|pa_intel_pt_attr|
	pa_pmu_event_config|pa_hw_pmu_present|pa_feature_known|pa_features_missing|
	pa_bpf_load_\w+|pa_bpf_prog_load|pa_bpf_map_create|pa_bpf_map_elem|
	pa_sys_bpf|pa_bpf_enable_stats|pa_frame_unsupported|pa_syscall_symbol|
	pa_tp_format_load|pa_tp_format_or_skip|pa_tp_need|pa_tp_field|
	pa_cpu_offline|pa_cpu_online|pa_clock_ns|pa_sleep_ms)$/x;
# calls that are the behaviour when they succeed or fail
my $PERF_CALL = qr/^(?:pa_perf_open|perf_event_open|sys_perf_event_open|
	mmap|mmap64|mremap|munmap|mprotect|pa_ring_try_map|pa_ring_try_map_aux|
	pa_sysctl_write|pa_tracee_debugreg_set|pa_bpf_perf_link|pa_open_expect|
	pa_hw_open_\w+|open_\w+|\w+_open|EXPECT_OPEN\w*|ASSERT_OPEN)$/x;
# the harness's own computations (no kernel in them)
my $PURE_CALL = qr/^(?:pa_sample_size|pa_sample_id_size|pa_read_format_size|
	pa_regs_valid_mask|pa_regs_undefined_bit|pa_kver_\w+|pa_fault_pages_addr)$/x;
# names of handles and status values (a sign check on them is an outcome)
sub is_handle_name {
	my $v = shift;
	$v =~ s/\[[^\]]*\]//g;
	$v =~ s/.*(?:\.|->)//;
	return $v =~ /^(?:[abdefghlpqrstuw]|[a-z]?fds?\d*|fd\w*|\w*_fd\d*|pid|tid|child|cpu|ret|rc|res|err|
		errno|id|leader|sib|group|map|addr|ptr|stub)$/x
		|| $v =~ /(?:^|_)(?:fd|pid|tid|ret|rc|err|id|leader|map)(?:$|_|\d)/;
}
# predicates that are preconditions, not behaviour
my $PLUMB_PRED = qr/^(?:pa_has_cap|pa_perfmon_capable|pa_kernel_at_least|
	pa_since\w*|WIFEXITED|WIFSIGNALED|WIFSTOPPED|WIFCONTINUED|ferror|feof|
	pa_tracee_wait|pa_feature_known|pa_hw_pmu_present)$/x;
my $LAYOUT = qr/\brec\b|\bsizeof\b|\boffsetof\b|(?:->|\.)\s*size\b|\bsize\b|\w_size\b|
	\bsize_\w|\blen\b|\w_len\b|\boffset\b|\w_offset\b|_off\b/x;

# helpers whose checks are protocol sanity or set-up, never the behaviour
my %PLUMB_HELPER = map { $_ => 1 } qw(pa_ring_map pa_ring_next pa_ring_unmap
	pa_read_u64 pa_ring_prefault pa_ring_map_aux pa_touch_pages pa_sig_block
	pa_sig_wait pa_sigs_route pa_puppet_start pa_puppet_run pa_puppet_stop
	pa_thread_start pa_thread_run pa_race_run pa_cgroup_new pa_cgroup_remove
	pa_cgroup_enter pa_perf_cgroup pa_become_fresh_uid pa_other_uid_task
	pa_exec_child_start pa_exec_child_go pa_blocked_cat_start pa_blocked_cat_go
	pa_kernel_faults pa_hotplug_cpu pa_cpu_offline pa_cpu_online pa_tracee_start
	pa_tracee_cont_until pa_tracee_debugreg_get pa_tracee_debugreg_set
	pa_bpf_load_trivial pa_bpf_load_tracepoint pa_bpf_load_perf_event
	pa_bpf_prog_load pa_bpf_map_create pa_bpf_enable_stats pa_bpf_jited_len
	pa_uprobe_event_add pa_tp_need pa_tp_get_str pa_tp_format_load
	pa_guarded_tail pa_cache_chase_build pa_run_fixture pa_fault_pages_prep
	pa_fault_pages_run pa_sysctl_write pa_hw_open_or_skip pa_hw_open_member
	pa_work_cpu_ms pa_work_pages pa_work_loop pa_pin_unswapped pa_bpf_emit
	pa_bpf_ld_imm64 pa_bpf_map_update_fp pa_fault_thread_start pa_hw_read_group
	pa_poll_now pa_ring_fill_to);
# single checks in helpers, by their text: the kind they really are
my @HELPER_CHECK = (
	[qr/is not PERF_RECORD_SAMPLE/, 'plumb', 'pa_sample_parse() given another record'],
	[qr/ends before the fields/, 'bound', 'the sample is at least as long as sample_type documents'],
	[qr/te->attr->read_format, 0u/, 'plumb', 'a precondition on the attr the case passed'],
);
# harness/lib functions that implement the check macros (classified there)
my %CHECK_IMPL = map { $_ => 1 } qw(pa_check_cmp pa_check_true pa_check_errno
	pa_check_ok pa_open_expect pa_expect_e2big_size pa_fail pa_skip pa_abort
	pa_diag pa_cmp pa_since pa_checked pa_note_global);

my $CHECK_RE = qr/\b(EXPECT_(?:EQ|NE|LT|LE|GT|GE|TRUE|FALSE|ERRNO|OK|OPEN_FAIL|
	OPEN_RESULT|OPEN|E2BIG_SIZE)|ASSERT_(?:EQ|NE|LT|LE|GT|GE|TRUE|FALSE|ERRNO|
	OK|OPEN_FAIL|OPEN)|PA_TP_EXPECT_(?:INT|STR)|pa_open_expect|pa_check_cmp|
	pa_check_true|pa_fail)\s*\(/x;

# ---- reading C ---------------------------------------------------------

sub trim { my $s = shift; $s =~ s/^\s+//; $s =~ s/\s+$//; return $s }
sub squash { my $s = shift; $s =~ s/\s+/ /g; return trim($s) }

# offset of the bracket closing the one at $i (or -1)
sub match_fwd {
	my ($t, $i) = @_;
	my $d = 0;
	for (my $k = $i; $k < length $t; $k++) {
		my $c = substr($t, $k, 1);
		if ($c eq '(' || $c eq '[' || $c eq '{') { $d++ }
		elsif ($c eq ')' || $c eq ']' || $c eq '}') { $d--; return $k if $d == 0 }
	}
	return -1;
}
sub match_back {
	my ($t, $i) = @_;
	my $d = 0;
	for (my $k = $i; $k >= 0; $k--) {
		my $c = substr($t, $k, 1);
		if ($c eq ')' || $c eq ']' || $c eq '}') { $d++ }
		elsif ($c eq '(' || $c eq '[' || $c eq '{') { $d--; return $k if $d == 0 }
	}
	return -1;
}
sub balanced {
	my $s = shift;
	my $d = 0;
	for my $c (split //, $s) {
		$d++ if $c eq '(' || $c eq '[';
		$d-- if $c eq ')' || $c eq ']';
		return 0 if $d < 0;
	}
	return $d == 0;
}
sub strip_parens {
	my $s = trim(shift);
	while ($s =~ /^\((.*)\)$/s && balanced($1)) { $s = trim($1) }
	return $s;
}
my $TYPE = qr/(?:(?:const|volatile|unsigned|signed|long|short)\s+)*
	(?:unsigned|signed|long|int|short|char|void|bool|float|double|size_t|
	ssize_t|off_t|pid_t|uid_t|gid_t|u?int\d+_t|u?intptr_t|__[us]\d+|
	(?:struct|enum|union)\s+\w+|\w+_t)(?:\s+(?:int|long|char|short|const))*
	[\s*]*(?:const\s*)?/x;
sub strip_casts {
	my $s = strip_parens(shift);
	while ($s =~ /^\(\s*$TYPE\s*\)\s*(?=[\w(&*!~\-"'])/) {
		$s = strip_parens(substr($s, $+[0]));
	}
	return $s;
}
# split at a top-level operator (a string such as '||', or the comma)
sub split_top {
	my ($s, $op) = @_;
	my (@out, $d);
	my $start = 0;
	$d = 0;
	my $n = length $s;
	my $l = length $op;
	for (my $k = 0; $k < $n; $k++) {
		my $c = substr($s, $k, 1);
		if ($c eq '(' || $c eq '[' || $c eq '{') { $d++; next }
		if ($c eq ')' || $c eq ']' || $c eq '}') { $d--; next }
		next if $d;
		if (substr($s, $k, $l) eq $op) {
			# a lone & or | (not && ||), not &= etc.
			if ($l == 1 && ($op eq '&' || $op eq '|')) {
				my $p = $k ? substr($s, $k - 1, 1) : '';
				my $q = substr($s, $k + 1, 1);
				next if $p eq $op || $q eq $op || $q eq '=';
				# unary & (address of) has an operator or nothing before it
				my $before = trim(substr($s, $start, $k - $start));
				next if $before eq '' || $before =~ /[=!<>+\-*\/,(&|?:]$/;
			}
			push @out, substr($s, $start, $k - $start);
			$start = $k + $l;
			$k += $l - 1;
		}
	}
	push @out, substr($s, $start);
	return @out;
}
# a top-level comparison: (lhs, op, rhs) or ()
sub split_cmp {
	my $s = shift;
	my $d = 0;
	my $n = length $s;
	for my $pass (0, 1) {	# equality binds looser than relational
		$d = 0;
		for (my $k = 0; $k < $n; $k++) {
			my $c = substr($s, $k, 1);
			if ($c eq '(' || $c eq '[') { $d++; next }
			if ($c eq ')' || $c eq ']') { $d--; next }
			next if $d;
			my $two = substr($s, $k, 2);
			if ($pass == 0) {
				if ($two eq '==' || $two eq '!=') {
					return (substr($s, 0, $k), $two, substr($s, $k + 2));
				}
			} else {
				my $p = $k ? substr($s, $k - 1, 1) : '';
				if ($two eq '<=' || $two eq '>=') {
					next if $p eq '<' || $p eq '>';
					return (substr($s, 0, $k), $two, substr($s, $k + 2));
				}
				if ($c eq '<' || $c eq '>') {
					my $q = substr($s, $k + 1, 1);
					next if $q eq $c || $p eq $c || $p eq '-' || $q eq '=';
					return (substr($s, 0, $k), $c, substr($s, $k + 1));
				}
			}
		}
	}
	return ();
}

my %DEF = (__x86_64__ => 1, __linux__ => 1, __linux => 1, __GNUC__ => 1,
	   __LP64__ => 1, __unix__ => 1, __ELF__ => 1);
my %VAL = (__SIZEOF_POINTER__ => 8, __SIZEOF_LONG__ => 8, __GNUC__ => 12);
my %ARCH_OFF = map { $_ => 1 } qw(__i386__ __aarch64__ __arm__ __powerpc64__
	__powerpc__ __PPC64__ __s390x__ __s390__ __riscv __mips__ __alpha__ __sparc__
	__sh__ __loongarch__ __clang__ __ia64__ __hppa__ __m68k__ __xtensa__
	__csky__ __arc__ __microblaze__ __openrisc__ __nios2__ __parisc__ __ILP32__);
# 1, 0, or undef (cannot tell: the branch is taken)
sub eval_cond {
	my ($d, $e) = @_;
	$e = trim($e);
	if ($d eq 'ifdef' || $d eq 'ifndef') {
		my ($m) = $e =~ /^(\w+)/;
		my $v = $DEF{$m} ? 1 : $ARCH_OFF{$m} ? 0 : undef;
		return undef unless defined $v;
		return $d eq 'ifdef' ? $v : 1 - $v;
	}
	# C: an identifier #if does not know is 0; defined() of a macro this
	# table does not know is tried both ways
	my @unk;
	$e =~ s{\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))}{
		my $m = defined $1 ? $1 : $2;
		$DEF{$m} ? 1 : $ARCH_OFF{$m} ? 0 : do { push @unk, $m; "\@$m\@" }
	}ge;
	$e =~ s{\b([A-Za-z_]\w*)\b}{ exists $VAL{$1} ? $VAL{$1} : 0 }ge;
	my %r;
	for my $bits (0 .. (1 << @unk) - 1) {
		my $x = $e;
		for my $k (0 .. $#unk) { my $v = ($bits >> $k) & 1; $x =~ s/\@\Q$unk[$k]\E\@/$v/g }
		return undef unless $x =~ /^[\d\s()!&|<>=+\-*\/]*$/;
		my $v = eval $x;
		return undef unless defined $v;
		$r{ $v ? 1 : 0 } = 1;
	}
	return keys %r == 1 ? (keys %r)[0] : undef;
}

# A source file: display text (comments blanked), code text (strings too)
# with the inactive #if branches blanked, and those branches alone.
sub load {
	my $path = shift;
	open(my $fh, '<', $path) or die "oracle-strength: $path: $!\n";
	local $/;
	my $t = <$fh>;
	close $fh;
	my ($disp, $code) = ('', '');
	while ($t =~ m{\G(?:(/\*.*?\*/)|(//[^\n]*)|("(?:\\.|[^"\\\n])*")|('(?:\\.|[^'\\\n])*')|([^/"']+|.))}gsc) {
		if (defined $1) { (my $x = $1) =~ s/[^\n]/ /g; $disp .= $x; $code .= $x }
		elsif (defined $2) { my $x = ' ' x length $2; $disp .= $x; $code .= $x }
		elsif (defined $3 || defined $4) {
			my $s = defined $3 ? $3 : $4;
			$disp .= $s;
			my $q = substr($s, 0, 1);
			$code .= $q . ('_' x (length($s) - 2)) . $q;
		} else { $disp .= $5; $code .= $5 }
	}
	my @l = split /\n/, $code, -1;
	my (@act, @out, @oth, @stack);
	my $active = 1;
	my $other_cond = '';
	for (my $i = 0; $i < @l; $i++) {
		if ($l[$i] =~ /^\s*#\s*(\w+)\s*(.*)$/) {
			my ($d, $rest) = ($1, $2);
			my @dl = ($i);
			while ($rest =~ /\\\s*$/ && $i + 1 < @l) {
				$rest =~ s/\\\s*$//;
				$i++;
				push @dl, $i;
				$rest .= ' ' . $l[$i];
			}
			if ($d =~ /^if(?:n?def)?$/) {
				my $v = eval_cond($d, $rest);
				my $take = defined $v ? $v : 1;
				push @stack, { outer => $active, taken => $take, cond => squash("#$d $rest") };
				$active = $active && $take;
			} elsif ($d eq 'elif' && @stack) {
				my $s = $stack[-1];
				if ($s->{taken}) { $active = 0 }
				else {
					my $v = eval_cond('if', $rest);
					my $take = defined $v ? $v : 1;
					$active = $s->{outer} && $take;
					$s->{taken} = $take;
				}
				$s->{cond} = squash("#elif $rest");
			} elsif ($d eq 'else' && @stack) {
				my $s = $stack[-1];
				$active = $s->{outer} && !$s->{taken};
				$s->{taken} = 1;
				$s->{cond} = "#else of " . $s->{cond};
			} elsif ($d eq 'endif' && @stack) {
				$active = (pop @stack)->{outer};
			}
			for my $k (@dl) { $out[$k] = ' ' x length $l[$k]; $oth[$k] = $out[$k] }
			next;
		}
		if ($active) { $out[$i] = $l[$i]; $oth[$i] = ' ' x length $l[$i] }
		else {
			$out[$i] = ' ' x length $l[$i];
			$oth[$i] = $l[$i];
			$other_cond ||= $stack[-1]{cond} if @stack;
		}
	}
	my $f = { path => $path, disp => $disp, code => join("\n", @out),
		  other => join("\n", @oth), other_cond => $other_cond };
	# line starts, for file:line
	my @ls = (0);
	pos($t) = undef;
	while ($t =~ /\n/g) { push @ls, pos($t) }
	$f->{ls} = \@ls;
	$f->{funcs} = functions($f);
	return $f;
}
sub line_of {
	my ($f, $off) = @_;
	my ($lo, $hi) = (0, $#{ $f->{ls} });
	while ($lo < $hi) {
		my $m = int(($lo + $hi + 1) / 2);
		if ($f->{ls}[$m] <= $off) { $lo = $m } else { $hi = $m - 1 }
	}
	return $lo + 1;
}

# top-level function definitions: name -> {start, end (braces), ret}
sub functions {
	my $f = shift;
	my $code = $f->{code};
	my %fn;
	my ($bd, $pd, $h) = (0, 0, 0);
	my $open;
	my $n = length $code;
	while ($code =~ /[(){};]/g) {
		my $c = $&;
		my $i = $-[0];
		if ($c eq '(') { $pd++ }
		elsif ($c eq ')') { $pd-- }
		elsif ($c eq '{') {
			$open = $i if $bd == 0 && $pd == 0;
			$bd++;
		} elsif ($c eq '}') {
			$bd--;
			if ($bd == 0 && $pd == 0 && defined $open) {
				my $hdr = substr($code, $h, $open - $h);
				$hdr =~ s/__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)//g;
				$hdr = trim($hdr);
				if ($hdr =~ /\bPERFABI_CASE\s*\(/) {
					my $a = index($code, 'PERFABI_CASE', $h);
					my $ap = index($code, '(', $a);
					my $ae = match_fwd($code, $ap);
					$fn{PERFABI_CASE} = { start => $open, end => $i, ret => 'void',
						meta => substr($f->{disp}, $ap + 1, $ae - $ap - 1) };
				} elsif ($hdr !~ /=\s*$/ && $hdr =~ /^(.*?)\b([A-Za-z_]\w*)\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)\s*$/s) {
					my ($ret, $name) = ($1, $2);
					unless ($name =~ /^(?:if|for|while|switch|return|sizeof)$/) {
						$fn{$name} = { start => $open, end => $i, ret => squash($ret),
							       static => ($ret =~ /\bstatic\b/ ? 1 : 0) };
					}
				}
				undef $open;
				$h = $i + 1;
			}
		} elsif ($c eq ';' && $bd == 0 && $pd == 0) { $h = $i + 1 }
	}
	return \%fn;
}

# the text of the expression assigned to $lv last before $pos in [$lo, $pos)
sub alias_of {
	my ($code, $lo, $pos, $lv) = @_;
	return undef unless $lv =~ /^[A-Za-z_][\w.\->\[\]]*$/;
	my $seg = substr($code, $lo, $pos - $lo);
	my $q = quotemeta $lv;
	my $last;
	while ($seg =~ /(?<![\w.>])$q\s*=(?!=)\s*/g) {
		my $s = pos($seg);
		# the expression: to ; or , or an unbalanced ) at depth 0
		my ($d, $k) = (0, $s);
		for (; $k < length $seg; $k++) {
			my $c = substr($seg, $k, 1);
			if ($c eq '(' || $c eq '[') { $d++ }
			elsif ($c eq ')' || $c eq ']') { last if $d == 0; $d-- }
			elsif (($c eq ';' || $c eq ',') && $d == 0) { last }
		}
		$last = trim(substr($seg, $s, $k - $s));
	}
	return $last;
}

# ---- kinds -------------------------------------------------------------

sub K { return [$_[0], $_[1], $_[2] || 0] }
sub rank { return $RANK{ $_[0][0] } }
sub strongest {
	my @k = grep { defined } @_;
	my @c = grep { $_->[0] ne 'unknown' } @k;
	return $k[0] unless @c;
	my $b = $c[0];
	for (@c) { $b = $_ if rank($_) > rank($b) }
	return $b;
}
# a disjunction: what must hold is only the weakest
sub either {
	my @k = @_;
	return K('unknown', 'a disjunction of checks it cannot read') if grep { $_->[0] eq 'unknown' } @k;
	my $max = strongest(@k);
	return $max if rank($max) <= 1;
	return K('bound', 'one of several outcomes');
}
sub call_name {
	my $s = shift;
	return $1 if $s =~ /^([A-Za-z_]\w*)\s*\(/ && substr($s, -1) eq ')'
		&& match_fwd($s, index($s, '(')) == length($s) - 1;
	return undef;
}
sub call_args {
	my $s = shift;
	my $o = index($s, '(');
	return map { trim($_) } split_top(substr($s, $o + 1, length($s) - $o - 2), ',');
}
sub is_const {
	my $s = strip_casts(shift);
	return 1 if $s =~ /^-?\s*(?:0[xX][\da-fA-F]+|\d+)[uUlL]*$/;
	return 1 if $s =~ /^(?:NULL|MAP_FAILED|true|false)$/;
	return 1 if $s =~ /^-?[A-Z_][A-Z0-9_]*$/;
	return 1 if $s =~ /^'.*'$/;
	# arithmetic on constants and sizeof
	my $t = $s;
	$t =~ s/\bsizeof\s*\((?:[^()]|\([^()]*\))*\)/0/g;
	$t =~ s/\((?:\s*$TYPE\s*)\)//g;
	return 1 if $t =~ /^[\s()\-+*\/%|&<>~]*(?:(?:0[xX][\da-fA-F]+|\d+)[uUlL]*|[A-Z_][A-Z0-9_]*)(?:[\s()\-+*\/%|&<>~]+(?:(?:0[xX][\da-fA-F]+|\d+)[uUlL]*|[A-Z_][A-Z0-9_]*))*[\s()]*$/;
	return 0;
}
sub is_errno_name { my $s = strip_casts(shift); $s =~ s/^-\s*//; return $ERRNO{$s} ? 1 : 0 }
sub has_errno_name { my $s = shift; while ($s =~ /\b(E[A-Z0-9]{2,})\b/g) { return 1 if $ERRNO{$1} } return 0 }
sub is_perf_call {
	my ($name, $call) = @_;
	return 1 if $name =~ $PERF_CALL;
	return 1 if $name eq 'ioctl' && $call =~ /PERF_EVENT_IOC_/;
	return 1 if $name eq 'prctl' && $call =~ /PR_TASK_PERF_EVENTS/;
	return 1 if $name eq 'syscall' && $call =~ /__NR_perf_event_open|__NR_bpf/;
	return 0;
}
sub is_find_call { return $_[0] =~ /^pa_ring_(?:find|next|sample|find_pid)$|find|lookup|^pa_vma_at$/ ? 1 : 0 }

# the function a value comes from, following one assignment back
sub source {
	my ($ctx, $e) = @_;
	my $s = strip_casts($e);
	my $name = call_name($s);
	return ($name, $s) if $name;
	if ($s =~ /^[A-Za-z_][\w.\->\[\]]*$/) {
		my $a = alias_of($ctx->{code}, $ctx->{lo}, $ctx->{pos}, $s);
		if (defined $a) {
			my $as = strip_casts($a);
			$as =~ s/^\w+\s*=(?!=)\s*//;	# a = b = call()
			$as = strip_casts($as);
			my $n = call_name($as);
			return ($n, $as) if $n;
		}
	}
	return (undef, $s);
}

# a success/failure check on what a call returned
sub outcome {
	my ($ctx, $name, $call, $subject, $fail) = @_;
	if (defined $name) {
		return K('plumb', "$name() outcome") if $name =~ $PLUMB_CALL
			|| ($name =~ /^(?:ioctl|prctl|syscall)$/ && !is_perf_call($name, $call));
		return K('open', $fail ? "$name() fails (errno unchecked)" : "$name() succeeds")
			if is_perf_call($name, $call) || $name =~ /^(?:ioctl|fcntl)$/;
		return K($fail ? 'value' : 'bound', $fail ? "$name() finds nothing" : "$name() finds it")
			if is_find_call($name);
		return K('open', $fail ? "$name() fails (errno unchecked)" : "$name() succeeds")
			if $ctx->{funcs}{$name} && $name =~ /open|map/;
		return K('plumb', "$name() outcome");
	}
	return K('open', $fail ? 'an open fails (errno unchecked)' : 'an open succeeds')
		if $subject =~ /(?:^|[_.>\[])(?:fd|fds|leader|sib|event|ev)\w*(?:\[[^\]]*\])?$|fd\w*(?:\[[^\]]*\])?$/;
	return K('plumb', 'a handle is valid');
}

# op in EQ NE LT LE GT GE
sub cmp_kind {
	my ($ctx, $op, $a, $b) = @_;
	my ($a0, $b0) = (strip_casts($a), strip_casts($b));
	# the non-constant side first
	if (is_const($a0) && !is_const($b0)) {
		($a0, $b0) = ($b0, $a0);
		$op = { EQ => 'EQ', NE => 'NE', LT => 'GT', LE => 'GE', GT => 'LT', GE => 'LE' }->{$op};
	}
	my $text = "$a0 $op $b0";
	# errno
	if ($a0 eq 'errno' || $b0 eq 'errno' || is_errno_name($b0) || is_errno_name($a0)
	    || ($op eq 'EQ' && has_errno_name($b0) && $a0 =~ /err/i)) {
		return K('plumb', 'errno == 0') if $op eq 'EQ' && ($b0 eq '0' || $a0 eq '0');
		return K('errno', 'errno equality') if $op eq 'EQ';
		return K('bound', 'errno inequality');
	}
	# a field of the attr the case built (the kernel writes back only size)
	return K('plumb', 'a read-back of the attr the case built')
		if $a0 =~ /(?:^|[.>])\w*attr\w*(?:\[[^\]]*\])?(?:\.|->)(\w+)$/ && $1 ne 'size';
	# a child's or thread's report that its set-up went through
	return K('plumb', 'a set-up report') if $a0 =~ /(?:^|[_.>])(?:setup|ready|started|setup_err)$/
		|| ($a0 =~ /(?:^|[_.>])(?:status|exit_status|exit_code)$/ && $b0 =~ /^0[uUlL]*$/);
	# wait status
	return K('plumb', 'wait status') if $a0 =~ /^W(?:EXITSTATUS|IFEXITED|IFSTOPPED)\s*\(/;
	return K('value', 'signal') if $a0 =~ /^W(?:TERMSIG|STOPSIG)\s*\(/;
	my ($name, $src) = source($ctx, $a0);
	if (defined $name) {
		if ($name =~ /^(?:read|pread|pread64|readv|recv)$/) {
			my @ar = call_args($src);
			my $req = $name eq 'readv' ? undef : $ar[2];
			if ($op eq 'EQ' && defined $req) {
				return K('plumb', "$name() of the length it asked for")
					if same_len($ctx, $req, $b0, $ar[1]);
				return K('layout', "$name() length");
			}
			return K('layout', "$name() length") if $op eq 'EQ';
			return K('plumb', "$name() outcome");
		}
		return K('value', "$name() data") if $name eq 'ptrace' && $src =~ /PTRACE_PEEK/;
		return K('plumb', "$name() result") if $name =~ $PLUMB_CALL && $name !~ /^(?:fcntl)$/;
		if ($name =~ /^(?:ioctl|prctl|syscall)$/ && !is_perf_call($name, $src)) {
			return K('plumb', "$name() result");
		}
		if (is_perf_call($name, $src) || $name eq 'ioctl') {
			my $z = $b0 =~ /^(?:0[uUlL]*|-1|NULL|MAP_FAILED)$/;
			if ($z) {
				my $fail = ($op eq 'EQ' && $b0 ne '0') || ($op eq 'NE' && $b0 eq '0')
					|| ($op eq 'LT' && $b0 eq '0');
				return K('open', $fail ? "$name() fails (errno unchecked)" : "$name() succeeds");
			}
		}
		# READ(x) == v after WRITE(x, v) (not a refused write)
		if ($op eq 'EQ' && $name =~ /read|get|_long$/i) {
			my $w = last_write($ctx, [call_args($src)]);
			if ($w && !$w->{refused}) {
				my ($wv, $bv) = (unquote(strip_casts($w->{val})), unquote($b0));
				return K('plumb', "read-back of what the case wrote with $w->{name}()")
					if $wv eq $bv || ($wv !~ /^-?\d/ && $w->{val} !~ /^"/);
			}
		}
		return K('plumb', "$name() placed the mapping where asked")
			if $op eq 'EQ' && $name =~ /^(?:mmap|mremap)$/ && $b0 !~ /^(?:MAP_FAILED|NULL|-1)$/;
	}
	# x = v; ...; x == v with x untouched between
	if ($op eq 'EQ' && $a0 =~ /^([A-Za-z_]\w*)[\w.\->\[\]]*$/) {
		my $base = $1;
		my $before = substr($ctx->{code}, $ctx->{lo}, $ctx->{pos} - $ctx->{lo});
		my ($qa, $qb) = (quotemeta $a0, quotemeta $b0);
		my $at;
		while ($before =~ /(?<![\w.>])$qa\s*=(?!=)\s*(?:\([^()]*\)\s*)?$qb\s*;/g) { $at = pos($before) }
		if (defined $at && substr($before, $at) !~ /\b\Q$base\E\b/) {
			return K('plumb', "read-back of $a0 the case set");
		}
	}
	if ($op eq 'EQ') {
		# the harness's own arithmetic: a precondition, not the kernel
		return K('plumb', 'a precondition on the case\'s own numbers')
			if $a0 =~ /%/ && $b0 =~ /^0[uUlL]*$/;
		return K('plumb', "$name() is the harness's own computation")
			if defined $name && $name =~ $PURE_CALL && (is_const($b0) || $b0 =~ /^sizeof\b/);
		# n counts the items that checks inside its loop ran on
		return K('plumb', "$a0 tallies the items the checks in its loop ran on")
			if $a0 =~ /^[A-Za-z_]\w*$/ && is_tally($ctx, $a0);
	}
	# success / failure: a sentinel, or the sign of a status or a handle
	my $sentinel = $b0 =~ /^(?:-1|NULL|MAP_FAILED|\(void\s*\*\)\s*-1)$/;
	my $zero = $b0 =~ /^0[uUlL]*$/;
	my $status = defined $name
		? ($name =~ $PERF_CALL || $name =~ $PLUMB_CALL || $name =~ /^(?:ioctl|prctl|syscall|fcntl|poll|epoll_wait)$/
		   || (ret_type($ctx, $name) =~ /^(?:static\s+)?int$/ && $name !~ /count|read|head|get|len|size|time|switch|_ns$/))
		: 0;
	$status ||= is_handle_name($a0);
	if ($sentinel || ($zero && ($op eq 'GE' || $op eq 'LT') && $status)
	    || ($zero && ($op eq 'GT' || $op eq 'LE') && !defined $name && is_handle_name($a0)
		&& $a0 !~ /\[/ && $a0 !~ /(?:^|[_.>])(?:id|res|ret|rc|[a-z])$/)) {
		my $fail = ($op eq 'EQ' || $op eq 'LT' || $op eq 'LE') ? 1 : 0;
		return outcome($ctx, $name, $src, $a0, $fail);
	}
	if ($op eq 'EQ') {
		return K('layout', 'size or offset') if "$a0 $b0" =~ $LAYOUT;
		return K('value', scalar(split_top($a0, '&')) > 1 ? 'flag bits' : 'value');
	}
	if ($op eq 'NE') {
		return K('value', 'flag bit set') if $zero && scalar(split_top($a0, '&')) > 1;
		return K('bound', 'differs');
	}
	return K('bound', 'inequality');
}
# var only counts up (from 0), each time in a loop whose body holds checks
sub is_tally {
	my ($ctx, $v) = @_;
	my $code = $ctx->{code};
	my ($lo, $pos) = ($ctx->{lo}, $ctx->{pos});
	my $seg = substr($code, $lo, $pos - $lo);
	my $q = quotemeta $v;
	my @inc;
	while ($seg =~ /(?<![\w.>])$q\s*(?:\+\+|\+=\s*1\b)|\+\+\s*$q\b/g) { push @inc, $lo + $-[0] }
	return 0 unless @inc;
	while ($seg =~ /(?<![\w.>])$q\s*(?:=(?!=)\s*([^;,]*)|-=|--|\*=|\+=(?!\s*1\b))/g) {
		return 0 unless defined $1 && trim($1) =~ /^0[uUlL]*$/;
	}
	for my $i (@inc) {
		my $body = loop_body($code, $i, $lo) or return 0;
		my $t = substr($code, $body->[0], $body->[1] - $body->[0]);
		return 0 unless $t =~ $CHECK_RE;
	}
	return 1;
}
# [open, close] of the innermost loop body around $i, or undef
sub loop_body {
	my ($code, $i, $lo) = @_;
	my $k = $i;
	while (1) {
		my $d = 0;
		for ($k--; $k > $lo; $k--) {
			my $c = substr($code, $k, 1);
			if ($c eq '}') { $d++ }
			elsif ($c eq '{') { last if $d == 0; $d-- }
		}
		return undef if $k <= $lo;
		my $q = $k - 1;
		$q-- while $q > $lo && substr($code, $q, 1) =~ /\s/;
		my $hdr = '';
		if (substr($code, $q, 1) eq ')') {
			my $o = match_back($code, $q);
			$hdr = substr($code, $lo, $o - $lo);
		} else { $hdr = substr($code, $lo, $q + 1 - $lo) }
		if ($hdr =~ /\b(?:for|while)\s*$/ || $hdr =~ /\bdo$/) {
			return [$k, match_fwd($code, $k)];
		}
	}
}
sub unquote { my $s = squash(shift); $s =~ s/^"(.*)"$/$1/s; $s =~ s/\\n$//; return $s }
# the last call before the check to a *write*/*set* function whose leading
# arguments are those of the getter: {name, val, refused}
sub last_write {
	my ($ctx, $ga) = @_;
	return undef unless @$ga && $ga->[0] ne '';
	my $before = substr($ctx->{code}, $ctx->{lo}, $ctx->{pos} - $ctx->{lo});
	my $last;
	while ($before =~ /\b(\w*(?:write|set)\w*)\s*\(/g) {
		my ($wn, $at, $o) = ($1, $-[0], pos($before) - 1);
		my $c = match_fwd($before, $o);
		next if $c < 0;
		my @wa = map { trim($_) } split_top(substr($before, $o + 1, $c - $o - 1), ',');
		next unless @wa > @$ga;
		my $same = 1;
		for my $i (0 .. $#$ga) { $same = 0 unless squash(strip_casts($wa[$i])) eq squash(strip_casts($ga->[$i])) }
		next unless $same;
		my $pre = substr($before, 0, $at);
		$last = { name => $wn, val => $wa[@$ga],
			  refused => ($pre =~ /\b(?:EXPECT|ASSERT)_ERRNO\s*\(\s*$/ ? 1 : 0) };
	}
	return $last;
}
# is the length asked for ($req) the length expected ($want)?
sub same_len {
	my ($ctx, $req, $want, $buf) = @_;
	my ($r, $w) = (strip_casts($req), strip_casts($want));
	return 1 if squash($r) eq squash($w);
	my $rv = len_value($ctx, $r, $buf);
	my $wv = len_value($ctx, $w, $buf);
	return defined $rv && defined $wv && $rv == $wv;
}
sub len_value {
	my ($ctx, $e, $buf) = @_;
	$e = strip_casts($e);
	return $1 + 0 if $e =~ /^(\d+)[uUlL]*$/;
	if ($e =~ /^sizeof\s*\(?\s*&?\s*([A-Za-z_]\w*)\s*\)?$/) {
		my $v = $1;
		my $c = $ctx->{code};
		my %sz = (uint64_t => 8, __u64 => 8, int64_t => 8, 'unsigned long long' => 8,
			  'long long' => 8, long => 8, 'unsigned long' => 8, uint32_t => 4,
			  int => 4, 'unsigned int' => 4, unsigned => 4, char => 1,
			  'unsigned char' => 1, uint8_t => 1);
		for my $t (sort { length $b <=> length $a } keys %sz) {
			my $qt = quotemeta $t;
			return $sz{$t} * $1 if $c =~ /\b$qt\s+(?:[\w\s,*\[\]]*,\s*)?\Q$v\E\s*\[\s*(\d+)\s*\]/;
			return $sz{$t} if $c =~ /\b$qt\s+(?:[\w\s,*]*,\s*)?\Q$v\E\s*[;,=]/;
		}
	}
	return undef;
}

# a condition that must be true ($pos) or false
sub bool_kind {
	my ($ctx, $e, $pos) = @_;
	$e = strip_parens($e);
	return K('unknown', 'an empty condition') if $e eq '';
	my @t = split_top($e, '?');
	if (@t == 2) {
		# c ? a : b: each arm is the check in its own situation; the
		# weaker of them counts
		my @arm = split_top($t[1], ':');
		return K('unknown', "a conditional expression: $e") unless @arm == 2;
		my @k = grep { $_->[0] ne 'unknown' } map { bool_kind($ctx, $_, $pos) } @arm;
		return K('unknown', "a conditional expression: $e") unless @k == 2;
		return rank($k[0]) <= rank($k[1]) ? $k[0] : $k[1];
	}
	return K('unknown', "a conditional expression: $e") if @t > 1;
	my @or = split_top($e, '||');
	if (@or > 1) {
		my @k = map { bool_kind($ctx, $_, $pos) } @or;
		return $pos ? either(@k) : strongest(@k);
	}
	my @and = split_top($e, '&&');
	if (@and > 1) {
		# report-once guards (!bad++, !r->bad) are not the check
		my @keep = grep { !/\+\+|--|\bbad\w*\b|\breported\b/ } @and;
		@keep = @and unless @keep;
		# in a failure condition a bare flag is the guard of the check
		if (!$pos) {
			my @c = grep { strip_parens($_) !~ /^!?\s*[A-Za-z_][\w.\->]*$/ } @keep;
			@keep = @c if @c;
		}
		return bool_kind($ctx, $keep[0], $pos) if @keep == 1;
		# must all hold: each is a check; fails when all hold: the
		# others are the guard of the one that is the check
		my @k = map { bool_kind($ctx, $_, $pos) } @keep;
		return strongest(@k);
	}
	if ($e =~ /^!(?!=)\s*(.*)$/s) { return bool_kind($ctx, $1, !$pos) }
	my @c = split_cmp($e);
	if (@c) {
		my ($l, $op, $r) = @c;
		my %p = ('==' => 'EQ', '!=' => 'NE', '<' => 'LT', '<=' => 'LE', '>' => 'GT', '>=' => 'GE');
		my %n = ('==' => 'NE', '!=' => 'EQ', '<' => 'GE', '<=' => 'GT', '>' => 'LE', '>=' => 'LT');
		return cmp_kind($ctx, $pos ? $p{$op} : $n{$op}, $l, $r);
	}
	return K('value', 'flag bit') if scalar(split_top($e, '&')) > 1;
	return leaf_kind($ctx, strip_casts($e), $pos);
}
sub ret_type {
	my ($ctx, $name) = @_;
	return $ctx->{funcs}{$name}{ret} if $ctx->{funcs}{$name};
	return $main::PROTO{$name} if $main::PROTO{$name};
	return 'int';
}
sub leaf_kind {
	my ($ctx, $e, $pos) = @_;
	# "why = check(buf); if (why) pa_fail(why)": a validator's verdict
	return K('bound', "$e: a validation finds nothing wrong")
		if !$pos && $e =~ /^(?:why|msg|reason|problem)$/;
	my ($name, $src) = source($ctx, $e);
	if (defined $name) {
		return K('plumb', "$name() (a precondition)") if $name =~ $PLUMB_PRED || $name =~ $PLUMB_CALL;
		return $pos ? K('bound', "$name() differs") : K('value', "$name() == 0 (equal)")
			if $name =~ /^(?:str|mem)n?(?:case)?cmp$/;
		# reading or writing a file is set-up; a validator's verdict is a
		# predicate, not a value
		return K('plumb', "$name() (reading or writing a file)")
			if $name =~ /^(?:read|write)_|_(?:read|write)$/;
		return $pos ? K('bound', "$name() holds") : K('bound', "$name() finds nothing wrong (a validation)")
			if $name =~ /err|bad|invalid|valid|check|wrong/i;
		my $ret = ret_type($ctx, $name);
		if ($ret =~ /\bbool\b|\*/) {
			return $pos ? K('bound', "$name() holds") : K('value', "$name() does not hold");
		}
		# an int: 0 is success
		return K('bound', "$name() returns nonzero") if $pos;
		return outcome($ctx, $name, $src, $e, 0);
	}
	if ($e =~ /^[A-Za-z_][\w.\->\[\]]*$/) {
		if ($e =~ /err|fail/i) {
			return K('bound', "$e is set") if $pos;
			return $e =~ /open/i ? K('open', "the open did not fail ($e)") : K('plumb', "no step failed ($e)");
		}
		return $pos ? K('bound', "$e holds") : K('value', "$e is 0 / never happened");
	}
	return K('unknown', "a condition it cannot read: $e");
}

# where a pa_fail at $p is reached: (condition, polarity that fails) or a tag
sub fail_cond {
	my ($code, $p, $lo) = @_;
	my $i = $p - 1;
	for (my $guard = 0; $guard < 50; $guard++) {
		$i-- while $i > $lo && substr($code, $i, 1) =~ /\s/;
		return ('none') if $i <= $lo;
		my $c = substr($code, $i, 1);
		if ($c eq ')') {
			my $o = match_back($code, $i);
			my $pre = substr($code, $lo, $o - $lo);
			if ($pre =~ /\bif\s*$/) {
				my $ifpos = $-[0];
				my $cond = substr($code, $o + 1, $i - $o - 1);
				# if (!bad++): a report-once guard; what governs the if is
				# the condition
				if ($cond =~ /^\s*!?\s*[\w.\->\[\]]+\s*(?:\+\+|--)\s*$/) {
					$i = $lo + $ifpos - 1;
					next;
				}
				return ('if', $cond);
			}
			if ($pre =~ /\b(?:for|while)\s*$/) {
				$i = $lo + $-[0] - 1;	# the loop statement: what governs it
				next;
			}
			return ('none');
		}
		if ($c eq '{') {
			my $k = $i - 1;
			$k-- while $k > $lo && substr($code, $k, 1) =~ /\s/;
			return ('none') if $k <= $lo;	# the function body
			$i = $k;
			my $ck = substr($code, $k, 1);
			if ($ck eq ')') { next }
			if (substr($code, $lo, $k + 1 - $lo) =~ /\belse$/) { return else_cond($code, $k - 3, $lo) }
			if (substr($code, $lo, $k + 1 - $lo) =~ /\bdo$/) { $i = $k - 2; next }
			return ('none');
		}
		if ($c eq ';' || $c eq '}') {
			# not the first statement of its block: go to the block's {
			my $d = 0;
			my $k = $i;
			for (; $k > $lo; $k--) {
				my $ch = substr($code, $k, 1);
				if ($ch eq '}' || $ch eq ')' || $ch eq ']') { $d++ }
				elsif ($ch eq '(' || $ch eq '[') { $d-- }
				elsif ($ch eq '{') { last if $d == 0; $d-- }
			}
			return ('none') if $k <= $lo;
			$i = $k;
			# reread as "{ pa_fail": the block's condition
			my $q = $k - 1;
			$q-- while $q > $lo && substr($code, $q, 1) =~ /\s/;
			return ('none') if $q <= $lo;
			if (substr($code, $q, 1) eq ')') { $i = $q; next }
			return else_cond($code, $q - 3, $lo) if substr($code, $lo, $q + 1 - $lo) =~ /\belse$/;
			return ('switch') if substr($code, $lo, $q + 1 - $lo) =~ /\bswitch\s*\([^{}]*\)$/;
			return ('none');
		}
		if ($c eq ':') { return ('switch') }
		if (substr($code, $lo, $i + 1 - $lo) =~ /\belse$/) { return else_cond($code, $i - 3, $lo) }
		return ('none');
	}
	return ('none');
}
# the condition of the if that an else at $e ends (its statement or block)
sub else_cond {
	my ($code, $e, $lo) = @_;
	my $i = $e - 1;
	$i-- while $i > $lo && substr($code, $i, 1) =~ /\s/;
	my $c = substr($code, $i, 1);
	my $stmt_start;
	if ($c eq '}') { $stmt_start = match_back($code, $i) }
	else {
		# a single statement: back to the previous ; { or } at depth 0
		my $d = 0;
		my $k = $i - 1;
		for (; $k > $lo; $k--) {
			my $ch = substr($code, $k, 1);
			if ($ch eq ')' || $ch eq ']') { $d++ }
			elsif ($ch eq '(' || $ch eq '[') { $d-- }
			elsif ($d == 0 && ($ch eq ';' || $ch eq '{' || $ch eq '}')) { last }
		}
		my $seg = substr($code, $k + 1, $i - $k);
		return ('none') unless $seg =~ /^\s*(?:else\s+)?if\s*\(/;
		my $o = index($code, '(', $k + 1 + $-[0]);
		my $cl = match_fwd($code, $o);
		return ('else', substr($code, $o + 1, $cl - $o - 1));
	}
	my $k = $stmt_start - 1;
	$k-- while $k > $lo && substr($code, $k, 1) =~ /\s/;
	return ('none') unless substr($code, $k, 1) eq ')';
	my $o = match_back($code, $k);
	return ('none') unless substr($code, $lo, $o - $lo) =~ /\bif\s*$/;
	return ('else', substr($code, $o + 1, $k - $o - 1));
}

# every check in function $name of file $f: [kind, why, file, line, text, other]
sub checks_in {
	my ($f, $name, $in_lib, $text_key) = @_;
	$text_key ||= 'code';
	my $fn = $f->{funcs}{$name};
	my $code = $f->{$text_key};
	my ($lo, $hi) = ($fn->{start}, $fn->{end});
	my @out;
	my $body = substr($code, $lo, $hi - $lo);
	while ($body =~ /$CHECK_RE/g) {
		my $m = $1;
		my $p = $lo + $-[0];
		my $ap = $lo + pos($body) - 1;
		my $ae = match_fwd($code, $ap);
		next if $ae < 0;
		my $args = substr($code, $ap + 1, $ae - $ap - 1);
		my @a = map { trim($_) } split_top($args, ',');
		my $ctx = { code => $code, lo => $lo, pos => $p, funcs => $f->{funcs} };
		my $k;
		if ($m =~ /^(?:EXPECT|ASSERT)_(EQ|NE|LT|LE|GT|GE)$/) { $k = cmp_kind($ctx, $1, $a[0], $a[1]) }
		elsif ($m =~ /_TRUE$/) { $k = bool_kind($ctx, $a[0], 1) }
		elsif ($m =~ /_FALSE$/) { $k = bool_kind($ctx, $a[0], 0) }
		elsif ($m =~ /_ERRNO$/ || $m =~ /_OPEN_FAIL$/) { $k = K('errno', 'errno') }
		elsif ($m eq 'EXPECT_OK') { $k = K('open', 'succeeds') }
		elsif ($m eq 'ASSERT_OK') { $k = K('plumb', 'ASSERT_OK (set-up)') }
		elsif ($m =~ /_OPEN$/) { $k = K('open', 'opens') }
		elsif ($m eq 'EXPECT_OPEN_RESULT' || $m eq 'pa_open_expect') {
			my $w = strip_casts($a[5] // '');
			$k = $w =~ /^0[uUlL]*$/ ? K('open', 'opens')
				: is_errno_name($w) ? K('errno', 'errno')
				: K('errno', 'errno or success, as the context decides', 1);
		} elsif ($m eq 'EXPECT_E2BIG_SIZE') { $k = K('layout', 'E2BIG and the size written back') }
		elsif ($m =~ /^PA_TP_EXPECT_/) { $k = K('value', 'tracepoint raw field') }
		elsif ($m eq 'pa_check_cmp') {
			my ($x, $op, $y) = @a;
			s/^PA_VAL\s*\((.*)\)$/$1/s for ($x, $y);
			$op =~ s/^PA_//;
			$k = cmp_kind($ctx, $op, $x, $y);
		} elsif ($m eq 'pa_check_true') { $k = bool_kind($ctx, $a[0], 1) }
		elsif ($m eq 'pa_fail') {
			my ($tag, $cond) = fail_cond($code, $p, $lo);
			if ($tag eq 'if') { $k = bool_kind($ctx, $cond, 0) }
			elsif ($tag eq 'else') { $k = bool_kind($ctx, $cond, 1) }
			elsif ($tag eq 'switch') { $k = K('bound', 'switch default: a value outside the expected set') }
			elsif ($in_lib) { $k = K('plumb', 'pa_fail without a condition (a helper)') }
			else { $k = K('bound', 'pa_fail reached when the expected thing did not happen') }
			# a helper reporting a failed set-up step
			$k = K('plumb', $k->[1] . ' (a helper)') if $in_lib && $k->[0] eq 'unknown';
		}
		my $text = squash(substr($f->{disp}, $p, $ae + 1 - $p));
		if ($m eq 'pa_fail') {
			my $t = squash(substr($f->{disp}, $p, $ae + 1 - $p));
			$text = $t;
		}
		$text = substr($text, 0, 140) . '...' if length $text > 143;
		push @out, { kind => $k->[0], why => $k->[1], ctx => $k->[2], file => $f->{path},
			     line => line_of($f, $p), text => $text };
	}
	return @out;
}

# identifiers that name functions, called or passed
sub callees {
	my ($f, $name) = @_;
	my $fn = $f->{funcs}{$name};
	my $body = substr($f->{code}, $fn->{start}, $fn->{end} - $fn->{start});
	my %s;
	$s{$1} = 1 while $body =~ /\b([A-Za-z_]\w*)\b/g;
	delete $s{$name};
	return sort keys %s;
}

# ---- harness/lib: which helper holds which checks -----------------------

our %PROTO;	# function -> return type (perfabi.h, lib)
{
	my $h = load('harness/perfabi.h');
	my $c = $h->{code};
	while ($c =~ /^[ \t]*((?:static\s+|inline\s+|extern\s+|const\s+|struct\s+\w+\s+|enum\s+\w+\s+|unsigned\s+|long\s+|\w+\s+)*?[\w ]*?[\s*]+)(pa_\w+)\s*\(/mg) {
		$PROTO{$2} = squash($1);
	}
}
my (%LIB, %LIBSTATIC);	# name -> {f, name}
my @LIBFILES = grep { !m{/(?:case_main|check)\.c$} } sort glob('harness/lib/*.c');
my %LIBF;
for my $p (@LIBFILES) {
	my $f = load($p);
	$LIBF{$p} = $f;
	for my $n (keys %{ $f->{funcs} }) {
		next if $CHECK_IMPL{$n};
		my $e = { f => $f, name => $n };
		if ($f->{funcs}{$n}{static}) { $LIBSTATIC{"$p\0$n"} = $e }
		else { $LIB{$n} = $e; $PROTO{$n} ||= $f->{funcs}{$n}{ret} }
	}
}
my %HCHK;	# "file\0name" -> [checks, transitive]
sub lib_key { my ($e) = @_; return "$e->{f}{path}\0$e->{name}" }
sub lib_resolve {
	my ($path, $n) = @_;
	return $LIBSTATIC{"$path\0$n"} || $LIB{$n};
}
sub lib_checks {
	my ($e, $seen) = @_;
	my $key = lib_key($e);
	return @{ $HCHK{$key} } if $HCHK{$key};
	return () if $seen->{$key}++;
	my @c = checks_in($e->{f}, $e->{name}, 1);
	for my $c (@c) {
		# a set-up step of a helper that must succeed (an ioctl, an mmap)
		$c->{kind} = 'plumb', $c->{why} .= ' (a set-up step in a helper)'
			if $c->{kind} eq 'open' && $c->{why} ne 'opens';
		for my $o (@HELPER_CHECK) {
			$c->{kind} = $o->[1], $c->{why} = $o->[2] if $c->{text} =~ $o->[0];
		}
		$c->{kind} = 'plumb', $c->{why} = "$e->{name}() is set-up" if $PLUMB_HELPER{ $e->{name} };
	}
	$_->{via} = $e->{name} for @c;
	for my $n (callees($e->{f}, $e->{name})) {
		my $x = lib_resolve($e->{f}{path}, $n) or next;
		next if $x == $e;
		for my $c (lib_checks($x, $seen)) {
			my %d = %$c;
			$d{kind} = 'plumb', $d{why} = "$e->{name}() is set-up" if $PLUMB_HELPER{ $e->{name} };
			$d{via} = "$e->{name} > $c->{via}";
			push @c, \%d;
		}
	}
	$HCHK{$key} = \@c;
	return @c;
}

if ($HELPERS) {
	for my $n (sort keys %LIB) {
		my @c = lib_checks($LIB{$n}, {});
		next unless @c;
		my %k;
		$k{ $_->{kind} }++ for @c;
		my $best = strongest(map { K($_->{kind}, '') } @c)->[0];
		printf "%-32s %-7s %s\n", $n, $best, join(' ', map { "$_=$k{$_}" } sort keys %k);
		for my $c (@c) {
			next if $c->{kind} eq 'plumb';
			printf "    %-7s %s:%d %s [%s]%s\n", $c->{kind}, $c->{file}, $c->{line}, $c->{text},
				$c->{why}, $c->{via} ne $n ? " via $c->{via}" : '';
		}
	}
	exit 0;
}

# ---- the cases ---------------------------------------------------------

sub meta_str {
	my ($meta, $key) = @_;
	return '' unless $meta =~ /\.\Q$key\E\s*=\s*((?:"(?:\\.|[^"\\])*"\s*)+)/s;
	my $s = $1;
	my $out = '';
	$out .= $1 while $s =~ /"((?:\\.|[^"\\])*)"/g;
	return $out;
}

sub classify_case {
	my $path = shift;
	my $f = load($path);
	my $fn = $f->{funcs};
	return { class => 'unclassified', reason => 'no PERFABI_CASE body found' } unless $fn->{PERFABI_CASE};
	my $meta = $fn->{PERFABI_CASE}{meta};
	my $assertion = meta_str($meta, 'assertion');
	# the case body and the static functions it reaches
	my %reach = (PERFABI_CASE => 1);
	my @todo = ('PERFABI_CASE');
	my %libs;
	while (@todo) {
		my $n = shift @todo;
		for my $c (callees($f, $n)) {
			if ($fn->{$c} && !$reach{$c}) { $reach{$c} = 1; push @todo, $c }
			elsif (!$fn->{$c} && $LIB{$c}) { $libs{$c} = 1 }
		}
	}
	my (@own, @helper);
	for my $n (sort { $fn->{$a}{start} <=> $fn->{$b}{start} } keys %reach) {
		push @own, checks_in($f, $n, 0);
	}
	for my $n (sort keys %libs) {
		push @helper, lib_checks($LIB{$n}, {});
	}
	# checks in the #if branches of other arches
	my @other;
	if ($f->{other} =~ /\S/) {
		my %of = (start => 0, end => length $f->{other});
		local $f->{funcs} = { %$fn, '#other' => \%of };
		@other = checks_in($f, '#other', 0, 'other');
	}
	my @all = (@own, @helper);
	my @dec = grep { $_->{kind} ne 'plumb' && $_->{kind} ne 'unknown' } @all;
	# an outcome the context decides (errno where refused, success where
	# allowed, or by version) gives way to what the case checks once
	# allowed, when that is more than an open
	my @allowed = grep { !$_->{ctx} } @dec;
	if (grep { $RANK{ $_->{kind} } >= 2 } @allowed) {
		my %gone = map { ($_ + 0) => 1 } grep { $_->{ctx} } @dec;
		@dec = @allowed;
		@own = grep { !$gone{ $_ + 0 } } @own;
		@helper = grep { !$gone{ $_ + 0 } } @helper;
	}
	my @unk = grep { $_->{kind} eq 'unknown' } @all;
	my $best = -1;
	for (@dec) { $best = $RANK{ $_->{kind} } if $RANK{ $_->{kind} } > $best }
	if ($ENV{ORACLE_DEBUG}) {
		print STDERR "== $path\n";
		printf STDERR "   %-7s%s %s:%d %s [%s]%s\n", $_->{kind}, ($_->{ctx} ? '*' : ' '), $_->{file}, $_->{line}, $_->{text}, $_->{why}, $_->{via} ? " via $_->{via}" : '' for @all;
	}
	my $r = { path => $path, other => \@other, other_cond => $f->{other_cond},
		  nchecks => scalar(@all), nplumb => scalar(grep { $_->{kind} eq 'plumb' } @all) };
	if ($best == 3) {
		my @ex = grep { $RANK{ $_->{kind} } == 3 } @own;
		$r->{helper_only} = 1 unless @ex;
		@ex = grep { $RANK{ $_->{kind} } == 3 } @helper unless @ex;
		$r->{ctx_only} = 1 unless grep { !$_->{ctx} } @ex;
		my %has;
		$has{ $_->{kind} } ||= $_ for @ex;
		my $name = $path;
		$name =~ s{.*/}{};
		my $hint_errno = ($assertion =~ /\b(E[A-Z0-9]{2,})\b/ && $ERRNO{$1}) || $name =~ /_e(?:perm|acces|inval|nospc|busy|2big|opnotsupp|badf|noent|srch|intr|mfile|nosys|exist|nomem|fault|range|overflow|again|io|nodev|nxio)\b/;
		my $hint_layout = "$assertion $name" =~ /\b(?:size|sizes|layout|offsets?|trailer|padding|bytes|aligned|alignment|e2big)\b|_size\b/i;
		my $sub = ($hint_errno && $has{errno}) ? 'errno'
			: ($hint_layout && $has{layout}) ? 'layout'
			: $has{value} ? 'value' : $has{layout} ? 'layout' : 'errno';
		$r->{class} = 'exact';
		$r->{sub} = $sub;
		$r->{decide} = $has{$sub};
	} elsif ($best >= 1 && !@unk) {
		$r->{class} = $best == 2 ? 'bound' : 'open';
		my @c = grep { $RANK{ $_->{kind} } == $best } @own;
		@c = grep { $RANK{ $_->{kind} } == $best } @helper unless @c;
		$r->{decide} = $c[0];
	} else {
		$r->{class} = 'unclassified';
		if (@unk) {
			my $u = $unk[0];
			$r->{reason} = sprintf('%s; cannot classify %s:%d %s (%s)',
				$best >= 1 ? "strongest readable check is " . ($best == 2 ? 'bound' : 'open') : 'no readable deciding check',
				$u->{file}, $u->{line}, $u->{text}, $u->{why});
			$r->{decide} = $u;
		} elsif (@all) {
			$r->{reason} = sprintf('no deciding check: its %d checks are plumbing (first %s:%d %s)',
				scalar(@all), $all[0]{file}, $all[0]{line}, $all[0]{text});
		} else {
			$r->{reason} = 'no check at all';
		}
	}
	return $r;
}

my @COLS = qw(cases exact value errno layout bound open uncl);
my ($n_helper, $n_ctx, $n_either) = (0, 0, 0);
my %tot = map { $_ => 0 } @COLS;
my (@rows, @uncl, @listing);
for my $area (@AREAS) {
	my %c = map { $_ => 0 } @COLS;
	for my $p (sort glob("cases/$area/*.c")) {
		my $r = classify_case($p);
		$c{cases}++;
		if ($r->{class} eq 'exact') {
			$c{exact}++;
			$c{ $r->{sub} }++;
			$n_helper++ if $r->{helper_only};
			$n_ctx++ if $r->{ctx_only};
			$n_either++ if $r->{ctx_only} || $r->{helper_only};
		}
		elsif ($r->{class} eq 'bound') { $c{bound}++ }
		elsif ($r->{class} eq 'open') { $c{open}++ }
		else { $c{uncl}++; push @uncl, $r }
		push @listing, $r;
	}
	next unless $c{cases};
	push @rows, [$area, \%c];
	$tot{$_} += $c{$_} for @COLS;
}
sub pct { my ($a, $b) = @_; return $b ? sprintf('%d%%', int(100 * $a / $b)) : '-' }

if ($LIST) {
	for my $r (@listing) {
		(my $n = $r->{path}) =~ s{^cases/}{};
		my $cl = $r->{class} eq 'exact' ? "exact-$r->{sub}" : $r->{class};
		$cl .= '(helper)' if $r->{helper_only};
		$cl .= '(context)' if $r->{ctx_only};
		my $d = $r->{decide};
		my $where = $d ? sprintf('%s:%d %s [%s%s]', $d->{file}, $d->{line}, $d->{text}, $d->{why},
			$d->{via} ? "; via $d->{via}" : '') : '';
		print "$cl\t$n\t", ($r->{class} eq 'unclassified' ? $r->{reason} : $where), "\n";
		if (@{ $r->{other} }) {
			my $o = strongest(map { K($_->{kind}, '') } @{ $r->{other} })->[0];
			printf "\tnote: %d check(s) in #if branches for other arches (%s; strongest %s)\n",
				scalar @{ $r->{other} }, $r->{other_cond}, $o;
		}
	}
	print "\n";
}
printf "%-11s %5s %5s %5s %5s %6s %5s %4s %5s %6s\n", qw(area cases exact value errno layout bound open uncl exact%);
for my $row (@rows, ['total', \%tot]) {
	my ($a, $c) = @$row;
	printf "%-11s %5d %5d %5d %5d %6d %5d %4d %5d %6s\n", $a, @{$c}{@COLS}, pct($c->{exact}, $c->{cases});
}
if ($tot{exact}) {
	printf "\nof the %d exact: %d only through a check inside a harness/lib helper (--list: (helper)),\n", $tot{exact}, $n_helper;
	printf "  %d only on an open whose outcome the context or version decides (--list: (context));\n", $n_ctx;
	printf "  without those: %d of %d exact (%s)\n", $tot{exact} - $n_either, $tot{cases},
		pct($tot{exact} - $n_either, $tot{cases});
}
if (@uncl) {
	print "\nunclassified:\n";
	for my $r (@uncl) {
		(my $n = $r->{path}) =~ s{^cases/}{};
		print "  $n: $r->{reason}\n";
	}
}
__END__
