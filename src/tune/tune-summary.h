/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_SUMMARY_H
#define AB_TUNE_SUMMARY_H

/*
 * The end of a tune, as text (standard output and DIR/tune.txt) and JSON
 * (DIR/tune.json): the winner and the runners-up still in the race, each
 * with its ratio to the defaults and its interval (paired over the rounds
 * both have a figure in); each dropped candidate, the round it was dropped
 * in and why; the winner's mkfs words, mount options and an /etc/fstab
 * line; what the budget did not allow; the values left out as unsafe.
 */

#include <glib.h>

#include "tune-rounds.h"
#include "../model/objective.h"

/* One candidate's line. */
struct ab_tune_standing {
	size_t candidate;
	const char *label;
	bool alive;
	struct ab_race_paired paired;   /* against the defaults, at 1 - alpha */
	size_t rounds;                  /* rounds with a figure */
	double median;                  /* of its figures */
};

struct ab_tune_summary {
	const struct ab_objective *obj;
	const struct ab_tune_stage *race;
	const char *const *labels;      /* [race->candidates] */
	const char *const *mount_opts;  /* [race->candidates]: NULL for none */
	const char *const *mkfs_opts;   /* [race->candidates]: NULL for none */
	GPtrArray *omitted;             /* char *: "data=writeback (why)", the unsafe values left out */
	GPtrArray *not_allowed;         /* char *: what the budget did not allow, a line each */
	GPtrArray *screening;           /* char *: what screening found, a line each; NULL: none ran */
	char *mkfs_command;             /* the recommended candidate's, or NULL */
	char *fstab_line;               /* the recommended candidate's, or NULL */
	/* Made by ab_tune_summary_rank(): */
	GArray *standing;               /* struct ab_tune_standing: the alive best first, then the dropped
					 * in the order they were dropped (latest first) */
	size_t winner;                  /* the best alive: the winner when the race was decided, else
					 * the leading candidate; SIZE_MAX when no candidate has a figure */
	size_t recommended;             /* whose options the end gives (mount, mkfs, fstab): the
					 * winner, or the defaults when the race was not decided, the
					 * defaults are still in it and the leader's interval holds 1
					 * (not shown better than them); SIZE_MAX with the winner */
};

/* The standings of s->race (ratios to the defaults at 1 - alpha); the
 * winner: the alive candidate with the best geometric mean ratio to the
 * defaults (the defaults' own is 1). */
void ab_tune_summary_rank(struct ab_tune_summary *s);
/* One candidate left in the race with a figure (or the only one): the
 * best is the winner; else it only leads the survivors, and the options
 * the end gives are its only when it was shown better than the defaults
 * (s->recommended). */
bool ab_tune_summary_decided(const struct ab_tune_summary *s);
void ab_tune_summary_clear(struct ab_tune_summary *s);

/* For people: a few lines per candidate. */
char *ab_tune_summary_text(const struct ab_tune_summary *s);
/* For programs: one JSON object, on one line. */
char *ab_tune_summary_json(const struct ab_tune_summary *s);

#endif
