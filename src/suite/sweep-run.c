/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep step: every cell of the grid, every test asked for,
 * each a timed run of the sweep phase with the cache made what the cell
 * says it was. */
#include "sweep-run.h"
#include "../options/sweep-options.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "step-files.h"
#include "../options/sweep-grid.h"
#include "../../workloads/sweep.h"
#include "../base/cluster.h"
#include "../base/timing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The files of a cell: the run's test file, and for more than one file
 * (streams x files per stream, without --shared-file) stream.1... in the
 * run directory, numbered as the workers number them (workloads/sweep.c). */
struct cell_files {
	unsigned count;
	uid_t owner;         /* who makes the files: the run's user or -u USER */
	uint64_t read_bytes; /* what a test reads of each: the cell's size, or all
			      * the streams' regions of a shared file */
	int *dir_fd;
	char **name;
	char **path;
};

/* Do the cell's streams work in regions of the one test file? */
static gboolean shares_file(const struct ab_step *cs)
{
	return cs->shared_file && cs->streams > 1;
}

static unsigned cell_file_count(const struct ab_step *cs)
{
	uint64_t files = cs->files_per_stream ? cs->files_per_stream : 1;
	return shares_file(cs) ? 1 : (unsigned)(cs->streams * files);
}

static void cell_files_init(struct cell_files *cf, const struct ab_suite *s, unsigned count)
{
	cf->count = count;
	cf->owner = s->run_dir->io_owner;
	cf->dir_fd = g_new(int, count);
	cf->name = g_new0(char *, count + 1);
	cf->path = g_new0(char *, count + 1);
	for (unsigned k = 0; k < count; k++) {
		if (k == 0) {
			cf->dir_fd[k] = s->run_dir->dir_fd;
			cf->name[k] = g_strdup(s->run_dir->io_name);
			cf->path[k] = g_strdup(s->run_dir->io_path);
		} else {
			cf->dir_fd[k] = s->run_dir->fd;
			cf->name[k] = g_strdup_printf(AB_STREAM_FILE_FMT, k);
			cf->path[k] = g_strdup_printf("%s/%s", s->run_dir->path, cf->name[k]);
		}
	}
}

static void cell_files_clear(struct cell_files *cf)
{
	g_free(cf->dir_fd);
	g_strfreev(cf->name);
	g_strfreev(cf->path);
	memset(cf, 0, sizeof(*cf));
}

/* Untimed, before a cold read test: the cell's files written back and
 * evicted.  Each is opened as src/suite/step-files.h opens the run's files: with
 * -u their directory is the user's, who could put a hard link to another
 * file by that name between two cells (root would then truncate that file
 * at the end). */
static gboolean evict(const struct cell_files *cf, GError **error)
{
	for (unsigned k = 0; k < cf->count; k++)
		if (!ab_step_files_evict(cf->dir_fd[k], cf->name[k], cf->path[k], cf->owner, error))
			return FALSE;
	return TRUE;
}

/* The share of the cell's bytes in the page cache, over all its files. */
static double resident_share(const struct cell_files *cf)
{
	double cached = 0, total = 0;
	for (unsigned k = 0; k < cf->count; k++) {
		double weight = 0;
		double share = ab_step_files_share(cf->dir_fd[k], cf->name[k], cf->path[k], cf->owner, cf->read_bytes,
						   &weight);
		if (isnan(share))
			return NAN;
		cached += share * weight;
		total += weight;
	}
	return total > 0 ? cached / total : NAN;
}

/* Empties the cell's files: after the sweep, so their blocks go back to the
 * file system and no later read phase takes the sweep's file for its own;
 * and before a creating test on a shared file, which no worker may
 * truncate under the others. */
static gboolean empty_files(const struct cell_files *cf, GError **error)
{
	for (unsigned k = 0; k < cf->count; k++)
		if (!ab_step_files_empty(cf->dir_fd[k], cf->name[k], cf->path[k], cf->owner, error))
			return FALSE;
	return TRUE;
}

