/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_STATE_H
#define AB_TUNE_STATE_H

/*
 * What a tune's results directory holds of its inputs: DIR/tune.ini, the
 * resolved options, the visits' run words and every candidate, its
 * SHA-256 in DIR/matrix.sha256 (the matrix's state, src/matrix/
 * matrix-state.h, under the copy name tune.ini).  Nothing else is saved:
 * the same command again makes the same text, finds the same digest and
 * resumes, the visits done read back from results.jsonl and the decisions
 * made again from them; another command makes another text, and the first
 * line that differs says what.
 */

#include <glib.h>
#include <stdint.h>

#include "tune-options.h"

#define AB_TUNE_INI "tune.ini"
#define AB_TUNE_TEXT "tune.txt"
#define AB_TUNE_JSON "tune.json"

struct ab_tune_ini {
	const char *objective;       /* resolved: "max:block-write" */
	const struct ab_tune_opts *o;
	const char *space;           /* the space's name or file */
	const char *plan;            /* "race whole", "screen" */
	GPtrArray *visit_words;      /* char *: "run" and the words every visit shares */
	const char *workload_sha256; /* --whole-workload: the SHA-256 of its profile's text (the visit
				      * words name it only), else NULL and no line */
	GPtrArray *candidates;       /* struct ab_candidate * (src/tune/candidates.h) */
};

/* The text of tune.ini; its `seed` is --seed, else one taken from the
 * SHA-256 of the rest (so the same inputs draw the same orders), given
 * back in *seed. */
char *ab_tune_ini_text(const struct ab_tune_ini *in, uint64_t *seed);

/* The first line in which two tune.ini texts differ (either may be the
 * empty string where one ends first); FALSE when they are the same. */
gboolean ab_tune_ini_differs(const char *stored, const char *now, char **stored_line, char **now_line);

#endif
