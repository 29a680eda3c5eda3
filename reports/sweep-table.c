/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep as iozone lays it out: KiB/s in rows of file size x
 * record size, a column per test, blank where a test did not run; and, what
 * iozone never says, a mark on each figure that is not a disk figure. */
#include "report.h"
#include "text-block.h"
#include "../workloads/sweep.h"

#include <stdio.h>
#include <string.h>

#define SWEEP_PHASE "sweep"
/* A cold read that found more than this share of its file cached measured
 * memory in part (as the main table's rows say). */
#define RESIDENT_LIMIT 0.05

gboolean ab_text_is_grid_result(const struct ab_result *r)
{
	return g_strcmp0(r->phase, SWEEP_PHASE) == 0;
}

static gboolean timed_has(const struct ab_result *r, const char *call)
{
	return r->timed && g_strv_contains((const char *const *)r->timed, call);
}

/* Why this cell's figure is not the disk's, as one mark: 'c' a read served
 * (partly) from the page cache, 'w' writes whose timing held no fsync, so
 * they reached only the page cache; ' ' none. */
static char mark(const struct ab_result *r, const struct ab_sweep_test_info *ti)
{
	if (ti && (ti->flags & AB_SWEEP_READS))
		return g_strcmp0(r->cache_state, "cold") != 0 || r->resident_at_start > RESIDENT_LIMIT ? 'c' : ' ';
	if (r->timed && !timed_has(r, "fsync"))
		return 'w';
	return ' ';
}

/* A row of the grid: one file size, record and stream count. */
struct row {
	uint64_t file_size, record, streams;
	const struct ab_result *cell[AB_SWEEP_TEST_COUNT];
};

static int test_index(const struct ab_result *r)
{
	enum ab_sweep_test t;
	return r->key.test && ab_sweep_test_by_name(r->key.test, &t) ? (int)t : -1;
}

char ab_text_sweep_mark(const struct ab_result *r)
{
	int t = test_index(r);
	return mark(r, t >= 0 ? ab_sweep_test_info(t) : NULL);
}

static struct row *find_row(GArray *rows, const struct ab_result *r)
{
	for (guint i = 0; i < rows->len; i++) {
		struct row *w = &g_array_index(rows, struct row, i);
		if (w->file_size == r->key.file_size && w->record == r->key.record_size && w->streams == r->key.streams)
			return w;
	}
	struct row w = { .file_size = r->key.file_size, .record = r->key.record_size, .streams = r->key.streams };
	g_array_append_val(rows, w);
	return &g_array_index(rows, struct row, rows->len - 1);
}

static void kib(uint64_t bytes, char *out, size_t len)
{
	if (ab_known(bytes))
		snprintf(out, len, "%" G_GUINT64_FORMAT, bytes / 1024);
	else
		snprintf(out, len, "?");
}

/* The timing rules the cells ran under, said once above the grid. */
static void timing_line(GString *s, const GPtrArray *cells)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new();
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		const char *m = r->sync_mode ? r->sync_mode : "?";
		if (!g_ptr_array_find_with_equal_func(seen, m, g_str_equal, NULL))
			g_ptr_array_add(seen, (gpointer)m);
	}
	g_string_append(s, "timing  ");
	for (guint i = 0; i < seen->len; i++) {
		const char *m = g_ptr_array_index(seen, i);
		const char *why = g_str_equal(m, "fsync-timed-on-writes")
					  ? "writes time their fsync to stable storage; reads time only the reads"
				  : g_str_equal(m, "fsync-timed") ? "every test times an fsync (iozone -e)"
				  : g_str_equal(m, "close-timed-no-fsync")
					  ? "close timed and no fsync at all (iozone -c): writes measure the page cache"
				  : g_str_equal(m, "fsync-close-timed") ? "fsync and close timed (iozone -e -c)"
				  : g_str_equal(m, "fsync-close-untimed")
					  ? "only the I/O calls timed (iozone's default): writes measure the page cache"
					  : "as the file says";
		g_string_append_printf(s, "%s%s (%s)", i ? "; " : "", m, why);
	}
	g_string_append_c(s, '\n');
}

static void heading(GString *s, gboolean streams)
{
	/* iozone's two-line headings: "random" over "read". */
	GString *top = g_string_new(NULL), *bottom = g_string_new(NULL);
	g_string_append_printf(top, "%s%10s %7s", streams ? "        " : "", "", "");
	g_string_append_printf(bottom, "%s%10s %7s", streams ? " streams" : "", "kB", "reclen");
	for (unsigned t = 0; t < AB_SWEEP_TEST_COUNT; t++) {
		const char *col = ab_sweep_test_info(t)->column;
		const char *sp = strchr(col, ' ');
		g_autofree char *first = sp ? g_strndup(col, (gsize)(sp - col)) : g_strdup("");
		g_string_append_printf(top, " %9s", first);
		g_string_append_printf(bottom, " %9s", sp ? sp + 1 : col);
	}
	while (top->len && top->str[top->len - 1] == ' ')
		g_string_truncate(top, top->len - 1);
	g_string_append_printf(s, "%s\n%s\n", top->str, bottom->str);
	g_string_free(top, TRUE);
	g_string_free(bottom, TRUE);
}

