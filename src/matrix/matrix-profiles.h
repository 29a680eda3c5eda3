/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_PROFILES_H
#define AB_MATRIX_PROFILES_H

/*
 * The workload profiles a matrix's cells run, as part of what the matrix
 * is: each is copied into the results directory at the first start and its
 * digest kept beside the matrix file's (matrix-state.h), so that a resume
 * whose profile changed is refused, as one whose matrix file changed is.
 * A built-in profile counts too: its text is this arraybench's, which
 * another version may change.
 */

#include <glib.h>

#include "matrix-file.h"

/* The directory of the copies, in DIR. */
#define AB_MATRIX_PROFILES "matrix.workloads"

struct ab_matrix_profile {
	char *entry;  /* the workload as the cells give it to run: an absolute path or a built-in name */
	char *copy;   /* its copy, relative to DIR: "matrix.workloads/NAME.ini" (the same profile name) */
	char *text;
	gsize len;
	char *sha256; /* of text, hex */
};
/* Frees one (a GDestroyNotify for arrays of them). */
void ab_matrix_profile_free(gpointer p);

/* One per workload of the matrix, in the file's order, each read now as
 * run reads it (ab_profile_text()); empty without a workloads key.  A file
 * that cannot be read is an AB_ERROR_USAGE naming the workloads line. */
GPtrArray *ab_matrix_profiles_read(const struct ab_matrix *m, GError **error);
/* A profile's copy's file name for a workload entry: its base name, with
 * ".ini" added unless it ends so, which gives the same profile name. */
char *ab_matrix_profile_copy_name(const char *entry);

#endif
