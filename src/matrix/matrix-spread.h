/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_SPREAD_H
#define AB_MATRIX_SPREAD_H

#include <glib.h>

/* matrix --repeat-until: has a cell's spread become small enough?  TRUE
 * when each rate its runs (struct ab_run *, failed ones skipped) measured
 * was measured by at least min_runs of them and its coefficient of
 * variation over them (ab_stats_describe) is at most cv_limit (a fraction:
 * 0.05 for 5 %).  A cell with no measurable rate never settles. */
gboolean ab_matrix_settled(GPtrArray *runs, double cv_limit, unsigned min_runs);

#endif
