/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wal phase's options (--phases wal; workloads/wal.h), as rows of
 * src/options/option-table.h; the lists' parsers are src/options/wal-options.c's. */
#include "run-option-sets.h"
#include "config.h"
#include "wal-options.h"
#include "../../workloads/wal.h"

#define CFG(f) AB_OPTION_FIELD(struct ab_config, f)

static gboolean opt_wal_sync(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	GArray *list;
	if (!ab_wal_parse_syncs(name, value, &list, error))
		return FALSE;
	if (cfg->wal_syncs)
		g_array_unref(cfg->wal_syncs);
	cfg->wal_syncs = list;
	return TRUE;
}

static gboolean opt_wal_records(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	GArray *list;
	if (!ab_wal_parse_commits(name, value, &list, error))
		return FALSE;
	if (cfg->wal_commits)
		g_array_unref(cfg->wal_commits);
	cfg->wal_commits = list;
	return TRUE;
}

static gboolean opt_wal_seconds(const char *name, const char *value, void *data, GError **error)
{
	return ab_wal_parse_seconds(name, value, &((struct ab_config *)data)->wal_seconds, error);
}

#define WAL .family = AB_OPTION_WAL
#define STEP_KEY .profile = AB_OPTION_PROFILE_STEP
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)

static const struct ab_option_row ab_wal_option_rows[] = {
	{ "wal-sync", 0, CUSTOM(opt_wal_sync), WAL, STEP_KEY,
	  .help = "WAL: sync after each commit: fdatasync (default), fsync, open_datasync (O_DSYNC), open_sync "
		  "(O_SYNC); a list, or all",
	  .arg = "LIST" },
	{ "wal-records", 0, CUSTOM(opt_wal_records), WAL, STEP_KEY,
	  .help = "WAL: commit sizes (8k); NxSIZE is N writes then one sync (2x8k, a group commit)", .arg = "LIST" },
	{ "wal-writers", 0, .kind = AB_OPTION_COUNT, CFG(wal_writers), .min = 1, .max = AB_WAL_MAX_WRITERS,
	  .why = "a writer count from 1 to ", WAL, STEP_KEY,
	  .help = "WAL: concurrent committers, each its own log file (1)", .arg = "N" },
	{ "wal-seconds", 0, CUSTOM(opt_wal_seconds), WAL, STEP_KEY,
	  .help = "WAL: timed seconds of each method and size (5)", .arg = "S" },
	{ "wal-commits", 0, .kind = AB_OPTION_COUNT, CFG(wal_count), .min = 1, .max = AB_WAL_MAX_COMMITS,
	  .why = "a commit count from 1 to ", WAL, STEP_KEY,
	  .help = "WAL: commits of each committer per method and size, instead of --wal-seconds", .arg = "N" },
	{ "wal-rewrite", 0, .kind = AB_OPTION_SWITCH, CFG(wal_rewrite), WAL, STEP_KEY,
	  .help = "WAL: every commit overwrites the log's first bytes (pg_test_fsync's pattern) instead of appending; "
		  "tests end in ' rewrite'" },
};

const struct ab_option_set ab_wal_options = AB_OPTION_SET(ab_wal_option_rows);
