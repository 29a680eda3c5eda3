/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep grid (iozone -a) and its size-list parsers. */
#include "sweep-grid.h"
#include "../base/error.h"
#include "../base/parse.h"

#include <string.h>

/* Our own limit on file sizes: a record sweep writes whole pages, and 4 KiB
 * is what O_DIRECT needs on every common file system. */
#define FILE_ALIGN (4 * AB_SWEEP_KIB)

static gboolean is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* A limit as the user would type it back: "4k", "16m", "1g". */
static char *limit_text(uint64_t v)
{
	static const char suffix[] = "kmgt";
	if (v == 0 || v % AB_SWEEP_KIB)
		return g_strdup_printf("%" G_GUINT64_FORMAT, v);
	int i = 0;
	v /= AB_SWEEP_KIB;
	while (i < 3 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	return g_strdup_printf("%" G_GUINT64_FORMAT "%c", v, suffix[i]);
}

static gboolean bad(GError **error, const char *option, const char *value, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", option, value, why);
	return FALSE;
}

static gboolean bad_limit(GError **error, const char *option, const char *value, const char *why,
			  uint64_t limit)
{
	g_autofree char *lim = limit_text(limit);
	g_autofree char *msg = g_strdup_printf("%s %s", why, lim);
	return bad(error, option, value, msg);
}

/* One value, checked on its own.  Plain numbers are KiB, as iozone's -s, -r,
 * -n, -g, -y and -q read them. */
static gboolean parse_one(const char *option, const char *item, gboolean pow2, uint64_t min,
			  uint64_t max, uint64_t *out, GError **error)
{
	uint64_t v;
	if (!ab_parse_size(item, AB_SWEEP_KIB, &v, NULL))
		return bad(error, option, item, "not a size (KiB, or a number with a k, m or g suffix)");
	if (v == 0)
		return bad(error, option, item, "must not be zero");
	if (pow2 && !is_pow2(v))
		return bad(error, option, item, "not a power of two");
	if (!pow2 && v % FILE_ALIGN)
		return bad(error, option, item, "not a multiple of 4k");
	if (v < min)
		return bad_limit(error, option, item, "smaller than", min);
	if (v > max)
		return bad_limit(error, option, item, "larger than", max);
	*out = v;
	return TRUE;
}

static gboolean parse_range(const char *option, const char *text, const char *dash, gboolean pow2,
			    uint64_t min, uint64_t max, GArray *values, GError **error)
{
	g_autofree char *lo_text = g_strndup(text, (gsize)(dash - text));
	const char *hi_text = dash + 1;
	if (!*lo_text || !*hi_text)
		return bad(error, option, text, "expected MIN-MAX");
	uint64_t lo, hi;
	if (!parse_one(option, lo_text, pow2, min, max, &lo, error) ||
	    !parse_one(option, hi_text, pow2, min, max, &hi, error))
		return FALSE;
	/* Doubling only lands on MAX when both ends are powers of two. */
	if (!is_pow2(lo))
		return bad(error, option, lo_text, "a MIN-MAX range needs powers of two");
	if (!is_pow2(hi))
		return bad(error, option, hi_text, "a MIN-MAX range needs powers of two");
	if (lo > hi)
		return bad(error, option, text, "MIN is larger than MAX");
	for (uint64_t v = lo; v <= hi; v *= 2) {
		g_array_append_val(values, v);
		if (v > hi / 2)
			break; /* v * 2 could wrap at 2^63 */
	}
	return TRUE;
}

static gboolean parse_list(const char *option, const char *text, gboolean pow2, uint64_t min,
			   uint64_t max, GArray *values, GError **error)
{
	g_auto(GStrv) items = g_strsplit(text, ",", -1);
	for (guint i = 0; items[i]; i++) {
		if (!*items[i])
			return bad(error, option, text, "empty item");
		uint64_t v;
		if (!parse_one(option, items[i], pow2, min, max, &v, error))
			return FALSE;
		g_array_append_val(values, v);
	}
	return TRUE;
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static gboolean parse_sizes(const char *option, const char *text, gboolean pow2, uint64_t min,
			    uint64_t max, GArray **out, GError **error)
{
	if (!text || !*text)
		return bad(error, option, text ? text : "", "empty value");
	g_autoptr(GArray) values = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	/* A list with a dash in it is refused item by item ("not a size"). */
	const char *dash = strchr(text, '-');
	gboolean ok = dash && !strchr(text, ',')
		? parse_range(option, text, dash, pow2, min, max, values, error)
		: parse_list(option, text, pow2, min, max, values, error);
	if (!ok)
		return FALSE;
	g_array_sort(values, cmp_u64);
	guint n = 0;
	for (guint i = 0; i < values->len; i++)
		if (n == 0 || g_array_index(values, uint64_t, i) != g_array_index(values, uint64_t, n - 1))
			g_array_index(values, uint64_t, n++) = g_array_index(values, uint64_t, i);
	g_array_set_size(values, n);
	if (n > AB_SWEEP_MAX_ENTRIES) {
		g_autofree char *why = g_strdup_printf("%u sizes, at most %d allowed", n, AB_SWEEP_MAX_ENTRIES);
		return bad(error, option, text, why);
	}
	*out = g_steal_pointer(&values);
	return TRUE;
}

gboolean ab_sweep_parse_sizes(const char *option, const char *text, uint64_t min, uint64_t max,
			      GArray **out, GError **error)
{
	return parse_sizes(option, text, FALSE, min, max, out, error);
}

gboolean ab_sweep_parse_records(const char *option, const char *text, uint64_t min, uint64_t max,
				GArray **out, GError **error)
{
	return parse_sizes(option, text, TRUE, min, max, out, error);
}

static GArray *doubling(uint64_t lo, uint64_t hi)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (uint64_t v = lo; v <= hi; v *= 2)
		g_array_append_val(a, v);
	return a;
}

void ab_sweep_grid_default(struct ab_sweep_grid *g)
{
	ab_sweep_grid_clear(g);
	g->file_sizes = doubling(AB_SWEEP_DEFAULT_FILE_MIN, AB_SWEEP_DEFAULT_FILE_MAX);
	g->records = doubling(AB_SWEEP_DEFAULT_RECORD_MIN, AB_SWEEP_DEFAULT_RECORD_MAX);
	g->records_given = FALSE;
}

void ab_sweep_grid_clear(struct ab_sweep_grid *g)
{
	g_clear_pointer(&g->file_sizes, g_array_unref);
	g_clear_pointer(&g->records, g_array_unref);
	g->records_given = FALSE;
}

GArray *ab_sweep_grid_cells(const struct ab_sweep_grid *g)
{
	GArray *cells = g_array_new(FALSE, FALSE, sizeof(struct ab_sweep_cell));
	if (!g->file_sizes || !g->records)
		return cells;
	for (guint f = 0; f < g->file_sizes->len; f++) {
		uint64_t file = g_array_index(g->file_sizes, uint64_t, f);
		for (guint r = 0; r < g->records->len; r++) {
			uint64_t record = g_array_index(g->records, uint64_t, r);
			/* A record larger than the file cannot be written once,
			 * even when the user asked for it; nor can a file that
			 * is not whole records (12k in 8k records would move 8k
			 * and leave an 8k file keyed as 12k). */
			if (record > file || file % record)
				continue;
			/* iozone saves time on big files; explicit records are
			 * what the user wants measured, so they are kept. */
			if (!g->records_given && file > AB_SWEEP_CROSSOVER_FILE &&
			    record < AB_SWEEP_CROSSOVER_RECORD)
				continue;
			struct ab_sweep_cell c = { .file_size = file, .record = record };
			g_array_append_val(cells, c);
		}
	}
	return cells;
}
