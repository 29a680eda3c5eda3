/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of output formats. */
#include "report.h"

#include <string.h>

const struct ab_writer *const ab_writers[] = { &ab_writer_text, &ab_writer_csv, &ab_writer_json,
						  &ab_writer_sweep_csv, NULL };

const struct ab_writer *ab_writer_by_name(const char *name)
{
	for (const struct ab_writer *const *w = ab_writers; *w; w++)
		if (strcmp((*w)->name, name) == 0)
			return *w;
	return NULL;
}

gboolean ab_writer_has_run(const struct ab_writer *w, const struct ab_run *run)
{
	return !w->has_run || w->has_run(run);
}

char *ab_writer_format_run(const struct ab_writer *w, const struct ab_run *run, GError **error)
{
	g_autoptr(GString) out = g_string_new(NULL);
	if (ab_writer_has_run(w, run) && !w->write_run(run, out, error))
		return NULL;
	return g_string_free(g_steal_pointer(&out), FALSE);
}

gboolean ab_writer_write_set(const struct ab_writer *w, const struct ab_run_set *set, GString *out,
			     GError **error)
{
	if (w->write_set)
		return w->write_set(set, out, error);
	if (w->header)
		g_string_append(out, w->header);
	for (guint i = 0; i < set->runs->len; i++)
		if (ab_writer_has_run(w, g_ptr_array_index(set->runs, i)) &&
		    !w->write_run(g_ptr_array_index(set->runs, i), out, error))
			return FALSE;
	return TRUE;
}
