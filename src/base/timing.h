/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TIMING_H
#define AB_TIMING_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC is shared by all processes, so workers' start and end
 * stamps can be compared directly in the parent. */
static inline uint64_t ab_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define AB_NS_PER_SEC 1000000000.0

#endif
