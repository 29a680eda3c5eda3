/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_OPTION_PARSE_H
#define AB_RUN_OPTION_PARSE_H

/* `arraybench run`'s option words through its rows, with no profile: what
 * a profile's keys (src/options/profile.c) and the matrix check words with, and
 * what src/options/run-options.c parses each step's words with. */

#include <glib.h>

#include "config.h"
#include "option-table.h"

/* argv (argv[0] "run") parsed into cfg, profile or not: every word an
 * option of the rows. */
gboolean ab_run_option_parse_words(int argc, char **argv, struct ab_config *cfg, GError **error);
/* Is `arg` an option whose value is the next word ("-d DIR", "--csv FILE")? */
gboolean ab_run_option_takes_next_word(const char *arg);
/* One option word ("--streams=4") parsed alone, for a profile's keys:
 * TRUE when the option parser takes it. */
gboolean ab_run_options_check_word(const char *word, GError **error);
/* Is there a run option of this long name? */
gboolean ab_run_option_known(const char *long_name);
/* Does -C take the rest of its word as its value ("-f3m")?  Otherwise
 * the next letter of "-CX" is an option too: GLib reads "-bq" as -b -q
 * and "-sq 1g" as -s 1g -q. */
gboolean ab_run_option_takes_rest(char short_name);
/* The run's option rows (src/options/run-option-sets.h), in --help's order. */
const struct ab_option_set *ab_run_option_sets(size_t *n_sets);
/* The row of a long name ("streams"), or NULL. */
const struct ab_option_row *ab_run_option_row(const char *long_name);
/* "--NAME" of the first option of `family` (in the rows' order) that cfg's
 * parse took, or NULL: one rule for every family. */
const char *ab_run_option_given(const struct ab_config *cfg, enum ab_option_family family);
/* Does a matrix set this option word ("-x", "--repeats") for each cell
 * itself, so that no cell's options may? */
gboolean ab_run_option_matrix_own(const char *word);
/* Comma-separated phase names ("all": bonnie++'s) into cfg->phase_ids, in
 * the order given (a phase named twice runs twice). */
gboolean ab_parse_phase_list(const char *text, struct ab_config *cfg, GError **error);

#endif
