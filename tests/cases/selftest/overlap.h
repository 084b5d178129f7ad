/* Harness self-test (-j), included by overlap_*.c with WHO and ALONE set:
 * logs its start and end to $PERFABI_SELFTEST_DIR/log with a sleep
 * between, so a test can see what ran beside what; and, where the test
 * made $PERFABI_SELFTEST_DIR/cells (writable by all), to that file under
 * WHO.<uid>, to tell its cells apart. */
#include "perfabi.h"
#include <fcntl.h>
PERFABI_CASE(.assertion = "selftest: overlap " WHO, .alone = ALONE) {
	const char *dir = getenv("PERFABI_SELFTEST_DIR");
	char path[512], line[128];
	int fd, cfd;

	if (!dir)
		pa_skip("PERFABI_SELFTEST_DIR is not set");
	snprintf(path, sizeof(path), "%s/log", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0666);
	ASSERT_GE(fd, 0);
	snprintf(line, sizeof(line), "start " WHO " %llu\n", (unsigned long long)pa_clock_ns(CLOCK_MONOTONIC));
	EXPECT_GT(write(fd, line, strlen(line)), 0);
	/* and in cells, by cell (the uid): "start a.65534 <ns>" */
	snprintf(path, sizeof(path), "%s/cells", dir);
	cfd = open(path, O_WRONLY | O_APPEND);
	if (cfd >= 0) {
		snprintf(line, sizeof(line), "start " WHO ".%u %llu\n", (unsigned)getuid(),
			 (unsigned long long)pa_clock_ns(CLOCK_MONOTONIC));
		EXPECT_GT(write(cfd, line, strlen(line)), 0);
	}
	pa_sleep_ms(300);
	snprintf(line, sizeof(line), "end " WHO " %llu\n", (unsigned long long)pa_clock_ns(CLOCK_MONOTONIC));
	EXPECT_GT(write(fd, line, strlen(line)), 0);
	close(fd);
	if (cfd >= 0) {
		snprintf(line, sizeof(line), "end " WHO ".%u %llu\n", (unsigned)getuid(),
			 (unsigned long long)pa_clock_ns(CLOCK_MONOTONIC));
		EXPECT_GT(write(cfd, line, strlen(line)), 0);
		close(cfd);
	}
}
