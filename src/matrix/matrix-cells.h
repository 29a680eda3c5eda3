/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_CELLS_H
#define AB_MATRIX_CELLS_H

/*
 * Between a matrix file's grammar (matrix-file.c: the keys and their
 * values, each fault at its line) and its cells (matrix-cells.c: the
 * product of the lists, each cell's label and run argv), and what the
 * matrix is once parsed: its cells and the visits' own functions (seed,
 * argv, command line).  matrix-file.h, the parser's, includes this.
 */

#include <glib.h>
#include <stdarg.h>
#include <stdint.h>

#include "../../fs-setup/backend.h"

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


/* One entry of `levels`: backend and level, both NULL for "none" (a plain
 * file system on the first member). */
struct ab_matrix_level {
	const struct ab_backend_ops *backend;
	char *level;
	char *label;
};
void ab_matrix_level_clear(gpointer p);

/* What every cell shares. */
struct ab_matrix_common {
	char *loop_n, *loop_size, *loop_dir; /* loop = N:SIZE[:DIR], DIR absolute */
	GPtrArray *members;                  /* absolute */
	gboolean confirmed;                  /* yes-destroy names them all */
	char **options;                      /* the `options` words */
	gboolean machine_given;              /* options hold -m */
};
void ab_matrix_common_clear(struct ab_matrix_common *c);

/* The lists whose product the cells are. */
struct ab_matrix_lists {
	GArray *levels;                      /* struct ab_matrix_level */
	GPtrArray *fs, *mkfs, *mount, *workloads;
	GHashTable *workload_options; /* workload -> char ** */
};
void ab_matrix_lists_clear(struct ab_matrix_lists *l);

/* Where the cells' faults point: the file and the lines of [matrix] and
 * of its levels and workloads keys (0 when absent). */
struct ab_matrix_where {
	const char *name;
	unsigned matrix_line, levels_line, workloads_line;
};

/* A fault of the matrix file, one AB_ERROR_USAGE line: "NAME:LINE: what",
 * or "NAME: what" when no line is at fault (line 0).  FALSE. */
gboolean ab_matrix_fault(const char *name, unsigned line, GError **error, const char *fmt, va_list ap)
	G_GNUC_PRINTF(4, 0);

/* Is a workload entry a file (a path, or a name ending in .ini)? */
gboolean ab_matrix_workload_is_file(const char *w);

/* The cells (struct ab_matrix_cell *, freed by ab_matrix_cell_free)
 * appended to cells, levels first and workloads last (fastest); their
 * `line` is left 0, for the grammar to set. */
gboolean ab_matrix_cells_make(const struct ab_matrix_common *c, const struct ab_matrix_lists *l,
			      const struct ab_matrix_where *at, GPtrArray *cells, GError **error);
void ab_matrix_cell_free(gpointer p);

#endif
