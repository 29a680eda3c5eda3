/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEPS_H
#define AB_STEPS_H

#include <glib.h>

#include "config.h"

/* The run's steps (struct ab_step) from a finished config: one per entry
 * of cfg->phase_ids, in that order, each with its own copy of the sizes and
 * rules it runs with.  Pure: touches nothing. */
GArray *ab_steps_build(const struct ab_config *cfg);
/* One step of `phase` with the config's parameters. */
struct ab_step ab_step_from_config(const struct ab_config *cfg, const struct ab_phase *phase);

#endif
