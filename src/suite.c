/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suite.h"
#include "error.h"
#include "progress.h"
#include "residency.h"
#include "rng.h"
#include "runner.h"
#include "oltp-run.h"
#include "oltp-wal-run.h"
#include "sweep-run.h"
#include "wal-run.h"
#include "curve-run.h"
#include "../workloads/fileset.h"
#include "../fs-setup/target-build.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ab_suite_init(struct ab_suite *s, const struct ab_config *cfg, const struct ab_cache *cache,
		   struct ab_run_dir *run_dir)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->cache = cache;
	s->run_dir = run_dir;
}

void ab_suite_clear(struct ab_suite *s)
{
	memset(s, 0, sizeof(*s));
}

/* A file set's files, then the set itself. */
static void drop_file_set(const struct ab_suite *s, struct ab_file_set *set)
{
	if (!set)
		return;
	ab_run_dir_remove_file_set(s->run_dir, set);
	ab_file_set_free(set);
}

static gboolean exists(int dir_fd, const char *name)
{
	struct stat st;
	return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Does the I/O file hold what phase ph reads?  Its name is claimed (empty)
 * from the start, and per-char write leaves only the per-char size. */
static gboolean io_file_ready(const struct ab_suite *s, const struct ab_step *step)
{
	struct stat st;
	uint64_t need = (step->phase->flags & AB_PHASE_PER_CHAR) ? step->per_char_bytes : step->file_size;
	return fstatat(s->run_dir->dir_fd, s->run_dir->io_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       (uint64_t)st.st_size >= need;
}

/* How much of the test file the page cache held just before the phase
 * started: what "cold" or "warm" really meant for it.  With -u the file's
 * directory is the user's: only a regular file is looked at. */
static double io_file_resident(const struct ab_suite *s, const struct ab_step *step)
{
	int fd = openat(s->run_dir->dir_fd, s->run_dir->io_name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	uint64_t reads = (step->phase->flags & AB_PHASE_PER_CHAR) ? step->per_char_bytes : step->file_size;
	double share = ab_file_resident_share(fd, reads);
	if (fd >= 0)
		close(fd);
	return share;
}

/* Does phase ph start cold?  The phases bonnie++ measures from disk do,
 * unless --cache none; stat and delete only with --cold-metadata. */
static gboolean starts_cold(const struct ab_config *cfg, const struct ab_phase *ph)
{
	if (cfg->cache == AB_CACHE_NONE)
		return FALSE;
	return (ph->flags & AB_PHASE_READS) || ((ph->flags & AB_PHASE_METADATA) && cfg->cold_metadata);
}

/* Is phase ph made cold by remounting?  Under --cache remount, and for
 * --cold-metadata on a built target (a drop leaves ext4's fresh metadata
 * pinned by its journal; an unmount does not). */
static gboolean remounts(const struct ab_suite *s, const struct ab_phase *ph)
{
	if (!s->target || !ab_target_spec_builds(&s->cfg->target))
		return FALSE;
	return s->cfg->cache == AB_CACHE_REMOUNT || (ph->flags & AB_PHASE_METADATA);
}

/* Cold cache before phase ph, for the I/O file when it has one.  With -u
 * its directory is the user's: whatever is there is opened without blocking
 * (a FIFO would hang us) and used only if it is a regular file. */
static gboolean make_cold(struct ab_suite *s, struct ab_runner *r, const struct ab_phase *ph, GError **error)
{
	if (remounts(s, ph)) {
		/* Our own hold on the directories would keep it busy. */
		ab_run_dir_release(s->run_dir);
		ab_progress_activity("unmounting and mounting the target again");
		gboolean ok = ab_target_remount(s->target, error);
		ok = ab_run_dir_reopen(s->run_dir, ok ? error : NULL) && ok;
		r->dir_fd = s->run_dir->dir_fd;
		r->run_fd = s->run_dir->fd;
		return ok;
	}
	gboolean io = (ph->flags & AB_PHASE_IO) != 0;
	int fd = io ? openat(s->run_dir->dir_fd, s->run_dir->io_name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
		    : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "cannot use '%s': not a regular file", s->run_dir->io_path);
		return FALSE;
	}
	gboolean ok = ab_cache_before_read(s->cache, fd, (ph->flags & AB_PHASE_METADATA) != 0, error);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* What the cache held when phase ph began, and why, for its result. */
static void describe_cache(const struct ab_suite *s, const struct ab_phase *ph, gboolean cold,
			   struct ab_result *res)
{
	const struct ab_config *cfg = s->cfg;
	g_autofree char *mode = ab_cache_describe(s->cache);
	const char *how;
	const char *cold_why = (ph->flags & AB_PHASE_METADATA) ? "cold (--cold-metadata)" : "cold";
	if (cold && remounts(s, ph))
		how = "the target was unmounted and mounted again before the phase";
	else if (cold && (ph->flags & AB_PHASE_METADATA))
		how = "the machine's caches were dropped before the phase";
	else if (cold && cfg->cache == AB_CACHE_DROP)
		how = "the machine's caches were dropped before the phase";
	else if (cold && cfg->cache == AB_CACHE_CGROUP)
		how = "the test file was evicted and the group's cache emptied before the phase";
	else if (cold)
		how = "the test file was written back and evicted before the phase";
	else if (cfg->cache == AB_CACHE_NONE)
		how = "warm: nothing is evicted";
	else if (ph->flags & AB_PHASE_METADATA)
		how = "warm: right after create, as bonnie++ measures it";
	else if (cfg->cache == AB_CACHE_CGROUP && (ph->flags & AB_PHASE_IO))
		how = "warm: nothing evicted before a write phase; the page cache is capped by the group";
	else if (cfg->cache == AB_CACHE_CGROUP)
		how = "warm: file phases run outside the group";
	else
		how = "warm: nothing evicted before a write phase";
	g_free(res->cache_state);
	g_free(res->cache_mode);
	res->cache_state = g_strdup(cold ? "cold" : "warm");
	if (cold)
		res->cache_mode = g_strdup_printf("%s, %s: %s", mode, cold_why, how);
	else
		res->cache_mode = g_strdup_printf("%s, %s", mode, how);
}

/* The seed of the n-th (0-based) step of phase `id` in the run: a phase's
 * first step has the seed it always had; another pass of it gets its own. */
static uint64_t phase_seed(uint64_t run_seed, unsigned id, unsigned nth)
{
	uint64_t st = run_seed ^ ((uint64_t)id << 40) ^ ((uint64_t)nth << 48);
	return ab_rng_splitmix(&st);
}

/* What a phase's work counts, for the status line: bytes for a KiB/s
 * phase (NULL), else its operations. */
static const char *work_noun(const struct ab_phase *ph)
{
	switch (ph->unit) {
	case AB_UNIT_KIB_PER_SEC: return NULL;
	case AB_UNIT_SEEKS_PER_SEC: return "seeks";
	case AB_UNIT_FILES_PER_SEC: return "files";
	case AB_UNIT_COMMITS_PER_SEC: return "commits";
	case AB_UNIT_IOPS: return "I/Os";
	}
	return NULL;
}

/* A result's rate per second in the unit of work_noun(). */
static double work_rate(const struct ab_phase *ph, const struct ab_result *res)
{
	return ph->unit == AB_UNIT_KIB_PER_SEC ? res->rate * 1024 : res->rate;
}

/* Runs `ph` with the parameters of `like`, untimed (a layout or a create
 * that a later step needs). */
static gboolean run_untimed(struct ab_runner *r, const struct ab_phase *ph, const struct ab_step *like,
			    uint64_t seed, GError **error)
{
	struct ab_step step = *like;
	step.phase = ph;
	g_autoptr(ab_result) scratch = ab_result_new(ph->name);
	g_autofree char *detail = g_strdup_printf("(untimed, for '%s')", like->phase->name);
	ab_progress_phase_begin(ph->name, detail, work_noun(ph));
	gboolean ok = ab_runner_run_step(r, &step, seed, scratch, error);
	ab_progress_phase_end(ok, NAN);
	return ok;
}

/* Makes the cache cold when the phase starts cold, runs it timed, and
 * records what the cache held.  Seeks without a count given run again with
 * more seeks (each pass cold again) until one lasts AB_SEEKS_MIN_S. */
static gboolean run_measured(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			     struct ab_run *run, gboolean laid_out, GError **error)
{
	const struct ab_phase *ph = step->phase;
	gboolean cold = starts_cold(s->cfg, ph);
	gboolean grow = ph->id == AB_PHASE_SEEKS && step->grow_seeks;
	struct ab_step pass = *step; /* only the seek count differs between passes */
	g_autoptr(ab_result) res = NULL;
	gboolean ok;
	for (;;) {
		/* Each pass measures afresh: only the last is reported. */
		g_clear_pointer(&res, ab_result_free);
		res = ab_result_new(ph->name);
		ok = !cold || make_cold(s, r, ph, error);
		if (!ok)
			break;
		g_autofree char *again = grow && pass.seeks != step->seeks
			? g_strdup_printf("again with %" G_GUINT64_FORMAT " seeks", pass.seeks) : NULL;
		ab_progress_phase_begin(ph->name, again, work_noun(ph));
		if (ph->flags & AB_PHASE_NEEDS_FILE)
			res->resident_at_start = io_file_resident(s, step);
		ok = ab_runner_run_step(r, &pass, seed, res, error);
		ab_progress_phase_end(ok, ok ? work_rate(ph, res) : NAN);
		if (!ok || !grow || res->elapsed_s >= AB_SEEKS_MIN_S || pass.seeks >= AB_SEEKS_MAX)
			break;
		/* At least double; jump further when the pass was far too short,
		 * aiming a little past the minimum so one more pass is enough. */
		double want = res->elapsed_s > 0 ? 1.25 * AB_SEEKS_MIN_S / res->elapsed_s : 64;
		uint64_t factor = 2;
		while (factor < want && factor < 64)
			factor *= 2;
		pass.seeks = MIN(pass.seeks * factor, AB_SEEKS_MAX);
	}
	if (ok) {
		describe_cache(s, ph, cold, res);
		res->laid_out_untimed = laid_out;
		gboolean io = (ph->flags & AB_PHASE_IO) != 0;
		res->key.file_size = !io ? AB_UNSET : (ph->flags & AB_PHASE_PER_CHAR) ? step->per_char_bytes : step->file_size;
		res->key.record_size = io ? step->io_chunk : step->file_chunk;
		res->key.streams = 1;
		if (ph->id == AB_PHASE_SEEKS)
			run->cond.seeks = pass.seeks;
		ab_run_add_result(run, g_steal_pointer(&res));
	}
	return ok;
}

gboolean ab_suite_prepare_cache(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step,
				 gboolean *cold, double *resident, GError **error)
{
	*cold = starts_cold(s->cfg, step->phase);
	if (*cold && !make_cold(s, r, step->phase, error))
		return FALSE;
	*resident = io_file_resident(s, step);
	return TRUE;
}

void ab_suite_describe_cache(const struct ab_suite *s, const struct ab_phase *ph, gboolean cold,
			     struct ab_result *res)
{
	describe_cache(s, ph, cold, res);
}

gboolean ab_suite_run(struct ab_suite *s, struct ab_run *run, GError **error)
{
	const struct ab_config *cfg = s->cfg;
	const char *io_path = s->run_dir->io_path, *files_dir = s->run_dir->files_dir;
	struct ab_runner r = {
		.cfg = cfg, .cache = s->cache, .dir_fd = s->run_dir->dir_fd, .io_name = s->run_dir->io_name,
		.run_fd = s->run_dir->fd, .io_path = io_path, .files_dir = files_dir, .run_path = s->run_dir->path,
		.disk_names = s->disk_names,
	};
	struct ab_file_set *seq = NULL, *rnd = NULL;
	unsigned seen[AB_PHASE_ID_COUNT] = { 0 };
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < cfg->steps->len; i++) {
		const struct ab_step *step = &g_array_index(cfg->steps, struct ab_step, i);
		const struct ab_phase *ph = step->phase;
		uint64_t seed = phase_seed(run->seed, ph->id, seen[ph->id]++);
		if (ph->id == AB_PHASE_SWEEP) {
			ok = ab_sweep_run(s, &r, step, seed, run, error);
			/* It leaves the test file empty. */
			s->io_from_layout = FALSE;
			continue;
		}
		if (ph->id == AB_PHASE_WAL) {
			ok = ab_wal_run(s, &r, step, seed, run, error);
			continue;
		}
		if (ph->id == AB_PHASE_OLTP) {
			ok = ab_oltp_run(s, &r, step, seed, run, error);
			continue;
		}
		if (ph->id == AB_PHASE_OLTP_WAL) {
			ok = ab_oltp_wal_run(s, &r, step, seed, run, error);
			continue;
		}
		if ((ph->flags & AB_PHASE_NEEDS_FILE) && !io_file_ready(s, step)) {
			ok = run_untimed(&r, &ab_phase_layout, step, seed, error);
			s->io_from_layout = TRUE;
		}
		if (ok && ph->id == AB_PHASE_LATENCY_CURVE) {
			ok = ab_curve_run(s, &r, step, seed, s->io_from_layout, run, error);
			continue;
		}
		if (ok && (ph->flags & AB_PHASE_FILES)) {
			gboolean random_order = (ph->flags & AB_PHASE_RANDOM_ORDER) != 0;
			struct ab_file_set **set = random_order ? &rnd : &seq, **other = random_order ? &seq : &rnd;
			/* One set is on disk at a time, in AB_FILES_NAME: the other
			 * order's goes first (the sequential group's leftovers when
			 * no seq-delete was asked for; a rand-create before a
			 * seq-stat), so a phase never works on files named by a set
			 * it does not hold. */
			drop_file_set(s, g_steal_pointer(other));
			if (!(ph->flags & AB_PHASE_NEEDS_FILES)) {
				/* A create again (--phases seq-create,seq-create): it
				 * starts from no files, as the first did. */
				drop_file_set(s, g_steal_pointer(set));
			}
			if (!*set)
				*set = ab_file_set_new(step, random_order, seed);
			r.files = *set;
			if ((ph->flags & AB_PHASE_NEEDS_FILES) && !exists(s->run_dir->fd, AB_FILES_NAME))
				ok = run_untimed(&r, ab_phase_by_id(random_order ? AB_PHASE_RAND_CREATE : AB_PHASE_SEQ_CREATE),
						 step, seed, error);
			if (random_order)
				ab_file_set_shuffle(*set, seed);
		}
		if (!ok)
			break;
		gboolean laid_out = (ph->flags & AB_PHASE_NEEDS_FILE) && s->io_from_layout;
		ok = run_measured(s, &r, step, seed, run, laid_out, error);
		/* A timed write of the file replaces whatever was laid out. */
		if (ph->id == AB_PHASE_BLOCK_WRITE || ph->id == AB_PHASE_PER_CHAR_WRITE)
			s->io_from_layout = FALSE;
	}
	/* The test file stays, its name claimed, until the run ends
	 * (ab_run_dir_finish): the next repeat's write phase makes it anew. */
	drop_file_set(s, seq);
	drop_file_set(s, rnd);
	return ok;
}
