/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_FILE_H
#define AB_MATRIX_FILE_H

/*
 * A matrix file (`arraybench matrix FILE`, man/arraybench-matrix.1) into a
 * plan: the cells, each the argv of one `arraybench run`, in the order of
 * the file's lists (levels, then file systems, mkfs options, mount options,
 * workloads; the last varies fastest).  Pure: nothing is read but the text
 * given, nothing is run.
 */

#include <glib.h>
#include <stdint.h>

#define AB_MATRIX_MAX_REPEATS 1000u
#define AB_MATRIX_DEFAULT_REPEATS 3u
#define AB_MATRIX_MAX_CELLS 10000u

struct ab_matrix_cell {
	char *label;     /* "btrfs-raid1 btrfs noatime bonnie": unique in the matrix */
	char *workload;  /* as the file names it, NULL without a workloads key */
	GPtrArray *argv; /* char *: "run" and the options; no -x, -z or -q (a visit adds them) */
	unsigned line;   /* what to blame when run refuses its options: the line of the
			  * options it has last ([workload] before [matrix]), else [matrix] */
};

struct ab_matrix {
	unsigned repeats;
	uint64_t seed;          /* the file's `seed`, else taken from its SHA-256 */
	char *sha256;           /* of the file's bytes, hex */
	GPtrArray *cells;       /* struct ab_matrix_cell * */
	char *name;             /* the file, as given */
	unsigned workloads_line; /* of the workloads key, 0 when none */
	unsigned target_line;   /* what to blame when a cell's target is refused: the levels
				 * key, else [matrix] */
	unsigned devices_line;  /* ... when a device is refused as unsafe: loop or members */
};

/* Parses the text of matrix file `name` (its name in messages, and what
 * relative paths in it are relative to).  Every error is one AB_ERROR_USAGE
 * line "NAME:LINE: what", or "NAME: what" when no line is at fault. */
struct ab_matrix *ab_matrix_parse(const char *name, const char *text, size_t len, GError **error);
void ab_matrix_free(struct ab_matrix *m);
typedef struct ab_matrix ab_matrix;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_matrix, ab_matrix_free)

/* The seed of a visit: a function of the matrix seed, the cell's label and
 * the repeat (1-based), so that each visit has its own and a resumed matrix
 * gives the same visit the same seed. */
uint64_t ab_matrix_visit_seed(uint64_t matrix_seed, const char *label, unsigned repeat);

/* One visit's `run` argv (NULL-terminated, to g_strfreev): the cell's, then
 * "-x 1 -z SEED", then "-q" when quiet. */
char **ab_matrix_visit_argv(const struct ab_matrix *m, const struct ab_matrix_cell *cell, unsigned repeat,
			    gboolean quiet);

/* The cells of workload `entry` run the profile at `path` instead (its
 * copy in the results directory): their --workload word is replaced; the
 * label and cell->workload stay as the file names it. */
void ab_matrix_set_workload_path(struct ab_matrix *m, const char *entry, const char *path);

/* "arraybench run ..." with each word quoted for a shell where it must be. */
char *ab_matrix_command_line(char *const *argv);

#endif
