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

#include "matrix-cells.h"

/* Parses the text of matrix file `name` (its name in messages, and what
 * relative paths in it are relative to).  Every error is one AB_ERROR_USAGE
 * line "NAME:LINE: what", or "NAME: what" when no line is at fault. */
struct ab_matrix *ab_matrix_parse(const char *name, const char *text, size_t len, GError **error);
#endif
