/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a tune (tune-summary.h): the standings, as text and JSON. */
#include "tune-summary.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double figure(const struct ab_tune_stage *st, size_t r, size_t c)
{
	return g_array_index(st->y, double, r * st->candidates + c);
}

static double median_of(const struct ab_tune_stage *st, size_t c, size_t *n_out)
{
	g_autofree double *v = g_new(double, st->rounds + 1);
	size_t n = 0;
	for (size_t r = 0; r < st->rounds; r++)
		if (!isnan(figure(st, r, c)))
			v[n++] = figure(st, r, c);
	*n_out = n;
	if (!n)
		return NAN;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Better first: the alive before the dropped; among the alive the better
 * ratio (by the objective's direction; none known last); among the
 * dropped the later drop first. */
static const struct ab_objective *sort_obj;
static int by_standing(const void *pa, const void *pb)
{
	const struct ab_tune_standing *a = pa, *b = pb;
	if (a->alive != b->alive)
		return a->alive ? -1 : 1;
	if (a->alive) {
		double x = a->paired.ratio.ratio, y = b->paired.ratio.ratio;
		if (isnan(x) != isnan(y))
			return isnan(x) ? 1 : -1;
		if (!isnan(x) && x != y)
			return (sort_obj->higher_is_better ? x > y : x < y) ? -1 : 1;
		return a->candidate < b->candidate ? -1 : a->candidate > b->candidate;
	}
	return 0;
}

/* Its interval to the defaults lies wholly on the better side of 1. */
static bool shown_better(const struct ab_tune_summary *s, const struct ab_tune_standing *one)
{
	const struct ab_ratio *r = &one->paired.ratio;
	if (isnan(r->low) || isnan(r->high))
		return false;
	return s->obj->higher_is_better ? r->low > 1 : r->high < 1;
}

void ab_tune_summary_rank(struct ab_tune_summary *s)
{
	const struct ab_tune_stage *st = s->race;
	s->standing = g_array_new(FALSE, TRUE, sizeof(struct ab_tune_standing));
	const double *y = (const double *)(void *)st->y->data;
	for (size_t c = 0; c < st->candidates; c++) {
		struct ab_tune_standing one = {
			.candidate = c, .label = s->labels[c], .alive = st->race->candidate[c].alive,
		};
		ab_race_paired_ratio(y + c, y + st->defaults, st->rounds, st->candidates, 1 - st->params.alpha,
				     &one.paired);
		one.median = median_of(st, c, &one.rounds);
		g_array_append_val(s->standing, one);
	}
	sort_obj = s->obj;
	struct ab_tune_standing *v = (struct ab_tune_standing *)(void *)s->standing->data;
	qsort(v, s->standing->len, sizeof(*v), by_standing);
	/* The dropped: latest drop first (a stable pass by round). */
	for (guint i = 1; i < s->standing->len; i++)
		for (guint j = i; j > 0 && !v[j].alive && !v[j - 1].alive &&
				  st->race->candidate[v[j - 1].candidate].dropped_round <
					  st->race->candidate[v[j].candidate].dropped_round;
		     j--) {
			struct ab_tune_standing t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	/* A race of one (screening kept the defaults alone) has its winner
	 * without a round. */
	s->winner = s->standing->len && v[0].alive && (v[0].rounds || st->candidates == 1) ? v[0].candidate : SIZE_MAX;
	s->recommended = s->winner;
	if (s->winner != SIZE_MAX && s->winner != st->defaults && !ab_tune_summary_decided(s) &&
	    st->race->candidate[st->defaults].alive && !shown_better(s, &v[0]))
		s->recommended = st->defaults;
}

bool ab_tune_summary_decided(const struct ab_tune_summary *s)
{
	return s->winner != SIZE_MAX && ab_race_alive_count(s->race->race) <= 1;
}

void ab_tune_summary_clear(struct ab_tune_summary *s)
{
	g_clear_pointer(&s->standing, g_array_unref);
	g_clear_pointer(&s->mkfs_command, g_free);
	g_clear_pointer(&s->fstab_line, g_free);
}

static void append_ratio(GString *out, const struct ab_race_paired *p)
{
	if (isnan(p->ratio.ratio)) {
		g_string_append(out, "no ratio (no round with both figures)");
		return;
	}
	g_string_append_printf(out, "%.3f", p->ratio.ratio);
	if (!isnan(p->ratio.low))
		g_string_append_printf(out, " [%.3f, %.3f]", p->ratio.low, p->ratio.high);
	else
		g_string_append(out, " (no interval: under 2 rounds)");
}

char *ab_tune_summary_text(const struct ab_tune_summary *s)
{
	const struct ab_tune_stage *st = s->race;
	GString *out = g_string_new(NULL);
	g_string_append_printf(out, "tune: objective %s (%s), %zu candidate%s, %zu round%s, %u visit%s (%u failed); "
			       "the race ended: %s\n",
			       s->obj->name, ab_objective_direction_word(s->obj), st->candidates,
			       st->candidates == 1 ? "" : "s", st->rounds, st->rounds == 1 ? "" : "s", st->spend.visits,
			       st->spend.visits == 1 ? "" : "s", st->failed, ab_tune_end_words(st->end));
	g_string_append_printf(out, "ratios are to the defaults, geometric means over the rounds paired, with their "
			       "%g %% intervals\n",
			       100 * (1 - st->params.alpha));
	bool decided = ab_tune_summary_decided(s);
	const struct ab_tune_standing *v = (const struct ab_tune_standing *)(const void *)s->standing->data;
	for (guint i = 0; i < s->standing->len; i++) {
		const struct ab_tune_standing *one = &v[i];
		const struct ab_race_candidate *rc = &st->race->candidate[one->candidate];
		/* Best of a race not decided is only leading: it may not be
		 * better than the runners-up (nor, see `recommended`, than
		 * the defaults). */
		const char *role = one->candidate == s->winner ? (decided ? "winner" : "leading")
				   : one->alive		   ? "still in the race"
							   : "dropped";
		g_string_append_printf(out, "%-17s %s: ", role, one->label);
		if (st->candidates == 1 && !one->rounds) {
			/* Screening left it alone: nothing raced, no figure of
			 * the race's own (screening's lines give its figures). */
			g_string_append(out, "the only candidate screening left, not raced\n");
			continue;
		}
		append_ratio(out, &one->paired);
		if (one->rounds)
			g_string_append_printf(out, ", median %.6g over %zu round%s", one->median, one->rounds,
					       one->rounds == 1 ? "" : "s");
		else
			g_string_append(out, ", no figure in any round");
		if (!one->alive)
			g_string_append_printf(out, "\n                  dropped after round %zu: %s", rc->dropped_round,
					       rc->reason ? rc->reason : "");
		g_string_append_c(out, '\n');
	}
	if (s->recommended != SIZE_MAX && s->recommended != s->winner) {
		const struct ab_tune_standing *lead = &v[0];
		g_string_append_printf(out, "recommended: %s: the race was not decided and the leading %s was not shown "
				       "better than them (its interval ",
				       s->labels[s->recommended], lead->label);
		append_ratio(out, &lead->paired);
		g_string_append(out, " holds 1); the options below are the defaults'\n");
	}
	if (s->recommended != SIZE_MAX) {
		const char *mount = s->mount_opts[s->recommended], *mkfs = s->mkfs_opts[s->recommended];
		g_string_append_printf(out, "mount options: %s\n", mount ? mount : "(none: the defaults)");
		g_string_append_printf(out, "mkfs options: %s\n", mkfs ? mkfs : "(none: the defaults)");
		if (s->mkfs_command)
			g_string_append_printf(out, "mkfs: %s\n", s->mkfs_command);
		if (s->fstab_line)
			g_string_append_printf(out, "fstab: %s", s->fstab_line);
	}
	for (guint i = 0; s->screening && i < s->screening->len; i++)
		g_string_append_printf(out, "screening: %s\n", (const char *)g_ptr_array_index(s->screening, i));
	for (guint i = 0; s->not_allowed && i < s->not_allowed->len; i++)
		g_string_append_printf(out, "not done: %s\n", (const char *)g_ptr_array_index(s->not_allowed, i));
	for (guint i = 0; s->omitted && i < s->omitted->len; i++)
		g_string_append_printf(out, "left out as unsafe: %s\n", (const char *)g_ptr_array_index(s->omitted, i));
	return g_string_free(out, FALSE);
}

static void member_double(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	if (isfinite(v))
		json_builder_add_double_value(b, v);
	else
		json_builder_add_null_value(b);
}

static void member_string(JsonBuilder *b, const char *name, const char *v)
{
	json_builder_set_member_name(b, name);
	if (v)
		json_builder_add_string_value(b, v);
	else
		json_builder_add_null_value(b);
}

static void member_strings(JsonBuilder *b, const char *name, GPtrArray *list)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; list && i < list->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(list, i));
	json_builder_end_array(b);
}

char *ab_tune_summary_json(const struct ab_tune_summary *s)
{
	const struct ab_tune_stage *st = s->race;
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	member_string(b, "objective", s->obj->name);
	member_string(b, "direction", s->obj->higher_is_better ? "max" : "min");
	member_double(b, "alpha", st->params.alpha);
	json_builder_set_member_name(b, "rounds");
	json_builder_add_int_value(b, (gint64)st->rounds);
	json_builder_set_member_name(b, "visits");
	json_builder_add_int_value(b, st->spend.visits);
	member_string(b, "ended", ab_tune_end_words(st->end));
	json_builder_set_member_name(b, "survivors_per_round");
	json_builder_begin_array(b);
	for (guint i = 0; i < st->alive_after->len; i++)
		json_builder_add_int_value(b, (gint64)g_array_index(st->alive_after, size_t, i));
	json_builder_end_array(b);
	bool decided = ab_tune_summary_decided(s);
	json_builder_set_member_name(b, "decided");
	json_builder_add_boolean_value(b, decided);
	member_string(b, "winner", s->winner != SIZE_MAX && decided ? s->labels[s->winner] : NULL);
	member_string(b, "leading", s->winner != SIZE_MAX ? s->labels[s->winner] : NULL);
	member_string(b, "recommended", s->recommended != SIZE_MAX ? s->labels[s->recommended] : NULL);
	member_string(b, "mount_options", s->recommended != SIZE_MAX ? s->mount_opts[s->recommended] : NULL);
	member_string(b, "mkfs_options", s->recommended != SIZE_MAX ? s->mkfs_opts[s->recommended] : NULL);
	member_string(b, "mkfs_command", s->mkfs_command);
	member_string(b, "fstab", s->fstab_line);
	json_builder_set_member_name(b, "candidates");
	json_builder_begin_array(b);
	const struct ab_tune_standing *v = (const struct ab_tune_standing *)(const void *)s->standing->data;
	for (guint i = 0; i < s->standing->len; i++) {
		const struct ab_tune_standing *one = &v[i];
		const struct ab_race_candidate *rc = &st->race->candidate[one->candidate];
		json_builder_begin_object(b);
		member_string(b, "label", one->label);
		json_builder_set_member_name(b, "alive");
		json_builder_add_boolean_value(b, one->alive);
		member_double(b, "ratio", one->paired.ratio.ratio);
		member_double(b, "ratio_low", one->paired.ratio.low);
		member_double(b, "ratio_high", one->paired.ratio.high);
		member_double(b, "median", one->median);
		json_builder_set_member_name(b, "rounds_with_figure");
		json_builder_add_int_value(b, (gint64)one->rounds);
		if (!one->alive) {
			json_builder_set_member_name(b, "dropped_round");
			json_builder_add_int_value(b, (gint64)rc->dropped_round);
			member_string(b, "reason", rc->reason);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	member_strings(b, "screening", s->screening);
	member_strings(b, "not_done", s->not_allowed);
	member_strings(b, "unsafe_left_out", s->omitted);
	json_builder_end_object(b);
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	char *text = json_generator_to_data(gen, NULL);
	char *with_newline = g_strconcat(text, "\n", NULL);
	g_free(text);
	return with_newline;
}
