/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "runid.h"
#include "error.h"

#include <string.h>
#include <unistd.h>

gboolean ab_run_id_valid(const char *id)
{
	size_t len = id ? strlen(id) : 0;
	if (len == 0 || len > AB_RUN_ID_MAX)
		return FALSE;
	for (const char *c = id; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '-')
			return FALSE;
	return TRUE;
}

char *ab_run_id_new(GError **error)
{
	const char *forced = g_getenv("ARRAYBENCH_RUN_ID");
	if (forced) {
		if (!ab_run_id_valid(forced)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid ARRAYBENCH_RUN_ID '%s': 1 to %d letters, digits or '-'", forced,
				    AB_RUN_ID_MAX);
			return NULL;
		}
		return g_strdup(forced);
	}
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree char *stamp = g_date_time_format(now, "%y%m%d%H%M%S");
	return g_strdup_printf("%s-%d-%06x", stamp, (int)getpid(), g_random_int() & 0xffffffu);
}
