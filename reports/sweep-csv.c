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
	"end_to_end_kib_s,stonewall_kib_s,min_stream_kib_s,max_stream_kib_s,least_done_kib,"
	"deadline_s,wearout,least_at_deadline_kib,most_at_deadline_kib,deadline_kib_s,deadline_counted_s\n";

const char *ab_sweep_csv_header(void)
{
	return header;
}

/* One CSV row being written: every field but the first starts with a comma,
 * and an unknown value is an empty field. */
struct row {
	GString *s;
	gboolean started;
};

static void next(struct row *w)
{
	if (w->started)
		g_string_append_c(w->s, ',');
	w->started = TRUE;
}

/* Text as one field: quoted when it holds a comma, quote or line end. */
static void text(struct row *w, const char *v)
{
	next(w);
	if (!v)
		return;
	if (!strpbrk(v, ",\"\r\n")) {
		g_string_append(w->s, v);
		return;
	}
	g_string_append_c(w->s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			g_string_append_c(w->s, '"');
		g_string_append_c(w->s, *p);
	}
	g_string_append_c(w->s, '"');
}

static void u64(struct row *w, uint64_t v)
{
	next(w);
	if (ab_known(v))
		g_string_append_printf(w->s, "%" G_GUINT64_FORMAT, v);
}

static void kib(struct row *w, uint64_t bytes)
{
	u64(w, ab_known(bytes) ? bytes / 1024 : AB_UNSET);
}

static void dbl(struct row *w, double v, int decimals)
{
	next(w);
	if (isfinite(v))
		g_string_append_printf(w->s, "%.*f", decimals, v);
}

static void flag(struct row *w, ab_flag f)
{
	next(w);
	if (f != AB_FLAG_UNKNOWN)
		g_string_append(w->s, f ? "1" : "0");
}

static void usec(struct row *w, uint64_t ns)
{
	dbl(w, ab_known(ns) ? ns / 1e3 : NAN, 1);
}

char *ab_sweep_csv_rows(const struct ab_run *run)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_grid_result(r))
			continue;
		g_autofree char *timed = r->timed ? g_strjoinv("+", r->timed) : NULL;
		struct row w = { s, FALSE };
		/* In the header's order. */
		text(&w, run->run_id);
		text(&w, run->machine);
		u64(&w, run->repeat);
		u64(&w, r->key.pass);
		u64(&w, r->key.streams);
		kib(&w, r->key.file_size);
		kib(&w, r->key.record_size);
		text(&w, r->key.test);
		dbl(&w, r->rate, 1);
		dbl(&w, r->elapsed_s, 6);
		u64(&w, r->bytes);
		u64(&w, r->ops);
		flag(&w, r->direct);
		text(&w, timed);
		text(&w, r->cache_state);
		dbl(&w, r->resident_at_start, 3);
		flag(&w, r->laid_out_untimed);
		dbl(&w, r->cpu_percent, 1);
		usec(&w, r->latency.p50_ns);
		usec(&w, r->latency.p99_ns);
		usec(&w, r->latency.max_ns);
		dbl(&w, r->end_to_end_rate, 1);
		dbl(&w, r->stonewall_rate, 1);
		dbl(&w, r->min_worker_rate, 1);
		dbl(&w, r->max_worker_rate, 1);
		kib(&w, r->min_bytes_at_stonewall);
		/* The deadline (--stonewall-time): its setting, 0 for none;
		 * its figures empty without one. */
		dbl(&w, r->stonewall_time_s, 3);
		flag(&w, r->stonewall_time_s > 0 ? r->wearout : AB_FLAG_UNKNOWN);
		kib(&w, r->min_bytes_at_deadline);
		kib(&w, r->max_bytes_at_deadline);
		dbl(&w, r->deadline_rate, 1);
		dbl(&w, r->deadline_counted_s, 6);
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

gboolean ab_sweep_csv_has_rows(const struct ab_run *run)
{
	for (guint i = 0; i < run->results->len; i++)
		if (ab_text_is_grid_result(g_ptr_array_index(run->results, i)))
			return TRUE;
	return FALSE;
}

static gboolean sweep_csv_write_run(const struct ab_run *run, GString *out, GError **error)
{
	(void)error;
	g_autofree char *rows = ab_sweep_csv_rows(run);
	g_string_append(out, rows);
	return TRUE;
}

/* A set is the header, then every run's cells: ab_writer_write_set(). */
const struct ab_writer ab_writer_sweep_csv = {
	.name = "sweep-csv",
	.extension = "csv",
	.run_option = "--sweep-csv",
	.has_run = ab_sweep_csv_has_rows,
	.header = header,
	.write_run = sweep_csv_write_run,
};
