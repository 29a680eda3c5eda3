/* SPDX-License-Identifier: GPL-2.0-or-later */
/* conditions-differ: groups compared under different conditions, which
 * their ratios then mix into the difference they claim to measure.  The
 * conditions: the file size bonnie++'s I/O phases worked on (the
 * comparison's columns do not tell sizes apart), direct I/O, the cache
 * mode, the sync rule (-b) and the kernel.  A group that did not record a
 * condition (bonnie++'s CSV has no kernel) is left out of that one; a
 * group whose own runs differ shows each of its values. */
#include "findings.h"
#include "run-group.h"
#include "../../workloads/phase.h"

#include <string.h>

enum condition { FILE_SIZE, DIRECT, CACHE_MODE, SYNC_RULE, KERNEL, CONDITIONS };

static const char *const what[CONDITIONS] = { "file sizes", "direct I/O", "cache modes", "sync rules", "kernels" };
static const char *const field[CONDITIONS] = { "file_size", "direct", "cache_mode", "sync_each_write", "kernel" };

struct group {
	char *label;
	GPtrArray *values[CONDITIONS]; /* char *, distinct, in run order */
};

static void group_free(gpointer p)
{
	struct group *g = p;
	g_free(g->label);
	for (int c = 0; c < CONDITIONS; c++)
		g_ptr_array_unref(g->values[c]);
	g_free(g);
}

static void note(struct group *g, enum condition c, char *value)
{
	if (!value)
		return;
	for (guint i = 0; i < g->values[c]->len; i++)
		if (strcmp(g_ptr_array_index(g->values[c], i), value) == 0) {
			g_free(value);
			return;
		}
	g_ptr_array_add(g->values[c], value);
}

static char *flag_value(ab_flag f, const char *yes, const char *no)
{
	return f == AB_FLAG_UNKNOWN ? NULL : g_strdup(f ? yes : no);
}

static void note_run(struct group *g, const struct ab_run *run)
{
	/* The sizes bonnie++'s block and seek phases used, as the comparison
	 * noted them (per-char has its own size; a sweep cell is its own
	 * column, sizes and all). */
	for (guint k = 0; k < run->results->len; k++) {
		const struct ab_result *r = g_ptr_array_index(run->results, k);
		const struct ab_phase *ph = r->phase ? ab_phase_by_name(r->phase) : NULL;
		if (!ph || !(ph->flags & AB_PHASE_IO) || (ph->flags & AB_PHASE_PER_CHAR) || r->key.test ||
		    !ab_known(r->key.file_size) || !r->key.file_size)
			continue;
		char sz[32];
		ab_finding_size_text(r->key.file_size, sz, sizeof(sz));
		note(g, FILE_SIZE, g_strdup(sz));
	}
	note(g, DIRECT, flag_value(run->cond.direct, "O_DIRECT", "buffered"));
	note(g, CACHE_MODE, g_strdup(run->cond.cache_mode));
	note(g, SYNC_RULE, flag_value(run->cond.sync_each_write, "fsync each write", "fsync at close"));
	note(g, KERNEL, g_strdup(run->kernel));
}

static char *joined(GPtrArray *v)
{
	g_ptr_array_add(v, NULL);
	char *j = g_strjoinv(", ", (char **)v->pdata);
	g_ptr_array_set_size(v, v->len - 1);
	return j;
}

static void judge(GPtrArray *groups, enum condition c, GPtrArray *out)
{
	const char *first = NULL;
	gboolean differ = FALSE;
	guint with = 0;
	g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < groups->len; i++) {
		struct group *g = g_ptr_array_index(groups, i);
		char *text = g->values[c]->len ? joined(g->values[c]) : NULL;
		g_ptr_array_add(texts, text);
		if (!text)
			continue;
		with++;
		if (first && strcmp(first, text) != 0)
			differ = TRUE;
		first = first ? first : text;
		if (g->values[c]->len > 1)
			differ = TRUE;
	}
	if (!differ || with < 2)
		return;
	g_autoptr(GString) list = g_string_new(NULL);
	for (guint i = 0; i < groups->len; i++) {
		const char *text = g_ptr_array_index(texts, i);
		if (text)
			g_string_append_printf(list, "%s'%s' %s", list->len ? "; " : "",
					       ((struct group *)g_ptr_array_index(groups, i))->label, text);
	}
	struct ab_finding *f = ab_finding_add(out, "conditions-differ", NULL, NULL, field[c]);
	ab_finding_say(f, "the groups ran different %s: %s: their figures are not comparable", what[c], list->str);
	ab_finding_advise(f, "compare groups run under the same %s, or name the difference wherever their ratio is "
			     "quoted",
			  what[c]);
	ab_finding_figure(f, "groups", with, NULL);
}

void ab_finding_conditions_differ(const struct ab_run_set *set, GPtrArray *out)
{
	g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func(group_free);
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		if (run->failure)
			continue;
		g_autofree char *label = ab_run_group_label(run);
		struct group *g = NULL;
		for (guint k = 0; k < groups->len && !g; k++)
			if (strcmp(((struct group *)g_ptr_array_index(groups, k))->label, label) == 0)
				g = g_ptr_array_index(groups, k);
		if (!g) {
			g = g_new0(struct group, 1);
			g->label = g_strdup(label);
			for (int c = 0; c < CONDITIONS; c++)
				g->values[c] = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(groups, g);
		}
		note_run(g, run);
	}
	if (groups->len < 2)
		return;
	for (int c = 0; c < CONDITIONS; c++)
		judge(groups, c, out);
}
