/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RACE_SCREEN_H
#define AB_RACE_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "race.h"

/*
 * Screening, for a space too large to race whole (ab_race_plan_for()):
 * the candidates are the defaults and each one-key change (key i set to
 * value v, every other key at the defaults' value), visited in rounds as a
 * race's are, none dropped.  Then each change is compared with the
 * defaults over the rounds (paired: the same round's defaults), and a key
 * matters when one of its values differs from the defaults beyond the
 * noise.  The caller then races the product of the values each key keeps
 * (ab_race_screen_combinations() says how many that is).
 *
 * The per-change test is Student's paired t on the log ratios
 * (ab_race_paired_ratio()), not Wilcoxon's signed-rank test: screening
 * runs because the budget is short, so it has few rounds, and the exact
 * signed-rank test cannot go below p = 2 / 2^n over n rounds (0.0625 at
 * 5), which Holm's correction over even 2 changes can never pass; the t
 * test on logs can, when the noise is small against the effect.  It
 * assumes the log ratios are roughly normal: a rate's noise is a share of
 * the rate, so its log is the scale on which it is even.
 */

/* The space: key i has values[i] values (>= 1), of which defaults[i] is
 * the defaults' (the defaults are the candidate with every key there). */
struct ab_race_screen_space {
	size_t keys;
	const size_t *values;
	const size_t *defaults;
};

/* 1 + sum over keys of (values - 1): the defaults and every one-key change. */
size_t ab_race_screen_candidates(const struct ab_race_screen_space *space);
/* Candidate 0 is the defaults (FALSE); candidate c >= 1 is key 0's other
 * values in order, then key 1's, and so on: TRUE with its key and value.
 * FALSE too for c out of range. */
bool ab_race_screen_change_of(const struct ab_race_screen_space *space, size_t candidate,
			      size_t *key, size_t *value);

enum ab_race_effect {
	AB_RACE_SAME,     /* not told apart from the defaults */
	AB_RACE_BETTER,
	AB_RACE_WORSE,
};

struct ab_race_screen_change {
	size_t key, value;
	struct ab_race_paired paired;  /* against the defaults, interval at 1 - alpha */
	double p;                      /* paired.p corrected (Holm over every change) */
	enum ab_race_effect effect;    /* corrected p < alpha, and which way */
};

struct ab_race_screen_key {
	bool matters;    /* one of its changes is BETTER or WORSE */
	bool *keep;      /* [values]: the values the combination race keeps: the
			  * defaults' value always; when the key matters, also each
			  * value not significantly worse than it (better, or not
			  * told apart); when it does not, that one alone */
	size_t kept;
};

struct ab_race_screen {
	size_t changes;
	struct ab_race_screen_change *change;  /* [changes]: change i is candidate i + 1 */
	size_t keys;
	struct ab_race_screen_key *key;        /* [keys] */
};

/* Each candidate c >= 1 of t against candidate 0 (the defaults), paired
 * over the rounds, the p-values corrected together (Holm's, when
 * params->correction says so), the effect at params->alpha: fills
 * out[t->candidates - 1] (change c - 1 is candidate c; key and value 0).
 * What ab_race_screen_analyse() does before it reads the keys, and what a
 * report redoing a screening from its runs (which know the changes'
 * labels, not their keys) does alone. */
void ab_race_screen_compare(const struct ab_race_table *t, const struct ab_race_params *params,
			    struct ab_race_screen_change *out);

/* t: the screening rounds, t->candidates == ab_race_screen_candidates()
 * (else, or with a key whose defaults' value is not among its values, out
 * is left empty and FALSE returned), candidate 0 the defaults.
 * params: direction, alpha, correction (min_rounds is not used: each
 * change needs 2 paired rounds for a test at all).  Fills *out; clear it
 * after. */
bool ab_race_screen_analyse(const struct ab_race_screen_space *space, const struct ab_race_table *t,
			    const struct ab_race_params *params, struct ab_race_screen *out);
void ab_race_screen_clear(struct ab_race_screen *screen);

/* The product of every key's kept count: the combination race's
 * candidates (SIZE_MAX when it would overflow). */
size_t ab_race_screen_combinations(const struct ab_race_screen *screen);

/* "not told apart", "better", "worse": how the reports and the tune say
 * a change's effect. */
const char *ab_race_effect_word(enum ab_race_effect effect);

/* The changes best first by their ratio to the defaults, as `direction`
 * reads it (a change without a ratio last; ties in the changes' order):
 * fills order[screen->changes] with change indexes.  Returns how many of
 * them lead the list and are not WORSE with a ratio known: the changes a
 * race after screening may take beside the kept product when that product
 * is too small to rank anything (the defaults alone, when no key was told
 * to matter in the rounds the budget paid for). */
size_t ab_race_screen_order(const struct ab_race_screen *screen, enum ab_race_direction direction, size_t *order);

#endif
