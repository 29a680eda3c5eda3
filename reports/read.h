/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_READ_H
#define AB_READ_H

/* What the readers (json-read.c, csv-read*.c) share; not part of report.h. */

#include <glib.h>
#include <stdint.h>

#include "../src/model/run.h"
#include "../workloads/phase.h"

/* text quoted for a message: 'text', cut after a few dozen characters
 * (a line may be megabytes), control characters and bytes that are no
 * UTF-8 spelled out as \xNN. */
char *ab_read_quote(const char *text);

/* Fields of a CSV line (every comma splits; no quoting): their count, and
 * the fields themselves.  By hand, in one pass: g_strsplit rescans the
 * rest of the line per field, which a line of a million commas makes
 * quadratic (under ASan's strstr). */
guint ab_csv_count_fields(const char *line);
char **ab_csv_split(const char *line);

/* Strict field parsers of the CSV readers: FALSE unless the whole text is
 * one.  A count is decimal digits only (no sign, no space), below AB_UNSET;
 * a number is digits with at most one decimal point. */
gboolean ab_csv_parse_count(const char *text, uint64_t *out);
gboolean ab_csv_parse_number(const char *text, double *out);
/* bonnie++'s file size: "<n>M" or "<n>G" (MiB, GiB) to bytes. */
gboolean ab_csv_parse_file_size(const char *text, uint64_t *bytes);

/* Sets "field N (name): 'value' is not what" (N 1-based, as people count
 * columns) and returns FALSE. */
gboolean ab_csv_field_error(GError **error, int col, const char *name, const char *value, const char *what);

/* Phase ph's rate and CPU (columns rate_col, rate_col + 1) and maximum
 * latency (latency_col, -1 for none) to a result appended to run, keyed by
 * run->cond; no result when all three are empty. */
gboolean ab_csv_read_phase(struct ab_run *run, const struct ab_phase *ph, char *const *fields, int rate_col,
			   int latency_col, GError **error);

/* Figures at or above this are refused by the readers: no rate, time or
 * count of a run comes near it, and the writers' casts stay defined. */
#define AB_READ_MAX_FIGURE 1e15

#endif
