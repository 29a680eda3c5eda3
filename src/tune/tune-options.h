/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_OPTIONS_H
#define AB_TUNE_OPTIONS_H

/*
 * `arraybench tune`'s command line: its own options (-o, --objective,
 * --budget, --space, --keys, ...) and the run options it passes on to
 * every visit (the target, --workload or the phase options), told apart
 * by the tune's rows and the run's (src/options/run-option-parse.h).
 */

#include <glib.h>
#include <stdint.h>

/* The most rounds of one stage, whatever the budget. */
#define AB_TUNE_MAX_ROUNDS 50u
/* The most visits a budget may name. */
#define AB_TUNE_MAX_VISITS 1000000u

struct ab_tune_budget {
	unsigned visits;  /* a number of visits; 0 for a time */
	double seconds;   /* a time; NAN for a number of visits */
};

struct ab_tune_opts {
	char *out_dir;
	char *objective;       /* --objective SPEC */
	char *budget_text;     /* as given */
	struct ab_tune_budget budget;
	char *space;           /* --space FILE|NAME; NULL: the built-in space of --fs */
	char *keys;            /* --keys K,K; NULL: every key */
	gboolean allow_unsafe;
	double alpha;
	unsigned min_rounds;
	uint64_t seed;
	gboolean seed_given;
	gboolean quiet;
	gboolean dry_run;
	gboolean whole_workload;
	GPtrArray *run_words;  /* char *: the run options given, in order ("--loop", "2:1G", ...) */
};

void ab_tune_opts_init(struct ab_tune_opts *o);
void ab_tune_opts_clear(struct ab_tune_opts *o);

/* "2h", "20m", "90s" (a time) or a whole number of visits. */
gboolean ab_tune_budget_parse(const char *text, struct ab_tune_budget *out, GError **error);

/* argv (argv[0] "tune") into o: the tune's options by its rows, the rest
 * kept as run words.  --help prints the tune's options and exits.  FALSE
 * with one AB_ERROR_USAGE line on a bad option, a missing required one
 * (-o, --objective, --budget; -o not with --dry-run) or a run option the
 * tune sets itself (-d: a target must be built; --mkfs-opts, --mount-opts,
 * --no-stripe-hint: the candidates'; -x, --csv, --json, --sweep-csv). */
gboolean ab_tune_options_parse(int argc, char **argv, struct ab_tune_opts *o, GError **error);

#endif
