/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_OPTION_SETS_H
#define AB_RUN_OPTION_SETS_H

/* `arraybench run`'s option sets (src/options/option-table.h), one per file:
 * the run's own (general, target, bonnie++, output: in --help's order,
 * which mixes them) and one per phase family.  run-options.c parses with
 * them in this order, which is --help's. */

#include "option-table.h"

enum ab_run_option_set {
	AB_RUN_OPTIONS_GENERAL, /* src/options/run-option-rows.c */
	AB_RUN_OPTIONS_SWEEP,   /* src/options/sweep-option-rows.c */
	AB_RUN_OPTIONS_WAL,     /* src/options/wal-option-rows.c */
	AB_RUN_OPTIONS_OLTP,    /* src/options/oltp-option-rows.c */
	AB_RUN_OPTIONS_CURVE,   /* src/options/curve-option-rows.c */
	AB_RUN_OPTION_SETS
};

extern const struct ab_option_set ab_general_options;
extern const struct ab_option_set ab_sweep_options;
extern const struct ab_option_set ab_wal_options;
extern const struct ab_option_set ab_oltp_options;
extern const struct ab_option_set ab_curve_options;

#endif
