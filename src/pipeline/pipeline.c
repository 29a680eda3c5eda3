/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run pipeline: journal, target, run directory and cache, the steps of
 * each repeat, each finished run to the caller's sink, and always the
 * unwind.  `run` and `matrix` only parse, check and write. */
#include "pipeline.h"
#include "../suite/raw-baseline.h"
#include "../runner/cache.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../base/fsutil.h"
#include "../runner/progress.h"
#include "run-capture.h"
#include "rank-dir.h"
#include "../runner/rundir.h"
#include "../runner/runner.h"
#include "../options/step-space.h"
#include "../suite/suite.h"
#include "../../fs-setup/diskstats.h"
#include "../../fs-setup/dir-devices.h"
#include "../../fs-setup/target-build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whatever the chosen steps lay out must fit before the first runs: a
 * step that checks only when its turn comes (the sweep, oltp, the wal logs)
 * would fail after the phases before it, however long they took. */
static gboolean check_space(const struct ab_config *cfg, GError **error)
{
	/* On many ranks every rank lays out its files in the one directory
	 * they all reach: each may count on its share of the room. */
	unsigned ranks = ab_cluster_get()->size;
	if (ab_steps_check_space(cfg->steps, cfg->repeats, cfg->dir, ab_dir_free_bytes(cfg->dir) / ranks, error))
		return TRUE;
	if (ranks > 1)
		g_prefix_error(error, "%u ranks share the room, each the free space over %u: ", ranks, ranks);
	return FALSE;
}

static gboolean run_all(const struct ab_pipeline *p, const struct ab_config *cfg, const struct ab_cache *cache,
			const struct ab_target *target, struct ab_run_dir *run_dir, struct ab_run_dir *other,
			struct ab_run_dir *shared, const struct ab_raw_baseline *raw, GError **error)
{
	struct ab_suite suite;
	ab_suite_init(&suite, cfg, cache, run_dir);
	suite.other_dir = other;
	if (shared) {
		struct ab_cluster *c = ab_cluster_get();
		if (shared->io_shared)
			suite.shared_io = shared;
		else
			suite.shared_dir = shared;
		suite.rank = c->rank;
		suite.ranks = c->size;
		suite.partner = cfg->reorder ? ab_rank_dir_partner() : c->rank;
	}
	suite.target = target;
	g_autoptr(GPtrArray) disks = NULL;
	if (target->members && target->members->len) {
		g_autoptr(GPtrArray) paths = g_ptr_array_new_null_terminated(4, NULL, TRUE);
		if (target->source)
			g_ptr_array_add(paths, target->source);
		for (guint i = 0; i < target->members->len; i++)
			g_ptr_array_add(paths, g_ptr_array_index(target->members, i));
		disks = ab_diskstats_names((const char *const *)paths->pdata);
		suite.disk_names = disks;
	} else {
		/* A directory on an array made by hand: its devices' I/O
		 * per phase as a built array's (dir-devices.h). */
		struct stat st;
		g_autofree char *real = realpath(cfg->dir, NULL);
		if (real && stat(real, &st) == 0)
			disks = ab_dir_devices("", st.st_dev, real);
		suite.disk_names = disks && disks->len ? disks : NULL;
	}
	gboolean ok = TRUE;
	for (unsigned i = 0; ok && i < cfg->repeats; i++) {
		ab_progress_set_repeat(i + 1, cfg->repeats);
		ab_progress_activity("reading the machine's state");
		g_autoptr(ab_run) run = ab_run_capture(cfg, cache, target, p->shared_run_id ? p->shared_run_id : p->run_id,
						       i, p->ram_bytes);
		ab_raw_baseline_add(raw, run);
		ok = ab_suite_run(&suite, run, error);
		ab_run_finish_ranks(run);
		ab_progress_activity(NULL);
		/* A failed or interrupted run is not delivered: no partial
		 * result shown as whole. */
		if (ok)
			ok = p->deliver(g_steal_pointer(&run), p->deliver_data, error);
	}
	ab_suite_clear(&suite);
	ab_progress_set_repeat(0, 0);
	return ok;
}

/* Everything after the target exists: its directory, the run's own
 * directory in it, the cache, the runs. */
