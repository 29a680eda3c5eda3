/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The visits of a matrix (matrix-visits.h): round-robin over the repeats,
 * each visit one run made in this process (run-prepare.c, pipeline.c),
 * its run stamped and appended to the results directory by the pipeline's
 * sink here. */
#include "matrix-visits.h"
#include "../base/error.h"
#include "matrix-spread.h"
#include "../pipeline/pipeline.h"
#include "../runner/progress.h"
#include "../pipeline/run-prepare.h"
#include "../runner/runner.h"
#include "../../reports/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SETTLE_MIN_RUNS 3u

void ab_matrix_visits_init(struct ab_matrix_visits *v, const struct ab_matrix *m, struct ab_matrix_dir *dir,
			   gboolean quiet, double cv_limit, unsigned max_repeats)
{
	*v = (struct ab_matrix_visits){
		.m = m, .dir = dir, .quiet = quiet, .cv_limit = cv_limit, .max_repeats = max_repeats,
		.cell_runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref),
	};
}

void ab_matrix_visits_clear(struct ab_matrix_visits *v)
{
	g_clear_pointer(&v->done, g_hash_table_unref);
	g_clear_pointer(&v->cell_runs, g_hash_table_unref);
}

void ab_matrix_visits_keep(struct ab_matrix_visits *v, struct ab_run *run)
{
	GPtrArray *a = g_hash_table_lookup(v->cell_runs, run->cell);
	if (!a) {
		a = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free);
		g_hash_table_insert(v->cell_runs, g_strdup(run->cell), a);
	}
	g_ptr_array_add(a, run);
}

/* One run to the results files, JSON first (resume reads it), each synced,
 * then kept for --repeat-until's spread.  Its CSV line is the one a start
 * makes results.csv anew with from the runs results.jsonl gives back: a
 * run read back from its JSON is the same value (reports/json-fields.h),
 * so the two files cannot differ (test-matrix checks the line). */
static gboolean append_run(struct ab_matrix_visits *v, struct ab_run *owned, GError **error)
{
	g_autoptr(ab_run) run = owned;
	if (v->outbox) {
		/* Another rank writes it (matrix-ranks.c collects the box). */
		v->delivered = TRUE;
		g_ptr_array_add(v->outbox, g_steal_pointer(&run));
		return TRUE;
	}
	g_autofree char *line = ab_writer_format_run(&ab_writer_json, run, NULL);
	g_autoptr(GString) csv = g_string_new(NULL);
	ab_matrix_csv_append(csv, run);
	if (!ab_matrix_dir_append(v->dir, v->dir->json_fd, line, error)) {
		v->sink_failed = TRUE;
		return FALSE;
	}
	if (csv->len && !ab_matrix_dir_append(v->dir, v->dir->csv_fd, csv->str, error)) {
		g_autofree char *why = g_strdup_printf("%s (the run is in %s: the next start writes %s anew from it)",
						       (*error)->message, AB_MATRIX_RESULTS_JSON, AB_MATRIX_RESULTS_CSV);
		g_free((*error)->message);
		(*error)->message = g_steal_pointer(&why);
		v->sink_failed = TRUE;
		return FALSE;
	}
	v->delivered = TRUE;
	ab_matrix_visits_keep(v, g_steal_pointer(&run));
	return TRUE;
}

/* The visit in flight, for the pipeline's sink. */
struct visit_sink {
	struct ab_matrix_visits *visits;
	const struct ab_matrix_cell *cell;
	unsigned k;
	unsigned repeat;
};

/* The pipeline's sink: the visit's run gets what only the matrix knows of
 * it (its cell, the workload as the file names it rather than the path of
 * the copy it ran, its matrix repeat) and goes to the results. */
static gboolean deliver(struct ab_run *run, void *data, GError **error)
{
	const struct visit_sink *sink = data;
	g_free(run->cell);
	run->cell = g_strdup(sink->cell->label);
	if (sink->cell->workload) {
		g_free(run->workload);
		run->workload = g_strdup(sink->cell->workload);
	}
	/* run counts its repeats from 1; a visit's are the matrix's from its own. */
	run->repeat = sink->repeat + run->repeat - 1;
	if (sink->visits->stamp)
		sink->visits->stamp(run, sink->k, sink->repeat, sink->visits->stamp_data);
	return append_run(sink->visits, run, error);
}

/* A visit that gave no results: a run saying which and why. */
static gboolean record_failure(struct ab_matrix_visits *v, unsigned k, unsigned repeat, const char *run_id,
			       const char *why, GError **error)
{
	const struct ab_matrix_cell *cell = g_ptr_array_index(v->m->cells, k);
	g_autoptr(ab_run) run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup(AB_VERSION);
	run->run_id = g_strdup(run_id);
	run->repeat = repeat;
	run->seed = ab_matrix_visit_seed(v->m->seed, cell->label, repeat);
	run->start_unix = g_get_real_time() / G_USEC_PER_SEC;
	run->concurrency = 1;
	run->host = g_strdup(g_get_host_name());
	run->cell = g_strdup(cell->label);
	run->workload = g_strdup(cell->workload);
	run->failure = g_strdup(why);
	if (v->stamp)
		v->stamp(run, k, repeat, v->stamp_data);
	return append_run(v, g_steal_pointer(&run), error);
}

gboolean ab_matrix_visits_record(struct ab_matrix_visits *v, struct ab_run *run, GError **error)
{
	return append_run(v, run, error);
}

/* One visit: the cell's run, made once.  0 when it ran or its failure is
 * recorded; otherwise the exit status that stops the matrix. */
