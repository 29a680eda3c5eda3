/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_OPTIONS_H
#define AB_RUN_OPTIONS_H

#include <glib.h>

#include "config.h"
#include "run-option-parse.h"

#define AB_RUN_SYNOPSIS "run -d DIR [OPTION...]"

/* Parse `arraybench run` arguments (argv[0] is "run") into cfg, a
 * --workload profile's words first; every bad value is one AB_ERROR_USAGE
 * error naming it.  --help prints and exits 0. */
gboolean ab_run_options_parse(int argc, char **argv, struct ab_config *cfg, GError **error);
#endif
