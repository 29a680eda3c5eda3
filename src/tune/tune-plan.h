/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_PLAN_H
#define AB_TUNE_PLAN_H

/*
 * What each visit of a tune runs: the run words every visit shares (the
 * target options, then the workload narrowed to the step the objective
 * reads), and the candidates as the cells of an in-memory matrix
 * (src/matrix/matrix-cells.h), so that the visits go through the
 * matrix's machinery (its results directory, recovery and visits).
 */

#include <glib.h>
#include <stdint.h>

#include "tune-options.h"
#include "../matrix/matrix-cells.h"
#include "../model/objective.h"
#include "../options/config.h"

/* "run", then the run words of o, with a --workload narrowed (unless
 * --whole-workload) to the first step that runs the objective's phase:
 * the profile's [workload] words, that step's, then the user's other
 * words; commits: its --wal-sync and --wal-records the objective's cell;
 * iops and p99: its --oltp-procs the first count.  char *, to unref.
 * NULL (AB_ERROR_USAGE) when the workload has no such step. */
GPtrArray *ab_tune_visit_words(const struct ab_tune_opts *o, const struct ab_objective *obj, GError **error);

/* Do the visits (cfg: their options, checked and finished, each step's
 * config) run the phase the objective reads?  FALSE (AB_ERROR_USAGE, one
 * line naming the objective and the phases they do run) when not: every
 * visit would give no figure, and the race would spend the whole budget
 * on nothing. */
gboolean ab_tune_objective_run(const struct ab_config *cfg, const struct ab_objective *obj, GError **error);

/* The SHA-256 of the text of the profile the visit words name
 * (--workload NAME|FILE, as run reads it), or NULL: none named (no error)
 * or unreadable (*error set). */
char *ab_tune_workload_sha256(GPtrArray *visit_words, GError **error);

/* The matrix whose cells are the candidates (struct ab_candidate *,
 * src/tune/candidates.h): cell k's label is label_prefix and candidate
 * k's label, its argv the visit words and then the candidate's words.
 * seed: the visits' (ab_matrix_visit_seed()); sha256: tune.ini's digest. */
struct ab_matrix *ab_tune_matrix_new(GPtrArray *visit_words, GPtrArray *candidates, const char *label_prefix,
				     uint64_t seed, const char *sha256);

#endif