static int visit(struct ab_matrix_visits *v, unsigned k, unsigned repeat, GError **error)
{
	const struct ab_matrix_cell *cell = g_ptr_array_index(v->m->cells, k);
	g_auto(GStrv) argv = ab_matrix_visit_argv(v->m, cell, repeat, v->quiet);
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	struct ab_run_prep prep;
	ab_run_prep_init(&prep);
	g_autoptr(GError) local = NULL;
	v->sink_failed = v->delivered = FALSE;
	int status = ab_run_prepare((int)g_strv_length(argv), argv, &cfg, &prep, &local);
	/* Its run id first, where a resume after a kill looks for what the
	 * visit left: no visit starts that a resume could not find. */
	if (status == 0 && v->dir && !ab_matrix_dir_set_visit(v->dir, prep.run_id, prep.state_dir, &local)) {
		v->sink_failed = TRUE;
		status = ab_error_exit_status(local);
	} else if (status == 0) {
		struct visit_sink sink = { v, cell, k, repeat };
		struct ab_pipeline p = {
			.cfg = &cfg, .run_id = prep.run_id, .state_dir = prep.state_dir, .dir_fd = prep.dir_fd,
			.ram_bytes = prep.ram_bytes, .deliver = deliver, .deliver_data = &sink,
		};
		prep.dir_fd = -1; /* the pipeline closes it */
		if (!ab_pipeline_run(&p, &local))
			status = ab_error_exit_status(local);
		/* Unwound, or it said what it could not undo ('arraybench
		 * cleanup' retries that): nothing left for a resume to find. */
		if (v->dir)
			ab_matrix_dir_clear_visit(v->dir);
	}
	g_autofree char *run_id = g_strdup(prep.run_id);
	ab_run_prep_clear(&prep);
	if (status == 0)
		return 0;
	/* Interrupted: not recorded, so that a resume runs it again.  Results
	 * that cannot be written or a target refused as unsafe would fail
	 * every visit alike, and a teardown that failed after the run was
	 * recorded left what would get in the next visits' way ('arraybench
	 * cleanup' undoes it): the matrix stops. */
	if (ab_stop_requested || status == AB_ERROR_INTERRUPTED || v->sink_failed || status == AB_ERROR_UNSAFE ||
	    v->delivered) {
		g_propagate_error(error, g_steal_pointer(&local));
		return ab_stop_requested ? AB_ERROR_INTERRUPTED : status;
	}
	v->failed++;
	if (!v->quiet) {
		ab_progress_clear();
		printf("  failed: %s\n", local->message);
		fflush(stdout);
	}
	return record_failure(v, k, repeat, run_id, local->message, error) ? 0 : AB_ERROR_OUTPUT;
}

static gboolean settled(struct ab_matrix_visits *v, const struct ab_matrix_cell *cell)
{
	GPtrArray *runs = g_hash_table_lookup(v->cell_runs, cell->label);
	return runs && ab_matrix_settled(runs, v->cv_limit, SETTLE_MIN_RUNS);
}

unsigned ab_matrix_rounds(const struct ab_matrix *m, double cv_limit, unsigned max_repeats)
{
	if (isnan(cv_limit))
		return m->repeats;
	return MAX(m->repeats, max_repeats ? max_repeats : 2 * m->repeats);
}

gboolean ab_matrix_visit_due(struct ab_matrix_visits *v, const struct ab_matrix_cell *cell, unsigned repeat)
{
	if (ab_matrix_done_has(v->done, cell->label, repeat)) {
		v->skipped++;
		return FALSE;
	}
	return !(repeat > v->m->repeats && settled(v, cell));
}

void ab_matrix_visit_announce(const struct ab_matrix_visits *v, unsigned k, unsigned repeat, const char *where)
{
	const struct ab_matrix *m = v->m;
	const struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, k);
	ab_progress_clear();
	printf("matrix: cell %u/%u repeat %u/%u%s%s: %s\n", k + 1, m->cells->len, repeat,
	       ab_matrix_rounds(m, v->cv_limit, v->max_repeats), where ? " " : "", where ? where : "", cell->label);
	fflush(stdout);
}

int ab_matrix_visit_one(struct ab_matrix_visits *v, unsigned k, unsigned repeat, GError **error)
{
	const struct ab_matrix *m = v->m;
	g_autofree char *where = v->context ? g_strdup(v->context)
					    : g_strdup_printf("cell %u/%u repeat %u/%u", k + 1, m->cells->len, repeat,
							      ab_matrix_rounds(m, v->cv_limit, v->max_repeats));
	ab_progress_set_context(where);
	int status = visit(v, k, repeat, error);
	ab_progress_set_context(NULL);
	if (status == 0)
		v->ran++;
	return status;
}

/* Round-robin: repeat 1 of every cell, then repeat 2...  Beyond the file's
 * repeats (--repeat-until) only the cells whose spread is still wide. */
int ab_matrix_visits_run(struct ab_matrix_visits *v, GError **error)
{
	const struct ab_matrix *m = v->m;
	unsigned n = m->cells->len, total = ab_matrix_rounds(m, v->cv_limit, v->max_repeats);
	for (unsigned r = 1; r <= total; r++)
		for (unsigned k = 0; k < n; k++) {
			if (ab_stop_requested) {
				g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
				return AB_ERROR_INTERRUPTED;
			}
			if (!ab_matrix_visit_due(v, g_ptr_array_index(m->cells, k), r))
				continue;
			if (!v->quiet)
				ab_matrix_visit_announce(v, k, r, NULL);
			int status = ab_matrix_visit_one(v, k, r, error);
			if (status)
				return status;
		}
	return 0;
}
