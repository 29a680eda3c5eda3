/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_CELLS_H
#define AB_MATRIX_CELLS_H

/*
 * Between a matrix file's grammar (matrix-file.c: the keys and their
 * values, each fault at its line) and its cells (matrix-cells.c: the
 * product of the lists, each cell's label and run argv).  The visits'
 * own functions (seed, argv, command line) are matrix-file.h's.
 */

#include <glib.h>
#include <stdarg.h>

#include "matrix-file.h"
#include "../fs-setup/backend.h"

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
