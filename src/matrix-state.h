/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_STATE_H
#define AB_MATRIX_STATE_H

/*
 * A matrix's results directory (-o DIR): the files the matrix makes there,
 * appended to as each visit ends, and what a rerun reads back to resume.
 * DIR/matrix.ini is a copy of the matrix file, DIR/matrix.sha256 its digest
 * (sha256sum's format), DIR/results.jsonl one JSON run per visit,
 * DIR/results.csv the bonnie++ lines.  Nothing else in DIR is touched.
 */

#include <glib.h>

#include "run.h"

#define AB_MATRIX_RESULTS_JSON "results.jsonl"
#define AB_MATRIX_RESULTS_CSV "results.csv"
#define AB_MATRIX_COPY "matrix.ini"
#define AB_MATRIX_DIGEST "matrix.sha256"

/* --- pure parts --- */

enum ab_matrix_dir_state {
	AB_MATRIX_DIR_NEW,     /* none of the matrix's files: start */
	AB_MATRIX_DIR_SAME,    /* made by this very matrix file: resume */
	AB_MATRIX_DIR_CHANGED, /* made by another version of it: refuse, or --fresh */
	AB_MATRIX_DIR_FOREIGN, /* results there, but no digest: not a matrix's, never touched */
};
/* stored: the digest DIR holds (NULL: none); any_results: results.jsonl or
 * results.csv is there; digest: of the matrix file now. */
enum ab_matrix_dir_state ab_matrix_dir_state(const char *stored, gboolean any_results, const char *digest);
/* The digest in the text of a matrix.sha256 (64 hex digits first), or NULL. */
char *ab_matrix_digest_parse(const char *text);

/* The finished visits in the text of a results.jsonl: a set of keys made
 * by ab_matrix_visit_key().  A failed visit (its run has a failure) counts
 * unless retry_failed.  The runs read go to runs (may be NULL); lines that
 * could not be read to problems (may be NULL), as ab_report_read_text(). */
GHashTable *ab_matrix_done_read(const char *name, const char *text, size_t len, gboolean retry_failed,
				struct ab_run_set *runs, GPtrArray *problems);
char *ab_matrix_visit_key(const char *label, unsigned repeat);
gboolean ab_matrix_done_has(GHashTable *done, const char *label, unsigned repeat);

/* --- the directory --- */

struct ab_matrix_dir {
	char *path;
	int fd;        /* DIR, held open: all that follows is relative to it */
	int json_fd;   /* results.jsonl and results.csv, appended to; -1 until opened */
	int csv_fd;
};

void ab_matrix_dir_init(struct ab_matrix_dir *d);
void ab_matrix_dir_clear(struct ab_matrix_dir *d);
/* Opens DIR, making it (mode 0755) when create and it is missing.  A
 * symbolic link, not a directory, or one another user owns is refused
 * (AB_ERROR_UNSAFE); so is one another matrix holds (an flock on DIR, held
 * until ab_matrix_dir_clear). */
gboolean ab_matrix_dir_open(struct ab_matrix_dir *d, const char *path, gboolean create, GError **error);
/* Reads one of the matrix's files whole: *text NULL (TRUE) when it is
 * missing; a symbolic link or another user's file is refused. */
gboolean ab_matrix_dir_read(const struct ab_matrix_dir *d, const char *name, char **text, size_t *len,
			    GError **error);
/* The state of DIR for a matrix file of this digest. */
gboolean ab_matrix_dir_check(const struct ab_matrix_dir *d, const char *digest, enum ab_matrix_dir_state *state,
			     GError **error);
/* --fresh: the matrix's own files moved aside, to NAME.old-STAMP. */
gboolean ab_matrix_dir_move_aside(const struct ab_matrix_dir *d, GError **error);
/* A new DIR: the copy of the matrix file and its digest written. */
gboolean ab_matrix_dir_start(const struct ab_matrix_dir *d, const char *text, size_t len, const char *digest,
			     GError **error);
/* Opens the results files for appending; a last line that a crash left
 * without its newline is cut off first (*trimmed says so). */
gboolean ab_matrix_dir_open_results(struct ab_matrix_dir *d, gboolean *trimmed, GError **error);
/* Appends the text to one of the results files and fsyncs it. */
gboolean ab_matrix_dir_append(const struct ab_matrix_dir *d, int fd, const char *text, GError **error);

#endif
