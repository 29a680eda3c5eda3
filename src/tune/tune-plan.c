/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each visit of a tune runs (tune-plan.h). */
#include "tune-plan.h"
#include "candidates.h"
#include "../base/error.h"
#include "../options/profile.h"
#include "../../workloads/phase.h"
#include "../../workloads/step.h"
#include "../../workloads/wal.h"

#include <string.h>

/* The value of a "--NAME=VALUE" word, or NULL. */
static const char *word_value(const char *word, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(word, "--", 2) != 0 || strncmp(word + 2, name, n) != 0 || word[2 + n] != '=')
		return NULL;
	return word + 3 + n;
}

/* Does the step run `phase` (its --phases= list names it)? */
static gboolean step_runs(const struct ab_profile_step *step, const char *phase)
{
	for (guint i = 0; i < step->words->len; i++) {
		const char *list = word_value(g_ptr_array_index(step->words, i), "phases");
		if (!list)
			continue;
		g_auto(GStrv) names = g_strsplit(list, ",", -1);
		for (char **n = names; *n; n++)
			if (g_str_equal(*n, phase))
				return TRUE;
	}
	return FALSE;
}

/* The step's words, narrowed to the objective's cell. */
static void add_step_words(GPtrArray *out, const struct ab_profile_step *step, const struct ab_objective *obj)
{
	gboolean oltp = g_str_equal(obj->phase, "oltp") && obj->test && g_str_equal(obj->test, "all");
	for (guint i = 0; i < step->words->len; i++) {
		const char *w = g_ptr_array_index(step->words, i);
		const char *procs = oltp ? word_value(w, "oltp-procs") : NULL;
		if (obj->wal_sync && (word_value(w, "wal-sync") || word_value(w, "wal-records")))
			continue;
		if (procs)
			g_ptr_array_add(out, g_strdup_printf("--oltp-procs=%.*s", (int)strcspn(procs, ","), procs));
		else
			g_ptr_array_add(out, g_strdup(w));
	}
	if (obj->wal_sync) {
		g_ptr_array_add(out, g_strdup_printf("--wal-sync=%s", obj->wal_sync));
		g_ptr_array_add(out, g_strdup_printf("--wal-records=%s", obj->wal_record));
	}
}

GPtrArray *ab_tune_visit_words(const struct ab_tune_opts *o, const struct ab_objective *obj, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(out, g_strdup("run"));
	/* The workload, and where its words are among the run words. */
	const char *workload = NULL;
	guint at = 0, span = 0;
	for (guint i = 0; i < o->run_words->len; i++) {
		const char *w = g_ptr_array_index(o->run_words, i);
		const char *v = word_value(w, "workload");
		if (v) {
			workload = v, at = i, span = 1;
		} else if (g_str_equal(w, "--workload") && i + 1 < o->run_words->len) {
			workload = g_ptr_array_index(o->run_words, i + 1), at = i, span = 2;
			i++;
		}
	}
	if (!workload || o->whole_workload) {
		for (guint i = 0; i < o->run_words->len; i++)
			g_ptr_array_add(out, g_strdup(g_ptr_array_index(o->run_words, i)));
		return g_steal_pointer(&out);
	}
	g_autoptr(ab_profile_auto) p = ab_profile_load(workload, error);
	if (!p)
		return NULL;
	const struct ab_profile_step *step = NULL;
	for (guint i = 0; !step && i < p->steps->len; i++)
		if (step_runs(g_ptr_array_index(p->steps, i), obj->phase))
			step = g_ptr_array_index(p->steps, i);
	if (!step) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "workload '%s' has no step that runs the %s phase, which --objective '%s' reads", workload,
			    obj->phase, obj->spec);
		return NULL;
	}
	/* As run takes a profile: its words first, the user's after them. */
	for (guint i = 0; i < p->run_words->len; i++)
		g_ptr_array_add(out, g_strdup(g_ptr_array_index(p->run_words, i)));
	add_step_words(out, step, obj);
	for (guint i = 0; i < o->run_words->len; i++)
		if (i < at || i >= at + span)
			g_ptr_array_add(out, g_strdup(g_ptr_array_index(o->run_words, i)));
	return g_steal_pointer(&out);
}

char *ab_tune_workload_sha256(GPtrArray *visit_words, GError **error)
{
	const char *workload = NULL;
	for (guint i = 0; i < visit_words->len; i++) {
		const char *w = g_ptr_array_index(visit_words, i);
		const char *v = word_value(w, "workload");
		if (v)
			workload = v;
		else if (g_str_equal(w, "--workload") && i + 1 < visit_words->len)
			workload = g_ptr_array_index(visit_words, ++i);
	}
	if (!workload)
		return NULL;
	gsize len = 0;
	g_autofree char *text = ab_profile_text(workload, &len, error);
	return text ? g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len) : NULL;
}

