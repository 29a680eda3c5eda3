/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human-readable table: the conditions first, then one row per result with
 * rate, CPU, iowait and latency percentiles (bonnie++ shows only the max).
 * What a run does not know (one read from bonnie++'s CSV) shows as "-". */
#include "report.h"
#include "format.h"
#include "text-block.h"
#include "../src/model/findings.h"
#include "../workloads/phase.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A name as one line of the table: control characters (a newline in a
 * directory name) are shown as \ooo, so one header line stays one line. */
static char *one_line(const char *text)
{
	if (!text)
		return g_strdup("-");
	GString *o = g_string_new(NULL);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			g_string_append_printf(o, "\\%03o", *p);
		else
			g_string_append_c(o, (char)*p);
	}
	return g_string_free(o, FALSE);
}

static const char *flag_text(ab_flag f, const char *yes, const char *no)
{
	return f == AB_FLAG_UNKNOWN ? "?" : f ? yes : no;
}

static void u64_text(uint64_t v, char *out, size_t len)
{
	if (ab_known(v))
		snprintf(out, len, "%" G_GUINT64_FORMAT, v);
	else
		snprintf(out, len, "?");
}

static void header_io(GString *s, const struct ab_run *run)
{
	const struct ab_conditions *c = &run->cond;
	char fsz[32], chunk[32], pcs[32], seeks[32], seekers[32];
	ab_format_size(c->file_size, fsz, sizeof(fsz));
	ab_format_size(c->io_chunk, chunk, sizeof(chunk));
	ab_format_size(c->per_char_bytes, pcs, sizeof(pcs));
	u64_text(c->seeks, seeks, sizeof(seeks));
	u64_text(c->seekers, seekers, sizeof(seekers));
	gboolean grown = c->seeks_given == FALSE && ab_run_find(run, "seeks");
	g_string_append_printf(s, "i/o     file %s  chunk %s  seeks %s%s by %s seekers  per-char %s over %s\n", fsz,
			       chunk, seeks, grown ? " (grown until the phase lasts 1 s)" : "", seekers,
			       c->per_char_mode ? c->per_char_mode : "?", pcs);
}

static void header_files(GString *s, const struct ab_run *run)
{
	const struct ab_conditions *c = &run->cond;
	char fchunk[32], dirs[32];
	ab_format_size(c->file_chunk, fchunk, sizeof(fchunk));
	u64_text(c->num_dirs, dirs, sizeof(dirs));
	gboolean hard = g_strcmp0(c->file_kind, "hardlink") == 0, sym = g_strcmp0(c->file_kind, "symlink") == 0;
	g_string_append_printf(s, "files   %" G_GUINT64_FORMAT " x 1024 in %s dir%s  size %s", c->num_files_k, dirs,
			       ab_known(c->num_dirs) && c->num_dirs == 1 ? "" : "s",
			       hard ? "hard links" : sym ? "symlinks" : "");
	if (!hard && !sym) {
		char lo[32], hi[32];
		u64_text(c->file_min, lo, sizeof(lo));
		u64_text(c->file_max, hi, sizeof(hi));
		g_string_append_printf(s, "%s-%s bytes", lo, hi);
	}
	g_string_append_printf(s, "  chunk %s\n", fchunk);
}

/* A run on many ranks: how many, on how many nodes, their data's layout,
 * and the MPI library's own words. */
static void header_mpi(GString *s, const struct ab_mpi_desc *m)
{
	char ranks[32], nodes[32];
	u64_text(m->ranks, ranks, sizeof(ranks));
	u64_text(m->nodes, nodes, sizeof(nodes));
	g_autofree char *layout = one_line(m->layout), *library = one_line(m->library);
	g_string_append_printf(s, "ranks   %s on %s node%s  layout %s%s  library %s\n", ranks, nodes,
			       ab_known(m->nodes) && m->nodes == 1 ? "" : "s", layout,
			       m->reorder == TRUE ? " (each rank read another node's data)" : "", library);
}

