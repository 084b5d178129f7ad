# perfabi — build everything static, warnings are errors.
#
#   make              build the runner, every case and fixture, and the
#                     parked cases (parked/README.md: built, never run)
#   make check        the project's own tests (cmocka units, then ./run.sh)
#   make coverage     lcov report of the harness exercised by make check
#   make install [INSTALL_PATH=DIR]  what a target needs to run the suite,
#                     no compiler or sources (default DIR: build/install)
#   make clean
#
# Cases are discovered: every cases/<area>/<name>.c becomes the case
# build/cases/<area>/<name>, named "<area>/<name>" in results. No lists.
# The cases are one static program, build/cases/perfabi-cases (each case's
# object with its symbols made local, so that cases never clash), and each
# build/cases/<area>/<name> is a symbolic link to it: the name it is run as
# picks the case (harness/lib/case_main.c). One copy of static glibc, not
# one per case: megabytes, not hundreds.

# ARCH=arm64 cross-builds the whole suite for an arm64 target (Debian's
# gcc-aarch64-linux-gnu and libc6-dev-arm64-cross) into build-arm64/, for
# ./run.sh --vm 6.12-arm64 and an arm64 machine; the host's build/ is
# untouched. Native builds leave ARCH unset.
ARCH     ?=
ifeq ($(ARCH),arm64)
ifneq ($(shell uname -m),aarch64)
CC       := aarch64-linux-gnu-gcc
OBJCOPY  := aarch64-linux-gnu-objcopy
endif
BUILD    ?= build-arm64
else ifneq ($(ARCH),)
$(error ARCH=$(ARCH): only ARCH=arm64 (or no ARCH, the host) is built)
endif
CC       ?= gcc
OBJCOPY  ?= objcopy
BUILD    ?= build
WARN     := -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers -Wno-format-truncation
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARN) -D_GNU_SOURCE -Iharness
LDSTATIC := -static
COV      ?=
ifeq ($(COV),1)
CFLAGS   += --coverage -O0
# libgcov sets up a lock in fork() once the binary has threads (the harness's
# pa_thread pulls in pthread_create); in a static link the lock functions
# (pthread_mutex_init/lock/unlock) must be linked in explicitly, or
# __gcov_fork() calls address 0
LDFLAGS  += --coverage -Wl,-u,pthread_mutex_init -Wl,-u,pthread_mutex_lock -Wl,-u,pthread_mutex_unlock
BUILD    := build-cov
endif

LIB_SRC  := $(wildcard harness/lib/*.c) harness/abi_ours.c
LIB_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC))
LIB      := $(BUILD)/libperfabi.a

CASE_SRC := $(sort $(wildcard cases/*/*.c))
CASES    := $(patsubst cases/%.c,$(BUILD)/cases/%,$(CASE_SRC))
CASE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(CASE_SRC))
MULTI    := $(BUILD)/cases/perfabi-cases
FIX_SRC  := $(sort $(wildcard fixtures/progs/*.c))
FIXTURES := $(patsubst fixtures/progs/%.c,$(BUILD)/fixtures/%,$(FIX_SRC))
# Parked cases (parked/README.md): every parked/<area>/<name>.c becomes
# build/parked/<area>/<name>, built with everything so it keeps compiling,
# and run only by hand (the runner reads build/cases).
PARK_SRC := $(sort $(wildcard parked/*/*.c))
PARKED   := $(patsubst parked/%.c,$(BUILD)/parked/%,$(PARK_SRC))
PARK_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(PARK_SRC))
PARK_MULTI := $(BUILD)/parked/perfabi-parked
RUN_SRC  := $(wildcard harness/runner/*.c)
RUN_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(RUN_SRC))
RUNNER   := $(BUILD)/perfabi-run

HDRS     := $(wildcard harness/*.h harness/*.def harness/lib/*.h harness/runner/*.h harness/report/*.h)

# A case or fixture whose source is gone (deleted or renamed) loses its
# binary, so neither the runner nor a VM image runs a stale case.
STALE := $(filter-out $(CASES) $(FIXTURES),$(wildcard $(BUILD)/cases/*/* $(BUILD)/fixtures/*))
# A build from before the cases were one program left a static binary per
# case where the links go: they go first (make would take them as built).
OLD_BINS := $(filter $(CASES) $(PARKED) $(patsubst tests/cases/%.c,$(BUILD)/testcases/%,$(wildcard tests/cases/*/*.c)),\
	$(shell find $(BUILD)/cases $(BUILD)/parked $(BUILD)/testcases -mindepth 2 -type f 2>/dev/null))
