/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_ROUNDS_H
#define AB_TUNE_ROUNDS_H

/*
 * The rounds of one stage of a tune (a race, or screening): round r visits
 * every candidate still alive once, in a fresh random order drawn from
 * (seed, stage, r); after each round the race module decides whom to drop
 * (src/model/race.h; screening drops no one).  The stage ends with one
 * candidate left, when the budget cannot pay for another full round, or at
 * the round cap.
 *
 * The visit is the caller's function, so the loop runs without building
 * anything (test-tune-rounds drives it with a fake visit and clock).  A
 * visit already in the results (a resume) is handed back by the same
 * function as `done`: it costs no time now, and the decisions made from
 * the same figures are the same.
 */

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tune-options.h"
#include "../model/race.h"

/* One visit of candidate c in round r (1-based): its figure (NAN when the
 * visit failed or lacks it), *done when it was in the results already.
 * 0, or the exit status that stops the tune (AB_ERROR_INTERRUPTED...). */
typedef int (*ab_tune_visit_fn)(void *data, size_t candidate, unsigned round, double *figure, bool *done,
				GError **error);
/* Seconds on a monotonic clock. */
typedef double (*ab_tune_clock_fn)(void *data);

enum ab_tune_end {
	AB_TUNE_RUNNING,
	AB_TUNE_DECIDED,     /* one candidate left */
	AB_TUNE_BUDGET,      /* the budget cannot pay for another full round */
	AB_TUNE_ROUND_CAP,   /* AB_TUNE_MAX_ROUNDS (or the caller's cap) */
	AB_TUNE_STOPPED,     /* a visit's status stopped it (interrupted, results not written) */
};
const char *ab_tune_end_words(enum ab_tune_end end);

/* What the budget has left: visits, or seconds. */
struct ab_tune_spend {
	unsigned visits;         /* made, now or before (done) */
	unsigned timed;          /* made now, timed */
	double seconds;          /* the time of those made now */
	double done_cost_s;      /* the estimate of one visit made before (a resume): 0 when none is known */
	unsigned done;           /* made before */
};

struct ab_tune_stage {
	/* In */
	const char *stage;            /* "race", "screen" */
	size_t candidates;
	size_t defaults;
	const char *const *labels;
	struct ab_race_params params;
	bool drops;                   /* a race drops; screening does not */
	bool whole_rounds;            /* a time budget starts a round whole or not at all (screening:
				       * its analysis and a resume want complete rounds) */
	uint64_t seed;
	struct ab_tune_budget budget; /* this stage's share */
	unsigned max_rounds;
	ab_tune_visit_fn visit;
	void *visit_data;
	ab_tune_clock_fn clock;
	void *clock_data;
	/* Out */
	GArray *y;                    /* double: y[round * candidates + candidate] */
	size_t rounds;                /* complete or not */
	struct ab_race *race;
	GArray *alive_after;          /* size_t: the candidates alive after each round's decision */
	struct ab_tune_spend spend;
	enum ab_tune_end end;
	unsigned failed;              /* visits whose figure is NAN */
};

/* Ready to run: the table empty, every candidate alive.  FALSE with
 * AB_ERROR_USAGE for bad race parameters. */
gboolean ab_tune_stage_init(struct ab_tune_stage *st, GError **error);
void ab_tune_stage_clear(struct ab_tune_stage *st);

/* The order of round r's visits: the alive candidates (alive[c]) in a
 * fresh random order drawn from (seed, stage, round) alone; n of them in
 * out (room for every candidate). */
size_t ab_tune_round_order(uint64_t seed, const char *stage, unsigned round, const bool *alive, size_t candidates,
			   size_t *out);

/* Can the budget pay for a round of `visits` more?  A number of visits:
 * that many left.  A time: the spend so far plus the round at the mean
 * cost of a visit may overrun by at most one visit's time; before any
 * visit was timed the round is allowed (there is nothing to estimate
 * from). */
bool ab_tune_budget_allows(const struct ab_tune_budget *budget, const struct ab_tune_spend *spend, size_t visits);

/* The time a stage has spent: its timed visits' seconds, and each visit a
 * resume found done at the estimate of one. */
double ab_tune_spent_s(const struct ab_tune_spend *spend);

/* The mean time of a visit so far; NAN when none. */
double ab_tune_visit_cost(const struct ab_tune_spend *spend);

/* The rounds, until the stage ends.  0, or the status that stopped it
 * (with *error).  A time budget also ends a round part way: once the
 * time is spent no visit starts (the first round, with no visit's time
 * to estimate from, is bounded so); that round stays in the table,
 * incomplete, and decides nothing. */
int ab_tune_stage_run(struct ab_tune_stage *st, GError **error);

#endif
