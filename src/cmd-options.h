/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CMD_OPTIONS_H
#define AB_CMD_OPTIONS_H

#include <glib.h>

/* A sub-command's options, parsed by GOptionContext with its usage line
 * ("arraybench NAME [OPTION...] PARAMS"), summary and description for
 * --help; entries' callbacks get data.  FALSE with an AB_ERROR_USAGE error
 * (or the callback's own AB_ERROR) on a bad option. */
gboolean ab_cmd_options_parse(const char *name, const char *params, const char *summary, const char *description,
			      const GOptionEntry *entries, void *data, int argc, char **argv, GError **error);

/* A failed g_option_context_parse's error into *error: glib's own (an
 * unknown option, a missing value) become AB_ERROR_USAGE; ours pass as
 * they are.  Takes local. */
void ab_cmd_options_error(GError *local, GError **error);

#endif
