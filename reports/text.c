/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human-readable table: the conditions first, then one row per phase with
 * rate, CPU, iowait and latency percentiles (bonnie++ shows only the max). */
#include "report.h"
#include "../src/cache.h"

#include <stdint.h>
#include <stdio.h>

void ab_text_format_latency(uint64_t ns, char *out, size_t len)
{
	if (ns < 1000)
		snprintf(out, len, "%" G_GUINT64_FORMAT "ns", ns);
	else if (ns < 1000000)
		snprintf(out, len, "%.0fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(out, len, "%.2fms", ns / 1e6);
	else
		snprintf(out, len, "%.2fs", ns / 1e9);
}

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

static void header(GString *s, const struct ab_run *run)
{
	const struct ab_config *cfg = run->cfg;
	char fsz[32], chunk[32], pcs[32];
	const struct ab_target *t = run->target;
	g_autofree char *machine = one_line(run->machine), *dir = one_line(run->dir);
	g_autofree char *mkfs = one_line(t ? t->mkfs_command : NULL);
	g_autofree char *mount = one_line(t ? t->mount_effective : NULL);
	g_autofree char *loop_dir = one_line(cfg->target.loop_dir);
	ab_csv_format_chunk(cfg->file_size, fsz, sizeof(fsz));
	ab_csv_format_chunk(cfg->io_chunk, chunk, sizeof(chunk));
	ab_csv_format_chunk(cfg->byte_io_size, pcs, sizeof(pcs));
	g_string_append_printf(s, "arraybench %s  machine %s  run %u of %u  seed %" G_GUINT64_FORMAT "  id %s\n",
			       AB_VERSION, machine, run->repeat_index + 1, cfg->repeats, run->seed,
			       run->run_id ? run->run_id : "-");
	g_string_append_printf(s, "target  %s (%s)  kernel %s\n", dir, run->fs_type, run->kernel);
	if (t && t->backend && !g_str_equal(t->backend, "dir"))
		g_string_append_printf(s, "built   %s %s on %u device%s  mkfs: %s  mount: %s\n", t->backend, t->level,
				       t->members ? t->members->len : 1, t->members && t->members->len == 1 ? "" : "s",
				       mkfs, mount);
	if (cfg->target.loop_count) {
		char isz[32];
		ab_csv_format_chunk(cfg->target.loop_size, isz, sizeof(isz));
		g_string_append_printf(s, "images  %u x %s in %s (%s)\n", cfg->target.loop_count, isz,
				       loop_dir, run->image_dir_fs ? run->image_dir_fs : "?");
	}
	if (cfg->file_size)
		g_string_append_printf(s, "i/o     file %s  chunk %s  seeks %" G_GUINT64_FORMAT "%s by %u seekers  "
				       "per-char %s over %s\n",
				       fsz, chunk, ab_run_seeks(run),
				       cfg->seeks_given || !run->results[AB_PHASE_SEEKS].ran
					       ? "" : " (grown until the phase lasts 1 s)", cfg->seekers,
				       ab_per_char_mode_name(cfg->per_char), pcs);
	if (cfg->num_files) {
		char fchunk[32];
		ab_csv_format_chunk(cfg->file_chunk, fchunk, sizeof(fchunk));
		g_string_append_printf(s, "files   %u x 1024 in %u dir%s  size %s", cfg->num_files, cfg->num_dirs,
				       cfg->num_dirs > 1 ? "s" : "", cfg->file_max == AB_FILES_HARDLINK ? "hard links"
				       : cfg->file_max == AB_FILES_SYMLINK ? "symlinks" : "");
		if (cfg->file_max >= 0)
			g_string_append_printf(s, "%" G_GUINT64_FORMAT "-%" G_GINT64_FORMAT " bytes", cfg->file_min,
					       cfg->file_max);
		g_string_append_printf(s, "  chunk %s\n", fchunk);
	}
	g_string_append_printf(s, "cache   %s  direct %s  data %s  sync %s\n", run->cache_desc,
			       cfg->direct ? "yes (per-char stays buffered)" : "no", ab_data_mode_name(cfg->data),
			       cfg->sync_each_write ? "fsync each write (-b)" : "fsync at close, timed");
	const char *limits = ab_cache_limits(cfg->cache);
	if (limits)
		g_string_append_printf(s, "        (%s: %s)\n", ab_cache_mode_name(cfg->cache), limits);
	if (run->cache_warning)
		g_string_append_printf(s, "WARNING %s\n", run->cache_warning);
}

/* Per-member MiB read/written and busy time, so an imbalance (RAID1 reads
 * served by one disk) shows without iostat. */
static void devices(GString *s, const struct ab_run *run)
{
	gboolean header = FALSE;
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_result *r = &run->results[id];
		if (!r->ran || !r->disks.count)
			continue;
		if (!header) {
			g_string_append(s, "per device: MiB read/written, busy seconds\n");
			header = TRUE;
		}
		g_string_append_printf(s, "%-15s", r->phase->name);
		for (unsigned i = 0; i < r->disks.count; i++) {
			const struct ab_disk_counters *d = &r->disks.disk[i];
			g_string_append_printf(s, " %s %.1f/%.1f %.1fs", d->name, d->read_sectors / 2048.0,
					       d->write_sectors / 2048.0, d->busy_ms / 1000.0);
		}
		g_string_append_c(s, '\n');
	}
}

char *ab_text_format(const struct ab_run *run)
{
	GString *s = g_string_new(NULL);
	header(s, run);
	g_string_append_printf(s, "%-15s %14s %-8s %5s %7s %-5s %9s %9s %9s %9s %9s\n", "phase", "rate", "", "%cpu",
			       "%iowait", "cache", "p50", "p90", "p99", "p99.9", "max");
	gboolean any_layout = FALSE;
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_result *r = &run->results[id];
		if (!r->ran)
			continue;
		char rate[32], lat[5][16], note[64] = "";
		const uint64_t v[5] = {
			ab_histogram_percentile(&r->latency, 50), ab_histogram_percentile(&r->latency, 90),
			ab_histogram_percentile(&r->latency, 99), ab_histogram_percentile(&r->latency, 99.9),
			r->latency.max_ns,
		};
		for (int i = 0; i < 5; i++)
			ab_text_format_latency(v[i], lat[i], sizeof(lat[i]));
		/* The rate is shown however short the phase; one under bonnie++'s
		 * 0.5 s (which the CSV prints as +++++) carries its duration. */
		snprintf(rate, sizeof(rate), r->rate < 1000 ? "%.1f" : "%.0f",
			 r->rate < 1000 ? r->rate : (double)(uint64_t)r->rate); /* as the CSV truncates */
		if (!r->measurable)
			snprintf(note, sizeof(note), "  (%.2g s: below %.1f s)", r->elapsed_s, AB_MIN_MEASURABLE_S);
		if (r->laid_out_untimed) {
			g_strlcat(note, "  *", sizeof(note));
			any_layout = TRUE;
		}
		g_string_append_printf(s, "%-15s %14s %-8s %5.0f %7.1f %-5s %9s %9s %9s %9s %9s%s\n", r->phase->name,
				       rate, ab_rate_unit_name(r->phase->unit), r->cpu_percent, r->iowait_percent,
				       r->cold ? "cold" : "warm", lat[0], lat[1], lat[2], lat[3], lat[4], note);
	}
	if (any_layout)
		g_string_append(s, "* read a test file written untimed (no block write before it in this run)\n");
	devices(s, run);
	return g_string_free(s, FALSE);
}
