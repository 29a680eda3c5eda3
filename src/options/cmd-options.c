/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cmd-options.h"

gboolean ab_cmd_options_parse(const char *name, const char *params, const char *summary, const char *description,
			      const struct ab_option_row *rows, size_t n_rows, void *data, int argc, char **argv,
			      GError **error)
{
	const struct ab_option_command cmd = { name, params, summary, description };
	const struct ab_option_set set = { rows, n_rows };
	g_autofree char *prgname = g_strdup_printf("arraybench %s", name);
	g_set_prgname(prgname);
	return ab_option_parse(&cmd, &set, 1, data, NULL, &argc, &argv, error);
}
