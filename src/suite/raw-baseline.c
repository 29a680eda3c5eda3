/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "raw-baseline.h"
#include "../base/error.h"
#include "../runner/progress.h"

#include <errno.h>
#include <sys/stat.h>

void ab_raw_baseline_init(struct ab_raw_baseline *rb)
{
	rb->params = (struct ab_raw_params){ AB_RAW_DEFAULT_BYTES, AB_RAW_DEFAULT_BLOCK, AB_RAW_DEFAULT_SECONDS, 0 };
	rb->results = g_ptr_array_new_with_free_func((GDestroyNotify)ab_result_free);
}

void ab_raw_baseline_clear(struct ab_raw_baseline *rb)
{
	g_clear_pointer(&rb->results, g_ptr_array_unref);
}

/* Read only: the devices are the run's own (made, or checked and about to
 * be formatted), so nothing else is asked of them. */
static gboolean measure_one(struct ab_raw_baseline *rb, const char *dev, GArray *seen, GError **error)
{
	struct stat st;
	if (stat(dev, &st) != 0 || !S_ISBLK(st.st_mode)) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno ? errno : ENOTBLK, "raw baseline: cannot use '%s'", dev);
		return FALSE;
	}
	/* --device is both the source and the one member: read once. */
	for (guint i = 0; i < seen->len; i++)
		if (g_array_index(seen, dev_t, i) == st.st_rdev)
			return TRUE;
	g_array_append_val(seen, st.st_rdev);
	g_autofree char *what = g_strdup_printf("reading %s raw (--raw-baseline)", dev);
	ab_progress_activity(what);
	struct ab_result *res = ab_rawdev_measure(dev, st.st_rdev, FALSE, &rb->params, error);
	if (!res) {
		g_prefix_error(error, "raw baseline: ");
		return FALSE;
	}
	g_ptr_array_add(rb->results, res);
	return TRUE;
}

gboolean ab_raw_baseline_measure(const struct ab_target *t, void *data, GError **error)
{
	struct ab_raw_baseline *rb = data;
	g_autoptr(GArray) seen = g_array_new(FALSE, FALSE, sizeof(dev_t));
	if (t->source && !measure_one(rb, t->source, seen, error))
		return FALSE;
	for (guint i = 0; t->members && i < t->members->len; i++)
		if (!measure_one(rb, g_ptr_array_index(t->members, i), seen, error))
			return FALSE;
	return TRUE;
}

void ab_raw_baseline_add(const struct ab_raw_baseline *rb, struct ab_run *run)
{
	for (guint i = 0; i < rb->results->len; i++)
		ab_run_add_result(run, ab_result_dup(g_ptr_array_index(rb->results, i)));
}
