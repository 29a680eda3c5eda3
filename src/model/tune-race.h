/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_RACE_H
#define AB_TUNE_RACE_H

/*
 * The decision a tune makes after each round, and the race redone from
 * the runs a tune recorded (their tune stamps, struct ab_tune_stamp): the
 * tune (src/tune/tune-rounds.c) and `report` (reports/html-tuning.c) call
 * the same code, so the report shows the race the tune ran.
 */

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "objective.h"
#include "race.h"
#include "race-screen.h"

/* A candidate whose visits give no figure in this many rounds is dropped
 * by the tune itself: Friedman's test needs complete rounds, and one that
 * keeps failing would stall the race (race.h). */
#define AB_TUNE_FAILED_ROUNDS_DROP 2u

/* After a complete round (t->rounds of them): a candidate alive with no
 * figure in AB_TUNE_FAILED_ROUNDS_DROP rounds is dropped with its reason
 * (while another is left), then ab_race_decide().  How many it dropped. */
size_t ab_tune_race_decide(struct ab_race *race, const struct ab_race_table *t);

/* The race of a tune's "race" stage, redone from its runs. */
struct ab_tune_replay {
	struct ab_objective obj;   /* the stamps' */
	size_t candidates;         /* the highest index stamped, + 1 */
	char **labels;             /* [candidates]: "candidate N" where no run names it */
	size_t rounds;
	double *y;                 /* [rounds * candidates]: the objective's figure, NAN for none */
	bool *visited;             /* [rounds * candidates]: a run was recorded (failed or not) */
	size_t *alive_after;       /* [rounds]: alive after the round's decision */
	bool *decided;             /* [rounds]: the round was complete, so decided on */
	struct ab_race *race;      /* as it stands after the last round */
};

/* The stages a tune stamps its runs with. */
#define AB_TUNE_STAGE_RACE "race"
#define AB_TUNE_STAGE_SCREEN "screen"

/* runs: struct ab_run *, any (only those stamped by a tune's `stage`
 * count: AB_TUNE_STAGE_RACE, whose rounds are decided as the tune decided
 * them, or AB_TUNE_STAGE_SCREEN, whose candidates all stay); phases: the
 * phase names an objective may give (objective.h).  FALSE without an
 * error when no run is of that stage; FALSE with one when their stamps
 * disagree (two objectives, two levels). */
gboolean ab_tune_replay_make(GPtrArray *runs, const char *const *phases, const char *stage,
			     struct ab_tune_replay *out, GError **error);
void ab_tune_replay_clear(struct ab_tune_replay *r);
/* The standings: each candidate's ratio to the defaults paired over the
 * rounds (ab_race_paired_ratio(), at 1 - alpha) and their order, the
 * alive first by ratio in the objective's direction (no ratio last), then
 * the dropped, the latest drop first.  paired, order: [r->candidates]. */
void ab_tune_replay_rank(const struct ab_tune_replay *r, struct ab_race_paired *paired, size_t *order);
/* A screening stage's replay: each change (candidate c >= 1, change c - 1)
 * against the defaults as the tune compared them
 * (ab_race_screen_compare(): paired, Holm's correction over all), and
 * order[r->candidates - 1] the changes best ratio first.  No keys: the
 * runs name the changes, not the space.  ab_race_screen_clear() after. */
void ab_tune_replay_screen(const struct ab_tune_replay *r, struct ab_race_screen *screen, size_t *order);

#endif
