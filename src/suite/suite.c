/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suite.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "../runner/runner.h"
#include "step-files.h"
#include "../../workloads/fileset.h"

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
static void drop_file_set(struct ab_run_dir *where, struct ab_file_set *set)
{
	if (!set)
		return;
	ab_run_dir_remove_file_set(where, set);
	ab_file_set_free(set);
}

/* Does the phase work on data made before it (the test file, or files it
 * only reads)?  Under --reorder it works on another rank's. */
static gboolean works_on_earlier_data(const struct ab_phase *ph)
{
	return (ph->flags & AB_PHASE_NEEDS_FILE) ||
	       ((ph->flags & AB_PHASE_NEEDS_FILES) && !(ph->flags & AB_PHASE_WRITES));
}

/* A file set named from the rank's own range when the ranks share files/
 * (`rank`'s: this one's, or --reorder's partner's). */
static struct ab_file_set *new_file_set(const struct ab_suite *s, const struct ab_step *step, gboolean random_order,
					uint64_t seed, unsigned rank, GError **error)
{
	if (!s->shared_dir)
		return ab_file_set_new(step, random_order, seed);
	uint64_t count = (uint64_t)step->num_files_k * 1024u;
	if (count * s->ranks > AB_FILE_SET_INDEX_LIMIT) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "-n %u on %u ranks is too many files for one shared directory (at most %" G_GUINT64_FORMAT
			    " over all ranks)",
			    step->num_files_k, s->ranks, AB_FILE_SET_INDEX_LIMIT);
		return NULL;
	}
	return ab_file_set_new_at(step, random_order, seed, rank * count, TRUE);
}

/* Are the set's files made?  Its first name is there (in a tree the ranks
 * share, files/ itself says nothing). */
