/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep step: every cell of the grid, every test asked for,
 * each a timed run of the sweep phase with the cache made what the cell
 * says it was. */
#include "sweep-run.h"
#include "error.h"
#include "residency.h"
#include "rng.h"
#include "sweep-grid.h"
#include "../workloads/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The test file, opened by the parent: never following a link, never
 * blocking, and only the regular file with one link of the user who makes
 * it, as the workers check (with -u its directory is the user's, who could
 * put a hard link to another file by that name between two cells: root
 * would then truncate that file at the end). */
static int open_io(const struct ab_suite *s, int flags, GError **error)
{
	int fd = openat(s->run_dir->dir_fd, s->run_dir->io_name, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    st.st_uid == s->run_dir->io_owner)
		return fd;
	int e = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (e)
		ab_set_error_errno(error, AB_ERROR_PHASE, e, "cannot open '%s'", s->run_dir->io_path);
	else
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "cannot use '%s': not the regular file, with one link, the run made",
			    s->run_dir->io_path);
	return -1;
}

/* Untimed, before a cold read test: the file's dirty pages written back,
 * then all of its pages dropped.  Only this file's: it needs no root and
 * leaves the rest of the machine's cache alone. */
static gboolean evict(const struct ab_suite *s, GError **error)
{
	int fd = open_io(s, O_RDONLY, error);
	if (fd < 0)
		return FALSE;
	gboolean ok = TRUE;
	if (fdatasync(fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "cannot write back '%s'", s->run_dir->io_path);
		ok = FALSE;
	} else if ((errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "cannot evict '%s'", s->run_dir->io_path);
		ok = FALSE;
	}
	close(fd);
	return ok;
}

static double resident_share(const struct ab_suite *s, uint64_t file_size)
{
	int fd = open_io(s, O_RDONLY, NULL);
	double share = ab_file_resident_share(fd, file_size);
	if (fd >= 0)
		close(fd);
	return share;
}

/* After the sweep the file is emptied: its blocks go back to the file
 * system, and a later read phase never takes the sweep's file for its own. */
static void empty_file(const struct ab_suite *s)
{
	int fd = open_io(s, O_WRONLY, NULL);
	if (fd >= 0) {
		if (ftruncate(fd, 0) != 0) {
			/* Nothing to do: the file goes when the run ends. */
		}
		close(fd);
	}
}

/* The largest file must fit: a sweep that fails with ENOSPC after an
 * hour of cells helps no one. */
