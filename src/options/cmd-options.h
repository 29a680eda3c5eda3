/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CMD_OPTIONS_H
#define AB_CMD_OPTIONS_H

#include <glib.h>

#include "option-table.h"

/* A sub-command's options: its rows (src/options/option-table.h) parsed by
 * GOptionContext with its usage line ("arraybench NAME [OPTION...]
 * PARAMS"), summary and description for --help; the rows land in data.
 * FALSE with an AB_ERROR_USAGE error (or a parser's own AB_ERROR) on a bad
 * option. */
gboolean ab_cmd_options_parse(const char *name, const char *params, const char *summary, const char *description,
			      const struct ab_option_row *rows, size_t n_rows, void *data, int argc, char **argv,
			      GError **error);

#endif
