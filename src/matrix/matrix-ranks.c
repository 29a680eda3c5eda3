/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A matrix's visits over the process's cluster (matrix-ranks.h).
 *
 * The hand-out is static and in rounds: rank 0 lists the visits due of one
 * repeat, in the file's order, and gives visit i of the next N to rank i
 * (N ranks); each rank makes its visit, then every rank meets to pass its
 * run to rank 0, which appends it, and the next N go out.  Why not a queue
 * that feeds a rank as soon as it is free: a round ends with every run of
 * it in results.jsonl, so a kill loses only the visits in flight (as a kill
 * of plain arraybench loses one), a resume knows exactly what ran, and
 * --repeat-until judges a cell's spread on every run of the repeat before
 * (no round holds two repeats).  The cost is that a round lasts as long as
 * its slowest visit; the cells of one matrix take much the same time.
 *
 * During its visit a rank is one rank (ab_cluster_set_aside()): the
 * runner and run-prepare meet through ab_cluster_get(), and the other
 * ranks are busy with cells of their own.  Only the code here talks to the
 * cluster; rank 0 alone owns the results directory (a visit of a rank
 * other than 0 keeps its run in the visits' outbox and no visit.inflight:
 * its undo journal in its own host's state directory is what a kill
 * leaves, for `arraybench cleanup` there).
 */
#include "matrix-ranks.h"
#include "matrix-profiles.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../runner/runner.h"
#include "../../reports/report.h"

#include <stdio.h>
#include <string.h>

/* One visit handed out: the cell's index and the repeat. */
struct hand {
	uint32_t cell;
	uint32_t repeat;
};

/* Every rank's bytes; rank r's part of `all` is at offsets[r]. */
struct gathered {
	GByteArray *all;
	size_t *lens;
	size_t *offsets;
};

static void gathered_clear(struct gathered *g)
{
	g_clear_pointer(&g->all, g_byte_array_unref);
	g_clear_pointer(&g->lens, g_free);
	g_clear_pointer(&g->offsets, g_free);
}

static gboolean gather(struct ab_cluster *c, const void *buf, size_t len, gboolean ok, const char *why,
		       struct gathered *g, GError **error)
{
	g->all = g_byte_array_new();
	g->lens = g_new0(size_t, c->size);
	g->offsets = g_new0(size_t, c->size);
	if (!c->ops->allgather(c, buf, len, ok, why, g->all, g->lens, error))
		return FALSE;
	for (unsigned r = 1; r < c->size; r++)
		g->offsets[r] = g->offsets[r - 1] + g->lens[r - 1];
	return TRUE;
}

/* A wait for the others that failed: a stop signal, else what the
 * cluster said (another rank's fault names it). */
static int cluster_failed(GError **error)
{
	if (ab_stop_requested || ab_cluster_stopped()) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
		return AB_ERROR_INTERRUPTED;
	}
	return *error ? ab_error_exit_status(*error) : AB_ERROR_PHASE;
}

/* What must be the same on every rank for the cells to be: the matrix
 * file's digest and each profile's. */
static char *digests(const struct ab_matrix *m, GPtrArray *profiles)
{
	GString *s = g_string_new(m->sha256);
	for (guint i = 0; profiles && i < profiles->len; i++) {
		const struct ab_matrix_profile *p = g_ptr_array_index(profiles, i);
		g_string_append_printf(s, " %s", p->sha256);
	}
	return g_string_free(s, FALSE);
}

int ab_matrix_ranks_agree(const struct ab_matrix *m, GPtrArray *profiles, int status, GError **error)
{
	struct ab_cluster *c = ab_cluster_get();
	if (c->size == 1)
		return status;
	g_autofree char *mine = digests(m, profiles);
	struct gathered g = { 0 };
	gboolean ok = status == 0;
	if (!gather(c, mine, strlen(mine) + 1, ok, ok ? NULL : (*error)->message, &g, ok ? error : NULL)) {
		gathered_clear(&g);
		return ok ? cluster_failed(error) : status;
	}
	if (!ok) {
		gathered_clear(&g);
		return status;
	}
	const char *first = (const char *)g.all->data;
	for (unsigned r = 1; r < c->size; r++)
		if (strcmp((const char *)g.all->data + g.offsets[r], first) != 0) {
			/* Every rank sees the same bytes and says the same: bad
			 * input, said once by rank 0 (src/cmd/dispatch.c). */
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "rank %u holds another matrix file '%s' or another version of its profiles than "
				    "rank 0: every host needs the same files",
				    r, m->name);
			gathered_clear(&g);
			return AB_ERROR_USAGE;
		}
	gathered_clear(&g);
	return 0;
}

int ab_matrix_ranks_ready(int status, GError **error)
{
	struct ab_cluster *c = ab_cluster_get();
	if (c->size == 1)
		return status;
	if (status) {
		/* This rank's own failure: the others learn it here. */
		ab_cluster_meet(FALSE, *error ? (*error)->message : "failed", NULL);
		return status;
	}
	return ab_cluster_meet(TRUE, NULL, error) ? 0 : cluster_failed(error);
}

/* Rank 0: the next visits due, at most one per rank, all of one repeat;
 * (*cell, *repeat) is where the list goes on from.  Empty at the end. */
