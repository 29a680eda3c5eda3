/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RNG_H
#define AB_RNG_H

#include <stdint.h>
#include <stddef.h>

/* xoshiro256** seeded through splitmix64: fast enough to fill data buffers
 * and independent per worker, unlike a shared rand() sequence. */
struct ab_rng {
	uint64_t s[4];
};

uint64_t ab_rng_splitmix(uint64_t *state);
void ab_rng_init(struct ab_rng *rng, uint64_t seed, uint64_t stream);
uint64_t ab_rng_next(struct ab_rng *rng);
/* Uniform in [0, bound), bound > 0. */
uint64_t ab_rng_below(struct ab_rng *rng, uint64_t bound);
void ab_rng_fill(struct ab_rng *rng, void *buf, size_t len);

#endif
