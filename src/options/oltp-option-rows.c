/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The oltp phase's options (--phases oltp; workloads/oltp.h), as rows of
 * src/options/option-table.h, with the parser no kind covers. */
#include "run-option-sets.h"
#include "config.h"
#include "../../workloads/oltp.h"

#include <string.h>

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
