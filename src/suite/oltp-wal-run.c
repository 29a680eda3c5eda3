/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Commits with and without the oltp load beside them, in one step. */
#include "oltp-wal-run.h"
#include "../options/oltp-options.h"
#include "../base/error.h"
#include "oltp-run.h"
#include "wal-run.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "../../workloads/wal.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* The committers' samples [from, from + count) merged as the wal phase's. */
struct both {
	struct ab_oltp_split oltp;
	unsigned wal_from, wal_count;
	struct ab_result *wal;
};

static void split_both(const struct ab_sample *samples, unsigned n, unsigned ranks, void *data)
{
	struct both *b = data;
	if (b->oltp.count)
		ab_oltp_split_samples(samples, n, ranks, &b->oltp);
	if (b->wal_from + b->wal_count <= n) {
		g_autofree struct ab_sample *wal = ab_samples_pick(samples, n, ranks, b->wal_from, b->wal_count);
		ab_result_merge(ab_phase_by_id(AB_PHASE_WAL), wal, b->wal_count * ranks, b->wal);
	}
}

/* The committers' row: the step's system figures, their own figures, and
 * the keys and conditions the wal phase gives its rows (src/suite/wal-run.c). */
static struct ab_result *wal_row(const struct ab_result *step_res, struct ab_result *wal, const struct ab_step *st,
				 const struct ab_wal_commit *c, const char *suffix)
{
	const struct ab_wal_sync_info *m = ab_wal_sync_info(st->wal_sync);
	struct ab_result *row = ab_result_dup(wal);
	g_free(row->phase);
	row->phase = g_strdup(ab_phase_by_id(AB_PHASE_WAL)->name);
	row->iowait_percent = step_res->iowait_percent;
	row->sys_busy_percent = step_res->sys_busy_percent;
	row->life_user_s = step_res->life_user_s;
	row->life_sys_s = step_res->life_sys_s;
	row->max_rss_kib = step_res->max_rss_kib;
	row->key.file_size = st->wal_log_size;
	row->key.record_size = (uint64_t)c->writes * c->write_size;
	row->key.streams = st->wal_writers;
	g_autofree char *test = ab_wal_test_name(st->wal_sync, c, st->wal_rewrite);
	g_free(row->key.test);
	row->key.test = g_strconcat(test, suffix, NULL);
	g_strfreev(row->timed);
	row->timed = ab_wal_timed_calls(st->wal_sync, c);
	g_free(row->sync_mode);
	row->sync_mode = g_strdup(m->sync_mode);
	row->direct = st->direct;
	row->laid_out_untimed = FALSE;
	ab_wal_set_cache(row, st);
	return row;
}

/* One timed run of the step: the committers, and the oltp processes when
 * st->oltp_procs > 0. */
static gboolean run_once(struct ab_suite *s, struct ab_runner *r, const struct ab_step *st,
			 const struct ab_wal_commit *c, uint64_t seed, gboolean laid_out, const char *wal_suffix,
			 struct ab_run *run, GError **error)
{
	struct ab_oltp_cold cold = { FALSE, NAN };
	if (st->oltp_procs && !ab_oltp_make_cold(s, st, &cold, error))
		return FALSE;
	struct both b = {
		.oltp = { .from = 0, .count = st->oltp_procs },
		.wal_from = st->oltp_procs,
		.wal_count = st->wal_writers,
		.wal = ab_result_new(ab_phase_by_id(AB_PHASE_WAL)->name),
	};
	g_autoptr(ab_result) res = ab_result_new(st->phase->name);
	const struct ab_wal_sync_info *m = ab_wal_sync_info(st->wal_sync);
	g_autofree char *label = ab_wal_commit_label(c);
	g_autofree char *detail = st->oltp_procs
		? g_strdup_printf("%s, %s commits under %u oltp process%s, %us", m->name, label, st->oltp_procs,
				  st->oltp_procs == 1 ? "" : "es", st->oltp_seconds)
		: g_strdup_printf("%s, %s commits alone, %us", m->name, label, st->oltp_seconds);
	ab_progress_phase_begin(st->phase->name, detail, NULL);
	gboolean ok = ab_runner_run_step_samples(r, st, seed, res, split_both, &b, error);
	ab_progress_phase_end(ok, NAN);
	if (ok) {
		ab_run_add_result(run, wal_row(res, b.wal, st, c, wal_suffix));
		if (st->oltp_procs)
			ab_oltp_add_rows(&b.oltp, res, st, &cold, laid_out, " under wal", run);
	} else {
		g_autofree char *load = st->oltp_procs ? g_strdup_printf("under %u oltp process%s", st->oltp_procs,
									 st->oltp_procs == 1 ? "" : "es")
						       : g_strdup("alone");
		g_prefix_error(error, "oltp+wal ('%s' with %s commits, %s): ", m->name, label, load);
	}
	ab_oltp_split_clear(&b.oltp);
	ab_result_free(b.wal);
	return ok;
}


gboolean ab_oltp_wal_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			 struct ab_run *run, GError **error)
{
	unsigned writers = step->wal_writers ? step->wal_writers : 1;
	gboolean laid_out = FALSE;
	if (!ab_run_dir_make_stream_files(s->run_dir, writers + 1, error) ||
	    !ab_oltp_lay_out(s, r, step, seed, &laid_out, error))
		return FALSE;
	const GArray *counts = step->oltp_proc_counts;
	guint ncounts = counts && counts->len ? counts->len : 1;
	gboolean ok = TRUE;
	for (guint i = 0; ok && step->wal_commits && i < step->wal_commits->len; i++) {
		const struct ab_wal_commit *c = &g_array_index(step->wal_commits, struct ab_wal_commit, i);
		for (guint j = 0; ok && step->wal_syncs && j < step->wal_syncs->len; j++) {
			struct ab_step st = *step;
			st.wal_writers = writers;
			st.wal_sync = g_array_index(step->wal_syncs, unsigned, j);
			st.wal_writes = c->writes;
			st.wal_write_size = c->write_size;
			/* One window for both roles: the oltp's seconds. */
			st.wal_seconds = st.oltp_seconds;
			st.wal_count = 0;
			uint64_t state = seed ^ ((uint64_t)i << 24) ^ ((uint64_t)st.wal_sync << 48);
			st.oltp_procs = 0;
			ok = run_once(s, r, &st, c, ab_rng_splitmix(&state), laid_out, "", run, error);
			for (guint k = 0; ok && k < ncounts; k++) {
				st.oltp_procs = counts && counts->len ? g_array_index(counts, uint32_t, k) : step->oltp_procs;
				g_autofree char *suffix = ncounts > 1 ? g_strdup_printf(" under oltp x%u", st.oltp_procs)
								      : g_strdup(" under oltp");
				ok = run_once(s, r, &st, c, ab_rng_splitmix(&state), laid_out, suffix, run, error);
			}
		}
	}
	ab_wal_empty_logs(s, writers);
	return ok;
}

const struct ab_phase_driver ab_oltp_wal_driver = {
	.phase_id = AB_PHASE_OLTP_WAL,
	.run = ab_oltp_wal_run,
};
