# perfabi-report: compare, matrix (text, HTML), JUnit and KCIDB of results
# (included by the Makefile).
#   build/perfabi-report   (static)

REPORT_SRC := harness/report/report.c harness/report/report_lib.c harness/report/vm.c harness/report/kcov.c
REPORT_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(REPORT_SRC))
REPORT     := $(BUILD)/perfabi-report

all: $(REPORT) $(BUILD)/renames.txt

# compare's rename map (cases/renames.txt: moved cases) goes next to it
$(BUILD)/renames.txt: cases/renames.txt
	@mkdir -p $(dir $@)
	cp $< $@

# (and the case library for its one UTF-8 sanitizer, pa_text_sanitize())
$(REPORT): $(REPORT_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(REPORT_OBJ) $(LIB) -o $@ $(LDSTATIC) $(LDFLAGS)

# The unit test of the report logic links report_lib.o as well.
$(BUILD)/tests/test_report: tests/unit/test_report.c tests/unit/unit.h $(BUILD)/obj/harness/report/report_lib.o $(RUN_LIB_OBJ) $(LIB) $(BUILD)/abi-check.stamp $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/obj/harness/report/report_lib.o $(RUN_LIB_OBJ) $(BUILD)/obj/abi_check.o $(LIB) -o $@ $(LDFLAGS) $(CMOCKA_LIBS)
