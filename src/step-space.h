/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEP_SPACE_H
#define AB_STEP_SPACE_H

/*
 * The room the steps of a run take in DIR, known before any phase runs:
 * each phase family states what one of its steps lays out (its driver's
 * `space`, src/phase-driver.h, a function beside the driver), and the
 * steps are walked in order, the test file carried from one to the next,
 * so the check counts only what the chosen steps really write.
 */

#include <glib.h>
#include <stdint.h>

#include "../workloads/step.h"

struct ab_step_space {
	/* What the test file holds while the step runs (0: it leaves the
	 * file as it is). */
	uint64_t test_file;
	/* It truncates the test file before writing it: what the file held
	 * before is freed first. */
	gboolean anew;
	/* It leaves the test file empty when it ends (the sweep). */
	gboolean emptied;
	/* Its other files at the same time, in bytes and in words: wal logs,
	 * small files, other streams' files ("1 wal log of 16M"). */
	uint64_t beside;
	char beside_what[96];
};

/* A family's statement: fills *out (zeroed by the caller) for `step`. */
typedef void (*ab_step_space_fn)(const struct ab_step *step, struct ab_step_space *out);

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

/* A size in a family's words: "1G", "16M", "64k", "100" (bytes), exact. */
void ab_space_size_text(uint64_t bytes, char *out, size_t len);
/* a * b, or UINT64_MAX when that overflows: a need too large never wraps
 * round to a small one. */
uint64_t ab_space_mul(uint64_t a, uint64_t b);

#endif
