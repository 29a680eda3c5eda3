/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++-compatible CSV (format 1.98) that bon_csv2html and bon_csv2txt read. */
#include "report.h"
#include "../src/base/units.h"
#include "../workloads/phase.h"

#include <stdio.h>
#include <string.h>

void ab_csv_format_latency(uint64_t ns, char *out, size_t len)
{
	/* bonnie++ truncates: up to 0.099999 s in us, up to 99.999999 s in ms. */
	if (ns == AB_UNSET)
		snprintf(out, len, "%s", "");
	else if (ns <= 99999000ull)
		snprintf(out, len, "%" G_GUINT64_FORMAT "us", ns / 1000u);
	else if (ns <= 99999999000ull)
		snprintf(out, len, "%" G_GUINT64_FORMAT "ms", ns / 1000000u);
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT "s", ns / 1000000000u);
}

void ab_csv_format_chunk(uint64_t bytes, char *out, size_t len)
{
	if (bytes >= 1024 * AB_MIB && bytes % (1024 * AB_MIB) == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "g", bytes / (1024 * AB_MIB));
	else if (bytes >= AB_MIB && bytes % AB_MIB == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "m", bytes / AB_MIB);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT "k", bytes / 1024);
	else
		snprintf(out, len, "%" G_GUINT64_FORMAT, bytes);
}

static void field(GString *s, const char *text)
{
	g_string_append_c(s, ',');
	g_string_append(s, text ? text : "");
}

/* A name (machine, version, seed text) as one field.  The CSV has no
 * quoting: a comma would make 51 fields, a newline or CR two lines, and
 * bon_csv2txt would read garbage.  A run's own names cannot hold them (-m
 * is checked, the host name mapped), but one read from JSON may hold
 * anything; its commas and control characters become '_', the mapping the
 * default machine name gets, so the line is always one line of 50 fields. */
static void text_field(GString *s, const char *text)
{
	g_string_append_c(s, ',');
	for (const unsigned char *c = (const unsigned char *)(text ? text : ""); *c; c++)
		g_string_append_c(s, *c == ',' || *c < 0x20 || *c == 0x7f ? '_' : (char)*c);
}

static void field_u64(GString *s, uint64_t v)
{
	if (ab_known(v))
		g_string_append_printf(s, ",%" G_GUINT64_FORMAT, v);
	else
		g_string_append_c(s, ',');
}

/* bonnie++ truncates its figures to integers; so do we, within range. */
static uint64_t truncated(double v)
{
	return !(v > 0) ? 0 : v >= 18446744073709549568.0 ? UINT64_MAX - 1 : (uint64_t)v;
}

/* Seeks/s with one decimal below 1000, as bonnie++ writes it; decided on
 * the printed value, so what is read back prints the same. */
static void seek_rate(GString *s, double rate)
{
	if (rate < 999.95)
		g_string_append_printf(s, ",%.1f", rate);
	else
		g_string_append_printf(s, ",%.0f", rate);
}

static void rate_pair(GString *s, const struct ab_phase *ph, const struct ab_result *r)
{
	if (!r) {
		g_string_append(s, ",,");
		return;
	}
	if (!r->measurable) {
		g_string_append(s, ",+++++,+++");
		return;
	}
	if (ph->unit == AB_UNIT_SEEKS_PER_SEC && !isnan(r->rate))
		seek_rate(s, r->rate);
	else
		field_u64(s, isnan(r->rate) ? AB_UNSET : truncated(r->rate));
	field_u64(s, isnan(r->cpu_percent) ? AB_UNSET : truncated(r->cpu_percent));
}

/* The registry's phases in the order of their CSV columns. */
static void phases_by_column(const struct ab_phase **out, unsigned *n)
{
	*n = 0;
	for (int col = 0; col < AB_CSV_FIELDS; col++)
		for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
			const struct ab_phase *ph = ab_phase_by_id(id);
			if (ph->csv_rate_col == col)
				out[(*n)++] = ph;
		}
}

/* bonnie++ 1.98 to 2.00a wrote the directory count in column 25 (a bug its
 * own tools show under "Chunk Size"); their lines are written back as they were. */
gboolean ab_csv_dirs_in_25(const char *tool, const char *tool_version)
{
	return g_strcmp0(tool, "bonnie++") == 0 && tool_version &&
	       (g_str_has_prefix(tool_version, "1.98") || g_str_has_prefix(tool_version, "2.0"));
}

