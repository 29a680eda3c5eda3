/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's cells as CSV: one row per cell with named columns, for a
 * spreadsheet or a plotting script (iozone's -R blocks need hand work). */
#include "report.h"

#include <stdio.h>
#include <string.h>

static const char header[] =
	"run_id,machine,repeat,pass,streams,file_size_kib,record_kib,test,rate_kib_s,elapsed_s,bytes,ops,"
	"direct,timed,cache_state,resident_at_start,laid_out_untimed,cpu_percent,"
	"latency_p50_us,latency_p99_us,latency_max_us,"
	"end_to_end_kib_s,stonewall_kib_s,min_stream_kib_s,max_stream_kib_s,least_done_kib\n";

const char *ab_sweep_csv_header(void)
{
	return header;
}

/* Text as one field: quoted when it holds a comma, quote or line end. */
static void text(GString *s, const char *v)
{
	if (!v)
		return;
	if (!strpbrk(v, ",\"\r\n")) {
		g_string_append(s, v);
		return;
	}
	g_string_append_c(s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

static void u64(GString *s, uint64_t v)
{
	if (ab_known(v))
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, v);
}

static void kib(GString *s, uint64_t bytes)
{
	if (ab_known(bytes))
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, bytes / 1024);
}

static void dbl(GString *s, double v, int decimals)
{
	if (isfinite(v))
		g_string_append_printf(s, "%.*f", decimals, v);
}

static void flag(GString *s, ab_flag f)
{
	if (f != AB_FLAG_UNKNOWN)
		g_string_append(s, f ? "1" : "0");
}

static void usec(GString *s, uint64_t ns)
{
	if (ab_known(ns))
		g_string_append_printf(s, "%.1f", ns / 1e3);
}

char *ab_sweep_csv_rows(const struct ab_run *run)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_grid_result(r))
			continue;
		g_autofree char *timed = r->timed ? g_strjoinv("+", r->timed) : NULL;
		text(s, run->run_id);
		g_string_append_c(s, ',');
		text(s, run->machine);
		g_string_append_c(s, ',');
		u64(s, run->repeat);
		g_string_append_c(s, ',');
		u64(s, r->key.pass);
		g_string_append_c(s, ',');
		u64(s, r->key.streams);
		g_string_append_c(s, ',');
		kib(s, r->key.file_size);
		g_string_append_c(s, ',');
		kib(s, r->key.record_size);
		g_string_append_c(s, ',');
		text(s, r->key.test);
		g_string_append_c(s, ',');
		dbl(s, r->rate, 1);
		g_string_append_c(s, ',');
		dbl(s, r->elapsed_s, 6);
		g_string_append_c(s, ',');
		u64(s, r->bytes);
		g_string_append_c(s, ',');
		u64(s, r->ops);
		g_string_append_c(s, ',');
		flag(s, r->direct);
		g_string_append_c(s, ',');
		text(s, timed);
		g_string_append_c(s, ',');
		text(s, r->cache_state);
		g_string_append_c(s, ',');
		dbl(s, r->resident_at_start, 3);
		g_string_append_c(s, ',');
		flag(s, r->laid_out_untimed);
		g_string_append_c(s, ',');
		dbl(s, r->cpu_percent, 1);
		g_string_append_c(s, ',');
		usec(s, r->latency.p50_ns);
		g_string_append_c(s, ',');
		usec(s, r->latency.p99_ns);
		g_string_append_c(s, ',');
		usec(s, r->latency.max_ns);
		g_string_append_c(s, ',');
		dbl(s, r->end_to_end_rate, 1);
		g_string_append_c(s, ',');
		dbl(s, r->stonewall_rate, 1);
		g_string_append_c(s, ',');
		dbl(s, r->min_worker_rate, 1);
		g_string_append_c(s, ',');
		dbl(s, r->max_worker_rate, 1);
		g_string_append_c(s, ',');
		kib(s, r->min_bytes_at_stonewall);
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

static gboolean sweep_csv_write_run(const struct ab_run *run, GString *out, GError **error)
{
	(void)error;
	g_autofree char *rows = ab_sweep_csv_rows(run);
	g_string_append(out, header);
	g_string_append(out, rows);
	return TRUE;
}

/* One header, then every run's cells. */
static gboolean sweep_csv_write_set(const struct ab_run_set *set, GString *out, GError **error)
{
	(void)error;
	g_string_append(out, header);
	for (guint i = 0; i < set->runs->len; i++) {
		g_autofree char *rows = ab_sweep_csv_rows(g_ptr_array_index(set->runs, i));
		g_string_append(out, rows);
	}
	return TRUE;
}

const struct ab_writer ab_writer_sweep_csv = {
	.name = "sweep-csv",
	.extension = "csv",
	.write_run = sweep_csv_write_run,
	.write_set = sweep_csv_write_set,
};
