/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "wal-options.h"
#include "error.h"
#include "parse.h"
#include "../workloads/wal.h"

#include <math.h>
#include <string.h>

static gboolean bad(GError **error, const char *name, const char *value, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", name, value, why);
	return FALSE;
}

gboolean ab_wal_parse_syncs(const char *name, const char *text, GArray **out, GError **error)
{
	g_auto(GStrv) words = g_strsplit(text, ",", 0);
	g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(unsigned));
	gboolean seen[AB_WAL_SYNC_COUNT] = { FALSE };
	for (char **w = words; *w; w++) {
		unsigned m;
		if (!**w)
			return bad(error, name, text, "empty method in the list");
		if (g_str_equal(*w, "all")) {
			if (words[1])
				return bad(error, name, text, "'all' stands alone");
			for (m = 0; m < AB_WAL_SYNC_COUNT; m++)
				g_array_append_val(list, m);
			break;
		}
		if (!ab_wal_sync_by_name(*w, &m))
			return bad(error, name, *w,
				   "unknown sync method (fdatasync, fsync, open_datasync, open_sync or all)");
		if (seen[m])
			return bad(error, name, *w, "given twice in the list");
		seen[m] = TRUE;
		g_array_append_val(list, m);
	}
	if (!list->len)
		return bad(error, name, text, "no method given");
	*out = g_steal_pointer(&list);
	return TRUE;
}

/* "2x8k" or "16k". */
static gboolean parse_commit(const char *name, const char *w, struct ab_wal_commit *c, GError **error)
{
	const char *word = w; /* named when the fault is the whole commit's, or no size is left to name */
	const char *x = strpbrk(w, "xX");
	uint64_t writes = 1, size;
	if (x) {
		g_autofree char *count = g_strndup(w, (gsize)(x - w));
		if (!ab_parse_count(count, AB_WAL_MAX_WRITES, &writes, NULL) || writes == 0) {
			g_autofree char *why = g_strdup_printf("the writes of a commit are 1 to %u", AB_WAL_MAX_WRITES);
			return bad(error, name, w, why);
		}
		w = x + 1;
	}
	if (!*w || !g_ascii_isdigit(*w) || !ab_parse_size(w, 1, &size, NULL))
		return bad(error, name, *w ? w : word, "not a size (bytes, or with k or m)");
	if (size < AB_WAL_MIN_WRITE || size > AB_WAL_MAX_WRITE || size % AB_WAL_MIN_WRITE)
		return bad(error, name, w, "a write is 512 bytes to 1m, a multiple of 512");
	if (writes * size > AB_WAL_MAX_COMMIT)
		return bad(error, name, word, "a commit is at most 4m, a quarter of the 16m log");
	*c = (struct ab_wal_commit){ (uint32_t)writes, (uint32_t)size };
	return TRUE;
}

gboolean ab_wal_parse_commits(const char *name, const char *text, GArray **out, GError **error)
{
	g_auto(GStrv) words = g_strsplit(text, ",", 0);
	g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(struct ab_wal_commit));
	for (char **w = words; *w; w++) {
		struct ab_wal_commit c;
		if (!**w)
			return bad(error, name, text, "empty commit size in the list");
		if (list->len == 64)
			return bad(error, name, text, "more than 64 commit sizes");
		if (!parse_commit(name, *w, &c, error))
			return FALSE;
		for (guint i = 0; i < list->len; i++) {
			const struct ab_wal_commit *o = &g_array_index(list, struct ab_wal_commit, i);
			if (o->writes == c.writes && o->write_size == c.write_size)
				return bad(error, name, *w, "given twice in the list");
		}
		g_array_append_val(list, c);
	}
	if (!list->len)
		return bad(error, name, text, "no commit size given");
	*out = g_steal_pointer(&list);
	return TRUE;
}

gboolean ab_wal_parse_seconds(const char *name, const char *text, double *out, GError **error)
{
	char *end = NULL;
	/* Decimal only: strtod would also take "0x10" and "infinity". */
	gboolean decimal = *text && strspn(text, "0123456789.eE+-") == strlen(text);
	double s = decimal ? g_ascii_strtod(text, &end) : NAN;
	if (!end || *end || !isfinite(s) || s < AB_WAL_MIN_SECONDS || s > AB_WAL_MAX_SECONDS) {
		g_autofree char *why = g_strdup_printf("seconds from %g to %g", AB_WAL_MIN_SECONDS, AB_WAL_MAX_SECONDS);
		return bad(error, name, text, why);
	}
	*out = s;
	return TRUE;
}
