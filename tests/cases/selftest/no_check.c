#include "perfabi.h"
/* Harness self-test: a body that checks nothing must not pass. */
PERFABI_CASE(.assertion = "selftest: evaluates no check") {
	(void)getpid();
}
