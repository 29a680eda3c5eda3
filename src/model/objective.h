/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OBJECTIVE_H
#define AB_OBJECTIVE_H

/*
 * What `arraybench tune` optimises (--objective SPEC): one figure read off
 * each visit's run, and whether more or less of it is better.
 *
 *   commits[:SYNC[:RECORD]]  the wal phase's commits/s with that sync
 *                            method and commit (fdatasync, 8k: what
 *                            PostgreSQL does on Linux)
 *   iops                     oltp's "all" row (reads and writes), the first
 *                            one the run made (the first --oltp-procs)
 *   p99                      the p99 latency of that row, lower is better
 *   curve                    the latency curve's answer: the rate at the
 *                            p99 target
 *   PHASE                    that phase's rate (its first result; oltp's
 *                            "all" row, the latency curve's answer)
 *   PHASE:p99                that result's p99 latency, lower is better
 *
 * A "min:" or "max:" prefix sets the direction instead.  Pure: the phase
 * names a SPEC may give are the caller's list (the model knows no phase
 * table).
 */

#include <glib.h>
#include <stdint.h>

#include "run.h"

enum ab_objective_figure {
	AB_OBJECTIVE_RATE,  /* the result's rate, in its phase's unit */
	AB_OBJECTIVE_P99,   /* its p99 latency, in milliseconds */
};

struct ab_objective {
	char *spec;          /* as given */
	char *name;          /* the same, every default filled in: "max:commits:fdatasync:8k" */
	char *phase;         /* whose result: "wal", "oltp", "latency-curve", a phase name */
	char *test;          /* the result's test ("all", "sizing", "fdatasync", "fdatasync 2x8k"); NULL: the first */
	/* commits only: the cell the wal phase must run (NULL elsewhere) */
	char *wal_sync;      /* "fdatasync" */
	char *wal_record;    /* "8k", "2x8k": as --wal-records takes it */
	uint64_t wal_writes;     /* 2 of "2x8k" */
	uint64_t wal_bytes;      /* the whole commit: 16384 of "2x8k" */
	enum ab_objective_figure figure;
	gboolean higher_is_better;
};

/* A SPEC parsed; phases: the phase names a SPEC may name (NULL-ended).
 * FALSE with one AB_ERROR_USAGE line naming the bad SPEC. */
gboolean ab_objective_parse(const char *spec, const char *const *phases, struct ab_objective *out, GError **error);
void ab_objective_clear(struct ab_objective *obj);

/* The figure of a run: NAN when the run failed or lacks it. */
double ab_objective_extract(const struct ab_objective *obj, const struct ab_run *run);

/* "higher is better" or "lower is better". */
const char *ab_objective_direction_word(const struct ab_objective *obj);

#endif
