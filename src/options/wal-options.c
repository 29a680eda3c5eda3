/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "wal-options.h"
#include "config.h"
#include "../base/error.h"
#include "../base/parse.h"
#include "run-option-parse.h"
#include "../../workloads/wal.h"
#include "../../workloads/phase.h"
#include "run-option-sets.h"

#include <math.h>
#include <string.h>

static gboolean bad(GError **error, const char *name, const char *value, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", name, value, why);
	return FALSE;
}

gboolean ab_wal_parse_syncs(const char *name, const char *text, GArray **out, GError **error)
{
	g_auto(GStrv) words = g_strsplit(text, ",", 0);
	g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(unsigned));
	gboolean seen[AB_WAL_SYNC_COUNT] = { FALSE };
	for (char **w = words; *w; w++) {
		unsigned m;
		if (!**w)
			return bad(error, name, text, "empty method in the list");
		if (g_str_equal(*w, "all")) {
			if (words[1])
				return bad(error, name, text, "'all' stands alone");
			for (m = 0; m < AB_WAL_SYNC_COUNT; m++)
				g_array_append_val(list, m);
			break;
		}
		if (!ab_wal_sync_by_name(*w, &m))
			return bad(error, name, *w,
				   "unknown sync method (fdatasync, fsync, open_datasync, open_sync or all)");
		if (seen[m])
			return bad(error, name, *w, "given twice in the list");
		seen[m] = TRUE;
		g_array_append_val(list, m);
	}
	if (!list->len)
		return bad(error, name, text, "no method given");
	*out = g_steal_pointer(&list);
	return TRUE;
}

/* "2x8k" or "16k". */
static gboolean parse_commit(const char *name, const char *w, struct ab_wal_commit *c, GError **error)
{
	const char *word = w; /* named when the fault is the whole commit's, or no size is left to name */
	const char *x = strpbrk(w, "xX");
	uint64_t writes = 1, size;
	if (x) {
		g_autofree char *count = g_strndup(w, (gsize)(x - w));
		if (!ab_parse_count(count, AB_WAL_MAX_WRITES, &writes, NULL) || writes == 0) {
			g_autofree char *why = g_strdup_printf("the writes of a commit are 1 to %u", AB_WAL_MAX_WRITES);
			return bad(error, name, w, why);
		}
		w = x + 1;
	}
	if (!*w || !g_ascii_isdigit(*w) || !ab_parse_size(w, 1, &size, NULL))
		return bad(error, name, *w ? w : word, "not a size (bytes, or with k or m)");
	if (size < AB_WAL_MIN_WRITE || size > AB_WAL_MAX_WRITE || size % AB_WAL_MIN_WRITE)
		return bad(error, name, w, "a write is 512 bytes to 1m, a multiple of 512");
	if (writes * size > AB_WAL_MAX_COMMIT)
		return bad(error, name, word, "a commit is at most 4m, a quarter of the 16m log");
	*c = (struct ab_wal_commit){ (uint32_t)writes, (uint32_t)size };
	return TRUE;
}

gboolean ab_wal_parse_commits(const char *name, const char *text, GArray **out, GError **error)
{
	g_auto(GStrv) words = g_strsplit(text, ",", 0);
	g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(struct ab_wal_commit));
	for (char **w = words; *w; w++) {
		struct ab_wal_commit c;
		if (!**w)
			return bad(error, name, text, "empty commit size in the list");
		if (list->len == 64)
			return bad(error, name, text, "more than 64 commit sizes");
		if (!parse_commit(name, *w, &c, error))
			return FALSE;
		for (guint i = 0; i < list->len; i++) {
			const struct ab_wal_commit *o = &g_array_index(list, struct ab_wal_commit, i);
			if (o->writes == c.writes && o->write_size == c.write_size)
				return bad(error, name, *w, "given twice in the list");
		}
		g_array_append_val(list, c);
	}
	if (!list->len)
		return bad(error, name, text, "no commit size given");
	*out = g_steal_pointer(&list);
	return TRUE;
}

gboolean ab_wal_parse_seconds(const char *name, const char *text, double *out, GError **error)
{
	char *end = NULL;
	/* Decimal only: strtod would also take "0x10" and "infinity". */
	gboolean decimal = *text && strspn(text, "0123456789.eE+-") == strlen(text);
	double s = decimal ? g_ascii_strtod(text, &end) : NAN;
	if (!end || *end || !isfinite(s) || s < AB_WAL_MIN_SECONDS || s > AB_WAL_MAX_SECONDS) {
		g_autofree char *why = g_strdup_printf("seconds from %g to %g", AB_WAL_MIN_SECONDS, AB_WAL_MAX_SECONDS);
		return bad(error, name, text, why);
	}
	*out = s;
	return TRUE;
}

