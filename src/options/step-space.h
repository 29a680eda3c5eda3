/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEP_SPACE_H
#define AB_STEP_SPACE_H

/*
 * The room the steps of a run take in DIR, known before any phase runs:
 * each phase family states what one of its steps lays out (its family
 * row's `space`, src/options/phase-family.h), and the
 * steps are walked in order, the test file carried from one to the next,
 * so the check counts only what the chosen steps really write.
 */

#include <glib.h>
#include <stdint.h>

#include "step-room.h"
#include "../../workloads/step.h"

/* What one step takes: its family's statement, or for a phase without one
 * (bonnie++'s and the latency curve) what its flags say. */
void ab_step_space(const struct ab_step *step, struct ab_step_space *out);

/* The most the steps hold at once over `repeats` passes (the test file
 * stays from one pass to the next): the bytes, the step's index and what
 * they are ("the 300M test file and 1 wal log of 16M"); 0 for none. */
struct ab_space_need {
	uint64_t bytes;
	guint step;
	uint64_t test_file;
	struct ab_step_space at;
};
void ab_steps_space_need(const GArray *steps, unsigned repeats, struct ab_space_need *out);

/* FALSE (AB_ERROR_SKIPPED, naming dir, the step and its files) when the
 * most the steps hold at once is over free_bytes; free_bytes 0: unknown,
 * TRUE. */
gboolean ab_steps_check_space(const GArray *steps, unsigned repeats, const char *dir, uint64_t free_bytes,
			      GError **error);

#endif
