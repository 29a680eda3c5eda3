/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_ERROR_H
#define AB_ERROR_H

#include <glib.h>

/* Error codes double as documented exit statuses (see man/arraybench.1). */
enum ab_error_code {
	AB_ERROR_USAGE = 1,       /* bad option or input */
	AB_ERROR_PHASE = 2,       /* a phase failed (I/O error, full disk) */
	AB_ERROR_SKIPPED = 3,     /* lack of resource or privilege */
	AB_ERROR_UNSAFE = 4,      /* unsafe target or state directory refused */
	AB_ERROR_OUTPUT = 5,      /* the results could not be written */
	AB_ERROR_INTERRUPTED = 130,
};

#define AB_ERROR ab_error_quark()
GQuark ab_error_quark(void);

/* Exit status for an error from any domain: ours map 1:1, others are usage. */
int ab_error_exit_status(const GError *error);

/* `text` with control characters spelled out ("\\n", "\\t", "\\x1b"), so
 * that a value holding a newline still makes one line of output. */
char *ab_one_line(const char *text);

/* g_set_error with errno text appended: "what: strerror(errnum)". */
void ab_set_error_errno(GError **error, int code, int errnum, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

#endif
