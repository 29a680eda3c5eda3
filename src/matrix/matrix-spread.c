/* SPDX-License-Identifier: GPL-2.0-or-later */
/* When a matrix cell has been repeated enough (matrix-spread.h). */
#include "matrix-spread.h"
#include "../model/run.h"
#include "../model/stats.h"

#include <math.h>

/* One figure across repeats: the phase and every part of its cell. */
static char *figure_key(const struct ab_result *r)
{
	return g_strdup_printf("%s\n%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n%s\n%" G_GUINT64_FORMAT,
			       r->phase, r->key.file_size, r->key.record_size, r->key.streams,
			       r->key.test ? r->key.test : "", r->key.pass);
}

gboolean ab_matrix_settled(GPtrArray *runs, double cv_limit, unsigned min_runs)
{
	g_autoptr(GHashTable) rates = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							      (GDestroyNotify)g_array_unref);
	for (guint i = 0; i < runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(runs, i);
		if (run->failure)
			continue;
		for (guint j = 0; j < run->results->len; j++) {
			const struct ab_result *r = g_ptr_array_index(run->results, j);
			if (!r->measurable || !isfinite(r->rate))
				continue;
			char *key = figure_key(r);
			GArray *a = g_hash_table_lookup(rates, key);
			if (!a) {
				a = g_array_new(FALSE, FALSE, sizeof(double));
				g_hash_table_insert(rates, key, a);
			} else {
				g_free(key);
			}
			g_array_append_val(a, r->rate);
		}
	}
	if (g_hash_table_size(rates) == 0)
		return FALSE;
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, rates);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		GArray *a = v;
		if (a->len < min_runs)
			return FALSE;
		struct ab_stats st;
		ab_stats_describe((const double *)a->data, a->len, 0.95, &st);
		if (!(st.cv <= cv_limit)) /* NAN (a mean of 0) never settles */
			return FALSE;
	}
	return TRUE;
}
