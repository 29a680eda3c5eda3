/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The oltp phase's options against each other and the run's, for oltp and
 * the load of oltp+wal (src/options/oltp-options.h). */
#include "oltp-options.h"
#include "config.h"
#include "../base/error.h"
#include "../model/run.h"
#include "wal-options.h"
#include "run-option-parse.h"
#include "../../workloads/oltp.h"
#include "../../workloads/phase.h"
#include "run-option-sets.h"

#include <string.h>

const char *ab_oltp_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_OLTP) ? "--oltp-*" : NULL;
}

gboolean ab_oltp_own_file_size(const struct ab_config *cfg)
{
	return cfg->oltp_size != 0;
}

/* The process counts a step runs. */
static uint64_t proc_counts(const struct ab_config *cfg)
{
	return cfg->oltp_proc_counts ? cfg->oltp_proc_counts->len : 1;
}

uint64_t ab_oltp_results(const struct ab_config *cfg)
{
	return 3 * proc_counts(cfg);
}

uint64_t ab_oltp_wal_results(const struct ab_config *cfg)
{
	return cfg->wal_syncs->len * cfg->wal_commits->len * (1 + 4 * proc_counts(cfg));
}

/* The oltp phase's parameters against each other and the run's; `results`
 * grows by what its steps add beyond the one each phase counts for. */
gboolean ab_oltp_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error)
{
	uint64_t ram_mib = env->ram_mib;
	if (!ab_config_asks_for(cfg, 0, AB_PHASE_OLTP) && !ab_config_asks_for(cfg, 0, AB_PHASE_OLTP_WAL)) {
		if (ab_oltp_option_given(cfg) && !ab_config_another_step_asks_for(cfg, AB_PHASE_OLTP, AB_PHASE_OLTP) &&
		    !ab_config_another_step_asks_for(cfg, AB_PHASE_OLTP, AB_PHASE_OLTP_WAL)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "the --oltp-* options apply to the oltp phase, which is not asked for "
				    "(--phases oltp or oltp+wal)");
			return FALSE;
		}
		return TRUE;
	}
	/* Its processes read the data file at random: under a capped cache
	 * the warm share of their reads is the cap over the file, so with no
	 * size given the file is several times the cap.  Without a cap the
	 * -s default (twice the RAM) stays: what the reads can warm in a count
	 * binds before the RAM does, and a larger file only takes longer to
	 * lay out.  The sizing statement says what the cache could hold. */
	if (!cfg->oltp_size && !cfg->file_size_given && cfg->cache == AB_CACHE_CGROUP) {
		/* An absurd -r saturates (the space check then refuses it)
		 * rather than wrapping round to a small file. */
		uint64_t most = UINT64_MAX / AB_MIB / AB_OLTP_CACHE_FACTOR;
		cfg->oltp_size = MAX(cfg->file_size, ram_mib > most ? UINT64_MAX : AB_OLTP_CACHE_FACTOR * ram_mib * AB_MIB);
	}
	uint64_t size = cfg->oltp_size ? cfg->oltp_size : cfg->file_size;
	if (size < cfg->oltp_block) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --oltp-size '%" G_GUINT64_FORMAT "M': smaller than the %u-byte --oltp-block",
			    size / AB_MIB, cfg->oltp_block);
		return FALSE;
	}
	if (cfg->direct && cfg->oltp_block < 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --oltp-block '%u' with --direct: O_DIRECT needs at least 4k", cfg->oltp_block);
		return FALSE;
	}
	if (cfg->oltp_sync_every && cfg->oltp_read_pct == 100) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--oltp-sync-every with --oltp-mix '100:0': there are no writes to sync");
		return FALSE;
	}
	/* Three results (read, write, all) per process count, where the
	 * phase was counted once. */
	*results += ab_phase_family_more_results(ab_phase_family_of(AB_PHASE_OLTP), cfg);
	/* oltp+wal: per commit size and method, the commits alone, then per
	 * count the commits under load and the load's three rows. */
	*results += ab_phase_family_more_results(ab_phase_family_of(AB_PHASE_OLTP_WAL), cfg);
	if (*results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the run makes %" G_GUINT64_FORMAT " results, more than the %d one run holds: give fewer "
			    "--oltp-procs counts", *results, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	return TRUE;
}

void ab_oltp_space(const struct ab_step *step, struct ab_step_space *out)
{
	out->test_file = step->oltp_size;
}

void ab_oltp_wal_space(const struct ab_step *step, struct ab_step_space *out)
{
	ab_oltp_space(step, out);
	ab_wal_space(step, out);
}

