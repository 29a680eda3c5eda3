/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_RACE_SIM_H
#define AB_TEST_RACE_SIM_H

/* Seeded races on made-up figures, for test-race and test-race-sim: each
 * visit's figure is mean * (1 + cv N) * the round's factor (1 + 0.1 N),
 * N standard normal draws from src/base/rng.c's xoshiro256** (Box-Muller),
 * so a round shifts every candidate alike, as a busy machine does. */

#include <math.h>

#include "../../src/base/rng.h"
#include "../../src/model/race.h"

#define SIM_ROUND_CV 0.1

static inline double sim_uniform(struct ab_rng *rng)
{
	/* (0, 1): 53 random bits and a half, never 0 for the log. */
	return ((double)(ab_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
}

static inline double sim_normal(struct ab_rng *rng)
{
	double u = sim_uniform(rng), v = sim_uniform(rng);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* One round of figures for k candidates into row (every one drawn, so two
 * races from one seed see the same figures whoever was dropped). */
static inline void sim_round(struct ab_rng *rng, const double *mean, size_t k, double cv,
			     double *row)
{
	double round = 1 + SIM_ROUND_CV * sim_normal(rng);
	for (size_t j = 0; j < k; j++)
		row[j] = mean[j] * (1 + cv * sim_normal(rng)) * round;
}

struct sim_race {
	struct ab_race *race;
	double *y;             /* [rounds * k] as the race saw it: NAN once dropped */
	size_t first_drop;     /* the round of the first drop; 0 for none */
	size_t dropped;        /* how many were dropped in all */
};

/* A race of k candidates (the defaults first) over `rounds` rounds,
 * deciding after each. */
static inline void sim_race(struct sim_race *s, const struct ab_race_params *params,
			    const double *mean, size_t k, size_t rounds, double cv, uint64_t seed)
{
	*s = (struct sim_race){ .race = ab_race_new(k, 0, NULL, params, NULL),
				.y = g_new(double, rounds * k) };
	struct ab_rng rng;
	ab_rng_init(&rng, seed, 0);
	for (size_t r = 0; r < rounds; r++) {
		double *row = s->y + r * k;
		sim_round(&rng, mean, k, cv, row);
		for (size_t j = 0; j < k; j++)
			if (!s->race->candidate[j].alive)
				row[j] = NAN;
		const struct ab_race_table t = { s->y, r + 1, k };
		size_t dropped = ab_race_decide(s->race, &t, NULL);
		if (dropped && !s->first_drop)
			s->first_drop = r + 1;
		s->dropped += dropped;
	}
}

static inline void sim_race_clear(struct sim_race *s)
{
	ab_race_free(s->race);
	g_free(s->y);
}

#endif
