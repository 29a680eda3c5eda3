/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "error.h"

#include <string.h>

G_DEFINE_QUARK(arraybench-error-quark, ab_error)

int ab_error_exit_status(const GError *error)
{
	if (!error)
		return 0;
	if (error->domain == AB_ERROR)
		return error->code;
	return AB_ERROR_USAGE;
}

void ab_set_error_errno(GError **error, int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, AB_ERROR, code, "%s: %s", what, g_strerror(errnum));
}

char *ab_one_line(const char *text)
{
	GString *out = g_string_new(NULL);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '\n')
			g_string_append(out, "\\n");
		else if (*c == '\t')
			g_string_append(out, "\\t");
		else if (*c < 0x20 || *c == 0x7f)
			g_string_append_printf(out, "\\x%02x", *c);
		else
			g_string_append_c(out, (char)*c);
	}
	return g_string_free(out, FALSE);
}