static void header(GString *s, const struct ab_run *run)
{
	const struct ab_conditions *c = &run->cond;
	const struct ab_target_desc *t = &run->target;
	g_autofree char *machine = one_line(run->machine), *dir = one_line(c->dir);
	g_autofree char *mkfs = one_line(t->mkfs_command), *mount = one_line(t->mount_effective);
	g_autofree char *image_dir = one_line(t->image_dir), *tool = one_line(run->tool);
	g_autofree char *version = one_line(run->tool_version), *fs = one_line(run->fs_type);
	g_autofree char *kernel = one_line(run->kernel), *id = one_line(run->run_id);
	g_autofree char *seed_text = one_line(run->seed_text);
	char repeat[32], repeats[32], seed[32];
	u64_text(run->repeat, repeat, sizeof(repeat));
	u64_text(c->repeats, repeats, sizeof(repeats));
	u64_text(run->seed, seed, sizeof(seed));
	g_string_append_printf(s, "%s %s  machine %s  run %s of %s  seed %s  id %s\n", tool, version, machine, repeat,
			       repeats, run->seed_text ? seed_text : seed, id);
	g_string_append_printf(s, "target  %s (%s)  kernel %s\n", dir, fs, kernel);
	if (ab_known(run->mpi.ranks))
		header_mpi(s, &run->mpi);
	if (t->backend && !g_str_equal(t->backend, "dir"))
		g_string_append_printf(s, "built   %s %s on %u device%s  mkfs: %s  mount: %s\n", t->backend,
				       t->level ? t->level : "-", t->members->len ? t->members->len : 1,
				       t->members->len == 1 ? "" : "s", mkfs, mount);
	if (ab_known(t->image_count) && t->image_count) {
		char isz[32];
		ab_format_size(t->image_size, isz, sizeof(isz));
		g_string_append_printf(s, "images  %" G_GUINT64_FORMAT " x %s in %s (%s)\n", t->image_count, isz,
				       image_dir, t->image_dir_fs ? t->image_dir_fs : "?");
	}
	/* bonnie++'s sizes, when its phases ran (a sweep has its own grid). */
	gboolean none = !run->results->len;
	if (ab_known(c->file_size) && c->file_size && (none || ab_run_ran_any(run, AB_PHASE_IO)))
		header_io(s, run);
	if (ab_known(c->num_files_k) && c->num_files_k && (none || ab_run_ran_any(run, AB_PHASE_FILES)))
		header_files(s, run);
	const char *sync = c->sync_each_write == AB_FLAG_UNKNOWN ? "?"
			   : c->sync_each_write ? "fsync each write (-b)" : "fsync at close, timed";
	g_autofree char *cache = one_line(run->cache_desc);
	g_autofree char *sync_text = none || ab_run_ran_any(run, AB_PHASE_IO | AB_PHASE_FILES)
					     ? g_strdup_printf("  sync %s", sync)
					     : g_strdup("");
	g_string_append_printf(s, "cache   %s  direct %s  data %s%s\n", cache,
			       flag_text(c->direct, "yes (per-char stays buffered)", "no"), c->data ? c->data : "?",
			       sync_text);
	if (c->cache_limits)
		g_string_append_printf(s, "        (%s: %s)\n", c->cache_mode ? c->cache_mode : "?", c->cache_limits);
	if (run->cache_warning)
		g_string_append_printf(s, "WARNING %s\n", run->cache_warning);
}

/* Shown in a table of its own (the sweep's grid, the wal table, the curve's
 * block), not as a row of the main one. */
static gboolean in_own_table(const struct ab_result *r)
{
	return ab_text_is_grid_result(r) || ab_text_is_wal_result(r) || ab_text_is_curve_result(r);
}

/* "seeks", or "block-read#2" for the second pass of a step in one run;
 * a sub-test follows ("raw-read /dev/sdb": the device a raw row measured). */