/* The largest cell must fit: a sweep that fails with ENOSPC after an hour
 * of cells helps no one.  Each stream has `files` files (or regions) of the
 * cell's size. */
static gboolean check_space(const struct ab_suite *s, const GArray *cells, uint64_t files, GError **error)
{
	uint64_t largest = 0;
	for (guint i = 0; i < cells->len; i++)
		largest = MAX(largest, g_array_index(cells, struct ab_sweep_cell, i).file_size);
	uint64_t free_bytes;
	if (!ab_step_files_room(s, TRUE, &free_bytes))
		return TRUE;
	uint64_t need = largest * files, streams = files;
	if (need / files != largest || need > free_bytes) {
		g_autofree char *dir = ab_one_line(s->run_dir->dir);
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "the sweep's largest cell needs %" G_GUINT64_FORMAT " MiB in '%s' (%" G_GUINT64_FORMAT
			    " file%s of %" G_GUINT64_FORMAT " MiB), which has %" G_GUINT64_FORMAT
			    " MiB free: give smaller --sweep-file-sizes, fewer --streams or --sweep-files",
			    (need + AB_MIB - 1) / AB_MIB, dir, streams, streams == 1 ? "" : "s", (largest + AB_MIB - 1) / AB_MIB,
			    free_bytes / AB_MIB); /* never "needs 0 MiB" */
		return FALSE;
	}
	return TRUE;
}

static void describe_cache(const struct ab_sweep_test_info *ti, gboolean cold, gboolean direct,
			   struct ab_result *res)
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
	g_free(res->cache_state);
	g_free(res->cache_mode);
	res->cache_state = g_strdup(cold ? "cold" : "warm");
	res->cache_mode = g_strdup(how);
}

/* What a cell's tests carry from one to the next under a deadline
 * (--stonewall-time): the bytes each of this rank's streams wrote in the
 * last creating test (NULL until a creating test ran with a deadline:
 * every file whole), and the test-only delays. */
struct cell_carry {
	uint64_t *written;
	uint32_t *delay_us;
	unsigned streams;
};

/* A creating test's samples: this rank's streams' counts (every rank's
 * samples come in rank order, `n` each). */
static void note_written(const struct ab_sample *samples, unsigned n, unsigned ranks, void *data)
{
	struct cell_carry *cc = data;
	unsigned me = ranks > 1 ? ab_cluster_get()->rank : 0;
	for (unsigned i = 0; i < n && i < cc->streams; i++)
		cc->written[i] = samples[(size_t)me * n + i].bytes;
}

/*
 * Test-only: ARRAYBENCH_TEST_STREAM_DELAY_US="K:US[,K:US...]" makes stream
 * K of the cell (numbered across ranks as the results' per_worker rows
 * are: rank x streams + worker; "*" for every stream) sleep US
 * microseconds after each record it writes (reads run as they do), a disk
 * slow to write made to order for the tests of
 * --stonewall-time and --wearout (tests/integration/t1013, t7005).  NULL
 * when unset or naming none of this rank's streams.
 */
static uint32_t *test_delays(unsigned streams)
{
	const char *list = g_getenv("ARRAYBENCH_TEST_STREAM_DELAY_US");
	if (!list || !*list)
		return NULL;
	struct ab_cluster *cl = ab_cluster_get();
	uint32_t *delay = g_new0(uint32_t, streams);
	gboolean any = FALSE;
	g_auto(GStrv) items = g_strsplit(list, ",", -1);
	for (char **it = items; *it; it++) {
		char *colon = strchr(*it, ':');
		if (!colon)
			continue;
		*colon = '\0';
		uint32_t us = (uint32_t)MIN(g_ascii_strtoull(colon + 1, NULL, 10), 10000000u);
		for (unsigned w = 0; w < streams; w++)
			if (strcmp(*it, "*") == 0 ||
			    g_ascii_strtoull(*it, NULL, 10) == (uint64_t)cl->rank * streams + w) {
				delay[w] = us;
				any = TRUE;
			}
	}
	if (!any)
		g_clear_pointer(&delay, g_free);
	return delay;
}