static gboolean set_on_disk(const struct ab_run_dir *where, const struct ab_file_set *set)
{
	g_autofree char *first = g_build_filename(AB_FILES_NAME, ab_file_set_path(set, 0), NULL);
	struct stat st;
	return fstatat(where->fd, first, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* A rank's segment of the shared-file layout's file: what its I/O phases
 * write, on a whole MiB (O_DIRECT's and mmap's alignment). */
static uint64_t segment_of(const struct ab_step *step)
{
	uint64_t most = MAX(step->file_size, step->per_char_bytes);
	return (most + AB_MIB - 1) / AB_MIB * AB_MIB;
}

/* The runner's files: those of the run directory the step works in. */
static void point_runner(struct ab_runner *r, const struct ab_run_dir *d)
{
	r->dir_fd = d->dir_fd;
	r->io_name = d->io_name;
	r->run_fd = d->fd;
	r->io_path = d->io_path;
	r->files_dir = d->files_dir;
	r->run_path = d->path;
	r->io_shared = d->io_shared;
	r->io_base = d->io_base;
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
	       (uint64_t)st.st_size >= s->run_dir->io_base + need;
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
	gboolean cold = ab_step_files_starts_cold(s->cfg, ph);
	gboolean grow = ph->id == AB_PHASE_SEEKS && step->grow_seeks;
	struct ab_step pass = *step; /* only the seek count differs between passes */
	g_autoptr(ab_result) res = NULL;
	gboolean ok;
	for (;;) {
		/* Each pass measures afresh: only the last is reported. */
		g_clear_pointer(&res, ab_result_free);
		res = ab_result_new(ph->name);
		ok = !cold || ab_step_files_make_cold(s, r, ph, error);
		if (!ok)
			break;
		g_autofree char *again = grow && pass.seeks != step->seeks
			? g_strdup_printf("again with %" G_GUINT64_FORMAT " seeks", pass.seeks) : NULL;
		ab_progress_phase_begin(ph->name, again, work_noun(ph));
		if (ph->flags & AB_PHASE_NEEDS_FILE)
			res->resident_at_start = ab_step_files_test_file_share(s, step);
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
		ab_step_files_describe_cache(s, ph, cold, res);
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

gboolean ab_suite_run(struct ab_suite *s, struct ab_run *run, GError **error)
{
	const struct ab_config *cfg = s->cfg;
	struct ab_run_dir *own = s->run_dir;
	/* Where files/ is: the run directory, or the ranks' shared one. */
	struct ab_run_dir *files_home = s->shared_dir ? s->shared_dir : own;
	struct ab_runner r = {
		.cfg = cfg, .cache = s->cache, .disk_names = s->disk_names,
	};
	point_runner(&r, own);
	struct ab_file_set *seq = NULL, *rnd = NULL;
	unsigned seen[AB_PHASE_ID_COUNT] = { 0 };
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < cfg->steps->len; i++) {
		const struct ab_step *step = &g_array_index(cfg->steps, struct ab_step, i);
		const struct ab_phase *ph = step->phase;
		uint64_t seed = phase_seed(run->seed, ph->id, seen[ph->id]++);
		const struct ab_phase_driver *driver = ab_phase_driver_of(ph->id);
		gboolean shared_files = s->shared_dir && !driver && (ph->flags & AB_PHASE_FILES);
		/* In a shared files/ tree --reorder takes another rank's names,
		 * not another directory. */
		s->run_dir = s->other_dir && !driver && works_on_earlier_data(ph) && !shared_files ? s->other_dir : own;
		/* The shared-file layout: bonnie++'s I/O phases in the ranks'
		 * one file, in this rank's segment (--reorder: the partner's, for
		 * the phases that work on data made before them). */
		if (s->shared_io && !driver && (ph->flags & AB_PHASE_IO)) {
			unsigned whose = works_on_earlier_data(ph) ? s->partner : s->rank;
			s->shared_io->io_base = (uint64_t)whose * segment_of(step);
			s->run_dir = s->shared_io;
		}
		point_runner(&r, s->run_dir);
		if (shared_files) {
			r.run_fd = s->shared_dir->fd;
			r.files_dir = s->shared_dir->files_dir;
		}
		if ((ph->flags & AB_PHASE_NEEDS_FILE) && !io_file_ready(s, step)) {
			ok = run_untimed(&r, &ab_phase_layout, step, seed, error);
			s->io_from_layout = TRUE;
		}
		/* A family with a driver runs its step itself. */
		if (ok && driver) {
			ok = driver->run(s, &r, step, seed, run, error);
			continue;
		}
		struct ab_file_set *partners = NULL;
		if (ok && (ph->flags & AB_PHASE_FILES)) {
			gboolean random_order = (ph->flags & AB_PHASE_RANDOM_ORDER) != 0;
			struct ab_file_set **set = random_order ? &rnd : &seq, **other = random_order ? &seq : &rnd;
			/* One set is on disk at a time, in AB_FILES_NAME: the other
			 * order's goes first (the sequential group's leftovers when
			 * no seq-delete was asked for; a rand-create before a
			 * seq-stat), so a phase never works on files named by a set
			 * it does not hold. */
			drop_file_set(files_home, g_steal_pointer(other));
			if (!(ph->flags & AB_PHASE_NEEDS_FILES)) {
				/* A create again (--phases seq-create,seq-create): it
				 * starts from no files, as the first did. */
				drop_file_set(files_home, g_steal_pointer(set));
			}
			if (!*set)
				*set = new_file_set(s, step, random_order, seed, s->rank, error);
			ok = *set != NULL;
			r.files = *set;
			gboolean made = !(ph->flags & AB_PHASE_NEEDS_FILES) ||
					(s->shared_dir ? set_on_disk(files_home, *set) : exists(s->run_dir->fd, AB_FILES_NAME));
			if (ok && !made)
				ok = run_untimed(&r, ab_phase_by_id(random_order ? AB_PHASE_RAND_CREATE : AB_PHASE_SEQ_CREATE),
						 step, seed, error);
			/* --reorder in a shared tree: stat the partner's names
			 * (every rank made its own before this step's meeting). */
			if (ok && s->shared_dir && s->partner != s->rank && works_on_earlier_data(ph)) {
				partners = new_file_set(s, step, random_order, seed, s->partner, error);
				ok = partners != NULL;
				r.files = partners;
			}
			if (ok && random_order)
				ab_file_set_shuffle(r.files, seed);
		}
		if (ok)
			ok = run_measured(s, &r, step, seed, run, (ph->flags & AB_PHASE_NEEDS_FILE) && s->io_from_layout,
					  error);
		r.files = NULL;
		ab_file_set_free(partners);
		if (!ok)
			break;
		/* A timed write of the file replaces whatever was laid out. */
		if (ph->id == AB_PHASE_BLOCK_WRITE || ph->id == AB_PHASE_PER_CHAR_WRITE)
			s->io_from_layout = FALSE;
	}
	/* The test file stays, its name claimed, until the run ends
	 * (ab_run_dir_finish): the next repeat's write phase makes it anew. */
	s->run_dir = own;
	drop_file_set(files_home, seq);
	drop_file_set(files_home, rnd);
	return ok;
}
