/* Harness self-test (-j): see overlap.h */
#define WHO "a"
#define ALONE false
#include "overlap.h"
