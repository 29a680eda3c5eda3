/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++-compatible CSV (format 1.98) that bon_csv2html and bon_csv2txt read. */
#include "report.h"

#include <stdio.h>
#include <string.h>

void ab_csv_format_latency(uint64_t ns, char *out, size_t len)
{
	/* bonnie++ truncates: up to 0.099999 s in us, up to 99.999999 s in ms. */
	if (ns == 0)
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
	g_string_append(s, text);
}

static void field_u64(GString *s, uint64_t v)
{
	g_string_append_printf(s, ",%" G_GUINT64_FORMAT, v);
}

static void rate_pair(GString *s, const struct ab_result *r)
{
	if (!r->ran) {
		g_string_append(s, ",,");
		return;
	}
	if (!r->measurable) {
		g_string_append(s, ",+++++,+++");
		return;
	}
	if (r->phase->unit == AB_UNIT_SEEKS_PER_SEC)
		g_string_append_printf(s, r->rate < 1000 ? ",%.1f" : ",%.0f", r->rate);
	else
		field_u64(s, (uint64_t)r->rate);
	field_u64(s, (uint64_t)r->cpu_percent);
}

static void latency(GString *s, const struct ab_result *r)
{
	char buf[32] = "";
	if (r->ran)
		ab_csv_format_latency(r->latency.max_ns, buf, sizeof(buf));
	field(s, buf);
}

static const enum ab_phase_id io_phases[] = {
	AB_PHASE_PER_CHAR_WRITE, AB_PHASE_BLOCK_WRITE, AB_PHASE_REWRITE,
	AB_PHASE_PER_CHAR_READ, AB_PHASE_BLOCK_READ, AB_PHASE_SEEKS,
};
static const enum ab_phase_id file_phases[] = {
	AB_PHASE_SEQ_CREATE, AB_PHASE_SEQ_STAT, AB_PHASE_SEQ_DELETE,
	AB_PHASE_RAND_CREATE, AB_PHASE_RAND_STAT, AB_PHASE_RAND_DELETE,
};

char *ab_csv_format_line(const struct ab_run *run)
{
	const struct ab_config *cfg = run->cfg;
	GString *s = g_string_new(AB_CSV_FORMAT_VERSION);
	char buf[64];
	field(s, "arraybench-" AB_VERSION);
	field(s, run->machine);
	field(s, "1");
	field_u64(s, run->seed);
	/* Without an I/O phase bon_csv2txt would print an empty I/O row. */
	if (cfg->file_size && ab_run_ran_any(run, AB_PHASE_IO)) {
		uint64_t mib = cfg->file_size / AB_MIB;
		g_string_append_printf(s, ",%" G_GUINT64_FORMAT "%s", mib % 1024 ? mib : mib / 1024,
				       mib % 1024 ? "M" : "G");
		if (cfg->io_chunk != AB_DEFAULT_CHUNK)
			ab_csv_format_chunk(cfg->io_chunk, buf, sizeof(buf));
		else
			buf[0] = '\0';
		field(s, buf);
		field_u64(s, ab_run_seeks(run));
		field_u64(s, cfg->seekers);
	} else {
		g_string_append(s, ",,,,");
	}
	for (size_t i = 0; i < G_N_ELEMENTS(io_phases); i++)
		rate_pair(s, &run->results[io_phases[i]]);
	if (cfg->num_files && ab_run_ran_any(run, AB_PHASE_FILES)) {
		field_u64(s, cfg->num_files);
		if (cfg->file_max == AB_FILES_HARDLINK)
			field(s, "link");
		else if (cfg->file_max == AB_FILES_SYMLINK)
			field(s, "symlink");
		else if (cfg->file_max > 0)
			field_u64(s, (uint64_t)cfg->file_max);
		else
			field(s, "");
		if (cfg->file_min)
			field_u64(s, cfg->file_min);
		else
			field(s, "");
		if (cfg->num_dirs > 1)
			field_u64(s, cfg->num_dirs);
		else
			field(s, "");
		buf[0] = '\0';
		if (cfg->file_chunk != AB_DEFAULT_CHUNK)
			ab_csv_format_chunk(cfg->file_chunk, buf, sizeof(buf));
		field(s, buf);
	} else {
		g_string_append(s, ",,,,,");
	}
	for (size_t i = 0; i < G_N_ELEMENTS(file_phases); i++)
		rate_pair(s, &run->results[file_phases[i]]);
	for (size_t i = 0; i < G_N_ELEMENTS(io_phases); i++)
		latency(s, &run->results[io_phases[i]]);
	for (size_t i = 0; i < G_N_ELEMENTS(file_phases); i++)
		latency(s, &run->results[file_phases[i]]);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}
