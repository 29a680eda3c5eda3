/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option value parsers: sizes and counts (bonnie++'s colon-separated specs,
 * which fill a config, are src/options/config-parse.c's). */
#include "parse.h"
#include "error.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>

gboolean ab_parse_refuse(GError **error, const char *what, const char *text, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", what, text, why);
	return FALSE;
}

gboolean ab_parse_scaled(const char *what, const char *text, const char *suffixes,
			     uint64_t unit, uint64_t *out, GError **error)
{
	if (!text || !*text)
		return ab_parse_refuse(error, what, text ? text : "", "empty value");
	const char *p = text;
	if (!g_ascii_isdigit(*p))
		return ab_parse_refuse(error, what, text, "not a non-negative whole number");
	uint64_t value = 0;
	for (; g_ascii_isdigit(*p); p++) {
		uint64_t digit = (uint64_t)(*p - '0');
		if (value > (UINT64_MAX - digit) / 10)
			return ab_parse_refuse(error, what, text, "too large");
		value = value * 10 + digit;
	}
	uint64_t mult = unit;
	if (*p) {
		const char *hit = strchr(suffixes, g_ascii_tolower(*p));
		if (!hit || p[1] != '\0')
			return ab_parse_refuse(error, what, text, "unknown suffix (use one of k, m, g, t where allowed)");
		mult = 1024;
		for (const char *s = suffixes; s < hit; s++)
			mult *= 1024;
	}
	if (mult && value > UINT64_MAX / mult)
		return ab_parse_refuse(error, what, text, "too large");
	*out = value * mult;
	return TRUE;
}

gboolean ab_parse_size(const char *text, uint64_t unit, uint64_t *out, GError **error)
{
	return ab_parse_scaled("size", text, "kmgt", unit, out, error);
}

gboolean ab_parse_count(const char *text, uint64_t max, uint64_t *out, GError **error)
{
	uint64_t v;
	if (!ab_parse_scaled("count", text, "km", 1, &v, error))
		return FALSE;
	if (v > max) {
		g_autofree char *why = g_strdup_printf("must be at most %" G_GUINT64_FORMAT, max);
		return ab_parse_refuse(error, "count", text, why);
	}
	*out = v;
	return TRUE;
}

gboolean ab_parse_chunk(const char *text, uint32_t *out, GError **error)
{
	uint64_t v;
	if (!ab_parse_scaled("chunk size", text, "kmgt", 1, &v, error))
		return FALSE;
	if (v < 256 || v > AB_MIB || (v & (v - 1)))
		return ab_parse_refuse(error, "chunk size", text, "must be a power of two from 256 to 1m");
	*out = (uint32_t)v;
	return TRUE;
}

gboolean ab_parse_all_digits(const char *s)
{
	if (!*s)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_isdigit(*s))
			return FALSE;
	return TRUE;
}
