/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan.h"
#include "../src/base/error.h"

#include <string.h>

static void step_free(struct ab_plan_step *step)
{
	if (!step)
		return;
	g_free(step->what);
	g_strfreev(step->argv);
	g_free(step->undo_arg);
	g_free(step->undo_detail);
	g_free(step);
}

void ab_plan_init(struct ab_plan *plan)
{
	plan->steps = g_ptr_array_new_with_free_func((GDestroyNotify)step_free);
}

void ab_plan_clear(struct ab_plan *plan)
{
	g_clear_pointer(&plan->steps, g_ptr_array_unref);
}

struct ab_plan_step *ab_plan_add(struct ab_plan *plan, const char *what, const char *const *argv,
				 enum ab_undo_kind undo, const char *undo_arg, const char *undo_detail)
{
	struct ab_plan_step *step = g_new0(struct ab_plan_step, 1);
	step->what = g_strdup(what);
	step->argv = g_strdupv((char **)argv);
	step->undo = undo;
	step->undo_arg = g_strdup(undo_arg);
	step->undo_detail = g_strdup(undo_detail);
	g_ptr_array_add(plan->steps, step);
	return step;
}

/* Characters a POSIX shell takes literally anywhere in a word. */
static gboolean needs_quotes(const char *arg)
{
	if (!*arg)
		return TRUE;
	for (const char *c = arg; *c; c++)
		if (!g_ascii_isalnum(*c) && !strchr("_./:=,+@%-", *c))
			return TRUE;
	return FALSE;
}

char *ab_plan_step_command(const struct ab_plan_step *step)
{
	if (!step->argv)
		return NULL;
	GString *cmd = g_string_new(NULL);
	for (char **a = step->argv; *a; a++) {
		if (a != step->argv)
			g_string_append_c(cmd, ' ');
		if (!needs_quotes(*a)) {
			g_string_append(cmd, *a);
			continue;
		}
		/* Inside single quotes nothing is special but the quote itself,
		 * which has to close, be escaped, and reopen. */
		g_string_append_c(cmd, '\'');
		for (const char *c = *a; *c; c++) {
			if (*c == '\'')
				g_string_append(cmd, "'\\''");
			else
				g_string_append_c(cmd, *c);
		}
		g_string_append_c(cmd, '\'');
	}
	return g_string_free(cmd, FALSE);
}

gboolean ab_plan_split_options(const char *what, const char *opts, GStrv *out, GError **error)
{
	*out = NULL;
	/* g_shell_parse_argv calls blank input an error; for us it is "none". */
	g_autofree char *trimmed = g_strstrip(g_strdup(opts ? opts : ""));
	if (!*trimmed) {
		*out = g_new0(char *, 1);
		return TRUE;
	}
	g_autoptr(GError) e = NULL;
	if (!g_shell_parse_argv(opts, NULL, out, &e)) {
		/* glib's own text repeats the whole string; say it shorter. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", what, opts,
			    g_error_matches(e, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING)
				    ? "unmatched quote or trailing backslash"
				    : e->message);
		return FALSE;
	}
	return TRUE;
}

static const char *const fs_names[AB_FS_COUNT] = {
	[AB_FS_EXT3] = "ext3",
	[AB_FS_EXT4] = "ext4",
	[AB_FS_XFS] = "xfs",
	[AB_FS_BTRFS] = "btrfs",
};

gboolean ab_fs_type_parse(const char *name, enum ab_fs_type *out, GError **error)
{
	for (int fs = 0; fs < AB_FS_COUNT; fs++)
		if (name && g_str_equal(name, fs_names[fs])) {
			*out = (enum ab_fs_type)fs;
			return TRUE;
		}
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid file system '%s': expected ext3, ext4, xfs or btrfs",
		    name ? name : "");
	return FALSE;
}

const char *ab_fs_type_name(enum ab_fs_type fs)
{
	return (unsigned)fs < AB_FS_COUNT ? fs_names[fs] : "?";
}
