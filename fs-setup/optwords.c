/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "optwords.h"
#include "plan.h"
#include "../src/error.h"

#include <string.h>
#include <sys/stat.h>

/* Tags libblkid resolves to a device (mke2fs -J device=UUID=..., and any
 * tool that takes a device "by name or by LABEL= or UUID="). */
static const char *const tags[] = { "LABEL=", "UUID=", "PARTUUID=", "PARTLABEL=", "ID=" };

/* Why `text` could name a device or file, or NULL. */
static const char *names_something(const char *text)
{
	if (!*text)
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(tags); i++)
		if (g_ascii_strncasecmp(text, tags[i], strlen(tags[i])) == 0)
			return "it names a device by tag";
	struct stat st;
	if (stat(text, &st) == 0 && S_ISBLK(st.st_mode))
		return "it is a block device";
	if (lstat(text, &st) == 0)
		return "it names an existing path";
	return NULL;
}

/* A piece, the value after its first '=', or after a one-letter option. */
static const char *piece_names_something(const char *piece, const char **what)
{
	const char *why = names_something(piece);
	const char *eq = strchr(piece, '=');
	*what = piece;
	if (!why && eq && (why = names_something(eq + 1)))
		*what = eq + 1;
	if (!why && piece[0] == '-' && piece[1] && piece[1] != '-' && (why = names_something(piece + 2)))
		*what = piece + 2;
	return why;
}

gboolean ab_option_words_check(const char *option, const char *const *words, GError **error)
{
	for (const char *const *w = words; w && *w; w++) {
		g_auto(GStrv) pieces = g_strsplit(*w, ",", -1);
		for (char **p = pieces; *p; p++) {
			const char *what;
			const char *why = piece_names_something(*p, &what);
			if (!why)
				continue;
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing %s '%s': %s (devices come only from --device, --members and --loop, "
				    "after their safety checks)", option, what, why);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean ab_option_string_check(const char *option, const char *text, GError **error)
{
	g_auto(GStrv) words = NULL;
	if (!ab_plan_split_options(option, text, &words, error))
		return FALSE;
	return ab_option_words_check(option, (const char *const *)words, error);
}
