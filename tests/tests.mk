# The project's own tests (included by the Makefile).
#   make units     build the cmocka unit tests of the harness and runner
#   make check     everything: units, ABI map, integration tests, ./run.sh
#   make check-bisect  ./run.sh bisect names an injected kernel regression
#   make check-kselftest  the installed tree under the kernel's run_kselftest.sh
#                      gives the source tree's results

CMOCKA_LIBS ?= -lcmocka
UNIT_SRC    := $(sort $(wildcard tests/unit/test_*.c))
UNITS       := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
RUN_LIB_OBJ := $(filter-out %/main.o,$(RUN_OBJ))
# the runner's outputs are written by perfabi-report's writers
UNIT_OBJ    := $(RUN_LIB_OBJ) $(BUILD)/obj/harness/report/report_lib.o

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit.h $(UNIT_OBJ) $(LIB) $(BUILD)/abi-check.stamp $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(UNIT_OBJ) $(BUILD)/obj/abi_check.o $(LIB) -o $@ $(LDFLAGS) $(CMOCKA_LIBS)

# test_ring stands in for the kernel behind pa_touch_pages()
$(BUILD)/tests/test_ring: LDFLAGS += -Wl,--wrap=pa_touch_pages

units: $(UNITS)

check:
	@tests/check.sh

# ./run.sh bisect finds an injected regression in a kernel git history
# (builds kernels: minutes; trees and builds are cached in ~/.cache/perfabi)
check-bisect: all
	@tests/check-bisect.sh

# make install plus the kernel's run_kselftest.sh (from linux-source-6.12):
# every case as a kselftest test, the same results as the source tree
check-kselftest: all
	@tests/check-kselftest.sh

coverage:
	@tests/coverage.sh

.PHONY: units check-bisect check-kselftest

# Harness self-test cases (not part of the suite): tests/cases/<area>/*.c
SELF_SRC := $(sort $(wildcard tests/cases/*/*.c))
SELF     := $(patsubst tests/cases/%.c,$(BUILD)/testcases/%,$(SELF_SRC))
SELF_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(SELF_SRC))
# one program, as the suite's cases are (the Makefile says how)
SELF_MULTI := $(BUILD)/testcases/perfabi-testcases
$(SELF_OBJ): $(BUILD)/obj/%.o: %.c $(wildcard tests/cases/*/*.h) $(PCH) $(HDRS)
	@mkdir -p $(dir $@)
	$(CASE_CC)
$(eval $(call CASE_PROGRAM,$(SELF_MULTI),$(SELF_OBJ),$(SELF),$(BUILD)/testcases))
units: $(SELF)