static uint64_t test_seed(uint64_t seed, uint64_t streams, guint cell, unsigned test)
{
	uint64_t st = seed ^ ((uint64_t)cell << 20) ^ ((uint64_t)test << 52) ^ (streams << 40);
	return ab_rng_splitmix(&st);
}

/* One test of one cell, timed, into the run. */
static gboolean run_test(struct ab_suite *s, struct ab_runner *r, const struct cell_files *cf,
			 const struct ab_step *cell_step, unsigned t, uint64_t seed, gboolean laid_out,
			 struct cell_carry *cc, struct ab_run *run, GError **error)
{
	const struct ab_sweep_test_info *ti = ab_sweep_test_info(t);
	struct ab_step st = *cell_step;
	st.sweep_test = t;
	gboolean creates = (ti->flags & AB_SWEEP_CREATES) != 0;
	/* A creating test makes the files anew: whole, unless its own
	 * deadline cuts it (then what it wrote is carried on). */
	if (creates)
		g_clear_pointer(&cc->written, g_free);
	st.stream_written = cc->written;
	st.test_stream_delay_us = cc->delay_us;
	gboolean cold = (ti->flags & AB_SWEEP_READS) && !(ti->flags & AB_SWEEP_WARM) && s->cfg->cache != AB_CACHE_NONE;
	if (cold && !evict(cf, error))
		return FALSE;
	/* No worker may truncate a shared file under the others. */
	if ((ti->flags & AB_SWEEP_CREATES) && shares_file(&st) && !empty_files(cf, error))
		return FALSE;
	g_autoptr(ab_result) res = ab_result_new(st.phase->name);
	/* A test that makes the file anew truncates it first: what was cached
	 * before says nothing about it. */
	if (!(ti->flags & AB_SWEEP_CREATES))
		res->resident_at_start = resident_share(cf);
	if (creates && st.stonewall_ns)
		cc->written = g_new0(uint64_t, cc->streams);
	if (!ab_runner_run_step_samples(r, &st, seed, res, creates && st.stonewall_ns ? note_written : NULL, cc,
					error)) {
		g_prefix_error(error, "sweep cell %" G_GUINT64_FORMAT "k/%" G_GUINT64_FORMAT "k, test '%s'%s: ",
			       st.file_size / 1024, (uint64_t)st.io_chunk / 1024, ti->name,
			       st.streams > 1 ? ", several streams" : "");
		return FALSE;
	}
	gboolean direct = st.direct && !(ti->flags & AB_SWEEP_STDIO);
	describe_cache(ti, cold, direct, res);
	res->key.file_size = st.file_size;
	res->key.record_size = st.io_chunk;
	res->key.streams = st.streams;
	res->key.test = g_strdup(ti->name);
	res->timed = ab_sweep_timed_calls(t, st.sweep_timing);
	g_free(res->sync_mode);
	res->sync_mode = g_strdup(ab_sweep_timing_name(st.sweep_timing));
	res->direct = direct; /* stdio cannot pass O_DIRECT */
	res->laid_out_untimed = !(ti->flags & AB_SWEEP_CREATES) && laid_out;
	res->stonewall_time_s = (double)st.stonewall_ns / AB_NS_PER_SEC;
	res->wearout = st.stonewall_ns && st.wearout;
	ab_run_add_result(run, g_steal_pointer(&res));
	return TRUE;
}