static void rate_text(double v, char *out, size_t len)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.0f", v);
}

/* Did any cell run with a deadline (--stonewall-time)? */
static gboolean any_deadline(const GPtrArray *cells)
{
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		if (r->stonewall_time_s > 0)
			return TRUE;
	}
	return FALSE;
}

/* Cells run as concurrent streams: both aggregate figures, named so that
 * neither passes for the other, and how even the streams were; with a
 * deadline, every cell's rate at it beside them. */
static void streams_table(GString *s, const GPtrArray *cells)
{
	gboolean deadline = any_deadline(cells);
	g_string_append(s, "streams: in the grid above, each cell with more than one stream is its end-to-end figure\n"
			   "  end-to-end  all the streams' bytes over the wall time from the first start to the last end\n"
			   "  stonewall   the sum of each stream's own rate up to the moment the first stream ended\n"
			   "  (iozone's \"parent sees\" and \"children see\"); min/max: the slowest and fastest stream's\n"
			   "  rate at the stonewall; least done: the least any stream had done by then (KiB)\n");
	if (deadline)
		g_string_append(s, "  deadline    every stream's bytes at its deadline (all of them for a stream that ended first)\n"
				   "              over the time until the last count was taken\n");
	g_string_append_printf(s, "%8s %10s %7s %-15s %11s %11s %11s %11s %11s%s\n", "streams", "kB", "reclen", "test",
			       "end-to-end", "stonewall", "min", "max", "least done", deadline ? "    deadline" : "");
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		if (!ab_known(r->key.streams) || (r->key.streams < 2 && !deadline))
			continue;
		char fsz[32], rec[32], e2e[32], sw[32], lo[32], hi[32], least[32];
		kib(r->key.file_size, fsz, sizeof(fsz));
		kib(r->key.record_size, rec, sizeof(rec));
		rate_text(r->end_to_end_rate, e2e, sizeof(e2e));
		rate_text(r->stonewall_rate, sw, sizeof(sw));
		rate_text(r->min_worker_rate, lo, sizeof(lo));
		rate_text(r->max_worker_rate, hi, sizeof(hi));
		kib(r->min_bytes_at_stonewall, least, sizeof(least));
		/* A known test's name: the reader refuses any other in a sweep cell. */
		char dl[48] = "";
		if (deadline) {
			char at[32];
			rate_text(r->deadline_rate, at, sizeof(at));
			snprintf(dl, sizeof(dl), " %11s", at);
		}
		g_string_append_printf(s, "%8" G_GUINT64_FORMAT " %10s %7s %-15s %11s %11s %11s %11s %11s%s\n",
				       r->key.streams, fsz, rec, r->key.test ? r->key.test : "?", e2e, sw, lo, hi, least,
				       dl);
	}
}

/* Each stream's deadline counts from its own start: when the ranks' starts
 * spread wider than the deadline, the rate at it adds up streams that did
 * not all run at once, which the text says (the widest spread of a cell). */
static void spread_warning(GString *s, const GPtrArray *cells)
{
	double widest = 0, deadline = 0;
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		if (r->stonewall_time_s > 0 && r->start_spread_s > r->stonewall_time_s && r->start_spread_s > widest) {
			widest = r->start_spread_s;
			deadline = r->stonewall_time_s;
		}
	}
	if (widest > 0)
		g_string_append_printf(s, "   the ranks' starts spread over %.3g s, more than the %g s deadline: the rate at "
				       "the deadline adds streams that did not all run at once\n", widest, deadline);
}

/* The deadline's condition, said once above the grid. */
static void deadline_line(GString *s, const GPtrArray *cells)
{
	/* A cell whose count came at or past the deadline had a stream cut;
	 * with none, the setting changed nothing, which the line says. */
	gboolean reached = FALSE;
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		reached |= r->stonewall_time_s > 0 && r->deadline_counted_s >= r->stonewall_time_s;
	}
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		if (!(r->stonewall_time_s > 0))
			continue;
		if (!reached && isfinite(r->deadline_counted_s)) {
			g_string_append_printf(s, "deadline %g s after each stream's start: no stream reached it, every "
					       "test ran whole\n", r->stonewall_time_s);
			return;
		}
		g_string_append_printf(s, "deadline each stream's timed I/O stopped %g s after its start%s; later tests "
				       "used only what the write wrote\n", r->stonewall_time_s,
				       r->wearout == TRUE ? ", then went on to the largest count any stream had then "
							    "(wear-out)" : "");
		spread_warning(s, cells);
		return;
	}
}

