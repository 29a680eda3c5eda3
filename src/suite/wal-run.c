/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wal step: a timed run per commit size and sync method. */
#include "wal-run.h"
#include "../options/wal-options.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "step-files.h"
#include "../../workloads/wal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

/* The logs back to the file system (their names stay until the run
 * directory goes).  Only a regular file of the run's with one link: with
 * -u the directory is the user's, who could put a link to another file
 * there. */
void ab_wal_empty_logs(const struct ab_suite *s, unsigned writers)
{
	for (unsigned k = 1; k <= writers; k++) {
		char name[32];
		snprintf(name, sizeof(name), AB_STREAM_FILE_FMT, k);
		int fd = ab_step_files_open(s->run_dir->fd, name, name, s->run_dir->io_owner, O_WRONLY, NULL);
		if (fd < 0)
			continue;
		(void)!ftruncate(fd, 0);
		close(fd);
	}
}

static uint64_t method_seed(uint64_t seed, guint commit, unsigned sync)
{
	uint64_t st = seed ^ ((uint64_t)commit << 24) ^ ((uint64_t)sync << 48);
	return ab_rng_splitmix(&st);
}

/* One method and commit size, timed, into the run. */
static gboolean run_one(struct ab_runner *r, const struct ab_step *step, const struct ab_wal_commit *c,
			unsigned sync, uint64_t seed, struct ab_run *run, GError **error)
{
	struct ab_step st = *step;
	st.wal_sync = sync;
	st.wal_writes = c->writes;
	st.wal_write_size = c->write_size;
	const struct ab_wal_sync_info *m = ab_wal_sync_info(sync);
	g_autofree char *test = ab_wal_test_name(sync, c, st.wal_rewrite);
	g_autofree char *label = ab_wal_commit_label(c);
	g_autofree char *detail = g_strdup_printf("%s, %s commits, %u writer%s", m->name, label, st.wal_writers,
						  st.wal_writers == 1 ? "" : "s");
	g_autoptr(ab_result) res = ab_result_new(st.phase->name);
	ab_progress_phase_begin(st.phase->name, detail, "commits");
	gboolean ok = ab_runner_run_step(r, &st, seed, res, error);
	ab_progress_phase_end(ok, ok ? res->rate : NAN);
	if (!ok) {
		g_prefix_error(error, "wal '%s' with %s commits: ", m->name, label);
		return FALSE;
	}
	res->key.file_size = st.wal_log_size;
	res->key.record_size = (uint64_t)c->writes * c->write_size;
	res->key.streams = st.wal_writers;
	res->key.test = g_steal_pointer(&test);
	res->timed = ab_wal_timed_calls(sync, c);
	g_free(res->sync_mode);
	res->sync_mode = g_strdup(m->sync_mode);
	res->direct = st.direct;
	/* Laid out untimed, but that mark is about reads. */
	res->laid_out_untimed = FALSE;
	ab_wal_set_cache(res, &st);
	ab_run_add_result(run, g_steal_pointer(&res));
	return TRUE;
}

/* The logs must fit: one writer's ENOSPC after the others laid theirs out
 * says less than this.  A file system that counts no blocks (ramfs) is
 * left to the writes. */
static gboolean check_space(const struct ab_suite *s, const struct ab_step *step, unsigned writers, GError **error)
{
	uint64_t free_bytes;
	if (!ab_step_files_room(s, FALSE, &free_bytes))
		return TRUE;
	uint64_t need = (uint64_t)writers * step->wal_log_size;
	if (need <= free_bytes)
		return TRUE;
	g_autofree char *dir = ab_one_line(s->run_dir->dir);
	g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
		    "the wal phase needs %" G_GUINT64_FORMAT " MiB in '%s' (%u log%s of %" G_GUINT64_FORMAT
		    " MiB), which has %" G_GUINT64_FORMAT " MiB free%s",
		    need / AB_MIB, dir, writers, writers == 1 ? "" : "s", step->wal_log_size / AB_MIB,
		    free_bytes / AB_MIB, writers > 1 ? ": give fewer --wal-writers" : "");
	return FALSE;
}


gboolean ab_wal_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		    struct ab_run *run, GError **error)
{
	unsigned writers = step->wal_writers ? step->wal_writers : 1;
	if (!check_space(s, step, writers, error))
		return FALSE;
	if (!ab_run_dir_make_stream_files(s->run_dir, writers + 1, error))
		return FALSE;
	gboolean ok = TRUE;
	for (guint i = 0; ok && step->wal_commits && i < step->wal_commits->len; i++) {
		const struct ab_wal_commit *c = &g_array_index(step->wal_commits, struct ab_wal_commit, i);
		for (guint j = 0; ok && step->wal_syncs && j < step->wal_syncs->len; j++) {
			unsigned sync = g_array_index(step->wal_syncs, unsigned, j);
			ok = run_one(r, step, c, sync, method_seed(seed, i, sync), run, error);
		}
	}
	ab_wal_empty_logs(s, writers);
	return ok;
}

void ab_wal_set_cache(struct ab_result *res, const struct ab_step *st)
{
	g_free(res->cache_state);
	g_free(res->cache_mode);
	res->cache_state = g_strdup(st->evict_after_layout ? "cold" : "warm");
	if (st->direct)
		res->cache_mode = g_strdup(st->evict_after_layout
						   ? "O_DIRECT: the commits' writes bypass the page cache; the log's "
						     "pages dropped after its untimed layout"
						   : "O_DIRECT: the commits' writes bypass the page cache");
	else
		res->cache_mode = g_strdup(st->evict_after_layout
						   ? "cold: the log written once untimed, then its pages dropped "
						     "(POSIX_FADV_DONTNEED), as PostgreSQL drops a closed WAL segment's"
						   : "warm: the log was written once untimed just before; nothing evicted");
}

const struct ab_phase_driver ab_wal_driver = {
	.phase_id = AB_PHASE_WAL,
	.run = ab_wal_run,
};
