/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's Tuning section: the screening and the race of
 * `arraybench tune` redone from the runs' tune stamps with the tune's own
 * code (src/model/tune-race.h): each one-key change against the defaults;
 * the survivors after each round, each candidate's figure per round, and
 * the final ranking by the ratio to the defaults.  Nothing at all for runs
 * no tune made. */
#include "html-sections.h"
#include "format.h"
#include "../src/model/tune-race.h"
#include "../workloads/phase.h"

#include <math.h>
#include <stdio.h>

/* Every run of the page, the failed visits too (a tune's failure is a
 * round without a figure). */
static GPtrArray *all_runs(const struct ab_html_page *page)
{
	GPtrArray *runs = g_ptr_array_new();
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++)
			g_ptr_array_add(runs, g_ptr_array_index(c->runs, k));
	}
	for (guint i = 0; i < page->failed->len; i++)
		g_ptr_array_add(runs, g_ptr_array_index(page->failed, i));
	return runs;
}

static void survivors(GString *s, const struct ab_tune_replay *r)
{
	g_string_append(s, "<table class=\"tuning\"><tr><th>candidate</th>");
	for (size_t round = 0; round < r->rounds; round++)
		g_string_append_printf(s, "<th>round %zu</th>", round + 1);
	g_string_append(s, "</tr>\n");
	for (size_t c = 0; c < r->candidates; c++) {
		const struct ab_race_candidate *rc = &r->race->candidate[c];
		g_string_append(s, "<tr><td>");
		ab_html_escape(s, r->labels[c]);
		g_string_append(s, "</td>");
		for (size_t round = 0; round < r->rounds; round++) {
			size_t at = round * r->candidates + c;
			gboolean gone = !rc->alive && round >= rc->dropped_round;
			if (gone || !r->visited[at]) {
				g_string_append(s, "<td class=\"dropped\">&ndash;</td>");
				continue;
			}
			if (isnan(r->y[at]))
				g_string_append(s, "<td>no figure</td>");
			else
				g_string_append_printf(s, "<td>%.6g</td>", r->y[at]);
		}
		g_string_append(s, "</tr>\n");
	}
	g_string_append(s, "<tr><th>still in the race</th>");
	for (size_t round = 0; round < r->rounds; round++)
		g_string_append_printf(s, "<th>%zu%s</th>", r->alive_after[round], r->decided[round] ? "" : " (round cut short)");
	g_string_append(s, "</tr>\n</table>\n");
}

