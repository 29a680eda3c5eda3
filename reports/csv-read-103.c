/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++ 1.03's legacy CSV lines (27 fields, no version, seed, latency or
 * concurrency columns; size and file counts packed into one field each)
 * back to runs. */
#include "report.h"
#include "read.h"
#include "../src/base/error.h"

#include <string.h>

#define COL_NAME 0
#define COL_SIZE 1
#define COL_FILES 14

/* 1.03 has no columns 1-7 of 1.98 (version, concurrency, seed, chunk,
 * seeks, seekers) and packs the file conditions into one: its phase
 * columns are 1.98's moved left by 7 (I/O) and 11 (files). */
static int col_103(const struct ab_phase *ph)
{
	return ph->csv_rate_col - ((ph->flags & AB_PHASE_IO) ? 7 : 11);
}

/* "8000M" or "1G", then ":4k" or ":512" when the chunk is not 8192. */
static gboolean read_size(struct ab_conditions *c, const char *text, GError **error)
{
	const char *colon = strchr(text, ':');
	g_autofree char *size = g_strndup(text, colon ? (gsize)(colon - text) : strlen(text));
	c->io_chunk = AB_CSV_DEFAULT_CHUNK;
	if (!ab_csv_parse_file_size(size, &c->file_size) || (colon && !ab_csv_parse_chunk(colon + 1, &c->io_chunk)))
		return ab_csv_field_error(error, COL_SIZE, "file_size", text, "a size[:chunk]");
	return TRUE;
}

/* num_files[:max[:min]|:link|:symlink][/dirs] */
static gboolean read_files(struct ab_conditions *c, const char *text, GError **error)
{
	const char *slash = strchr(text, '/');
	g_autofree char *head = g_strndup(text, slash ? (gsize)(slash - text) : strlen(text));
	guint colons = 0;
	for (const char *p = head; *p; p++)
		colons += *p == ':';
	g_auto(GStrv) part = g_strsplit(head, ":", 3 + (colons > 2)); /* the 4th part, if any, says "too many" */
	guint n = g_strv_length(part);
	c->file_kind = g_strdup("file");
	c->file_max = c->file_min = 0;
	c->num_dirs = 1;
	gboolean ok = n >= 1 && n <= 3 && ab_csv_parse_count(part[0], &c->num_files_k) &&
		      (!slash || ab_csv_parse_count(slash + 1, &c->num_dirs));
	if (ok && n >= 2 && (strcmp(part[1], "link") == 0 || strcmp(part[1], "symlink") == 0)) {
		g_free(c->file_kind);
		c->file_kind = g_strdup(part[1][0] == 'l' ? "hardlink" : "symlink");
		ok = n == 2;
	} else if (ok && n >= 2) {
		ok = ab_csv_parse_count(part[1], &c->file_max) && (n < 3 || ab_csv_parse_count(part[2], &c->file_min));
	}
	if (!ok)
		return ab_csv_field_error(error, COL_FILES, "num_files", text, "num_files[:max:min][/dirs]");
	return TRUE;
}

static struct ab_run *csv_103_read_line(const char *line, GError **error)
{
	guint n = ab_csv_count_fields(line);
	if (n != AB_CSV_1_03_FIELDS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%u fields, a 1.03 line has %d", n, AB_CSV_1_03_FIELDS);
		return NULL;
	}
	g_auto(GStrv) f = ab_csv_split(line);
	g_autoptr(ab_run) run = ab_run_new();
	run->tool = g_strdup("bonnie++");
	run->tool_version = g_strdup("1.03");
	run->concurrency = 1; /* 1.03 had no -c */
	run->machine = *f[COL_NAME] ? g_strdup(f[COL_NAME]) : NULL;
	struct ab_conditions *c = &run->cond;
	if (*f[COL_SIZE] && !read_size(c, f[COL_SIZE], error))
		return NULL;
	if (*f[COL_FILES] && !read_files(c, f[COL_FILES], error))
		return NULL;
	const struct ab_phase *putc = ab_phase_by_id(AB_PHASE_PER_CHAR_WRITE);
	const struct ab_phase *getc = ab_phase_by_id(AB_PHASE_PER_CHAR_READ);
	if (*f[col_103(putc)] || *f[col_103(putc) + 1] || *f[col_103(getc)] || *f[col_103(getc) + 1]) {
		/* 1.03's per-char phases went through stdio over the whole file. */
		c->per_char_bytes = c->file_size;
		c->per_char_mode = g_strdup("stdio");
	}
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph->csv_rate_col >= 0 && !ab_csv_read_phase(run, ph, f, col_103(ph), -1, error))
			return NULL;
	}
	return g_steal_pointer(&run);
}

/* "8000M", "1G", "1G:4k": digits, M or G, then maybe ":" and a chunk. */
static gboolean size_like(const char *p, const char *end)
{
	const char *d = p;
	while (p < end && g_ascii_isdigit(*p))
		p++;
	if (p == d || p == end || (*p != 'M' && *p != 'G'))
		return FALSE;
	if (++p == end)
		return TRUE;
	if (*p++ != ':')
		return FALSE;
	d = p;
	while (p < end && g_ascii_isdigit(*p))
		p++;
	return p > d && (p == end || (p + 1 == end && (*p == 'k' || *p == 'K')));
}

/* 27 fields, field 1 empty (-s 0) or a size.  Field 0 is a machine name,
 * so the other formats' marks win: a line opening with `{` is JSON's, one
 * with a 1.9x format version bonnie++ 1.9x's. */
static gboolean csv_103_claims(const char *line)
{
	const char *p = line + strspn(line, " \t");
	if (*p == '{' || ab_reader_csv_198.claims(line))
		return FALSE;
	const char *f1 = strchr(line, ',');
	if (!f1)
		return FALSE;
	f1++;
	const char *f2 = strchr(f1, ',');
	if (!f2 || (f2 > f1 && !size_like(f1, f2)))
		return FALSE;
	unsigned commas = 2;
	for (p = f2 + 1; (p = strchr(p, ',')) && commas <= AB_CSV_1_03_FIELDS; p++)
		commas++;
	return commas == AB_CSV_1_03_FIELDS - 1;
}

const struct ab_reader ab_reader_csv_103 = {
	.name = "csv-1.03",
	.claims = csv_103_claims,
	.read_line = csv_103_read_line,
};
