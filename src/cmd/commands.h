/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_COMMANDS_H
#define AB_COMMANDS_H

#include <glib.h>

/* Each sub-command returns its exit status; on failure it sets *error and
 * main() prints it. */
int ab_cmd_run(int argc, char **argv, GError **error);
int ab_cmd_list(int argc, char **argv, GError **error);
int ab_cmd_cleanup(int argc, char **argv, GError **error);
int ab_cmd_report(int argc, char **argv, GError **error);
int ab_cmd_matrix(int argc, char **argv, GError **error);
int ab_cmd_tune(int argc, char **argv, GError **error);
int ab_cmd_raw(int argc, char **argv, GError **error);

/* Standard output was closed when arraybench started (it now holds
 * /dev/null): a result sent only there is not written. */
extern gboolean ab_stdout_closed;
/* Standard input likewise: `report -` says so rather than read nothing. */
extern gboolean ab_stdin_closed;

#endif