/* The phases cfg's steps run (and its later steps' configs'), each once,
 * into `names`. */
static void phases_run(const struct ab_config *cfg, GPtrArray *names)
{
	for (guint i = 0; cfg->steps && i < cfg->steps->len; i++) {
		const char *name = g_array_index(cfg->steps, struct ab_step, i).phase->name;
		if (!g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL))
			g_ptr_array_add(names, (gpointer)name);
	}
	for (guint i = 0; cfg->step_configs && i < cfg->step_configs->len; i++)
		phases_run(g_ptr_array_index(cfg->step_configs, i), names);
}

/* Does a wal step of cfg (or of its later steps' configs) run the
 * objective's cell: its sync method with its commit's shape? */
static gboolean wal_cell_run(const struct ab_config *cfg, unsigned sync, const struct ab_objective *obj)
{
	for (guint i = 0; cfg->steps && i < cfg->steps->len; i++) {
		const struct ab_step *st = &g_array_index(cfg->steps, struct ab_step, i);
		gboolean method = FALSE, shape = FALSE;
		if (!g_str_equal(st->phase->name, "wal") || !st->wal_syncs || !st->wal_commits)
			continue;
		for (guint j = 0; j < st->wal_syncs->len; j++)
			method = method || g_array_index(st->wal_syncs, unsigned, j) == sync;
		for (guint j = 0; j < st->wal_commits->len; j++) {
			const struct ab_wal_commit *c = &g_array_index(st->wal_commits, struct ab_wal_commit, j);
			shape = shape || (c->writes == obj->wal_writes && (uint64_t)c->writes * c->write_size == obj->wal_bytes);
		}
		if (method && shape)
			return TRUE;
	}
	for (guint i = 0; cfg->step_configs && i < cfg->step_configs->len; i++)
		if (wal_cell_run(g_ptr_array_index(cfg->step_configs, i), sync, obj))
			return TRUE;
	return FALSE;
}

gboolean ab_tune_objective_run(const struct ab_config *cfg, const struct ab_objective *obj, GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	phases_run(cfg, names);
	unsigned sync;
	if (g_ptr_array_find_with_equal_func(names, obj->phase, g_str_equal, NULL) && obj->wal_sync &&
	    ab_wal_sync_by_name(obj->wal_sync, &sync) && !wal_cell_run(cfg, sync, obj)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --objective '%s': no wal step of the visits runs --wal-sync %s with --wal-records "
			    "%s, the cell it reads: give them, or an objective of a cell they run",
			    obj->spec, obj->wal_sync, obj->wal_record);
		return FALSE;
	}
	if (g_ptr_array_find_with_equal_func(names, obj->phase, g_str_equal, NULL))
		return TRUE;
	g_ptr_array_add(names, NULL);
	g_autofree char *list = g_strjoinv(", ", (char **)names->pdata);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
		    "invalid --objective '%s': it reads the %s phase, which the visits do not run (they run %s): "
		    "give an objective of those, or add its phase to the visits", obj->spec, obj->phase, *list ? list : "none");
	return FALSE;
}

struct ab_matrix *ab_tune_matrix_new(GPtrArray *visit_words, GPtrArray *candidates, const char *label_prefix,
				     uint64_t seed, const char *sha256)
{
	struct ab_matrix *m = g_new0(struct ab_matrix, 1);
	m->repeats = AB_TUNE_MAX_ROUNDS;
	m->seed = seed;
	m->sha256 = g_strdup(sha256);
	m->name = g_strdup("tune.ini");
	m->cells = g_ptr_array_new_with_free_func(ab_matrix_cell_free);
	for (guint k = 0; k < candidates->len; k++) {
		const struct ab_candidate *c = g_ptr_array_index(candidates, k);
		struct ab_matrix_cell *cell = g_new0(struct ab_matrix_cell, 1);
		cell->label = g_strconcat(label_prefix, c->label, NULL);
		cell->argv = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < visit_words->len; i++)
			g_ptr_array_add(cell->argv, g_strdup(g_ptr_array_index(visit_words, i)));
		for (guint i = 0; c->argv && i < c->argv->len; i++)
			g_ptr_array_add(cell->argv, g_strdup(g_ptr_array_index(c->argv, i)));
		g_ptr_array_add(m->cells, cell);
	}
	return m;
}
