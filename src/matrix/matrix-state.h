/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_STATE_H
#define AB_MATRIX_STATE_H

/*
 * A matrix's results directory (-o DIR): the files the matrix makes there,
 * appended to as each visit ends, and what a rerun reads back to resume.
 * DIR/matrix.ini is a copy of the matrix file, DIR/matrix.workloads/ a copy
 * of each workload profile its cells run, DIR/matrix.sha256 their digests
 * (sha256sum's format), DIR/results.jsonl one JSON run per visit (the
 * record), DIR/results.csv the bonnie++ lines of those runs (derived from
 * it), DIR/visit.inflight the run id of the visit in flight,
 * DIR/start.inflight and DIR/fresh.inflight a start and a --fresh under
 * way.  Nothing else in DIR is touched.  The record (results.jsonl,
 * results.csv, visit.inflight) is read and written by matrix-results.h.
 */

#include <glib.h>

#include "matrix-profiles.h"

#define AB_MATRIX_RESULTS_JSON "results.jsonl"
#define AB_MATRIX_RESULTS_CSV "results.csv"
#define AB_MATRIX_COPY "matrix.ini"
#define AB_MATRIX_DIGEST "matrix.sha256"
#define AB_MATRIX_VISIT "visit.inflight"
#define AB_MATRIX_STARTING "start.inflight"
#define AB_MATRIX_FRESHING "fresh.inflight"

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

/* The lines of a matrix.sha256, NAME -> lowercase digest; NULL when a line
 * is not "DIGEST  NAME" or there is none. */
GHashTable *ab_matrix_digests_parse(const char *text);

/* --- the directory --- */

struct ab_matrix_dir {
	char *path;
	int fd;        /* DIR, held open: all that follows is relative to it */
	int json_fd;   /* results.jsonl and results.csv, appended to; -1 until opened */
	int csv_fd;
	int profiles_fd; /* matrix.workloads/, held by ab_matrix_dir_hold_profiles(); else -1 */
	/* The name of the copy of what runs (its digest heads matrix.sha256):
	 * AB_MATRIX_COPY, or the caller's own after ab_matrix_dir_init() (a
	 * tune's results directory holds tune.ini, the tune's inputs). */
	const char *copy;
};

void ab_matrix_dir_init(struct ab_matrix_dir *d);
void ab_matrix_dir_clear(struct ab_matrix_dir *d);
/* Opens DIR, making it (mode 0755) when create and it is missing.  A
 * symbolic link, not a directory, one another user owns, or one others
 * may rename in (group or others may write, not sticky) is refused
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
/* What a matrix killed while it set DIR up left, made right before
 * anything else looks at DIR: the temporary files of replace-file.c taken
 * away; a --fresh cut short (fresh.inflight: its stamp) finished; a start
 * cut short before its digests (start.inflight) undone.  What was done is
 * said in said, a line each. */
gboolean ab_matrix_dir_recover(const struct ab_matrix_dir *d, GString *said, GError **error);
/* --fresh: the matrix's own files moved aside, to NAME.old-STAMP, with the
 * stamp in fresh.inflight until they all are. */
gboolean ab_matrix_dir_move_aside(const struct ab_matrix_dir *d, GError **error);
/* A new DIR: start.inflight, the copies of the matrix file and of the
 * profiles (struct ab_matrix_profile *, may be NULL), then their digests,
 * written whole; all or none, and a kill at any point is undone by
 * ab_matrix_dir_recover(). */
gboolean ab_matrix_dir_start(const struct ab_matrix_dir *d, const char *text, size_t len, const char *digest,
			     GPtrArray *profiles, GError **error);
/* DIR/matrix.workloads held open (d->profiles_fd; -1 when there is none),
 * as the directory of ours it must be: a symbolic link (another user who
 * may write in DIR could plant one, and the visits would run the profiles
 * it points to) or anything else is refused, AB_ERROR_UNSAFE.  The copies
 * are read, and run, through it. */
gboolean ab_matrix_dir_hold_profiles(struct ab_matrix_dir *d, GError **error);
/* The name of a profile's copy ("matrix.workloads/w.ini") through the held
 * directory: "/proc/self/fd/N/w.ini", which no change of DIR's names can
 * lead elsewhere; NULL when none is held. */
char *ab_matrix_dir_profile_path(const struct ab_matrix_dir *d, const char *copy);
/* *changed: the first of the profiles whose digest is not the one DIR's
 * matrix.sha256 holds for its copy (or that it does not list), or whose
 * copy in the held matrix.workloads is not its text (then *copy_changed);
 * else NULL. */
gboolean ab_matrix_dir_profile_changed(const struct ab_matrix_dir *d, GPtrArray *profiles,
				       const struct ab_matrix_profile **changed, gboolean *copy_changed,
				       GError **error);

/* --- one file of DIR at a time (for matrix-results.c) --- */

/* One of the matrix's files in DIR opened without following a link, and
 * ours (a regular file we own): its fd; -1 when it is missing (and flags
 * have no O_CREAT), -2 with the error otherwise. */
int ab_matrix_dir_open_own(const struct ab_matrix_dir *d, const char *name, int flags, GError **error);
/* The rest of fd, from its offset, whole; name is for the error. */
gboolean ab_matrix_dir_read_fd(const struct ab_matrix_dir *d, const char *name, int fd, char **text, size_t *len,
			       GError **error);
/* All of text to fd, then fsync; name is for the error. */
gboolean ab_matrix_dir_write_fd(const struct ab_matrix_dir *d, const char *name, int fd, const char *text,
				size_t len, GError **error);

#endif
