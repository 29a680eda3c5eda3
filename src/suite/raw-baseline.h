/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RAW_BASELINE_H
#define AB_RAW_BASELINE_H

/* run --raw-baseline: the target's block devices read raw (src/suite/rawdev.c)
 * once they exist and before mkfs, their rows added to every run. */

#include <glib.h>

#include "rawdev.h"
#include "../../fs-setup/target.h"

struct ab_raw_baseline {
	struct ab_raw_params params;
	GPtrArray *results; /* struct ab_result *: the md array first, then each member */
};

void ab_raw_baseline_init(struct ab_raw_baseline *rb);
void ab_raw_baseline_clear(struct ab_raw_baseline *rb);
/* An ab_target_hook_fn (data: the struct ab_raw_baseline). */
gboolean ab_raw_baseline_measure(const struct ab_target *t, void *data, GError **error);
/* Copies of the rows, appended to run. */
void ab_raw_baseline_add(const struct ab_raw_baseline *rb, struct ab_run *run);

#endif
