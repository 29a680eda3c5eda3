/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The profiles a matrix runs, read for their copies and digests
 * (matrix-profiles.h). */
#include "matrix-profiles.h"
#include "../base/error.h"
#include "../options/profile.h"

#include <string.h>

void ab_matrix_profile_free(gpointer p)
{
	struct ab_matrix_profile *mp = p;
	g_free(mp->entry);
	g_free(mp->copy);
	g_free(mp->text);
	g_free(mp->sha256);
	g_free(mp);
}

char *ab_matrix_profile_copy_name(const char *entry)
{
	g_autofree char *base = g_path_get_basename(entry);
	/* "w.ini" and "w" are both profile "w" (profile.c): so is "w.ini". */
	if (g_str_has_suffix(base, ".ini") && strlen(base) > 4)
		return g_steal_pointer(&base);
	return g_strdup_printf("%s.ini", base);
}

GPtrArray *ab_matrix_profiles_read(const struct ab_matrix *m, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(ab_matrix_profile_free);
	for (guint k = 0; k < m->cells->len; k++) {
		const struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, k);
		gboolean seen = !cell->workload;
		for (guint i = 0; i < out->len && !seen; i++)
			seen = g_str_equal(((struct ab_matrix_profile *)g_ptr_array_index(out, i))->entry, cell->workload);
		if (seen)
			continue;
		g_autoptr(GError) local = NULL;
		gsize len = 0;
		char *text = ab_profile_text(cell->workload, &len, &local);
		if (!text) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s:%u: %s", m->name, m->workloads_line,
				    local->message);
			return NULL;
		}
		struct ab_matrix_profile *p = g_new0(struct ab_matrix_profile, 1);
		p->entry = g_strdup(cell->workload);
		g_autofree char *name = ab_matrix_profile_copy_name(cell->workload);
		p->copy = g_build_filename(AB_MATRIX_PROFILES, name, NULL);
		p->text = text;
		p->len = len;
		p->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
		g_ptr_array_add(out, p);
	}
	return g_steal_pointer(&out);
}
