/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a build's plans in its mode (check, print, build): each step's
 * undo is journaled before its command runs, and the command's output is
 * kept for -v. */
#include "build.h"
#include "spawn.h"
#include "../src/base/error.h"

#include <stdarg.h>
#include <sys/stat.h>

void ab_build_activity(const struct ab_build *b, const char *fmt, ...)
{
	if (b->mode != AB_BUILD_REAL || !b->activity)
		return;
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	b->activity(what);
}

gboolean ab_build_interrupted(const struct ab_build *b, GError **error)
{
	if (!b->stop_requested || !b->stop_requested())
		return FALSE;
	g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted while building the target");
	return TRUE;
}

/* The tool's last words are the reason, as a rule, unless it went on to
 * print its usage (mkfs.xfs on a small device: "Filesystem must be larger
 * than 300MB." and then 40 lines of usage): then the words before it.
 * -v shows them all. */
static char *last_line(char *text)
{
	g_auto(GStrv) lines = g_strsplit(g_strstrip(text), "\n", -1);
	guint end = g_strv_length(lines);
	for (guint i = 1; i < end; i++)
		if (g_ascii_strncasecmp(g_strchug(lines[i]), "usage:", 6) == 0) {
			end = i;
			break;
		}
	for (guint i = end; i-- > 0;)
		if (*g_strstrip(lines[i]))
			return g_strdup(lines[i]);
	return g_strdup("no message");
}

static gboolean spawn(struct ab_build *b, const struct ab_plan_step *step, GError **error)
{
	g_autofree char *out = NULL, *err = NULL;
	int status;
	if (!ab_spawn_tool(step->argv, &out, &err, &status, error)) {
		g_prefix_error(error, "cannot %s: ", step->what);
		(*error)->domain = AB_ERROR;
		(*error)->code = AB_ERROR_SKIPPED;
		return FALSE;
	}
	g_autofree char *cmd = ab_plan_step_command(step);
	g_string_append_printf(b->t->tool_output, "$ %s\n%s%s", cmd, out ? out : "", err ? err : "");
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_autofree char *why = last_line(err);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot %s: %s failed: %s (-v shows all it said)",
			    step->what, step->argv[0], why);
		return FALSE;
	}
	return TRUE;
}

/* Journal the step's undo, then run its command. */
static gboolean run_step(struct ab_build *b, const struct ab_plan_step *step, const char *doing, GError **error)
{
	if (b->mode == AB_BUILD_PRINT) {
		if (step->argv) {
			g_autofree char *cmd = ab_plan_step_command(step);
			fprintf(b->out, "  %s\n", cmd);
		}
		if (step->undo != AB_UNDO_KIND_COUNT)
			fprintf(b->out, "      undo: %s %s\n", ab_undo_kind_name(step->undo), step->undo_arg);
	}
	if (b->mode != AB_BUILD_REAL)
		return TRUE;
	if (ab_build_interrupted(b, error))
		return FALSE;
	struct stat st;
	if (step->makes_node && lstat(step->undo_arg, &st) == 0) {
		/* Never undo, later, what someone else named so. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot %s: '%s' exists already", step->what,
			    step->undo_arg);
		return FALSE;
	}
	struct ab_undo_step *intent = NULL;
	if (step->undo != AB_UNDO_KIND_COUNT &&
	    !(intent = ab_undo_intend(b->undo, step->undo, step->undo_arg, step->undo_detail, NULL, error)))
		return FALSE;
	if (step->argv) {
		ab_build_activity(b, "%s: %s", doing, step->what);
		if (!spawn(b, step, error))
			return FALSE;
	}
	/* The node made, so that its undo checks later that it is still this
	 * one (an array stopped by name). */
	if (step->makes_node && stat(step->undo_arg, &st) == 0)
		return ab_undo_identify(b->undo, intent, &st, error);
	return TRUE;
}

gboolean ab_build_run_plan(struct ab_build *b, const struct ab_plan *plan, const char *doing, GError **error)
{
	for (guint i = 0; i < plan->steps->len; i++)
		if (!run_step(b, g_ptr_array_index(plan->steps, i), doing, error))
			return FALSE;
	return TRUE;
}