ifneq ($(OLD_BINS),)
$(info removing $(words $(OLD_BINS)) files of a build from before the cases were one program)
$(shell rm -f $(OLD_BINS))
endif
all: $(if $(strip $(STALE)),prune) $(RUNNER) $(CASES) $(FIXTURES) $(PARKED) $(BUILD)/abi-check.stamp $(BUILD)/abi-map.txt $(BUILD)/covers.stamp

prune:
	@echo "removing binaries whose source is gone: $(patsubst $(BUILD)/%,%,$(STALE))"
	@rm -f $(STALE)
	@find $(BUILD)/cases -mindepth 1 -type d -empty -delete

# A case whose .covers names an element that is not in the ABI map fails
# the build: the case sources changed since the last check (all of them
# when the map changed) against cases/abi-map.txt.
$(BUILD)/covers.stamp: $(CASE_SRC) cases/abi-map.txt harness/tools/covers-check.sh
	@mkdir -p $(dir $@)
	@harness/tools/covers-check.sh cases/abi-map.txt $(if $(filter cases/abi-map.txt harness/tools/covers-check.sh,$?),$(CASE_SRC),$(filter cases/%.c,$?))
	@touch $@

# The runner reports coverage of the ABI map next to it (also inside VMs).
$(BUILD)/abi-map.txt: cases/abi-map.txt
	@mkdir -p $(dir $@)
	cp $< $@

$(BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Compile-time agreement of harness/abi_struct.h with <linux/perf_event.h>.
$(BUILD)/abi-check.stamp: harness/abi_check.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $(BUILD)/obj/abi_check.o
	@touch $@

# perfabi.h precompiled, with the very flags of the cases: the case
# objects find it first (-I$(BUILD)/pch). gcc takes it only as a file's
# first include and otherwise reads the perfabi.h beside it, which passes
# on to harness/perfabi.h.
PCH      := $(BUILD)/pch/perfabi.h.gch
$(PCH): harness/perfabi.h $(HDRS)
	@mkdir -p $(dir $@)
	@printf '/* generated by the Makefile: the precompiled perfabi.h.gch beside it stands for it */\n#include_next "perfabi.h"\n' >$(dir $@)perfabi.h
	$(CC) $(CFLAGS) -x c-header $< -o $@

# A case's object: its symbols local (its own helpers and globals never
# meet another case's); it registers itself in the section pa_cases.
CASE_CC   = $(CC) -I$(BUILD)/pch $(CFLAGS) -c $< -o $@ && $(OBJCOPY) -w -L '*' $@
$(CASE_OBJ) $(PARK_OBJ): $(BUILD)/obj/%.o: %.c $(PCH) $(HDRS)
	@mkdir -p $(dir $@)
	$(CASE_CC)
$(PARK_OBJ): $(wildcard parked/*/*.h)

# A program of cases: $(1) the program, $(2) its objects, $(3) the links
# to it, one per case, in $(4) (made once: a link follows every relink).
define CASE_PROGRAM
$(1): $(2) $$(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $(2) $$(LIB) -o $$@ $$(LDSTATIC) $$(LDFLAGS)
$(3): $(4)/%: | $(1)
	@mkdir -p $$(dir $$@)
	@ln -sfn ../$(notdir $(1)) $$@
endef
$(eval $(call CASE_PROGRAM,$(MULTI),$(CASE_OBJ),$(CASES),$(BUILD)/cases))
$(eval $(call CASE_PROGRAM,$(PARK_MULTI),$(PARK_OBJ),$(PARKED),$(BUILD)/parked))

parked: $(PARKED) $(FIXTURES)

$(BUILD)/fixtures/%: fixtures/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDSTATIC) $(LDFLAGS)

# --junit writes with perfabi-report's writer (harness/report/report_lib.c)
$(RUNNER): $(RUN_OBJ) $(BUILD)/obj/harness/report/report_lib.o $(LIB)
	$(CC) $(CFLAGS) $(RUN_OBJ) $(BUILD)/obj/harness/report/report_lib.o $(LIB) -o $@ $(LDSTATIC) $(LDFLAGS)

# The runner, cases, fixtures, ABI map and an installed run.sh, in
# kselftest's install layout (harness/install/install.sh, README.md). A bad
# INSTALL_PATH stops make before it builds or touches anything.
INSTALL_PATH ?= $(BUILD)/install
ifneq ($(filter install,$(MAKECMDGOALS)),)
INSTALL_BAD := $(shell harness/install/install.sh --check '$(INSTALL_PATH)')
ifneq ($(INSTALL_BAD),)
$(error make install: $(INSTALL_BAD))
endif
endif
install: all
	@harness/install/install.sh $(BUILD) '$(INSTALL_PATH)'

-include harness/report/report.mk
-include tests/tests.mk

clean:
	rm -rf build build-cov build-arm64

.PHONY: all clean check coverage prune install parked
.DELETE_ON_ERROR:
