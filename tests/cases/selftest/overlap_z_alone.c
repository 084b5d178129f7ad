/* Harness self-test (-j): see overlap.h */
#define WHO "alone"
#define ALONE true
#include "overlap.h"