static void next_round(struct ab_matrix_visits *v, unsigned ranks, unsigned *cell, unsigned *repeat, GArray *out)
{
	const struct ab_matrix *m = v->m;
	unsigned total = ab_matrix_rounds(m, v->cv_limit, v->max_repeats);
	for (; *repeat <= total; (*repeat)++, *cell = 0) {
		for (; *cell < m->cells->len && out->len < ranks; (*cell)++)
			if (ab_matrix_visit_due(v, g_ptr_array_index(m->cells, *cell), *repeat)) {
				struct hand h = { *cell, *repeat };
				g_array_append_val(out, h);
			}
		if (out->len)
			return;
	}
}

/* Rank 0 appends what the others ran, in rank order; the others' outboxes
 * are emptied. */
static int collect(struct ab_matrix_visits *v, struct ab_cluster *c, GError **error)
{
	g_autoptr(GString) lines = g_string_new(NULL);
	for (guint i = 0; v->outbox && i < v->outbox->len; i++) {
		g_autofree char *line = ab_writer_format_run(&ab_writer_json, g_ptr_array_index(v->outbox, i), NULL);
		if (line)
			g_string_append(lines, line);
	}
	if (v->outbox)
		g_ptr_array_set_size(v->outbox, 0);
	struct gathered g = { 0 };
	if (!gather(c, lines->str, lines->len, TRUE, NULL, &g, error)) {
		gathered_clear(&g);
		return cluster_failed(error);
	}
	int status = 0;
	for (unsigned r = 1; c->rank == 0 && status == 0 && r < c->size; r++) {
		if (!g.lens[r])
			continue;
		struct ab_run_set set;
		ab_run_set_init(&set);
		g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
		g_autofree char *name = g_strdup_printf("rank %u", r);
		ab_report_read_text(name, (const char *)g.all->data + g.offsets[r], g.lens[r], &set, problems);
		if (problems->len) {
			g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot read the run rank %u sent: %s", r,
				    (const char *)g_ptr_array_index(problems, 0));
			status = AB_ERROR_OUTPUT;
		}
		for (guint i = 0; status == 0 && i < set.runs->len; i++) {
			struct ab_run *run = g_ptr_array_steal_index(set.runs, i--);
			v->ran++;
			if (run->failure) {
				v->failed++;
				if (!v->quiet) {
					ab_progress_clear();
					printf("  failed on rank %u: %s\n", r, run->failure);
					fflush(stdout);
				}
			}
			if (!ab_matrix_visits_record(v, run, error))
				status = ab_error_exit_status(*error);
		}
		ab_run_set_clear(&set);
	}
	gathered_clear(&g);
	return status;
}

/* One round: rank 0's list to every rank, each rank's visit, its run to
 * rank 0, every rank's status.  *more is FALSE once the list is empty. */
static int round_trip(struct ab_matrix_visits *v, struct ab_cluster *c, unsigned *cell, unsigned *repeat,
		      gboolean *more, GError **error)
{
	g_autoptr(GArray) mine = g_array_new(FALSE, FALSE, sizeof(struct hand));
	if (c->rank == 0)
		next_round(v, c->size, cell, repeat, mine);
	struct gathered g = { 0 };
	gboolean stop = ab_stop_requested;
	if (!gather(c, mine->data, mine->len * sizeof(struct hand), !stop, stop ? "interrupted" : NULL, &g, error)) {
		gathered_clear(&g);
		return cluster_failed(error);
	}
	size_t count = g.lens[0] / sizeof(struct hand);
	g_autofree struct hand *hands = g_memdup2(g.all->data, count * sizeof(struct hand));
	gathered_clear(&g);
	*more = count > 0;
	if (!count)
		return 0;
	if (c->rank == 0 && !v->quiet)
		for (size_t i = 0; i < count; i++) {
			g_autofree char *where = g_strdup_printf("on rank %zu", i);
			ab_matrix_visit_announce(v, hands[i].cell, hands[i].repeat, where);
		}
	int status = 0;
	g_autoptr(GError) own = NULL;
	if (c->rank < count) {
		struct ab_cluster *aside = ab_cluster_set_aside();
		status = ab_matrix_visit_one(v, hands[c->rank].cell, hands[c->rank].repeat, &own);
		ab_cluster_put_back(aside);
	}
	/* The runs first, so that a rank whose teardown failed after its
	 * run was made still has it recorded. */
	int collected = collect(v, c, error);
	if (collected)
		return collected;
	if (status) {
		/* This rank's own failure: the others learn it here. */
		ab_cluster_meet(FALSE, own ? own->message : "failed", NULL);
		g_propagate_error(error, g_steal_pointer(&own));
		return status;
	}
	if (!ab_cluster_meet(TRUE, NULL, error))
		return cluster_failed(error);
	return 0;
}

int ab_matrix_ranks_run(struct ab_matrix_visits *v, GError **error)
{
	struct ab_cluster *c = ab_cluster_get();
	if (c->size == 1) {
		struct ab_cluster *aside = ab_cluster_set_aside();
		int status = ab_matrix_visits_run(v, error);
		ab_cluster_put_back(aside);
		return status;
	}
	g_autoptr(GPtrArray) outbox = NULL;
	if (c->rank != 0)
		v->outbox = outbox = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free);
	unsigned cell = 0, repeat = 1;
	gboolean more = TRUE;
	int status = 0;
	while (status == 0 && more)
		status = round_trip(v, c, &cell, &repeat, &more, error);
	v->outbox = NULL;
	return status;
}
