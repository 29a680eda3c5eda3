/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Screening one key at a time against the defaults (src/model/race-screen.h).
 */
#include "race-screen.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>

size_t ab_race_screen_candidates(const struct ab_race_screen_space *space)
{
	size_t n = 1;
	for (size_t i = 0; i < space->keys; i++)
		if (space->values[i] > 0)
			n += space->values[i] - 1;
	return n;
}

bool ab_race_screen_change_of(const struct ab_race_screen_space *space, size_t candidate,
			      size_t *key, size_t *value)
{
	if (candidate == 0)
		return false;
	size_t c = candidate - 1;
	for (size_t i = 0; i < space->keys; i++) {
		size_t others = space->values[i] > 0 ? space->values[i] - 1 : 0;
		if (c < others) {
			*key = i;
			/* The c-th value of the key, the defaults' skipped. */
			*value = c < space->defaults[i] ? c : c + 1;
			return true;
		}
		c -= others;
	}
	return false;
}

/* Better or worse than the defaults, as the direction reads a ratio. */
static enum ab_race_effect effect_of(double ratio, enum ab_race_direction direction)
{
	bool higher = ratio > 1;
	if (direction == AB_RACE_LOWER_IS_BETTER)
		higher = !higher;
	return higher ? AB_RACE_BETTER : AB_RACE_WORSE;
}

void ab_race_screen_compare(const struct ab_race_table *t, const struct ab_race_params *params,
			    struct ab_race_screen_change *out)
{
	size_t changes = t->candidates ? t->candidates - 1 : 0;
	g_autofree double *p = g_new(double, changes + 1);
	for (size_t c = 0; c < changes; ++c) {
		struct ab_race_screen_change *ch = &out[c];
		*ch = (struct ab_race_screen_change){ 0 };
		ab_race_paired_ratio(t->y + c + 1, t->y, t->rounds, t->candidates, 1 - params->alpha, &ch->paired);
		p[c] = ch->paired.p;
	}
	/* One family: every change of every key, so a space of many keys
	 * does not find a key that matters by the number of its tries. */
	if (params->correction == AB_RACE_HOLM)
		ab_race_holm(p, changes);
	for (size_t c = 0; c < changes; c++) {
		struct ab_race_screen_change *ch = &out[c];
		ch->p = p[c];
		ch->effect = ch->p < params->alpha ? effect_of(ch->paired.ratio.ratio, params->direction)
						   : AB_RACE_SAME;
	}
}

bool ab_race_screen_analyse(const struct ab_race_screen_space *space, const struct ab_race_table *t,
			    const struct ab_race_params *params, struct ab_race_screen *out)
{
	*out = (struct ab_race_screen){ 0 };
	size_t n = ab_race_screen_candidates(space);
	if (t->candidates != n)
		return false;
	for (size_t i = 0; i < space->keys; i++)
		if (space->defaults[i] >= space->values[i])
			return false; /* no such value: the space is not one */
	out->changes = n - 1;
	out->change = g_new0(struct ab_race_screen_change, n);
	ab_race_screen_compare(t, params, out->change);
	out->keys = space->keys;
	out->key = g_new0(struct ab_race_screen_key, space->keys ? space->keys : 1);
	for (size_t i = 0; i < space->keys; i++) {
		struct ab_race_screen_key *k = &out->key[i];
		k->keep = g_new0(bool, space->values[i] ? space->values[i] : 1);
	}
	for (size_t c = 0; c < out->changes; c++) {
		struct ab_race_screen_change *ch = &out->change[c];
		ab_race_screen_change_of(space, c + 1, &ch->key, &ch->value);
		if (ch->effect != AB_RACE_SAME)
			out->key[ch->key].matters = true;
	}
	for (size_t i = 0; i < space->keys; i++) {
		struct ab_race_screen_key *k = &out->key[i];
		if (space->values[i] == 0)
			continue;
		k->keep[space->defaults[i]] = true;
		k->kept = 1;
	}
	for (size_t c = 0; c < out->changes; c++) {
		struct ab_race_screen_change *ch = &out->change[c];
		struct ab_race_screen_key *k = &out->key[ch->key];
		if (k->matters && ch->effect != AB_RACE_WORSE) {
			k->keep[ch->value] = true;
			k->kept++;
		}
	}
	return true;
}

void ab_race_screen_clear(struct ab_race_screen *screen)
{
	for (size_t i = 0; i < screen->keys; i++)
		g_free(screen->key[i].keep);
	g_clear_pointer(&screen->key, g_free);
	g_clear_pointer(&screen->change, g_free);
	screen->keys = screen->changes = 0;
}

size_t ab_race_screen_combinations(const struct ab_race_screen *screen)
{
	size_t n = 1;
	for (size_t i = 0; i < screen->keys; i++) {
		size_t kept = screen->key[i].kept;
		if (kept && n > SIZE_MAX / kept)
			return SIZE_MAX;
		n *= kept ? kept : 1;
	}
	return n;
}

const char *ab_race_effect_word(enum ab_race_effect effect)
{
	switch (effect) {
	case AB_RACE_SAME: return "not told apart";
	case AB_RACE_BETTER: return "better";
	case AB_RACE_WORSE: return "worse";
	}
	return "?";
}

/* What the sort below compares by. */
struct order_by {
	const struct ab_race_screen *screen;
	enum ab_race_direction direction;
};

static gint by_ratio(gconstpointer pa, gconstpointer pb, gpointer data)
{
	const struct order_by *by = data;
	const struct ab_race_screen *screen = by->screen;
	enum ab_race_direction direction = by->direction;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double x = screen->change[a].paired.ratio.ratio, y = screen->change[b].paired.ratio.ratio;
	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y) {
		bool first = direction == AB_RACE_LOWER_IS_BETTER ? x < y : x > y;
		return first ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

size_t ab_race_screen_order(const struct ab_race_screen *screen, enum ab_race_direction direction, size_t *order)
{
	for (size_t c = 0; c < screen->changes; c++)
		order[c] = c;
	struct order_by by = { screen, direction };
	g_qsort_with_data(order, (gint)screen->changes, sizeof(*order), by_ratio, &by);
	size_t n = 0;
	while (n < screen->changes && screen->change[order[n]].effect != AB_RACE_WORSE &&
	       !isnan(screen->change[order[n]].paired.ratio.ratio))
		n++;
	return n;
}