static gboolean measure(const struct ab_pipeline *p, const struct ab_config *cfg, struct ab_target *target,
			struct ab_undo *undo, int dir_fd, const struct ab_raw_baseline *raw, struct ab_rank_dir *rank_dir,
			GError **error)
{
	const char *run_id = p->run_id;
	/* DIR held open: the built target's root as it was verified after the
	 * mount, or the -d directory opened by the checks; the run directory
	 * owns it from here on (and lets go of it around a remount). */
	if (target->root_fd >= 0) {
		dir_fd = target->root_fd;
		target->root_fd = -1;
	}
	struct ab_run_dir run_dir;
	ab_run_dir_init(&run_dir, cfg->dir, run_id);
	/* First: whether DIR takes anything at all is the clearer error. */
	ab_progress_activity("making the run directory");
	gboolean ok = ab_run_dir_create(&run_dir, dir_fd, undo, cfg->user_given && geteuid() == 0, cfg->uid, cfg->gid,
					error) &&
		      check_space(cfg, error);
	/* --mpi-layout shared: the ranks' directory, for the file phases
	 * (before the ranks meet, which carries how it went). */
	struct ab_run_dir shared;
	ab_run_dir_init(&shared, "", "none");
	if (ok && cfg->mpi_layout != AB_MPI_LAYOUT_PRIVATE) {
		ab_run_dir_clear(&shared);
		ok = ab_rank_dir_open_shared(rank_dir, &shared, error);
		/* shared-file: its I/O file is the ranks', in DIR, each rank's
		 * segment set step by step by the suite. */
		shared.io_shared = cfg->mpi_layout == AB_MPI_LAYOUT_SHARED_FILE;
	}
	/* On many ranks: every rank's run directory is there; with --reorder
	 * the next node's rank's is opened for the phases that read. */
	struct ab_run_dir other;
	ok = ab_rank_dir_open_partner(rank_dir, ok, cfg->reorder, &other, ok ? error : NULL) && ok;
	g_autofree char *warning = ok ? ab_run_cache_warning(cfg, p->ram_bytes) : NULL;
	/* Once a process: a matrix's visits would say it each time (each
	 * run's JSON still holds it). */
	static char *warned;
	/* On many ranks every rank finds the same: rank 0 says it. */
	if (warning && g_strcmp0(warning, warned) != 0 && ab_cluster_writes()) {
		ab_progress_clear();
		fprintf(stderr, "arraybench: warning: %s\n", warning);
		g_free(warned);
		warned = g_strdup(warning);
	}
	struct ab_cache cache = { 0 };
	if (ok)
		ok = ab_cache_setup(&cache, cfg, undo, run_id, error);
	if (ok)
		ok = run_all(p, cfg, &cache, target, &run_dir, other.fd >= 0 ? &other : NULL,
			     shared.fd >= 0 ? &shared : NULL, raw, error);
	ab_run_dir_clear(&other);
	ab_run_dir_clear(&shared);
	ab_cache_clear(&cache);
	ab_run_dir_finish(&run_dir, undo);
	ab_run_dir_clear(&run_dir);
	return ok;
}

/* Builds the target, and points the live copy of the config at it: its
 * mount directory is DIR, its label the machine name unless -m gave one. */
static gboolean build_target(struct ab_config *cfg, struct ab_target *target, struct ab_undo *undo,
			     const char *run_id, struct ab_raw_baseline *raw, GError **error)
{
	if (ab_target_spec_builds(&cfg->target))
		ab_progress_activity("building the target");
	gboolean ok = ab_target_build(&cfg->target, target, undo, run_id, ab_runner_stop_requested,
				      cfg->target.raw_baseline ? ab_raw_baseline_measure : NULL, raw, error);
	ab_progress_clear();
	if (cfg->verbose && target->tool_output && target->tool_output->len)
		fprintf(stderr, "arraybench: what the set-up tools said:\n%s", target->tool_output->str);
	if (!ok || !ab_target_spec_builds(&cfg->target))
		return ok;
	cfg->dir = target->mount_dir;
	if (!cfg->machine_given && target->label)
		cfg->machine_name = target->label;
	/* -u: the workers write into the new file system's root. */
	if (cfg->user_given && fchown(target->root_fd, cfg->uid, cfg->gid) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot hand '%s' to user %u", cfg->dir,
				   (unsigned)cfg->uid);
		return FALSE;
	}
	return TRUE;
}

/* Unwinds what the run made, whatever happened; says what it left alone. */
static gboolean unwind(struct ab_undo *undo, gboolean ok, const GString *before, GError **error)
{
	g_autoptr(GString) report = g_string_new(before->str);
	g_autoptr(GError) teardown_error = NULL;
	ab_progress_activity("tearing down");
	gboolean unwound = ab_undo_unwind(undo, report, &teardown_error);
	ab_progress_activity(NULL);
	ab_progress_clear();
	/* What was left alone (not the run's any more) is worth a word. */
	g_auto(GStrv) lines = g_strsplit(report->str, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "left alone: "))
			fprintf(stderr, "arraybench: warning: %s\n", *l);
	if (!unwound) {
		fprintf(stderr, "arraybench: error: teardown: %s; 'arraybench cleanup' retries it\n",
			teardown_error->message);
		if (ok) {
			g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "the target was not fully torn down");
			ok = FALSE;
		}
	}
	return ok;
}

gboolean ab_pipeline_run(const struct ab_pipeline *p, GError **error)
{
	int dir_fd = p->dir_fd;
	ab_runner_install_signals();
	struct ab_undo undo;
	if (!ab_undo_open(&undo, p->state_dir, p->run_id, error)) {
		ab_undo_clear(&undo);
		if (dir_fd >= 0)
			close(dir_fd);
		return FALSE;
	}
	/* The caller's config stays as it was checked; this copy (sharing its
	 * storage, never cleared) follows the target once it is built. */
	struct ab_config live = *p->cfg;
	struct ab_target target;
	ab_target_init(&target);
	struct ab_raw_baseline raw;
	ab_raw_baseline_init(&raw);
	gboolean ok = build_target(&live, &target, &undo, p->run_id, &raw, error);
	/* On many ranks, each rank's files in a directory of its own. */
	struct ab_rank_dir rank_dir = { 0 };
	if (ok)
		ok = ab_rank_dir_enter(&rank_dir, p->shared_run_id ? p->shared_run_id : p->run_id, p->run_id,
				       live.mpi_layout, &undo, &dir_fd, &live.dir, error);
	if (ok)
		ok = measure(p, &live, &target, &undo, dir_fd, &raw, &rank_dir, error);
	else if (dir_fd >= 0)
		close(dir_fd);
	ab_raw_baseline_clear(&raw);
	g_autoptr(GString) rank_report = g_string_new(NULL);
	ab_rank_dir_leave(&rank_dir, &undo, ok, rank_report);
	ok = unwind(&undo, ok, rank_report, error);
	ab_rank_dir_clear(&rank_dir);
	ab_undo_clear(&undo);
	ab_target_clear(&target);
	if (ab_stop_requested && !ok && (*error)->code != AB_ERROR_INTERRUPTED) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
	}
	return ok;
}