static char *row_name(const struct ab_result *r)
{
	g_autofree char *test = r->key.test ? one_line(r->key.test) : NULL;
	g_autofree char *pass = ab_known(r->key.pass) && r->key.pass > 1
		? g_strdup_printf("#%" G_GUINT64_FORMAT, r->key.pass) : NULL;
	/* The oltp phase runs once per --oltp-procs count: each its rows. */
	g_autofree char *procs = strcmp(r->phase, "oltp") == 0 && ab_known(r->key.streams)
		? g_strdup_printf(" x%" G_GUINT64_FORMAT, r->key.streams) : NULL;
	return g_strconcat(r->phase, pass ? pass : "", procs ? procs : "", test ? " " : "", test ? test : "", NULL);
}

/* Column widths: the names and cache states of this run, bonnie++'s
 * phases' at least, so a raw row's device and "bypassed (O_DIRECT)" fit. */
struct widths {
	int name, cache;
};

static struct widths widths_of(const struct ab_run *run)
{
	struct widths w = { 15, 5 };
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (in_own_table(r))
			continue; /* in the sweep's, wal's or curve's own table, not a row */
		g_autofree char *name = row_name(r);
		w.name = MAX(w.name, (int)MIN(strlen(name), 80));
		w.cache = MAX(w.cache, r->cache_state ? (int)MIN(strlen(r->cache_state), 40) : 0);
	}
	return w;
}

/* Per-member MiB read/written and busy time, so an imbalance (RAID1 reads
 * served by one disk) shows without iostat. */
static void devices(GString *s, const struct ab_run *run, struct widths w)
{
	gboolean header = FALSE;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!r->devices->len || in_own_table(r))
			continue;
		if (!header) {
			g_string_append(s, "per device: MiB read/written, busy seconds\n");
			header = TRUE;
		}
		g_autofree char *name = row_name(r);
		g_string_append_printf(s, "%-*s", w.name, name);
		for (guint k = 0; k < r->devices->len; k++) {
			const struct ab_device_io *d = &g_array_index(r->devices, struct ab_device_io, k);
			g_autofree char *dev = one_line(d->name);
			g_string_append_printf(s, " %s %.1f/%.1f %.1fs", dev, d->read_bytes / 1048576.0,
					       d->written_bytes / 1048576.0, d->busy_ms / 1000.0);
		}
		g_string_append_c(s, '\n');
	}
}

static void row(GString *s, const struct ab_result *r, struct widths w, gboolean *any_layout)
{
	const struct ab_phase *ph = ab_phase_by_name(r->phase);
	const struct ab_latency *l = &r->latency;
	char rate[32], cpu[16], iowait[16], lat[5][16], note[128] = "";
	const uint64_t v[5] = { l->p50_ns, l->p90_ns, l->p99_ns, l->p99_9_ns, l->max_ns };
	for (int i = 0; i < 5; i++)
		ab_format_latency(v[i], lat[i], sizeof(lat[i]));
	/* The rate is shown however short the phase; one under bonnie++'s
	 * 0.5 s (which the CSV prints as +++++) carries its duration. */
	if (isnan(r->rate))
		snprintf(rate, sizeof(rate), "%s", r->measurable ? "-" : "+++++");
	else
		ab_format_rate(r->rate, rate, sizeof(rate));
	if (isnan(r->cpu_percent))
		snprintf(cpu, sizeof(cpu), "-");
	else
		snprintf(cpu, sizeof(cpu), "%.0f", r->cpu_percent);
	if (isnan(r->iowait_percent))
		snprintf(iowait, sizeof(iowait), "-");
	else
		snprintf(iowait, sizeof(iowait), "%.1f", r->iowait_percent);
	/* Its duration; that it was too short, and a cold phase that found
	 * its file cached, the findings say (too-short, cached-at-start). */
	if (!r->measurable && !isnan(r->elapsed_s))
		snprintf(note, sizeof(note), "  (%.2g s)", r->elapsed_s);
	if (r->laid_out_untimed == TRUE) {
		g_strlcat(note, "  *", sizeof(note));
		*any_layout = TRUE;
	}
	g_autofree char *name = row_name(r);
	g_string_append_printf(s, "%-*s %14s %-8s %5s %7s %-*s %9s %9s %9s %9s %9s%s\n", w.name, name, rate,
			       ph ? ab_rate_unit_name(ph->unit) : "?", cpu, iowait, w.cache,
			       r->cache_state ? r->cache_state : "-", lat[0], lat[1], lat[2], lat[3], lat[4], note);
}

