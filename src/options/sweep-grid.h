/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SWEEP_GRID_H
#define AB_SWEEP_GRID_H

/* The grid of a record-size sweep (iozone's -a): which (file size, record
 * size) cells run, and the parsers of the two size lists.  Pure: no I/O. */

#include <glib.h>
#include <stdint.h>

#include "../base/units.h"

#define AB_SWEEP_KIB ((uint64_t)1 << 10)

/* iozone -a's defaults: both lists double from the first to the last. */
#define AB_SWEEP_DEFAULT_FILE_MIN (64 * AB_SWEEP_KIB)
#define AB_SWEEP_DEFAULT_FILE_MAX (512 * AB_MIB)
#define AB_SWEEP_DEFAULT_RECORD_MIN (4 * AB_SWEEP_KIB)
#define AB_SWEEP_DEFAULT_RECORD_MAX (16 * AB_MIB)

/* iozone's crossover: files larger than this (32 MiB and up when doubling)
 * skip records smaller than AB_SWEEP_CROSSOVER_RECORD, unless records were
 * given explicitly. */
#define AB_SWEEP_CROSSOVER_FILE (16 * AB_MIB)
#define AB_SWEEP_CROSSOVER_RECORD (64 * AB_SWEEP_KIB)

/* Most values one list may hold (after duplicates are removed). */
#define AB_SWEEP_MAX_ENTRIES 64

struct ab_sweep_grid {
	GArray *file_sizes; /* uint64_t bytes, ascending, no duplicates */
	GArray *records;    /* uint64_t bytes, ascending, no duplicates */
	gboolean records_given; /* explicit records: no crossover */
};

struct ab_sweep_cell {
	uint64_t file_size;
	uint64_t record;
};

/* Fills `g` with iozone -a's grid (records not given, so the crossover
 * applies).  `g` must be zeroed or hold a grid, which is freed first. */
void ab_sweep_grid_default(struct ab_sweep_grid *g);

/* Frees what `g` holds and zeroes it; safe to call twice. */
void ab_sweep_grid_clear(struct ab_sweep_grid *g);

/* The cells to run, as struct ab_sweep_cell in row order (file size, then
 * record): a record never larger than its file, and the crossover when
 * records were not given.  Never NULL; may be empty. */
GArray *ab_sweep_grid_cells(const struct ab_sweep_grid *g);

/* File sizes: "LIST" (comma-separated) or "MIN-MAX" (doubling from MIN up
 * to MAX, both powers of two).  Each value a multiple of 4 KiB within
 * [min, max].  On success *out is a new ascending, duplicate-free array of
 * uint64_t; errors name `option` and the bad value (AB_ERROR_USAGE). */
gboolean ab_sweep_parse_sizes(const char *option, const char *text, uint64_t min, uint64_t max,
			      GArray **out, GError **error);

/* Record sizes: as ab_sweep_parse_sizes(), but every value a power of two. */
gboolean ab_sweep_parse_records(const char *option, const char *text, uint64_t min, uint64_t max,
				GArray **out, GError **error);

#endif
