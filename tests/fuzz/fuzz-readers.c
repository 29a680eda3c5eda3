/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target (`make fuzz`, `make fuzz-run`): any bytes through the
 * readers, every run read written with every writer, and the JSON written
 * read back: it must give the same runs, with no complaint, and write the
 * same JSON again (a run read back is the same value as the one written).
 * The runs are also compared (report --compare) in its three views, and
 * the comparison's JSON must parse; and drawn as the HTML page, which must
 * hold no markup of the input's (no script element, whatever the names). */
#include "../../reports/compare.h"
#include "../../reports/report.h"

#include <json-glib/json-glib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-readers: %s\n%s\n", what, detail ? detail : "");
	abort();
}

/* The set written by w, into a fresh string. */
static GString *written(const struct ab_writer *w, const struct ab_run_set *set)
{
	GString *out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	if (!ab_writer_write_set(w, set, out, &error))
		g_string_append_printf(out, "(error: %s)", error->message);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ab_run_set set, again;
	ab_run_set_init(&set);
	ab_run_set_init(&again);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	/* A copy of just `size` bytes: a reader that reads past len (or counts
	 * on a NUL there) shows up under ASan. */
	char *text = malloc(size ? size : 1);
	if (size)
		memcpy(text, data, size);
	unsigned added = ab_report_read_text("fuzz", text, size, &set, problems);
	free(text);
	if (added != set.runs->len)
		fail("ab_report_read_text returned a count other than the runs it added", NULL);
	for (guint i = 0; i < problems->len; i++)
		if (!g_str_has_prefix(g_ptr_array_index(problems, i), "fuzz:"))
			fail("a problem does not start with the file's name", g_ptr_array_index(problems, i));

	g_autoptr(GString) json = NULL;
	for (const struct ab_writer *const *w = ab_writers; *w; w++) {
		GString *out = written(*w, &set);
		if (*w == &ab_writer_json)
			json = out;
		else
			g_string_free(out, TRUE);
	}
	if (set.runs->len && json) {
		g_ptr_array_set_size(problems, 0);
		ab_report_read_text("json", json->str, json->len, &again, problems);
		if (problems->len)
			fail("the JSON written does not read back", g_ptr_array_index(problems, 0));
		if (again.runs->len != set.runs->len)
			fail("the JSON written reads back as another number of runs", json->str);
		g_autoptr(GString) json2 = written(&ab_writer_json, &again);
		if (!g_string_equal(json, json2)) {
			g_autofree char *both = g_strdup_printf("first:\n%s\nagain:\n%s", json->str, json2->str);
			fail("the JSON read back writes other JSON", both);
		}
	}
	if (set.runs->len) {
		g_autoptr(GError) error = NULL;
		struct ab_compare *c = ab_compare_build(&set, NULL, &error);
		if (!c)
			fail("a set of runs gives no comparison", error->message);
		g_autofree char *t = ab_compare_text(c), *csv = ab_compare_csv(c), *cj = ab_compare_json(c);
		if (!g_str_has_prefix(t, "comparison of ") || !g_str_has_prefix(csv, "column,"))
			fail("a comparison view does not start as it should", t);
		g_autoptr(JsonParser) parser = json_parser_new();
		if (!json_parser_load_from_data(parser, cj, -1, &error))
			fail("the comparison's JSON does not parse", cj);
		ab_compare_free(c);
		g_autoptr(GString) page = g_string_new(NULL);
		if (!ab_html_write(&set, page, &error) || !g_str_has_suffix(page->str, "</html>\n"))
			fail("the HTML page is not written whole", page->str);
		if (strstr(page->str, "<script") || !g_utf8_validate(page->str, (gssize)page->len, NULL))
			fail("the HTML page holds a script element or bytes that are no UTF-8", page->str);
	}
	ab_run_set_clear(&again);
	ab_run_set_clear(&set);
	return 0;
}
