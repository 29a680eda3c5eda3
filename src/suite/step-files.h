/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEP_FILES_H
#define AB_STEP_FILES_H

/*
 * The parent's side of a step's files, one place for the suite and every
 * phase family's driver: the run's own files opened without trusting the
 * directory (with -u it is the user's), made cold, how much of them the
 * page cache holds, what the cache held said in a result, and the room
 * left for them.  The cache modes themselves (cgroup, drop, fadvise,
 * remount) are src/runner/cache.c's.
 */

#include <glib.h>
#include <stdint.h>
#include <sys/types.h>

#include "phase-driver.h"

/* bonnie++'s treatment, also the latency curve's: does phase ph start
 * cold?  The phases bonnie++ measures from disk do, unless --cache none;
 * stat and delete only with --cold-metadata. */
gboolean ab_step_files_starts_cold(const struct ab_config *cfg, const struct ab_phase *ph);
/* Cold cache before phase ph (the cache mode's way, or a remount), for
 * the test file when it has one. */
gboolean ab_step_files_make_cold(struct ab_suite *s, struct ab_runner *r, const struct ab_phase *ph,
				 GError **error);
/* Before a timed run: the cache made what the phase starts with (*cold
 * says whether it was made cold) and the share of the test file cached
 * then. */
gboolean ab_step_files_prepare_cache(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step,
				     gboolean *cold, double *resident, GError **error);
/* What the cache held when phase ph began, and why, into res. */
void ab_step_files_describe_cache(const struct ab_suite *s, const struct ab_phase *ph, gboolean cold,
				  struct ab_result *res);
/* How much of the test file (what the step reads of it) the page cache
 * holds now; NAN when it cannot be told. */
double ab_step_files_test_file_share(const struct ab_suite *s, const struct ab_step *step);

/* A file the run made (`name` in dir_fd; `path` for messages), opened by
 * the parent: never following a link, never blocking, and only the
 * regular file with one link of `owner` (who makes the run's files: with
 * -u its directory is the user's, who could put a link to another file
 * there).  -1 and, when error is given, why. */
int ab_step_files_open(int dir_fd, const char *name, const char *path, uid_t owner, int flags, GError **error);
/* Untimed, before a cold start: its dirty pages written back, then all of
 * its pages dropped.  Only this file's: it needs no root and leaves the
 * rest of the machine's cache alone. */
gboolean ab_step_files_evict(int dir_fd, const char *name, const char *path, uid_t owner, GError **error);
/* The file emptied: its blocks back to the file system, its name kept. */
gboolean ab_step_files_empty(int dir_fd, const char *name, const char *path, uid_t owner, GError **error);
/* The share of its first `cap` bytes the page cache holds, and in *weight
 * (when given) how many bytes that share is of; NAN when it cannot be
 * told. */
double ab_step_files_share(int dir_fd, const char *name, const char *path, uid_t owner, uint64_t cap,
			   double *weight);

/* The share (0..1) of the pages of a regular file's first `size` bytes
 * (what the phase reads; all of a shorter file) that sit in the page cache
 * now, by mincore() over a mapping of it, a window at a time so memory
 * stays flat however big the file; NAN if it cannot be told (not a regular
 * file, empty, cannot be mapped).  The cap bounds the time too: with -u the
 * user may put a sparse file of an exabyte in the test file's place, whose
 * windows root's parent would map for hours.  fd is not moved or changed. */
double ab_file_resident_share(int fd, uint64_t size);
/* The same over `size` bytes from `from` (page-aligned; NAN else): a
 * rank's segment of a file many ranks share. */
double ab_file_resident_share_at(int fd, uint64_t from, uint64_t size);

/* The room for a step's files: the free bytes of the run's file system,
 * plus what the test file holds when the step frees it first
 * (`test_file_freed`: its layout truncates it); FALSE when the file
 * system counts no blocks (ramfs): left to the writes. */
gboolean ab_step_files_room(const struct ab_suite *s, gboolean test_file_freed, uint64_t *bytes);

#endif