/* The first wal option given, for the message when no wal phase runs
 * (one rule for every family: src/options/run-options.c). */
const char *ab_wal_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_WAL);
}

uint64_t ab_wal_results(const struct ab_config *cfg)
{
	return cfg->wal_syncs->len * cfg->wal_commits->len;
}

/* The wal phase: its options only with it, its defaults, and its results
 * (one per method and commit size) added to `results`. */
gboolean ab_wal_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error)
{
	const char *given = ab_wal_option_given(cfg);
	const struct ab_phase_family *wal = ab_phase_family_of(AB_PHASE_WAL);
	guint wals = ab_phase_family_count(wal, cfg);
	/* oltp+wal runs the committers too (oltp's finish counts its results). */
	if (!wals && !ab_config_asks_for(cfg, 0, AB_PHASE_OLTP_WAL)) {
		if (given && !ab_config_another_step_asks_for(cfg, AB_PHASE_WAL, AB_PHASE_WAL) &&
		    !ab_config_another_step_asks_for(cfg, AB_PHASE_WAL, AB_PHASE_OLTP_WAL)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s applies to the wal phase, which is not asked for (--phases wal)", given);
			return FALSE;
		}
		return TRUE;
	}
	/* oltp+wal's commits run for --oltp-seconds beside their load: a
	 * time or count of the wal phase's own, with no wal phase to take
	 * it, would be quietly ignored. */
	const char *timing = cfg->wal_seconds > 0 ? "--wal-seconds" : cfg->wal_count ? "--wal-commits" : NULL;
	if (!wals && timing && (cfg->step_own_wal_timing || !ab_config_some_step_asks_for(cfg, AB_PHASE_WAL))) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "%s does not apply to oltp+wal, whose commits run for --oltp-seconds beside the load "
			    "(it times --phases wal)", timing);
		return FALSE;
	}
	if (cfg->wal_seconds > 0 && cfg->wal_count) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--wal-seconds and --wal-commits exclude each other: a method runs for a time or a count");
		return FALSE;
	}
	if (!cfg->wal_syncs) {
		unsigned m = AB_WAL_FDATASYNC; /* PostgreSQL's default on Linux */
		cfg->wal_syncs = g_array_new(FALSE, FALSE, sizeof(unsigned));
		g_array_append_val(cfg->wal_syncs, m);
	}
	if (!cfg->wal_commits) {
		struct ab_wal_commit c = { 1, AB_DEFAULT_CHUNK };
		cfg->wal_commits = g_array_new(FALSE, FALSE, sizeof(struct ab_wal_commit));
		g_array_append_val(cfg->wal_commits, c);
	}
	if (!cfg->wal_count && !(cfg->wal_seconds > 0))
		cfg->wal_seconds = AB_WAL_DEFAULT_SECONDS;
	for (guint i = 0; cfg->direct && i < cfg->wal_commits->len; i++) {
		const struct ab_wal_commit *c = &g_array_index(cfg->wal_commits, struct ab_wal_commit, i);
		if (c->write_size % 4096) {
			g_autofree char *label = ab_wal_commit_label(c);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --wal-records '%s' with --direct: O_DIRECT writes are whole 4k blocks", label);
			return FALSE;
		}
	}
	*results += ab_phase_family_more_results(wal, cfg);
	return TRUE;
}

void ab_wal_space(const struct ab_step *step, struct ab_step_space *out)
{
	unsigned writers = step->wal_writers ? step->wal_writers : 1;
	char size[32];
	ab_space_size_text(step->wal_log_size, size, sizeof(size));
	out->beside = ab_space_mul(writers, step->wal_log_size);
	snprintf(out->beside_what, sizeof(out->beside_what), "%u wal log%s of %s", writers, writers == 1 ? "" : "s",
		 size);
}

const struct ab_phase_family ab_wal_family = {
	.phase_id = AB_PHASE_WAL,
	.space = ab_wal_space,
	.results = ab_wal_results,
	.finish = ab_wal_finish,
	.option_given = ab_wal_option_given,
	.sizes_own_files = TRUE,
};

/* Its option rows (src/options/option-table.h) and the parsers no kind
 * covers. */
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
