/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEP_ROOM_H
#define AB_STEP_ROOM_H

/* What one step states it lays out in DIR: the words a phase family's
 * `space` (src/options/phase-family.h) fills in, and the two helpers it writes
 * them with.  The walk over the steps is src/options/step-space.h's. */

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "../../workloads/step.h"

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

/* A size in a family's words: "1G", "16M", "64k", "100" (bytes), exact. */
void ab_space_size_text(uint64_t bytes, char *out, size_t len);
/* a * b, or UINT64_MAX when that overflows: a need too large never wraps
 * round to a small one. */
uint64_t ab_space_mul(uint64_t a, uint64_t b);

#endif