static void ranking(GString *s, const struct ab_tune_replay *r)
{
	g_string_append(s, "<table class=\"tuning\"><tr><th>candidate</th><th>ratio to the defaults</th>"
			   "<th>interval</th><th>rounds</th><th>standing</th></tr>\n");
	g_autofree struct ab_race_paired *paired = g_new0(struct ab_race_paired, r->candidates);
	g_autofree size_t *order = g_new(size_t, r->candidates);
	ab_tune_replay_rank(r, paired, order);
	for (size_t i = 0; i < r->candidates; i++) {
		size_t c = order[i];
		const struct ab_race_candidate *rc = &r->race->candidate[c];
		g_string_append(s, "<tr><td>");
		ab_html_escape(s, r->labels[c]);
		if (isnan(paired[c].ratio.ratio))
			g_string_append(s, "</td><td>&ndash;</td><td>&ndash;</td>");
		else if (isnan(paired[c].ratio.low))
			g_string_append_printf(s, "</td><td>%.3f</td><td>&ndash;</td>", paired[c].ratio.ratio);
		else
			g_string_append_printf(s, "</td><td>%.3f</td><td>%.3f to %.3f</td>", paired[c].ratio.ratio,
					       paired[c].ratio.low, paired[c].ratio.high);
		g_string_append_printf(s, "<td>%zu</td><td>", paired[c].n);
		if (rc->alive)
			g_string_append(s, i == 0 ? "best still in the race" : "still in the race");
		else {
			g_autofree char *why = g_strdup_printf("dropped after round %zu: %s", rc->dropped_round,
							       rc->reason ? rc->reason : "");
			ab_html_escape(s, why);
		}
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

/* Screening redone from its runs: each change's figure per round, its
 * ratio to the defaults and the verdict, best ratio first. */
static void screening(GString *s, const struct ab_tune_replay *r)
{
	struct ab_race_screen sc;
	g_autofree size_t *order = g_new(size_t, r->candidates);
	ab_tune_replay_screen(r, &sc, order);
	g_string_append_printf(s, "<h3>Screening</h3>\n<p class=\"note\">Each one-key change (one key at another "
				  "value, the others at their defaults) against the defaults over %zu rounds, none "
				  "dropped: the ratio paired over the rounds with its %g %% interval, Student's t on the "
				  "log ratios with Holm's correction over all %zu changes. Best ratio first.</p>\n",
			       r->rounds, 100 * (1 - r->race->params.alpha), sc.changes);
	g_string_append(s, "<table class=\"tuning\"><tr><th>change</th><th>ratio to the defaults</th><th>interval</th>"
			   "<th>p (Holm)</th><th>verdict</th>");
	for (size_t round = 0; round < r->rounds; round++)
		g_string_append_printf(s, "<th>round %zu</th>", round + 1);
	g_string_append(s, "</tr>\n");
	for (size_t i = 0; i <= sc.changes; i++) {
		/* The defaults first, as the row every ratio is to. */
		size_t c = i == 0 ? 0 : order[i - 1] + 1;
		g_string_append(s, "<tr><td>");
		ab_html_escape(s, r->labels[c]);
		g_string_append(s, "</td>");
		if (c == 0) {
			g_string_append(s, "<td>1</td><td>&ndash;</td><td>&ndash;</td><td>the base</td>");
		} else {
			const struct ab_race_screen_change *ch = &sc.change[c - 1];
			if (isnan(ch->paired.ratio.ratio))
				g_string_append(s, "<td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>no ratio</td>");
			else if (isnan(ch->paired.ratio.low))
				g_string_append_printf(s, "<td>%.3f</td><td>&ndash;</td><td>&ndash;</td><td>%s</td>",
						       ch->paired.ratio.ratio, ab_race_effect_word(ch->effect));
			else
				g_string_append_printf(s, "<td>%.3f</td><td>%.3f to %.3f</td><td>%.3g</td><td>%s</td>",
						       ch->paired.ratio.ratio, ch->paired.ratio.low,
						       ch->paired.ratio.high, ch->p, ab_race_effect_word(ch->effect));
		}
		for (size_t round = 0; round < r->rounds; round++) {
			size_t at = round * r->candidates + c;
			if (!r->visited[at])
				g_string_append(s, "<td class=\"dropped\">&ndash;</td>");
			else if (isnan(r->y[at]))
				g_string_append(s, "<td>no figure</td>");
			else
				g_string_append_printf(s, "<td>%.6g</td>", r->y[at]);
		}
		g_string_append(s, "</tr>\n");
	}
	g_string_append(s, "</table>\n");
	ab_race_screen_clear(&sc);
}

void ab_html_tuning(GString *s, const struct ab_html_page *page)
{
	g_autoptr(GPtrArray) runs = all_runs(page);
	struct ab_tune_replay r, sr;
	g_autoptr(GError) error = NULL, screen_error = NULL;
	gboolean raced = ab_tune_replay_make(runs, ab_phase_names(), AB_TUNE_STAGE_RACE, &r, &error);
	gboolean screened = ab_tune_replay_make(runs, ab_phase_names(), AB_TUNE_STAGE_SCREEN, &sr, &screen_error);
	if (!raced && !screened && !error && !screen_error)
		return;
	g_string_append(s, "<h2 id=\"tuning\">Tuning</h2>\n");
	if (screen_error)
		ab_html_none(s, "No screening shown: %s.", screen_error->message);
	if (screened) {
		screening(s, &sr);
		ab_tune_replay_clear(&sr);
	}
	if (!raced) {
		if (error)
			ab_html_none(s, "No race shown: %s.", error->message);
		else
			ab_html_none(s, "No race yet: the runs hold screening's rounds only.");
		return;
	}
	g_string_append(s, "<p class=\"note\">The race of <code>arraybench tune</code>, "
			   "redone from its runs: objective <code>");
	ab_html_escape(s, r.obj.name);
	g_string_append_printf(s, "</code> (%s), %zu candidates over %zu rounds, each round every candidate still in "
				  "the race once, in a fresh order; from round %zu on, after each round, Friedman's test "
				  "and Conover's comparisons with the best (Holm's correction, level %g) drop the worst "
				  "beaten. Ratios are to the defaults, the geometric mean over the rounds both have a "
				  "figure in, with its %g %% interval.</p>\n",
			       ab_objective_direction_word(&r.obj), r.candidates, r.rounds, r.race->params.min_rounds,
			       r.race->params.alpha, 100 * (1 - r.race->params.alpha));
	g_string_append(s, "<h3>Survivors per round</h3>\n");
	survivors(s, &r);
	g_string_append(s, "<h3>Final ranking</h3>\n");
	ranking(s, &r);
	ab_tune_replay_clear(&r);
}