static gboolean is_row(const struct ab_result *r)
{
	return !in_own_table(r);
}

/* The main table's column names (over no results too: the run measured
 * nothing), a row per result shown there, and the note its marks need. */
static gboolean has_rows(const struct ab_run *run)
{
	return !run->results->len || ab_text_run_has(run, is_row);
}

static void table(GString *s, const struct ab_run *run)
{
	struct widths w = widths_of(run);
	gboolean any_layout = FALSE;
	g_string_append_printf(s, "%-*s %14s %-8s %5s %7s %-*s %9s %9s %9s %9s %9s\n", w.name, "phase", "rate", "",
			       "%cpu", "%iowait", w.cache, "cache", "p50", "p90", "p99", "p99.9", "max");
	for (guint i = 0; i < run->results->len; i++)
		if (is_row(g_ptr_array_index(run->results, i)))
			row(s, g_ptr_array_index(run->results, i), w, &any_layout);
	if (any_layout)
		g_string_append(s, "* read a test file written untimed (no block write before it in this run)\n");
}

static gboolean not_raw(const struct ab_run *run)
{
	return !ab_text_block_raw_header.applies(run);
}

static gboolean has_device_rows(const struct ab_run *run)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (r->devices->len && is_row(r))
			return TRUE;
	}
	return FALSE;
}

static void devices_block(GString *s, const struct ab_run *run)
{
	devices(s, run, widths_of(run));
}

static const struct ab_text_block conditions_block = { "conditions", not_raw, header };
static const struct ab_text_block table_block = { "table", has_rows, table };
static const struct ab_text_block devices_rows_block = { "per device", has_device_rows, devices_block };

/* A run's text, in order: its header (raw's, or the conditions), the
 * table, then each block of its own. */
static const struct ab_text_block *const blocks[] = {
	&ab_text_block_raw_header, &conditions_block, &table_block,
	&ab_text_block_sweep, &ab_text_block_wal, &ab_text_block_curve,
	&devices_rows_block, &ab_text_block_ranks, &ab_text_block_efficiency,
	/* What the figures above show; the sizing statement, which reads
	 * them as an answer, stays the text's close. */
	&ab_text_block_findings, &ab_text_block_sizing,
};

gboolean ab_text_run_has(const struct ab_run *run, gboolean (*is)(const struct ab_result *r))
{
	for (guint i = 0; i < run->results->len; i++)
		if (is(g_ptr_array_index(run->results, i)))
			return TRUE;
	return FALSE;
}

char *ab_text_format(const struct ab_run *run)
{
	GString *s = g_string_new(NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(blocks); i++)
		if (blocks[i]->applies(run))
			blocks[i]->append(s, run);
	return g_string_free(s, FALSE);
}

static gboolean text_write_run(const struct ab_run *run, GString *out, GError **error)
{
	(void)error;
	g_autofree char *text = ab_text_format(run);
	g_string_append(out, text);
	return TRUE;
}

/* Runs one after another, a blank line between them; then what the
 * groups of them show (each run's own findings close its text). */
static gboolean text_write_set(const struct ab_run_set *set, GString *out, GError **error)
{
	for (guint i = 0; i < set->runs->len; i++) {
		if (i)
			g_string_append_c(out, '\n');
		if (!text_write_run(g_ptr_array_index(set->runs, i), out, error))
			return FALSE;
	}
	ab_text_tune_summary(out, set);
	g_autoptr(GPtrArray) findings = ab_findings_find(set, AB_FINDING_SCOPE_GROUPS);
	if (findings->len)
		g_string_append_c(out, '\n');
	ab_findings_text(out, findings, "findings over the runs", TRUE);
	return TRUE;
}

const struct ab_writer ab_writer_text = {
	.name = "text",
	.extension = "txt",
	.write_run = text_write_run,
	.write_set = text_write_set,
};
