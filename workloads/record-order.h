/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RECORD_ORDER_H
#define AB_RECORD_ORDER_H

#include <stdint.h>

/*
 * Record orders for the random and stride tests of a record-size sweep.
 * Pure functions: the phases ask them which record comes next, so the order
 * can be tested without any I/O.
 */

/*
 * Fill order[0..n-1] with a permutation of 0..n-1 (Fisher-Yates driven by
 * src/base/rng.h), so a random pass visits every record exactly once, as iozone's
 * random read/write does, but without iozone's fixed seed: the same seed
 * gives the same order on every machine, a different seed another order.
 * The caller allocates the n entries; n = 0 writes nothing.
 */
void ab_record_shuffle(uint64_t *order, uint64_t n, uint64_t seed);

/*
 * The record read i-th (0 <= i < n) by a stride pass over n records with a
 * stride of `stride` records (iozone's default is 17).
 *
 * Wrap rule: with s = stride mod n and g = gcd(s, n) (g = n when s = 0), the
 * reads go round in g cycles of n/g reads each.  Cycle c starts at record c
 * and steps by s modulo n:
 *
 *     record(i) = (i / (n/g) + (i mod (n/g)) * s) mod n
 *
 * So when gcd(stride, n) = 1 this is plain (i * stride) mod n; when a cycle
 * comes back to its own start record, the next cycle begins one record
 * further on.  Cycle c covers exactly the records congruent to c modulo g,
 * so the n reads visit every record exactly once and stay within the file.
 * (iozone instead restarts at record "number of wraps" whenever the next
 * jump would pass the end of the file, which can read some records twice
 * and skip others; we keep its stride but not that.)  A stride that is a
 * multiple of n, 0 included, reads the file in order.
 *
 * i >= n is taken modulo n (a second pass repeats the first); n = 0 gives 0.
 */
uint64_t ab_stride_record(uint64_t i, uint64_t n, uint64_t stride);

#endif
