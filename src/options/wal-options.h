/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_WAL_OPTIONS_H
#define AB_WAL_OPTIONS_H

/* The wal phase's option values (workloads/wal.h), each error naming the
 * option and the bad value (AB_ERROR_USAGE).  `name` is the option as the
 * user spelled it ("--wal-sync"). */

#include <glib.h>
#include <stdint.h>

#include "phase-family.h"

/* "fdatasync", "open_datasync,fsync" or "all" (every method, in
 * pg_test_fsync's order): unsigned enum ab_wal_sync, none twice. */
gboolean ab_wal_parse_syncs(const char *name, const char *text, GArray **out, GError **error);
/* "8k", "8k,2x8k,16k": struct ab_wal_commit, none twice; a size is bytes,
 * or k/m; N x SIZE is N writes then one sync (a group commit). */
gboolean ab_wal_parse_commits(const char *name, const char *text, GArray **out, GError **error);
/* Seconds per method, AB_WAL_MIN_SECONDS to AB_WAL_MAX_SECONDS ("5", "0.5"). */
gboolean ab_wal_parse_seconds(const char *name, const char *text, double *out, GError **error);

/* The wal family's part of finishing a config and the room of its steps
 * (its family row, src/options/phase-family.h; its driver, src/suite/wal-run.c): the wal
 * phase's and oltp+wal's committers. */
/* The first wal option given, for the message when no wal phase runs. */
const char *ab_wal_option_given(const struct ab_config *cfg);
/* A wal step's results: one per sync method and commit size. */
uint64_t ab_wal_results(const struct ab_config *cfg);
/* Its options only with a phase that commits (wal, oltp+wal), their
 * defaults, and the wal steps' results. */
gboolean ab_wal_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error);

/* Its room (src/options/step-space.h): a log per committer beside the test file,
 * which it leaves as it is. */
void ab_wal_space(const struct ab_step *step, struct ab_step_space *out);

#endif