static gboolean check_space(const struct ab_suite *s, const GArray *cells, uint64_t streams, GError **error)
{
	uint64_t largest = 0;
	for (guint i = 0; i < cells->len; i++)
		largest = MAX(largest, g_array_index(cells, struct ab_sweep_cell, i).file_size);
	struct statvfs vfs;
	/* Cannot tell (ramfs counts no blocks at all, so none free): the
	 * write will say. */
	if (fstatvfs(s->run_dir->dir_fd, &vfs) != 0 || vfs.f_blocks == 0)
		return TRUE;
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	/* What an earlier phase left in the test file is freed by the
	 * sweep's first write, which truncates it. */
	struct stat st;
	if (fstatat(s->run_dir->dir_fd, s->run_dir->io_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		free_bytes += (uint64_t)st.st_blocks * 512;
	uint64_t need = largest * streams;
	if (need / streams != largest || need > free_bytes) {
		g_autofree char *dir = ab_one_line(s->run_dir->dir);
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "the sweep's largest file needs %" G_GUINT64_FORMAT " MiB in '%s', which has %" G_GUINT64_FORMAT
			    " MiB free: give smaller --sweep-file-sizes",
			    (need + AB_MIB - 1) / AB_MIB, dir, free_bytes / AB_MIB); /* never "needs 0 MiB" */
		return FALSE;
	}
	return TRUE;
}

static void describe_cache(const struct ab_suite *s, const struct ab_sweep_test_info *ti, gboolean cold,
			   gboolean direct, struct ab_result *res)
{
	const char *how;
	if (direct && (ti->flags & AB_SWEEP_READS)) {
		/* Even reread: O_DIRECT reads come from the device. */
		how = "cold: O_DIRECT bypasses the page cache";
		cold = TRUE;
	} else if (cold)
		how = "cold: the test file was written back and evicted (fsync, posix_fadvise DONTNEED) before the test";
	else if (ti->flags & AB_SWEEP_WARM)
		how = ti->after == AB_SWEEP_FREAD ? "warm by definition: it re-reads what fread just read"
						  : "warm by definition: it re-reads what read just read";
	else if (ti->flags & AB_SWEEP_READS)
		how = "warm: --cache none evicts nothing";
	else
		how = "warm: nothing is evicted before a write test";
	(void)s;
	g_free(res->cache_state);
	g_free(res->cache_mode);
	res->cache_state = g_strdup(cold ? "cold" : "warm");
	res->cache_mode = g_strdup(how);
}

static uint64_t test_seed(uint64_t seed, guint cell, unsigned test)
{
	uint64_t st = seed ^ ((uint64_t)cell << 20) ^ ((uint64_t)test << 52);
	return ab_rng_splitmix(&st);
}

/* One test of one cell, timed, into the run. */
static gboolean run_test(struct ab_suite *s, struct ab_runner *r, const struct ab_step *cell_step, unsigned t,
			 uint64_t seed, gboolean laid_out, struct ab_run *run, GError **error)
{
	const struct ab_sweep_test_info *ti = ab_sweep_test_info(t);
	struct ab_step st = *cell_step;
	st.sweep_test = t;
	gboolean cold = (ti->flags & AB_SWEEP_READS) && !(ti->flags & AB_SWEEP_WARM) && s->cfg->cache != AB_CACHE_NONE;
	if (cold && !evict(s, error))
		return FALSE;
	g_autoptr(ab_result) res = ab_result_new(st.phase->name);
	/* A test that makes the file anew truncates it first: what was cached
	 * before says nothing about it. */
	if (!(ti->flags & AB_SWEEP_CREATES))
		res->resident_at_start = resident_share(s, st.file_size);
	if (!ab_runner_run_step(r, &st, seed, res, error)) {
		g_prefix_error(error, "sweep cell %" G_GUINT64_FORMAT "k/%" G_GUINT64_FORMAT "k, test '%s': ",
			       st.file_size / 1024, (uint64_t)st.io_chunk / 1024, ti->name);
		return FALSE;
	}
	gboolean direct = st.direct && !(ti->flags & AB_SWEEP_STDIO);
	describe_cache(s, ti, cold, direct, res);
	res->key.file_size = st.file_size;
	res->key.record_size = st.io_chunk;
	res->key.streams = st.streams;
	res->key.test = g_strdup(ti->name);
	res->timed = ab_sweep_timed_calls(t, st.sweep_timing);
	g_free(res->sync_mode);
	res->sync_mode = g_strdup(ab_sweep_timing_name(st.sweep_timing));
	res->direct = direct; /* stdio cannot pass O_DIRECT */
	res->laid_out_untimed = !(ti->flags & AB_SWEEP_CREATES) && laid_out;
	ab_run_add_result(run, g_steal_pointer(&res));
	return TRUE;
}

gboolean ab_sweep_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		      struct ab_run *run, GError **error)
{
	g_autoptr(GArray) cells = ab_sweep_grid_cells(step->sweep_grid);
	if (!check_space(s, cells, step->streams ? step->streams : 1, error))
		return FALSE;
	gboolean ok = TRUE;
	for (guint c = 0; ok && c < cells->len; c++) {
		const struct ab_sweep_cell *cell = &g_array_index(cells, struct ab_sweep_cell, c);
		struct ab_step cs = *step;
		cs.file_size = cell->file_size;
		cs.io_chunk = (uint32_t)cell->record;
		if (s->progress) {
			fprintf(s->progress, "arraybench: sweep file %" G_GUINT64_FORMAT "k, records %" G_GUINT64_FORMAT
				"k (cell %u of %u)...", cell->file_size / 1024, cell->record / 1024, c + 1, cells->len);
			fflush(s->progress);
		}
		/* The file at this cell's size: written by the cell's write or
		 * fwrite, or laid out untimed before the first test that needs it. */
		gboolean have_file = FALSE, laid_out = FALSE;
		for (unsigned t = 0; ok && t < AB_SWEEP_TEST_COUNT; t++) {
			if (!(step->sweep_tests & (1u << t)))
				continue;
			const struct ab_sweep_test_info *ti = ab_sweep_test_info(t);
			uint64_t ts = test_seed(seed, c, t);
			if (!(ti->flags & AB_SWEEP_CREATES) && !have_file) {
				struct ab_step lay = cs;
				lay.sweep_test = AB_SWEEP_WRITE;
				lay.sweep_timing = AB_SWEEP_TIME_FSYNC;
				lay.direct = FALSE;
				g_autoptr(ab_result) scratch = ab_result_new(step->phase->name);
				ok = ab_runner_run_step(r, &lay, ts ^ 1, scratch, error);
				laid_out = TRUE;
			}
			have_file = TRUE;
			if (ok)
				ok = run_test(s, r, &cs, t, ts, laid_out, run, error);
		}
		if (s->progress) {
			fprintf(s->progress, ok ? " done\n" : " failed\n");
			fflush(s->progress);
		}
	}
	empty_file(s);
	return ok;
}