/* The grid of one pass of the sweep. */
static void grid(GString *s, const struct ab_run *run, GPtrArray *cells, uint64_t pass)
{
	g_autoptr(GArray) rows = g_array_new(FALSE, TRUE, sizeof(struct row));
	gboolean streams = FALSE, stdio_direct = FALSE, any_c = FALSE, any_w = FALSE, laid_out = FALSE;
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_result *r = g_ptr_array_index(cells, i);
		int t = test_index(r);
		if (t < 0)
			continue; /* never read back (the reader refuses it): a live run makes none */
		find_row(rows, r)->cell[t] = r;
		streams |= ab_known(r->key.streams) && r->key.streams != 1;
		stdio_direct |= (ab_sweep_test_info(t)->flags & AB_SWEEP_STDIO) && run->cond.direct == TRUE;
		laid_out |= r->laid_out_untimed == TRUE;
	}
	if (pass > 1)
		g_string_append_printf(s, "record-size sweep #%" G_GUINT64_FORMAT ", KiB/s\n", pass);
	else
		g_string_append(s, "record-size sweep, KiB/s\n");
	timing_line(s, cells);
	deadline_line(s, cells);
	const struct ab_conditions *c = &run->cond;
	if (ab_known(c->files_per_stream) && c->files_per_stream > 1)
		g_string_append_printf(s, "files   each stream goes through %" G_GUINT64_FORMAT
				       " files of the row's size in turn, in one timed region\n", c->files_per_stream);
	if (c->shared_file == TRUE && streams)
		g_string_append(s, "files   the streams share one file, each its own region of the row's size\n");
	heading(s, streams);
	for (guint i = 0; i < rows->len; i++) {
		const struct row *w = &g_array_index(rows, struct row, i);
		char fsz[32], rec[32];
		kib(w->file_size, fsz, sizeof(fsz));
		kib(w->record, rec, sizeof(rec));
		if (streams)
			g_string_append_printf(s, " %7" G_GUINT64_FORMAT, w->streams);
		g_string_append_printf(s, "%10s %7s", fsz, rec);
		for (unsigned t = 0; t < AB_SWEEP_TEST_COUNT; t++) {
			const struct ab_result *r = w->cell[t];
			if (!r || isnan(r->rate)) {
				g_string_append_printf(s, " %9s", r ? "-" : "");
				continue;
			}
			char m = mark(r, ab_sweep_test_info(t));
			any_c |= m == 'c';
			any_w |= m == 'w';
			g_string_append_printf(s, " %8.0f%c", r->rate, m);
		}
		/* No trailing blanks on a line whose last tests did not run. */
		while (s->len && s->str[s->len - 1] == ' ')
			g_string_truncate(s, s->len - 1);
		g_string_append_c(s, '\n');
	}
	if (any_c)
		g_string_append(s, "c  read from the page cache, not the disk: warm by definition (reread, freread), "
				   "under --cache none, or over 5% of the file cached when the test began\n");
	if (any_w)
		g_string_append(s, "w  no fsync in the timing: the writes reached the page cache, not the disk\n");
	if (stdio_direct)
		g_string_append(s, "   fwrite, frewrite, fread and freread stay buffered: stdio cannot use O_DIRECT\n");
	if (laid_out)
		g_string_append(s, "   cells without write or fwrite read a file laid out untimed\n");
	if (streams || any_deadline(cells))
		streams_table(s, cells);
}

void ab_text_sweep(GString *s, const struct ab_run *run)
{
	/* Each pass of the sweep (--phases sweep,sweep) is a grid of its own. */
	uint64_t last = 0;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (ab_text_is_grid_result(r) && ab_known(r->key.pass))
			last = MAX(last, r->key.pass);
	}
	for (uint64_t pass = 1; pass <= last; pass++) {
		g_autoptr(GPtrArray) cells = g_ptr_array_new();
		for (guint i = 0; i < run->results->len; i++) {
			const struct ab_result *r = g_ptr_array_index(run->results, i);
			if (ab_text_is_grid_result(r) && r->key.pass == pass)
				g_ptr_array_add(cells, (gpointer)r);
		}
		if (cells->len)
			grid(s, run, cells, pass);
	}
}

static gboolean has_grid(const struct ab_run *run)
{
	return ab_text_run_has(run, ab_text_is_grid_result);
}

const struct ab_text_block ab_text_block_sweep = {
	.name = "sweep grid",
	.applies = has_grid,
	.append = ab_text_sweep,
};
