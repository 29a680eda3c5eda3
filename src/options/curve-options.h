/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CURVE_OPTIONS_H
#define AB_CURVE_OPTIONS_H

/* The latency curve's part of finishing a config and the room of its steps
 * (its family row, src/options/phase-family.h; its driver, src/suite/curve-run.c). */

#include <glib.h>
#include <stdint.h>

#include "phase-family.h"

/* The first curve option given, for the message when no curve runs. */
const char *ab_curve_option_given(const struct ab_config *cfg);
/* A curve step's results: up to one per step, and the sizing row. */
uint64_t ab_curve_results(const struct ab_config *cfg);
/* Its parameters checked once it is asked for (a step's I/Os countable,
 * at least one I/O a process in the first step). */
gboolean ab_curve_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error);

#endif
