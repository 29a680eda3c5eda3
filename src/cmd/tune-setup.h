/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_SETUP_H
#define AB_TUNE_SETUP_H

/*
 * What `arraybench tune` works out before anything is built, and all that
 * --dry-run prints: the objective, the visits' words and options checked
 * as run checks them, the array's geometry, the space resolved on it and
 * its candidates, the plan (race whole or screen first) and the budget's
 * check, tune.ini's text and digest, and the in-memory matrix whose cells
 * are the candidates.  cmd-tune.c runs the stages on it.
 */

#include <glib.h>
#include <stdint.h>

#include "../matrix/matrix-cells.h"
#include "../model/objective.h"
#include "../model/race.h"
#include "../options/config.h"
#include "../tune/space.h"
#include "../tune/tune-options.h"
#include "../../fs-setup/plan.h"

/* What the command works out before anything is built. */
struct ab_tune_setup {
	struct ab_objective obj;
	GPtrArray *visit_words;    /* char * */
	struct ab_config cfg;      /* the visits' options, checked */
	enum ab_fs_type fs;
	struct ab_array_geometry geo;
	gboolean striped;          /* geo holds an md array's geometry */
	const char *btrfs_profile; /* the --array level of a btrfs target, else NULL */
	struct ab_space *space;
	struct ab_space *resolved;
	GPtrArray *omitted;        /* struct ab_space_omission * */
	GPtrArray *candidates;     /* struct ab_candidate * */
	enum ab_race_plan plan;
	char *ini;                 /* tune.ini's text */
	char *digest;
	uint64_t seed;
	struct ab_matrix *m;
};

/* Fills *p from the tune's options (clear it after, made or not). */
gboolean ab_tune_setup_make(const struct ab_tune_opts *o, struct ab_tune_setup *p, GError **error);
void ab_tune_setup_clear(struct ab_tune_setup *p);
/* --dry-run: the candidates, what was left out, the plan and a visit's words. */
void ab_tune_setup_print(const struct ab_tune_opts *o, const struct ab_tune_setup *p);
/* How many rounds screening gets of a budget of visits (0: not screened). */
unsigned ab_tune_screen_rounds(unsigned budget, size_t screen);

#endif
