/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEXT_BLOCK_H
#define AB_TEXT_BLOCK_H

/* The text writer's parts: reports/text.c writes a run as the blocks of
 * its table, in order, each that applies.  A block lives in a file of its
 * own (the sweep's grid in sweep-table.c, the wal table, the latency curve,
 * the per-rank rows of a run on many ranks in rank-table.c, the efficiency lines, the sizing statement, the findings, raw's header) and reaches
 * the others only through reports/format.h's number rules, so no block
 * includes the writer and the writer includes no block's internals. */

#include "report.h"

struct ab_text_block {
	const char *name;
	/* Does the run hold what the block shows?  (Cheap: which results it
	 * has.  The block may still find nothing to say: a member whose raw
	 * read was not measured leaves no honest efficiency.) */
	gboolean (*applies)(const struct ab_run *run);
	/* Appends the block to s. */
	void (*append)(GString *s, const struct ab_run *run);
};

/* Does the run hold a result that `is` says yes to? */
gboolean ab_text_run_has(const struct ab_run *run, gboolean (*is)(const struct ab_result *r));

/* After a set's runs: the summary of a tune's race, when the set holds a
 * tune's runs (reports/tune-table.c); nothing otherwise. */
void ab_text_tune_summary(GString *s, const struct ab_run_set *set);

extern const struct ab_text_block ab_text_block_raw_header, ab_text_block_sweep, ab_text_block_wal,
	ab_text_block_curve, ab_text_block_ranks, ab_text_block_efficiency, ab_text_block_sizing,
	ab_text_block_findings;

#endif
