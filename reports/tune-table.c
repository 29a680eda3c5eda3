/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's summary of a tune's runs: the screening and the race
 * redone from their tune stamps with the tune's own code
 * (src/model/tune-race.h), as the HTML page's Tuning section shows them:
 * each change against the defaults; the survivors after each round and
 * the standings. */
#include "report.h"
#include "text-block.h"
#include "../src/model/tune-race.h"
#include "../workloads/phase.h"

#include <math.h>

/* Screening redone from its runs: each change against the defaults, best
 * ratio first. */
static void screening(GString *s, const struct ab_run_set *set)
{
	struct ab_tune_replay r;
	g_autoptr(GError) error = NULL;
	if (!ab_tune_replay_make(set->runs, ab_phase_names(), AB_TUNE_STAGE_SCREEN, &r, &error)) {
		if (error)
			g_string_append_printf(s, "\ntune: no screening shown: %s\n", error->message);
		return;
	}
	struct ab_race_screen sc;
	g_autofree size_t *order = g_new(size_t, r.candidates);
	ab_tune_replay_screen(&r, &sc, order);
	g_string_append_printf(s, "\ntune: screening, objective %s (%s): %zu one-key changes against the defaults over "
			       "%zu rounds, redone from the runs; paired ratios with their %g %% intervals, p after "
			       "Holm over all changes:\n",
			       r.obj.name, ab_objective_direction_word(&r.obj), sc.changes, r.rounds,
			       100 * (1 - r.race->params.alpha));
	for (size_t i = 0; i < sc.changes; i++) {
		const struct ab_race_screen_change *c = &sc.change[order[i]];
		g_string_append_printf(s, "  %-24s ", r.labels[order[i] + 1]);
		if (isnan(c->paired.ratio.ratio))
			g_string_append(s, "no ratio\n");
		else if (isnan(c->paired.ratio.low))
			g_string_append_printf(s, "%.3f over %zu rounds\n", c->paired.ratio.ratio, c->paired.n);
		else
			g_string_append_printf(s, "%.3f [%.3f, %.3f] over %zu rounds, p=%.3g: %s\n", c->paired.ratio.ratio,
					       c->paired.ratio.low, c->paired.ratio.high, c->paired.n, c->p,
					       ab_race_effect_word(c->effect));
	}
	ab_race_screen_clear(&sc);
	ab_tune_replay_clear(&r);
}

void ab_text_tune_summary(GString *s, const struct ab_run_set *set)
{
	struct ab_tune_replay r;
	g_autoptr(GError) error = NULL;
	screening(s, set);
	if (!ab_tune_replay_make(set->runs, ab_phase_names(), AB_TUNE_STAGE_RACE, &r, &error)) {
		if (error)
			g_string_append_printf(s, "\ntune: no race shown: %s\n", error->message);
		return;
	}
	g_string_append_printf(s, "\ntune: objective %s (%s), %zu candidates over %zu rounds, redone from the runs\n",
			       r.obj.name, ab_objective_direction_word(&r.obj), r.candidates, r.rounds);
	g_string_append(s, "still in the race after each round:");
	for (size_t i = 0; i < r.rounds; i++)
		g_string_append_printf(s, " %zu%s", r.alive_after[i], r.decided[i] ? "" : " (cut short)");
	g_string_append_printf(s, "\nratios to the defaults, paired over the rounds, with their %g %% intervals:\n",
			       100 * (1 - r.race->params.alpha));
	g_autofree struct ab_race_paired *paired = g_new0(struct ab_race_paired, r.candidates);
	g_autofree size_t *order = g_new(size_t, r.candidates);
	ab_tune_replay_rank(&r, paired, order);
	for (size_t i = 0; i < r.candidates; i++) {
		size_t c = order[i];
		const struct ab_race_candidate *rc = &r.race->candidate[c];
		g_string_append_printf(s, "  %-24s ", r.labels[c]);
		if (isnan(paired[c].ratio.ratio))
			g_string_append(s, "no ratio");
		else if (isnan(paired[c].ratio.low))
			g_string_append_printf(s, "%.3f", paired[c].ratio.ratio);
		else
			g_string_append_printf(s, "%.3f [%.3f, %.3f]", paired[c].ratio.ratio, paired[c].ratio.low,
					       paired[c].ratio.high);
		if (rc->alive)
			g_string_append(s, i == 0 ? "  best still in the race\n" : "  still in the race\n");
		else
			g_string_append_printf(s, "  dropped after round %zu: %s\n", rc->dropped_round,
					       rc->reason ? rc->reason : "");
	}
	ab_tune_replay_clear(&r);
}
