/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PARSE_H
#define AB_PARSE_H

/* Parsers of sizes and counts, each naming the bad value in its error
 * (AB_ERROR_USAGE).  Small utilities: fs-setup uses them too. */

#include <glib.h>
#include <stdint.h>

#include "units.h"

gboolean ab_parse_size(const char *text, uint64_t unit, uint64_t *out, GError **error);
gboolean ab_parse_count(const char *text, uint64_t max, uint64_t *out, GError **error);
gboolean ab_parse_chunk(const char *text, uint32_t *out, GError **error);
/* Is s one or more ASCII digits and nothing else? */
gboolean ab_parse_all_digits(const char *s);
/* One AB_ERROR_USAGE line "invalid WHAT 'TEXT': WHY"; FALSE. */
gboolean ab_parse_refuse(GError **error, const char *what, const char *text, const char *why);
/* Digits, then at most one suffix letter from `suffixes`, each 1024 times
 * the one before it (index 0 multiplies by 1024; none: by `unit`). */
gboolean ab_parse_scaled(const char *what, const char *text, const char *suffixes, uint64_t unit, uint64_t *out,
			 GError **error);

#endif
