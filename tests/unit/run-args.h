/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_RUN_ARGS_H
#define AB_TEST_RUN_ARGS_H

/* `arraybench run` options from a NULL-terminated list of words, for the
 * unit tests of the option parser. */

#include <stdarg.h>

#include "../../src/options/run-options.h"

static gboolean parse_args(struct ab_config *cfg, GError **error, ...)
{
	char *argv[48] = { "run" };
	int argc = 1;
	va_list ap;
	va_start(ap, error);
	for (char *a; argc < 47 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	return ab_run_options_parse(argc, argv, cfg, error);
}

#endif
