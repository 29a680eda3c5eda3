/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CANDIDATES_H
#define AB_CANDIDATES_H

/*
 * The candidates of a resolved search space (space.h's ab_space_resolve()):
 * each one value per key, as the run words a visit passes (--mkfs-opts,
 * --mount-opts, --no-stripe-hint), with a short label that says what it
 * changes.  The candidate of every key's default comes first, labelled
 * "defaults", with no words.
 *
 * A key of mkfs words costs a visit no more than a mount option: every
 * visit builds, formats and mounts its own file system, as a matrix's
 * does, so a candidate's mkfs words are simply in the next mkfs.
 *
 * Two sets: the product of the keys' values (the race; `keep` narrows a
 * key to the values that mattered in screening), and the one-at-a-time
 * set (the defaults, then each single change), the screening step's.
 * They fit src/model/race-screen.h as they are: a key's values are its
 * `values`, its default value 0 (`defaults` all 0), the one-at-a-time set
 * is the screening's candidates in its order, and a screening key's
 * `keep[v]` is bit v of that key's `keep` mask here (test-tune-space).
 */

#include <glib.h>
#include <stdint.h>

#include "space.h"

/* More candidates than this are refused: screen, or narrow the space. */
#define AB_CANDIDATES_MAX 10000u

struct ab_candidate {
	char *label;        /* "defaults", "noatime,commit=30,inode-size=512": the non-default
			     * values' labels in key order, joined by ',' */
	char *mount_opts;   /* "noatime,commit=30" (the keys' order); NULL: none added */
	char *mkfs_opts;    /* "-I 512 -J size=128"; NULL: none added */
	gboolean no_stripe_hint;
	gboolean unsafe;    /* a value can lose data on power loss (only with allow_unsafe) */
	GPtrArray *argv;    /* char *: run's words, "--mkfs-opts" "-I 512" "--mount-opts"
			     * "noatime" "--no-stripe-hint" (those it has, in that order);
			     * empty for the defaults */
	guint n_keys;
	guint *choice;      /* per key of the space: the index of its value, 0 the default */
};

void ab_candidate_free(gpointer candidate);

/* How many candidates ab_candidates_product() would make (G_MAXUINT64 when
 * the count does not fit). */
guint64 ab_candidates_count(const struct ab_space *resolved, const guint32 *keep);

/* Every combination of one value per key, the defaults first, then in the
 * keys' order with the last key changing fastest (stable: the same space
 * gives the same list).  keep: NULL for every value, else one mask per
 * key of the values to try (bit v: value v; the default is always in).
 * struct ab_candidate *, to g_ptr_array_unref; NULL (AB_ERROR_USAGE) when
 * there would be more than AB_CANDIDATES_MAX, or when two would have one
 * label (a value with a ',' repeating other keys' values together). */
GPtrArray *ab_candidates_product(const struct ab_space *resolved, const guint32 *keep, GError **error);

/* The defaults, then each key's each other value alone, in the space's
 * order: 1 + the sum of (values - 1) candidates. */
GPtrArray *ab_candidates_one_at_a_time(const struct ab_space *resolved);

/* Appends to `to` the candidate of one value per key (choice[k] its
 * index) unless a candidate of the same choice is already there: TRUE
 * when it was added.  The race after screening adds the best one-key
 * changes this way to a product of kept values too small to rank. */
gboolean ab_candidates_add_choice(GPtrArray *to, const struct ab_space *resolved, const guint *choice);

#endif
