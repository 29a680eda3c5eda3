/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"

#include <string.h>

void ab_run_clear(struct ab_run *run)
{
	g_free(run->machine);
	g_free(run->dir);
	g_free(run->fs_type);
	g_free(run->kernel);
	g_free(run->cache_desc);
	g_free(run->cache_warning);
	memset(run, 0, sizeof(*run));
}

const char *ab_rate_unit_name(enum ab_rate_unit unit)
{
	switch (unit) {
	case AB_UNIT_KIB_PER_SEC: return "KiB/s";
	case AB_UNIT_SEEKS_PER_SEC: return "seeks/s";
	case AB_UNIT_FILES_PER_SEC: return "files/s";
	}
	return "?";
}

double ab_result_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s)
{
	if (elapsed_s <= 0)
		return 0;
	if (phase->unit == AB_UNIT_KIB_PER_SEC)
		return (double)bytes / 1024.0 / elapsed_s;
	return (double)ops / elapsed_s;
}

void ab_result_describe_sync(const struct ab_phase *phase, const struct ab_config *cfg, char *out,
			     size_t len)
{
	const char *s;
	gboolean each = cfg->sync_each_write;
	switch (phase->id) {
	case AB_PHASE_BLOCK_WRITE:
	case AB_PHASE_REWRITE:
		s = each ? "fsync-each-write+fsync-close-timed" : "fsync-close-timed";
		break;
	case AB_PHASE_SEEKS:
		s = each ? "fsync-each-update+fsync-close-timed" : "fsync-close-timed";
		break;
	case AB_PHASE_BLOCK_READ:
		s = "close-timed";
		break;
	case AB_PHASE_SEQ_CREATE:
	case AB_PHASE_RAND_CREATE:
		s = each ? "fsync-file+dir-each+sync-timed" : "sync-timed";
		break;
	case AB_PHASE_SEQ_DELETE:
	case AB_PHASE_RAND_DELETE:
		s = each ? "fsync-dir-each+sync-timed" : "sync-timed";
		break;
	case AB_PHASE_SEQ_STAT:
	case AB_PHASE_RAND_STAT:
		s = "none";
		break;
	default:
		s = "fsync-close-timed";
		break;
	}
	g_strlcpy(out, s, len);
}
