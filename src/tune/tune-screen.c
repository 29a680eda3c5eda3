/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Screening's verdict (tune-screen.h): what it found, and the candidates
 * the race after it takes. */
#include "tune-screen.h"
#include "candidates.h"
#include "../base/error.h"
#include "../model/race-screen.h"

#include <string.h>

/* What screening found, a line each, best ratio first (order: change
 * indexes as ab_race_screen_order() sorts them), and the values each key
 * keeps. */
static void screen_lines(const struct ab_race_screen *sc, const size_t *order, const struct ab_space *s,
			 GPtrArray *out)
{
	for (size_t i = 0; i < sc->changes; i++) {
		const struct ab_race_screen_change *c = &sc->change[order[i]];
		const struct ab_space_key *key = g_ptr_array_index(s->keys, c->key);
		const struct ab_space_value *v = g_ptr_array_index(key->values, c->value);
		g_ptr_array_add(out, g_strdup_printf("%s: %.3f [%.3f, %.3f] of the defaults over %zu rounds, p=%.3g after "
						     "Holm: %s",
						     v->label, c->paired.ratio.ratio, c->paired.ratio.low,
						     c->paired.ratio.high, c->paired.n, c->p, ab_race_effect_word(c->effect)));
	}
	for (size_t k = 0; k < sc->keys; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		g_autoptr(GString) kept = g_string_new(NULL);
		for (guint v = 0; v < key->values->len; v++)
			if (sc->key[k].keep[v])
				g_string_append_printf(kept, "%s%s", kept->len ? ", " : "",
						       ((struct ab_space_value *)g_ptr_array_index(key->values, v))->label);
		g_ptr_array_add(out, g_strdup_printf("key %s %s: raced with %s", key->name,
						     sc->key[k].matters ? "mattered" : "did not matter", kept->str));
	}
}

GPtrArray *ab_tune_screened(const struct ab_space *resolved, const struct ab_tune_stage *st, guint at_least,
			    GPtrArray *lines, GError **error)
{
	guint n = resolved->keys->len;
	g_autofree size_t *values = g_new(size_t, n);
	g_autofree size_t *defaults = g_new0(size_t, n);
	for (guint k = 0; k < n; k++)
		values[k] = ((struct ab_space_key *)g_ptr_array_index(resolved->keys, k))->values->len;
	struct ab_race_screen_space space = { n, values, defaults };
	struct ab_race_table t = { (const double *)(void *)st->y->data, st->rounds, st->candidates };
	struct ab_race_screen sc;
	if (!ab_race_screen_analyse(&space, &t, &st->params, &sc)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "screening's candidates are not the space's one-key changes");
		return NULL;
	}
	g_autofree guint32 *keep = g_new0(guint32, n);
	for (guint k = 0; k < n; k++)
		for (size_t v = 0; v < values[k]; v++)
			if (sc.key[k].keep[v])
				keep[k] |= 1u << v;
	g_autofree size_t *order = g_new(size_t, sc.changes + 1);
	size_t leading = ab_race_screen_order(&sc, st->params.direction, order);
	screen_lines(&sc, order, resolved, lines);
	GPtrArray *out = ab_candidates_product(resolved, keep, error);
	guint product = out ? out->len : 0;
	g_autoptr(GString) added = g_string_new(NULL);
	g_autofree guint *choice = g_new0(guint, MAX(n, 1));
	for (size_t i = 0; out && i < leading && out->len < at_least; i++) {
		const struct ab_race_screen_change *c = &sc.change[order[i]];
		memset(choice, 0, sizeof(*choice) * MAX(n, 1));
		choice[c->key] = (guint)c->value;
		if (ab_candidates_add_choice(out, resolved, choice))
			g_string_append_printf(added, "%s%s", added->len ? ", " : "",
					       ((struct ab_candidate *)g_ptr_array_index(out, out->len - 1))->label);
	}
	if (added->len)
		g_ptr_array_add(lines, g_strdup_printf("the race also takes the best one-key change%s by their ratio, %s: "
						       "the values kept made %u candidate%s, too few to rank",
						       out->len - product == 1 ? "" : "s", added->str, product,
						       product == 1 ? "" : "s"));
	ab_race_screen_clear(&sc);
	return out;
}
