/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wal phase's results in a table of their own: per method and commit
 * size, commits per second and the latency of one commit, as pg_test_fsync
 * lists its methods. */
#include "report.h"
#include "text-block.h"
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WAL_PHASE "wal"

gboolean ab_text_is_wal_result(const struct ab_result *r)
{
	return g_strcmp0(r->phase, WAL_PHASE) == 0;
}

static void size_text(uint64_t bytes, char *out, size_t len)
{
	if (!ab_known(bytes))
		snprintf(out, len, "-");
	else if (bytes && bytes % (1024 * 1024) == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "m", bytes / (1024 * 1024));
	else if (bytes && bytes % 1024 == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "k", bytes / 1024);
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT, bytes);
}

/* A test name as the table shows it: one line, at most 40 characters;
 * "fdatasync#2" for the second row of one key (the wal phase's, then
 * oltp+wal's commits alone), as the main table names a second pass. */
static char *test_text(const struct ab_result *r)
{
	if (!r->key.test)
		return g_strdup("?");
	char *t = g_strndup(r->key.test, 40);
	for (char *p = t; *p; p++)
		if (!g_ascii_isprint(*p))
			*p = '?';
	if (r->key.pass > 1 && ab_known(r->key.pass)) {
		char *numbered = g_strdup_printf("%s#%" G_GUINT64_FORMAT, t, r->key.pass);
		g_free(t);
		return numbered;
	}
	return t;
}

void ab_text_wal(GString *s, const struct ab_run *run)
{
	int width = 14;
	gboolean any = FALSE;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_wal_result(r))
			continue;
		g_autofree char *t = test_text(r);
		width = MAX(width, (int)strlen(t));
		any = TRUE;
	}
	if (!any)
		return;
	g_string_append(s, "wal: commits per second; latency of one commit (its writes and sync)\n");
	g_string_append_printf(s, "%-*s %7s %7s %11s %6s %9s %9s %9s %9s %9s\n", width, "method", "commit", "writers",
			       "commits/s", "direct", "p50", "p90", "p99", "p99.9", "max");
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_wal_result(r))
			continue;
		g_autofree char *t = test_text(r);
		char commit[32], writers[32], rate[32], lat[5][16];
		size_text(r->key.record_size, commit, sizeof(commit));
		if (ab_known(r->key.streams))
			snprintf(writers, sizeof(writers), "%" G_GUINT64_FORMAT, r->key.streams);
		else
			snprintf(writers, sizeof(writers), "-");
		ab_format_rate(r->rate, rate, sizeof(rate));
		const struct ab_latency *l = &r->latency;
		const uint64_t v[5] = { l->p50_ns, l->p90_ns, l->p99_ns, l->p99_9_ns, l->max_ns };
		for (int k = 0; k < 5; k++)
			ab_format_latency(v[k], lat[k], sizeof(lat[k]));
		const char *direct = r->direct == TRUE ? "yes" : r->direct == FALSE ? "no" : "?";
		g_string_append_printf(s, "%-*s %7s %7s %11s %6s %9s %9s %9s %9s %9s\n", width, t, commit, writers, rate,
				       direct, lat[0], lat[1], lat[2], lat[3], lat[4]);
	}
	{
		const struct ab_result *first = NULL;
		for (guint i = 0; i < run->results->len && !first; i++)
			if (ab_text_is_wal_result(g_ptr_array_index(run->results, i)))
				first = g_ptr_array_index(run->results, i);
		char log[32];
		size_text(first->key.file_size, log, sizeof(log));
		gboolean rewrite = FALSE;
		for (guint i = 0; i < run->results->len; i++) {
			const struct ab_result *r = g_ptr_array_index(run->results, i);
			rewrite |= ab_text_is_wal_result(r) && r->key.test && strstr(r->key.test, " rewrite");
		}
		g_string_append_printf(s, "each writer appends to its own %s log, allocated and written once untimed%s; "
				       "open_datasync and open_sync sync each write (O_DSYNC, O_SYNC)\n", log,
				       rewrite ? " ('rewrite': every commit at the log's start instead, as pg_test_fsync)"
					       : "");
	}
}

static gboolean has_wal(const struct ab_run *run)
{
	return ab_text_run_has(run, ab_text_is_wal_result);
}

const struct ab_text_block ab_text_block_wal = {
	.name = "wal table",
	.applies = has_wal,
	.append = ab_text_wal,
};