static void io_header(GString *s, const struct ab_run *run)
{
	const struct ab_conditions *c = &run->cond;
	char buf[64] = "";
	/* Without an I/O phase bon_csv2txt would print an empty I/O row. */
	if (!ab_known(c->file_size) || !c->file_size || !ab_run_ran_any(run, AB_PHASE_IO)) {
		g_string_append(s, ",,,,");
		return;
	}
	uint64_t mib = c->file_size / AB_MIB;
	g_string_append_printf(s, ",%" G_GUINT64_FORMAT "%s", mib % 1024 ? mib : mib / 1024, mib % 1024 ? "M" : "G");
	if (ab_known(c->io_chunk) && c->io_chunk != AB_CSV_DEFAULT_CHUNK)
		ab_csv_format_chunk(c->io_chunk, buf, sizeof(buf));
	field(s, buf);
	field_u64(s, c->seeks);
	field_u64(s, c->seekers);
}

static void files_header(GString *s, const struct ab_run *run)
{
	const struct ab_conditions *c = &run->cond;
	char buf[64] = "";
	if (!ab_known(c->num_files_k) || !c->num_files_k || !ab_run_ran_any(run, AB_PHASE_FILES)) {
		g_string_append(s, ",,,,,");
		return;
	}
	field_u64(s, c->num_files_k);
	if (g_strcmp0(c->file_kind, "hardlink") == 0)
		field(s, "link");
	else if (g_strcmp0(c->file_kind, "symlink") == 0)
		field(s, "symlink");
	else
		field_u64(s, ab_known(c->file_max) && c->file_max ? c->file_max : AB_UNSET);
	field_u64(s, ab_known(c->file_min) && c->file_min ? c->file_min : AB_UNSET);
	uint64_t dirs = ab_known(c->num_dirs) && c->num_dirs > 1 ? c->num_dirs : AB_UNSET;
	if (ab_csv_dirs_in_25(run->tool, run->tool_version)) {
		field(s, "");
		field_u64(s, dirs);
		return;
	}
	field_u64(s, dirs);
	if (ab_known(c->file_chunk) && c->file_chunk != AB_CSV_DEFAULT_CHUNK)
		ab_csv_format_chunk(c->file_chunk, buf, sizeof(buf));
	field(s, buf);
}

char *ab_csv_format_line(const struct ab_run *run)
{
	GString *s = g_string_new(AB_CSV_FORMAT_VERSION);
	if (g_strcmp0(run->tool, "arraybench") == 0) {
		g_autofree char *v = g_strdup_printf("arraybench-%s", run->tool_version ? run->tool_version : "");
		text_field(s, v);
	} else {
		text_field(s, run->tool_version);
	}
	text_field(s, run->machine);
	field_u64(s, run->concurrency);
	if (run->seed_text)
		text_field(s, run->seed_text);
	else
		field_u64(s, run->seed);
	const struct ab_phase *order[AB_PHASE_COUNT];
	const struct ab_result *res[AB_PHASE_COUNT];
	unsigned n;
	phases_by_column(order, &n);
	for (unsigned i = 0; i < n; i++)
		res[i] = ab_run_find(run, order[i]->name);
	io_header(s, run);
	for (unsigned i = 0; i < n && order[i]->csv_rate_col < 21; i++)
		rate_pair(s, order[i], res[i]);
	files_header(s, run);
	for (unsigned i = 0; i < n; i++)
		if (order[i]->csv_rate_col > 25)
			rate_pair(s, order[i], res[i]);
	for (unsigned i = 0; i < n; i++) {
		char buf[32] = "";
		if (res[i])
			ab_csv_format_latency(res[i]->latency.max_ns, buf, sizeof(buf));
		field(s, buf);
	}
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

gboolean ab_csv_has_line(const struct ab_run *run)
{
	if (!run->results->len)
		return TRUE;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_phase *ph = ab_phase_by_name(((const struct ab_result *)g_ptr_array_index(run->results, i))->phase);
		if (ph && ph->csv_rate_col >= 0)
			return TRUE;
	}
	return FALSE;
}

static gboolean csv_write_run(const struct ab_run *run, GString *out, GError **error)
{
	(void)error;
	if (!ab_csv_has_line(run))
		return TRUE;  /* write_run is called directly too */
	g_autofree char *line = ab_csv_format_line(run);
	g_string_append(out, line);
	return TRUE;
}

const struct ab_writer ab_writer_csv = {
	.name = "csv",
	.extension = "csv",
	.run_option = "--csv",
	.run_stdout = TRUE,
	.has_run = ab_csv_has_line,
	.write_run = csv_write_run,
};
