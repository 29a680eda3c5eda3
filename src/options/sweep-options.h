/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SWEEP_OPTIONS_H
#define AB_SWEEP_OPTIONS_H

/* The sweep's part of finishing a config and the room of its steps (its
 * family row, src/options/phase-family.h; its driver, src/suite/sweep-run.c). */

#include <glib.h>
#include <stdint.h>

#include "phase-family.h"

/* The first sweep option given, for the message when no sweep runs. */
const char *ab_sweep_option_given(const struct ab_config *cfg);
/* A sweep step's results: a result per test of each cell, a pass of the
 * grid per --streams count. */
uint64_t ab_sweep_results(const struct ab_config *cfg);
/* Its grid (iozone -a's where no list was given), tests, timing rule and
 * streams checked; AB_ERROR_SKIPPED when its random tests' order of
 * records would take over half the RAM. */
gboolean ab_sweep_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error);

/* Its room (src/options/step-space.h): the largest cell's file for each of the
 * most streams' files at once, the test file the first (or, shared, the
 * one file of all their regions), made anew and left empty. */
void ab_sweep_space(const struct ab_step *step, struct ab_step_space *out);

#endif
