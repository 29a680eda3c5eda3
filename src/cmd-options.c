/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cmd-options.h"
#include "error.h"

gboolean ab_cmd_options_parse(const char *name, const char *params, const char *summary, const char *description,
			      const GOptionEntry *entries, void *data, int argc, char **argv, GError **error)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(params);
	g_autofree char *group_desc = g_strdup_printf("%s options", name);
	g_autofree char *group_help = g_strdup_printf("Show %s options", name);
	GOptionGroup *group = g_option_group_new(name, group_desc, group_help, data, NULL);
	g_option_group_add_entries(group, entries);
	g_option_context_set_main_group(ctx, group);
	g_option_context_set_summary(ctx, summary);
	g_option_context_set_description(ctx, description);
	g_autofree char *prgname = g_strdup_printf("arraybench %s", name);
	g_set_prgname(prgname);
	GError *local = NULL;
	if (g_option_context_parse(ctx, &argc, &argv, &local))
		return TRUE;
	ab_cmd_options_error(local, error);
	return FALSE;
}

void ab_cmd_options_error(GError *local, GError **error)
{
	if (local->domain != AB_ERROR) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s", local->message);
		g_error_free(local);
	} else {
		g_propagate_error(error, local);
	}
}
