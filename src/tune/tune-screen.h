/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_SCREEN_H
#define AB_TUNE_SCREEN_H

/*
 * What a tune does with its screening stage's rounds (tune-rounds.h's
 * stage over ab_candidates_one_at_a_time()): src/model/race-screen.h's
 * analysis, said a line per change (best ratio to the defaults first) and
 * per key, and the candidates of the race after it.
 */

#include <glib.h>

#include "space.h"
#include "tune-rounds.h"

/* A race after screening ranks at least this many candidates: when the
 * product of the kept values is smaller (the defaults alone, when no key
 * was told to matter in the rounds screening had), the best one-key
 * changes by their screening ratio join it, so the rest of the budget
 * ranks the leaders instead of going unused. */
#define AB_TUNE_RACE_AFTER_SCREEN_MIN 4u

/* st: the screening stage of `resolved` (its candidates the one-at-a-time
 * set).  Returns the race's candidates (struct ab_candidate *, the
 * defaults first): the product of the values each key keeps, joined by
 * the best one-key changes not worse than the defaults, best first, while
 * it has fewer than `at_least`; appends to `lines` what screening found
 * (and which changes joined).  NULL with *error when st is not such a
 * stage or the product is too large. */
GPtrArray *ab_tune_screened(const struct ab_space *resolved, const struct ab_tune_stage *st, guint at_least,
			    GPtrArray *lines, GError **error);

#endif
