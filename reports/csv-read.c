/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++ 1.98 CSV lines back to runs: our own (field 1 "arraybench-V")
 * and bonnie++'s (1.98 to 2.00a, with their column bugs), so that
 * ab_csv_format_line writes our lines back byte for byte. */
#include "report.h"
#include "read.h"
#include "../src/base/error.h"

#include <string.h>

#define AB_TOOL_PREFIX "arraybench-"

/* Names of the columns that are no phase's (bon_csv2html(1)'s). */
static const char *const header_names[AB_CSV_FIELDS] = {
	[0] = "format_version", [1] = "bonnie_version", [2] = "name", [3] = "concurrency", [4] = "seed",
	[5] = "file_size", [6] = "io_chunk_size", [7] = "seeks", [8] = "seek_proc_count",
	[21] = "num_files", [22] = "max_size", [23] = "min_size", [24] = "num_dirs", [25] = "file_chunk_size",
};

/* An optional count: empty leaves *out as it is. */
static gboolean opt_count(char *const *f, int col, uint64_t *out, GError **error)
{
	if (*f[col] && !ab_csv_parse_count(f[col], out))
		return ab_csv_field_error(error, col, header_names[col], f[col], "a number");
	return TRUE;
}

/* An optional chunk size; empty means dflt. */
static gboolean opt_chunk(char *const *f, int col, uint64_t dflt, uint64_t *out, GError **error)
{
	*out = dflt;
	if (*f[col] && !ab_csv_parse_chunk(f[col], out))
		return ab_csv_field_error(error, col, header_names[col], f[col], "a size");
	return TRUE;
}

static gboolean section_empty(char *const *f, int from, int to)
{
	for (int i = from; i <= to; i++)
		if (*f[i])
			return FALSE;
	return TRUE;
}

static void read_tool(struct ab_run *run, const char *text)
{
	if (g_str_has_prefix(text, AB_TOOL_PREFIX)) {
		run->tool = g_strdup("arraybench");
		run->tool_version = g_strdup(text + strlen(AB_TOOL_PREFIX));
	} else {
		/* Anything else writing 1.98 is bonnie++ (the tools ignore this field). */
		run->tool = g_strdup("bonnie++");
		run->tool_version = *text ? g_strdup(text) : NULL;
	}
}

/* A number that prints back as it is, else text (bonnie++ -Z FILE). */
static void read_seed(struct ab_run *run, const char *text)
{
	uint64_t v;
	if (!*text)
		return;
	if (ab_csv_parse_count(text, &v) && (text[0] != '0' || !text[1]))
		run->seed = v;
	else
		run->seed_text = g_strdup(text);
}

/* Fields 5-8.  Our empty chunk is the default; bonnie++ 2.00a never writes
 * its chunk, so an empty one says nothing. */
static gboolean read_io(struct ab_run *run, char *const *f, gboolean ours, GError **error)
{
	struct ab_conditions *c = &run->cond;
	if (section_empty(f, 5, 8))
		return TRUE; /* -s 0: no I/O conditions to know */
	if (*f[5] && !ab_csv_parse_file_size(f[5], &c->file_size))
		return ab_csv_field_error(error, 5, header_names[5], f[5], "a size");
	return opt_chunk(f, 6, ours ? AB_CSV_DEFAULT_CHUNK : AB_UNSET, &c->io_chunk, error) &&
	       opt_count(f, 7, &c->seeks, error) && opt_count(f, 8, &c->seekers, error);
}

/* Fields 21-25.  Empty sizes are 0 and empty dirs 1, as both writers leave
 * them; bonnie++ 1.98-2.00a wrote dirs in 25 and no file chunk at all. */
static gboolean read_files(struct ab_run *run, char *const *f, gboolean ours, GError **error)
{
	struct ab_conditions *c = &run->cond;
	if (section_empty(f, 21, 25))
		return TRUE; /* -n 0 */
	if (!opt_count(f, 21, &c->num_files_k, error))
		return FALSE;
	c->file_max = 0;
	if (strcmp(f[22], "link") == 0) {
		c->file_kind = g_strdup("hardlink");
	} else if (strcmp(f[22], "symlink") == 0) {
		c->file_kind = g_strdup("symlink");
	} else {
		c->file_kind = g_strdup("file");
		if (!opt_count(f, 22, &c->file_max, error))
			return FALSE;
	}
	c->file_min = 0;
	c->num_dirs = 1;
	if (!opt_count(f, 23, &c->file_min, error))
		return FALSE;
	if (ab_csv_dirs_in_25(run->tool, run->tool_version)) {
		/* Its field 24 is always empty; should one hold a count, keep
		 * it rather than lose it (it is then written in 25). */
		if (*f[25]) {
			if (!ab_csv_parse_count(f[25], &c->num_dirs))
				return ab_csv_field_error(error, 25, "num_dirs", f[25], "a number");
			return TRUE;
		}
		return opt_count(f, 24, &c->num_dirs, error);
	}
	return opt_count(f, 24, &c->num_dirs, error) &&
	       opt_chunk(f, 25, ours ? AB_CSV_DEFAULT_CHUNK : AB_UNSET, &c->file_chunk, error);
}

static struct ab_run *read_fields(char *const *f, GError **error)
{
	g_autoptr(ab_run) run = ab_run_new();
	read_tool(run, f[1]);
	gboolean ours = g_strcmp0(run->tool, "arraybench") == 0;
	run->machine = *f[2] ? g_strdup(f[2]) : NULL;
	if (!opt_count(f, 3, &run->concurrency, error))
		return NULL;
	read_seed(run, f[4]);
	if (!read_io(run, f, ours, error) || !read_files(run, f, ours, error))
		return NULL;
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph->csv_rate_col >= 0 &&
		    !ab_csv_read_phase(run, ph, f, ph->csv_rate_col, ph->csv_latency_col, error))
			return NULL;
	}
	return g_steal_pointer(&run);
}

static struct ab_run *csv_198_read_line(const char *line, GError **error)
{
	g_autofree char *version = g_strndup(line, strcspn(line, ","));
	if (strcmp(version, AB_CSV_FORMAT_VERSION) != 0) {
		g_autofree char *q = ab_read_quote(version);
		gboolean old = strcmp(version, "1.96") == 0 || strcmp(version, "1.97") == 0;
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "bonnie++ CSV format %s%s is not supported: only 1.98 and 1.03 lines are", q,
			    old ? " (48 fields, no seek count columns)" : "");
		return NULL;
	}
	guint n = ab_csv_count_fields(line);
	if (n != AB_CSV_FIELDS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%u fields, a 1.98 line has %d", n, AB_CSV_FIELDS);
		return NULL;
	}
	g_auto(GStrv) f = ab_csv_split(line);
	return read_fields(f, error);
}

/* Format 1.98, and 1.96/1.97 (to say they are not supported rather than
 * "unknown"): a bonnie++ 1.9x format version in field 0. */
static gboolean csv_198_claims(const char *line)
{
	return g_str_has_prefix(line, "1.9") && g_ascii_isdigit(line[3]) && line[4] == ',';
}

const struct ab_reader ab_reader_csv_198 = {
	.name = "csv-1.98",
	.claims = csv_198_claims,
	.read_line = csv_198_read_line,
};
