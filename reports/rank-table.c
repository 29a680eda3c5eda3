/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run on many ranks: after the main table, a block per result measured
 * on them, one row per rank (its host, workers, its own rate, when it
 * started and stopped from the earliest barrier exit, how long it waited
 * at the barrier, its CPU, a mark when it is an outlier), the aggregate
 * row (the result's own rate: all the work over the latest stop less the
 * earliest start), and what the ranks' common timebase is good to. */
#include "report.h"
#include "text-block.h"
#include "format.h"
#include "../workloads/phase.h"
#include "../src/model/rank-merge.h"

#include <math.h>
#include <stdio.h>

static gboolean has_ranks(const struct ab_result *r)
{
	return r->per_rank->len > 0;
}

static gboolean applies(const struct ab_run *run)
{
	return ab_text_run_has(run, has_ranks);
}

/* A name as one cell of a row: printable, at most max characters. */
static char *cell_text(const char *text, size_t max)
{
	if (!text)
		return g_strdup("-");
	char *t = g_strndup(text, max);
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return t;
}

/* "block-write", "seeks#2", "sweep write": as the main table names it. */
static char *result_name(const struct ab_result *r)
{
	g_autofree char *test = r->key.test ? cell_text(r->key.test, 40) : NULL;
	g_autofree char *pass = ab_known(r->key.pass) && r->key.pass > 1
		? g_strdup_printf("#%" G_GUINT64_FORMAT, r->key.pass) : NULL;
	return g_strconcat(r->phase, pass ? pass : "", test ? " " : "", test ? test : "", NULL);
}

static void seconds(double v, char *out, size_t len)
{
	if (isfinite(v))
		snprintf(out, len, "%.4f", v);
	else
		snprintf(out, len, "-");
}

static void u64_cell(uint64_t v, char *out, size_t len)
{
	if (ab_known(v))
		snprintf(out, len, "%" G_GUINT64_FORMAT, v);
	else
		snprintf(out, len, "?");
}

#define ROW_FORMAT "%5s %-16s %7s %14s %10s %10s %12s %8s%s\n"

static void rank_row(GString *s, const struct ab_rank_stat *rs)
{
	char rank[24], workers[24], rate[32], start[32], stop[32], wait[32], cpu[32];
	u64_cell(rs->rank, rank, sizeof(rank));
	u64_cell(rs->workers, workers, sizeof(workers));
	ab_format_rate(rs->rate, rate, sizeof(rate));
	seconds(rs->start_s, start, sizeof(start));
	seconds(rs->stop_s, stop, sizeof(stop));
	ab_format_latency_mean(rs->barrier_wait_s * 1e9, wait, sizeof(wait));
	if (isfinite(rs->cpu_s))
		snprintf(cpu, sizeof(cpu), "%.2f", rs->cpu_s);
	else
		snprintf(cpu, sizeof(cpu), "-");
	g_autofree char *host = cell_text(rs->host, 16);
	g_string_append_printf(s, ROW_FORMAT, rank, host, workers, rate, start, stop, wait, cpu,
			       rs->outlier == TRUE ? "  outlier" : "");
}

/* The aggregate: the result's own figures, over the ranks' span. */
static void aggregate_row(GString *s, const struct ab_result *r)
{
	double first = INFINITY, last = -INFINITY, cpu = 0;
	uint64_t workers = 0;
	gboolean workers_known = TRUE;
	for (guint i = 0; i < r->per_rank->len; i++) {
		const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, i);
		if (isfinite(rs->start_s))
			first = MIN(first, rs->start_s);
		if (isfinite(rs->stop_s))
			last = MAX(last, rs->stop_s);
		cpu += rs->cpu_s;
		if (ab_known(rs->workers))
			workers += rs->workers;
		else
			workers_known = FALSE;
	}
	char w[24], rate[32], start[32], stop[32], cpu_text[32];
	u64_cell(ab_known(r->workers) ? r->workers : workers_known ? workers : AB_UNSET, w, sizeof(w));
	if (isnan(r->rate))
		snprintf(rate, sizeof(rate), "%s", r->measurable ? "-" : "+++++");
	else
		ab_format_rate(r->rate, rate, sizeof(rate));
	seconds(isfinite(first) ? first : NAN, start, sizeof(start));
	seconds(isfinite(last) ? last : NAN, stop, sizeof(stop));
	if (isfinite(cpu))
		snprintf(cpu_text, sizeof(cpu_text), "%.2f", cpu);
	else
		snprintf(cpu_text, sizeof(cpu_text), "-");
	g_string_append_printf(s, ROW_FORMAT, "all", "", w, rate, start, stop, "", cpu_text, "");
}

static void result_block(GString *s, const struct ab_result *r)
{
	const struct ab_phase *ph = ab_phase_by_name(r->phase);
	g_autofree char *name = result_name(r);
	g_string_append_printf(s, "per rank: %s (rate in %s; times in seconds from the earliest barrier exit)\n", name,
			       ph ? ab_rate_unit_name(ph->unit) : "?");
	g_string_append_printf(s, ROW_FORMAT, "rank", "host", "workers", "rate", "start", "stop", "barrier wait", "cpu s",
			       "");
	gboolean any_outlier = FALSE;
	for (guint i = 0; i < r->per_rank->len; i++) {
		const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, i);
		rank_row(s, rs);
		any_outlier |= rs->outlier == TRUE;
	}
	aggregate_row(s, r);
	char bound[32], spread[32];
	ab_format_latency_mean(r->clock_bound_s * 1e9, bound, sizeof(bound));
	ab_format_latency_mean(r->start_spread_s * 1e9, spread, sizeof(spread));
	g_string_append_printf(s, "clock bound %s  start spread %s", bound, spread);
	if (!r->measurable && isfinite(r->min_measurable_s))
		g_string_append_printf(s, "  (too short: a phase on many ranks must last %.2g s, %.0f times their sum)",
				       r->min_measurable_s, AB_CLOCK_MARGIN);
	g_string_append_c(s, '\n');
	if (any_outlier)
		g_string_append_printf(s, "outlier: a rank whose rate is more than %.0f%% off the ranks' median\n",
				       100 * AB_RANK_OUTLIER_SHARE);
}

static void append(GString *s, const struct ab_run *run)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (has_ranks(r))
			result_block(s, r);
	}
}

const struct ab_text_block ab_text_block_ranks = { "per rank", applies, append };