const struct ab_phase_family ab_oltp_family = {
	.phase_id = AB_PHASE_OLTP,
	.space = ab_oltp_space,
	.results = ab_oltp_results,
	.finish = ab_oltp_finish,
	.option_given = ab_oltp_option_given,
	.own_file_size = ab_oltp_own_file_size,
};

const struct ab_phase_family ab_oltp_wal_family = {
	.phase_id = AB_PHASE_OLTP_WAL,
	.space = ab_oltp_wal_space,
	/* Its options are oltp's (its load) and wal's (its committers):
	 * their finish checks them for it. */
	.results = ab_oltp_wal_results,
	.own_file_size = ab_oltp_own_file_size,
};

/* Its option rows (src/options/option-table.h) and the parsers no kind
 * covers. */
#define CFG(f) AB_OPTION_FIELD(struct ab_config, f)

/* "70:30": reads to writes, two whole percentages that add up to 100. */
static gboolean opt_oltp_mix(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	const char *why = "expected READ:WRITE, two whole percentages adding up to 100 (70:30)";
	const char *colon = strchr(value, ':');
	if (!colon)
		return ab_option_refuse(error, name, value, why);
	g_autofree char *left = g_strndup(value, (gsize)(colon - value));
	uint64_t r, w;
	if (!ab_parse_count(left, 100, &r, NULL) || !g_ascii_isdigit(colon[1]) ||
	    !ab_parse_count(colon + 1, 100, &w, NULL) || r + w != 100)
		return ab_option_refuse(error, name, value, why);
	cfg->oltp_read_pct = (uint32_t)r;
	return TRUE;
}

#define OLTP .family = AB_OPTION_OLTP
#define STEP_KEY .profile = AB_OPTION_PROFILE_STEP

static const struct ab_option_row ab_oltp_option_rows[] = {
	/* One timed run of the oltp phase per count. */
	{ "oltp-procs", 0, .kind = AB_OPTION_LIST, .offset = offsetof(struct ab_config, oltp_proc_counts),
	  .width = sizeof(uint32_t), .min = 1, .max = AB_OLTP_MAX_PROCS, .why = "a process count from 1 to ", OLTP,
	  STEP_KEY, .help = "Oltp: forked processes doing random I/O at once (8); a list runs once per count",
	  .arg = "N[,N...]" },
	{ "oltp-block", 0, .kind = AB_OPTION_SIZE, CFG(oltp_block), .unit = 1, .min = AB_OLTP_MIN_BLOCK,
	  .max = AB_OLTP_MAX_BLOCK, .why = "must be a power of two from 512 to 1m", OLTP, STEP_KEY,
	  .flags = AB_OPTION_POWER_OF_TWO, .help = "Oltp: bytes per read or write (8k)", .arg = "SIZE" },
	{ "oltp-mix", 0, .kind = AB_OPTION_CUSTOM, .parse = opt_oltp_mix, OLTP, STEP_KEY,
	  .help = "Oltp: reads to writes in percent (70:30)", .arg = "R:W" },
	/* Laid out in whole MiB, as the -s file is. */
	{ "oltp-size", 0, .kind = AB_OPTION_SIZE, CFG(oltp_size), .unit = AB_MIB, .min = AB_MIB,
	  .max = 1ull << 50, .multiple = AB_MIB, .why = "a whole number of MiB from 1m to 1p (MiB without a suffix)",
	  OLTP, STEP_KEY,
	  .help = "Oltp: the data file's size (MiB without a suffix; default the -s size, or under a memory cgroup "
		  "with no -s 4 times its limit)",
	  .arg = "SIZE" },
	{ "oltp-sync-every", 0, .kind = AB_OPTION_COUNT, CFG(oltp_sync_every), .min = 1,
	  .max = AB_OLTP_MAX_SYNC_EVERY, .why = "a count of writes from 1 to ", OLTP, STEP_KEY,
	  .help = "Oltp: each process fdatasyncs after every K-th of its writes (none)", .arg = "K" },
	{ "oltp-seconds", 0, .kind = AB_OPTION_COUNT, CFG(oltp_seconds), .min = 1, .max = AB_OLTP_MAX_SECONDS,
	  .why = "whole seconds from 1 to ", OLTP, STEP_KEY, .help = "Oltp: how long each process count runs (10)",
	  .arg = "S" },
};

const struct ab_option_set ab_oltp_options = AB_OPTION_SET(ab_oltp_option_rows);
