/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of input formats, and text to runs: each line goes to the
 * first reader that claims it; a line none can read becomes one problem
 * naming the file and line, and the lines around it still read. */
#include "report.h"
#include "read.h"

#include <string.h>

const struct ab_reader *const ab_readers[] = { &ab_reader_json, &ab_reader_csv_198, &ab_reader_csv_103, NULL };

/* Enough to recognise a value; a line may be megabytes. */
#define QUOTE_MAX_CHARS 40

char *ab_read_quote(const char *text)
{
	GString *q = g_string_new("'");
	const char *p = text, *end = text + strlen(text);
	for (unsigned n = 0; p < end; n++) {
		if (n == QUOTE_MAX_CHARS) {
			g_string_append(q, "...");
			break;
		}
		gunichar c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2 || c < 0x20 || c == 0x7f) {
			g_string_append_printf(q, "\\x%02x", (unsigned char)*p++);
			continue;
		}
		const char *next = g_utf8_next_char(p);
		g_string_append_len(q, p, next - p);
		p = next;
	}
	g_string_append_c(q, '\'');
	return g_string_free(q, FALSE);
}

static gboolean blank(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return FALSE;
	return TRUE;
}

/* bonnie++ -x N writes one first: "format_version,bonnie_version,..."
 * (1.9x) or "name,file_size,..." (1.0x).  Two columns, not one: a 1.03
 * line opens with its machine, which may well be "name". */
static gboolean header(const char *line)
{
	return g_str_has_prefix(line, "format_version,bonnie_version,") || g_str_has_prefix(line, "name,file_size,");
}

static void problem(GPtrArray *problems, const char *name, size_t lineno, const char *what)
{
	if (problems)
		g_ptr_array_add(problems, g_strdup_printf("%s:%zu: %s", name, lineno, what));
}

/* One line, without its end: a run added to set (TRUE), or a problem. */
static gboolean read_one(const char *name, size_t lineno, const char *p, size_t len, struct ab_run_set *set,
			 GPtrArray *problems)
{
	if (memchr(p, '\0', len)) {
		/* The readers take C strings: the rest would go unread. */
		problem(problems, name, lineno, "holds a NUL byte");
		return FALSE;
	}
	g_autofree char *line = g_strndup(p, len);
	if (header(line))
		return FALSE;
	for (const struct ab_reader *const *r = ab_readers; *r; r++) {
		if (!(*r)->claims(line))
			continue;
		g_autoptr(GError) error = NULL;
		struct ab_run *run = (*r)->read_line(line, &error);
		if (!run) {
			problem(problems, name, lineno, error ? error->message : "cannot be read");
			return FALSE;
		}
		/* A run with a run id is also its CSV line (run --json J --csv
		 * C writes both): read from C too, it is one run. */
		g_autofree char *own_line = set->keys && run->run_id && ab_csv_has_line(run) ? ab_csv_format_line(run)
											  : NULL;
		size_t own_len = own_line ? strlen(own_line) : 0;
		if (own_len && own_line[own_len - 1] == '\n')
			own_line[own_len - 1] = '\0';
		/* A run read before (a set that holds each once) counts as read:
		 * the duplicate is no problem with the line. */
		unsigned dropped = set->dropped;
		ab_run_set_add_once(set, run, line, own_line);
		if (set->dropped > dropped && !set->first_dropped)
			set->first_dropped = g_strdup_printf("%s:%zu", name, lineno);
		return TRUE;
	}
	problem(problems, name, lineno, "not a line of arraybench JSON or bonnie++ CSV");
	return FALSE;
}

/* The end of the line at p: the first LF or CR before end. */
static const char *line_end(const char *p, const char *end)
{
	while (p < end && *p != '\n' && *p != '\r')
		p++;
	return p;
}

unsigned ab_report_read_text(const char *name, const char *text, size_t len, struct ab_run_set *set,
			     GPtrArray *problems)
{
	unsigned added = 0;
	size_t lineno = 0;
	if (!set->runs)
		ab_run_set_init(set);
	if (!text)
		return 0;
	if (len >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'))) {
		/* Every line would hold NUL bytes: say it once, with the remedy. */
		problem(problems, name, 1, "UTF-16 text, not UTF-8 (iconv -f UTF-16 -t UTF-8 converts it)");
		return 0;
	}
	const char *p = text, *end = text + len;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p += 3; /* a UTF-8 byte order mark, as spreadsheets write */
	/* Lines end in LF, CRLF or a CR alone (neither our JSON nor any CSV
	 * field holds a CR: the writers make sure of it). */
	guint first = problems ? problems->len : 0;
	size_t unnamed = 0;
	while (p < end) {
		const char *stop = line_end(p, end);
		lineno++;
		if (!blank(p, (size_t)(stop - p)) && read_one(name, lineno, p, (size_t)(stop - p), set, problems)) {
			added++;
		} else if (problems && problems->len - first > AB_REPORT_MAX_PROBLEMS) {
			g_ptr_array_remove_index(problems, problems->len - 1);
			unnamed++;
		}
		if (stop < end)
			stop += *stop == '\r' && stop + 1 < end && stop[1] == '\n' ? 2 : 1;
		p = stop;
	}
	if (unnamed)
		g_ptr_array_add(problems, g_strdup_printf("%s: %zu more lines could not be read (only the first %d are named)",
							  name, unnamed, AB_REPORT_MAX_PROBLEMS));
	return added;
}
