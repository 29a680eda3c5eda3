/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rng.h"

#include <string.h>

uint64_t ab_rng_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ab_rng_init(struct ab_rng *rng, uint64_t seed, uint64_t stream)
{
	uint64_t st = seed ^ (stream * 0xd1b54a32d192ed03ull);
	for (int i = 0; i < 4; i++)
		rng->s[i] = ab_rng_splitmix(&st);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ab_rng_next(struct ab_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t ab_rng_below(struct ab_rng *rng, uint64_t bound)
{
	/* Lemire's multiply-shift; the tiny bias is irrelevant for offsets. */
	return (uint64_t)(((unsigned __int128)ab_rng_next(rng) * bound) >> 64);
}

void ab_rng_fill(struct ab_rng *rng, void *buf, size_t len)
{
	unsigned char *p = buf;
	while (len >= 8) {
		uint64_t v = ab_rng_next(rng);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = ab_rng_next(rng);
		memcpy(p, &v, len);
	}
}
