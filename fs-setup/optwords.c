/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "optwords.h"
#include "plan.h"
#include "../src/base/error.h"

#include <string.h>
#include <sys/stat.h>

/* Tags libblkid resolves to a device (mke2fs -J device=UUID=..., and any
 * tool that takes a device "by name or by LABEL= or UUID="). */
static const char *const tags[] = { "LABEL=", "UUID=", "PARTUUID=", "PARTLABEL=", "ID=" };

/* Why `text` could name a device or file, or NULL.  The set-up tools run
 * in "/" (and so does the mount), so a relative name is taken from there,
 * whatever the directory arraybench was started in. */
static const char *names_something(const char *text)
{
	if (!*text)
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(tags); i++)
		if (g_ascii_strncasecmp(text, tags[i], strlen(tags[i])) == 0)
			return "it names a device by tag";
	g_autofree char *path = g_path_is_absolute(text) ? g_strdup(text) : g_strconcat("/", text, NULL);
	struct stat st;
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return "it is a block device";
	if (lstat(path, &st) == 0)
		return g_path_is_absolute(text) ? "it names an existing path" : "it names an existing path (from /)";
	return NULL;
}

/* Options of the tools that write a file where they are told: mke2fs -z
 * (its undo file), also inside a cluster such as "-qz". */
static gboolean writes_a_file(const char *option, const char *word)
{
	return g_str_equal(option, "--mkfs-opts") && word[0] == '-' && word[1] != '-' && strchr(word + 1, 'z');
}

/* A piece, the value after its first '=', or, in a cluster of one-letter
 * options ("-L/dev/sdb", "-Fd/dir"), what follows any of its letters. */
static const char *piece_names_something(const char *piece, const char **what)
{
	const char *why = names_something(piece);
	const char *eq = strchr(piece, '=');
	*what = piece;
	if (!why && eq && (why = names_something(eq + 1)))
		*what = eq + 1;
	if (piece[0] == '-' && piece[1] && piece[1] != '-')
		for (const char *rest = piece + 2; !why && *rest; rest++)
			if ((why = names_something(rest)))
				*what = rest;
	return why;
}

gboolean ab_option_words_check(const char *option, const char *const *words, GError **error)
{
	for (const char *const *w = words; w && *w; w++) {
		if (writes_a_file(option, *w)) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing %s '%s': mke2fs -z writes an undo file wherever it is told", option, *w);
			return FALSE;
		}
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