/* Every test asked for of one cell with `streams` workers. */
static gboolean run_cell(struct ab_suite *s, struct ab_runner *r, const struct cell_files *cf,
			 const struct ab_step *cs, guint c, uint64_t seed, struct ab_run *run, GError **error)
{
	/* The file at this cell's size: written by the cell's write or fwrite,
	 * or laid out untimed before the first test that needs it. */
	gboolean have_file = FALSE, laid_out = FALSE, ok = TRUE;
	struct cell_carry cc = { .streams = (unsigned)cs->streams, .delay_us = test_delays((unsigned)cs->streams) };
	for (unsigned t = 0; ok && t < AB_SWEEP_TEST_COUNT; t++) {
		if (!(cs->sweep_tests & (1u << t)))
			continue;
		const struct ab_sweep_test_info *ti = ab_sweep_test_info(t);
		uint64_t ts = test_seed(seed, cs->streams, c, t);
		if (!(ti->flags & AB_SWEEP_CREATES) && !have_file) {
			struct ab_step lay = *cs;
			lay.sweep_test = AB_SWEEP_WRITE;
			lay.sweep_timing = AB_SWEEP_TIME_FSYNC;
			lay.direct = FALSE;
			/* Untimed: whole files, no deadline, at full speed. */
			lay.stonewall_ns = 0;
			lay.wearout = FALSE;
			g_autoptr(ab_result) scratch = ab_result_new(cs->phase->name);
			if ((shares_file(&lay) && !empty_files(cf, error)) ||
			    !ab_runner_run_step(r, &lay, ts ^ 1, scratch, error)) {
				ok = FALSE;
				break;
			}
			laid_out = TRUE;
		}
		have_file = TRUE;
		ok = run_test(s, r, cf, cs, t, ts, laid_out, &cc, run, error);
	}
	g_free(cc.written);
	g_free(cc.delay_us);
	return ok;
}


gboolean ab_sweep_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		      struct ab_run *run, GError **error)
{
	g_autoptr(GArray) cells = ab_sweep_grid_cells(step->sweep_grid);
	/* One pass over the grid per stream count (iozone -l/-u). */
	uint64_t one = step->streams ? step->streams : 1;
	const uint64_t *counts = step->stream_counts && step->stream_counts->len
					 ? (const uint64_t *)(const void *)step->stream_counts->data : &one;
	guint ncounts = step->stream_counts && step->stream_counts->len ? step->stream_counts->len : 1;
	uint64_t most = MAX(one, ab_most_streams(step->stream_counts));
	if (!check_space(s, cells, most * (step->files_per_stream ? step->files_per_stream : 1), error))
		return FALSE;
	gboolean ok = TRUE;
	struct cell_files cf = { 0 };
	for (guint i = 0; ok && i < ncounts; i++) {
		struct ab_step cs = *step;
		cs.streams = counts[i];
		cell_files_clear(&cf);
		cell_files_init(&cf, s, cell_file_count(&cs));
		if (cf.count > 1 && !ab_run_dir_make_stream_files(s->run_dir, cf.count, error)) {
			ok = FALSE;
			break;
		}
		for (guint c = 0; ok && c < cells->len; c++) {
			const struct ab_sweep_cell *cell = &g_array_index(cells, struct ab_sweep_cell, c);
			cs.file_size = cell->file_size;
			cs.io_chunk = (uint32_t)cell->record;
			cf.read_bytes = shares_file(&cs) ? cs.streams * cs.file_size : cs.file_size;
			g_autofree char *streams = ncounts > 1 || cs.streams > 1
				? g_strdup_printf(", %" G_GUINT64_FORMAT " stream%s", cs.streams, cs.streams == 1 ? "" : "s")
				: g_strdup("");
			g_autofree char *detail = g_strdup_printf("file %" G_GUINT64_FORMAT "k, records %" G_GUINT64_FORMAT
								  "k%s (cell %u of %u)", cell->file_size / 1024,
								  cell->record / 1024, streams, c + 1, cells->len);
			/* Its tests' rates are in the table; the line says it ended. */
			ab_progress_phase_begin(step->phase->name, detail, NULL);
			ok = run_cell(s, r, &cf, &cs, c, seed, run, error);
			ab_progress_phase_end(ok, NAN);
		}
		/* Their blocks back to the file system; the files stay (named)
		 * until the run directory goes. */
		empty_files(&cf, NULL);
	}
	cell_files_clear(&cf);
	/* It leaves the test file empty. */
	s->io_from_layout = FALSE;
	return ok;
}

const struct ab_phase_driver ab_sweep_driver = {
	.phase_id = AB_PHASE_SWEEP,
	.run = ab_sweep_run,
};
