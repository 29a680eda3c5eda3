/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STONEWALL_H
#define AB_STONEWALL_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

/*
 * Figures of a concurrent-streams phase, after iozone's throughput mode
 * (notes/peers.md 1.5).  The stonewall falls when the first worker ends;
 * each worker notes the bytes it had done by then, and its rate counts only
 * those bytes over its own time up to that moment, so workers that were
 * starved after the others finished do not drag the sum down, and the
 * end-to-end rate shows what the run as a whole delivered.
 */

/* One worker's stamps (CLOCK_MONOTONIC, ns) and byte counts.  Plain data
 * with no pointers: it lives in the worker's shared-memory slot. */
struct ab_stonewall_sample {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t bytes;              /* in total, up to end_ns */
	uint64_t bytes_at_stonewall; /* by the moment the first worker ended */
};

/* Rates in bytes/s; NAN where nothing could be measured, never 0. */
struct ab_stonewall {
	/* Sum over workers of bytes_at_stonewall / (first end - own start):
	 * iozone's "children see". */
	double stonewall_rate;
	/* Sum of bytes / (last end - first start): iozone's "parent sees". */
	double end_to_end_rate;
	/* The least and greatest of those per-worker stonewall rates. */
	double min_rate;
	double max_rate;
	/* The least bytes_at_stonewall of any worker, timed or not (iozone's
	 * "min xfer", which shows how fair the run was); AB_UNSET for none. */
	uint64_t min_bytes_at_stonewall;
	uint64_t stonewall_ns;       /* the first end; AB_UNSET for none */
	uint64_t total_bytes;
	/* Workers that had no time before the stonewall (started at or after
	 * the first end): left out of the rates, which would be 0/0. */
	size_t untimed;
};

/* Compute the figures of n workers (n may be 0). */
void ab_stonewall_compute(const struct ab_stonewall_sample *w, size_t n,
			  struct ab_stonewall *out);

/*
 * IOR's stonewalling (--stonewall-time S): every worker stops its timed
 * I/O S seconds after its own start and notes what it had done by then.
 * Its figures: the least and most any worker had done at the deadline
 * and the rate at the deadline, the sum of those bytes over S (IOR's
 * "stonewall bandwidth"), beside the end-to-end rate of the whole test.
 */
struct ab_deadline {
	uint64_t min_bytes;          /* AB_UNSET for no worker */
	uint64_t max_bytes;
	uint64_t sum_bytes;
	double rate;                 /* bytes/s; NAN for no worker or S <= 0 */
};

void ab_deadline_compute(const uint64_t *bytes_at_deadline, size_t n, double seconds,
			 struct ab_deadline *out);

/* With wear-out (--wearout, IOR's stoneWallingWearOut) every worker of
 * every rank goes on after the deadline until it has done the largest
 * count any had done by it: the target, of the counts of n workers (or
 * of n ranks' own largest); 0 for none. */
uint64_t ab_wearout_target(const uint64_t *counts, size_t n);

#endif
