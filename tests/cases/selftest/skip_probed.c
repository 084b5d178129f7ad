#include "perfabi.h"

#include <fcntl.h>
#include <sys/stat.h>

/*
 * Harness self-test: a probe that finds its case unable to run. Each time
 * it runs it appends the name its process was run by to the file
 * $PERFABI_SELFTEST_DIR/probes: "skip_probed" where the case ran, another
 * case's name where the runner's check of the whole cell asked
 * (<case> --unmet=..., run as the cell's first case), "perfabi-testcases"
 * where the program was asked by its own name.
 */
static const char *probe(void)
{
	const char *dir = getenv("PERFABI_SELFTEST_DIR");
	char path[512], line[300];
	int fd, n;

	if (dir) {
		snprintf(path, sizeof(path), "%s/probes", dir);
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (fd >= 0)
			fchmod(fd, 0666);	/* each cell's identity appends */
		n = snprintf(line, sizeof(line), "%s\n", program_invocation_short_name);
		if (fd >= 0 && write(fd, line, (size_t)n) != n)
			n = -1;
		if (fd >= 0)
			close(fd);
	}
	return "selftest: the probe says no\tever";
}

PERFABI_CASE(.assertion = "selftest: skips by its probe", .ref = "tests/integration/cell_check.sh",
	     .probe = probe) {
	pa_fail("the body of a skipped case ran");
}
