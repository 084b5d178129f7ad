/* Harness self-test (-j): see overlap.h */
#define WHO "b"
#define ALONE false
#include "overlap.h"
