/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Defaults and cross-checks for struct ab_config. */
#include "config.h"
#include "run-options.h"
#include "steps.h"
#include "error.h"
#include "rng.h"
#include "run.h"
#include "../workloads/oltp.h"
#include "../workloads/phase.h"
#include "../workloads/sweep.h"
#include "../workloads/wal.h"
#include "../workloads/curve-math.h"

#include <string.h>
#include <unistd.h>

void ab_config_init(struct ab_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->io_chunk = AB_DEFAULT_CHUNK;
	cfg->seeks = AB_DEFAULT_SEEKS;
	cfg->seekers = AB_DEFAULT_SEEKERS;
	cfg->num_files = AB_DEFAULT_NUM_FILES;
	cfg->num_dirs = 1;
	cfg->file_chunk = AB_DEFAULT_CHUNK;
	cfg->repeats = 1;
	cfg->byte_io_size = UINT64_MAX; /* "not given" until finished */
	cfg->per_char = AB_PER_CHAR_SYSCALL;
	cfg->data = AB_DATA_RANDOM;
	cfg->cache = AB_CACHE_AUTO;
	cfg->sweep_tests = AB_SWEEP_ALL_TESTS;
	cfg->stride = AB_DEFAULT_STRIDE;
	cfg->oltp_block = AB_OLTP_DEFAULT_BLOCK;
	cfg->oltp_read_pct = AB_OLTP_DEFAULT_READ_PCT;
	cfg->oltp_seconds = AB_OLTP_DEFAULT_SECONDS;
	cfg->curve_procs = AB_CURVE_DEFAULT_PROCS;
	cfg->curve_block = AB_CURVE_DEFAULT_BLOCK;
	cfg->curve_read_pct = AB_CURVE_DEFAULT_READ_PCT;
	cfg->rate_start = AB_CURVE_DEFAULT_RATE_START;
	cfg->rate_factor = AB_CURVE_DEFAULT_RATE_FACTOR;
	cfg->curve_seconds = AB_CURVE_DEFAULT_SECONDS;
	cfg->p99_target_ns = AB_CURVE_DEFAULT_P99_TARGET_NS;
	cfg->curve_steps = AB_CURVE_DEFAULT_STEPS;
}

void ab_config_clear(struct ab_config *cfg)
{
	g_free(cfg->dir);
	g_free(cfg->machine_name);
	g_free(cfg->csv_path);
	g_free(cfg->json_path);
	g_free(cfg->size_text);
	g_free(cfg->files_text);
	g_free(cfg->sweep_csv_path);
	ab_sweep_grid_clear(&cfg->sweep_grid);
	if (cfg->stream_counts)
		g_array_unref(cfg->stream_counts);
	if (cfg->wal_syncs)
		g_array_unref(cfg->wal_syncs);
	if (cfg->wal_commits)
		g_array_unref(cfg->wal_commits);
	if (cfg->oltp_proc_counts)
		g_array_unref(cfg->oltp_proc_counts);
	ab_target_spec_clear(&cfg->target);
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	if (cfg->steps)
		g_array_unref(cfg->steps);
	g_free(cfg->workload);
	g_free(cfg->step_where);
	if (cfg->step_configs)
		g_ptr_array_unref(cfg->step_configs);
	memset(cfg, 0, sizeof(*cfg));
}

void ab_config_free(gpointer cfg)
{
	ab_config_clear(cfg);
	g_free(cfg);
}

const char *ab_cache_mode_name(enum ab_cache_mode mode)
{
	switch (mode) {
	case AB_CACHE_CGROUP: return "cgroup";
	case AB_CACHE_DROP: return "drop";
	case AB_CACHE_NONE: return "none";
	case AB_CACHE_REMOUNT: return "remount";
	case AB_CACHE_FADVISE: return "fadvise";
	case AB_CACHE_AUTO: break;
	}
	return "auto";
}

const char *ab_per_char_mode_name(enum ab_per_char_mode mode)
{
	return mode == AB_PER_CHAR_STDIO ? "stdio" : "syscall";
}

const char *ab_data_mode_name(enum ab_data_mode mode)
{
	return mode == AB_DATA_ZEROS ? "zeros" : "random";
}

static char *default_machine_name(void)
{
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) != 0 || !*host)
		g_strlcpy(host, "localhost", sizeof(host));
	host[64] = '\0';
	for (char *p = host; *p; p++)
		if (*p == ',' || !g_ascii_isgraph(*p))
			*p = '_';
	return g_strdup(host);
}

/* bonnie++'s default: twice RAM but at least 300 MiB, rounded up to a whole
 * GiB only when the remainder is over half a GiB. */
static uint64_t default_file_size_mib(uint64_t ram_mib)
{
	if (ram_mib == 0)
		return 300;
	uint64_t mib = MAX(300, 2 * ram_mib);
	if (mib % 1024 > 512)
		mib += 1024 - mib % 1024;
	return mib;
}

uint64_t ab_config_effective_ram_mib(const struct ab_config *cfg, uint64_t physical_ram_bytes)
{
	if (cfg->ram_given)
		return cfg->ram_mib;
	if (cfg->cache == AB_CACHE_CGROUP)
		return AB_CGROUP_DEFAULT_RAM_MIB;
	return physical_ram_bytes / AB_MIB;
}

/* Only remedies that the checks would then accept. */
static char *cache_hint(const struct ab_config *cfg, uint64_t ram_mib)
{
	uint64_t max_r = cfg->file_size / AB_MIB / 2;
	gboolean cgroup_r_ok = max_r >= AB_CGROUP_MIN_RAM_MIB;
	if (cfg->cache == AB_CACHE_CGROUP)
		return cgroup_r_ok ? g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more, or -r %" G_GUINT64_FORMAT
						     " or less", 2 * ram_mib, max_r)
				   : g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more", 2 * ram_mib);
	g_autofree char *cgroup = cfg->cgroup_available && cgroup_r_ok
					  ? g_strdup_printf(", --cache cgroup -r %" G_GUINT64_FORMAT, max_r)
					  : g_strdup("");
	return g_strdup_printf("use -s %" G_GUINT64_FORMAT "m or more%s, or -r 0 to accept cached results",
			       2 * ram_mib, cgroup);
}

/* Can phase ph run with these sizes?  If not, why not. */
static const char *phase_blocked(const struct ab_config *cfg, const struct ab_phase *ph)
{
	if ((ph->flags & AB_PHASE_FILES) && !cfg->num_files)
		return "-n 0 skips the file phases";
	if ((ph->flags & AB_PHASE_IO) && !cfg->file_size &&
	    !((ph->id == AB_PHASE_OLTP || ph->id == AB_PHASE_OLTP_WAL) && cfg->oltp_size))
		return "-s 0 skips the I/O phases";
	if ((ph->flags & AB_PHASE_PER_CHAR) && !cfg->byte_io_size)
		return "-f skips the per-char phases";
	return NULL;
}

/* The phases to run, in order: those asked for (each must be able to run),
 * or every phase the sizes allow, in bonnie++'s order. */
static gboolean check_phases(struct ab_config *cfg, GError **error)
{
	if (cfg->phases_given) {
		for (guint i = 0; i < cfg->phase_ids->len; i++) {
			const struct ab_phase *ph = ab_phase_by_id(g_array_index(cfg->phase_ids, unsigned, i));
			const char *why = phase_blocked(cfg, ph);
			if (why) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "phase '%s' cannot run: %s", ph->name, why);
				return FALSE;
			}
		}
		return TRUE;
	}
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	cfg->phase_ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		if (!phase_blocked(cfg, ab_phase_by_id(id)))
			g_array_append_val(cfg->phase_ids, id);
	if (!cfg->phase_ids->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "nothing to run: both -s 0 and -n 0");
		return FALSE;
	}
	return TRUE;
}

static gboolean asks_for(const struct ab_config *cfg, unsigned flags, unsigned id)
{
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++) {
		unsigned p = g_array_index(cfg->phase_ids, unsigned, i);
		if (p == id || (ab_phase_by_id(p)->flags & flags))
			return TRUE;
	}
	return FALSE;
}

/* Does another step of the profile ask for phase id?  Then an option of
 * phase `family` (wal's for oltp+wal too), given on the command line or in
 * [workload] for every step, is for it; one the step's own keys gave is
 * this step's mistake. */
static gboolean some_step_asks_for(const struct ab_config *cfg, unsigned id)
{
	return (cfg->workload_phases >> id) & 1u;
}

static gboolean another_step_asks_for(const struct ab_config *cfg, unsigned family, unsigned id)
{
	return !(cfg->step_own_phase_options & (1u << family)) && some_step_asks_for(cfg, id);
}

/* The first option of a phase family given, for the message when that
 * phase does not run (src/run-options.c: one rule for every family). */
static const char *sweep_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_SWEEP);
}

static const char *wal_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_WAL);
}

G_STATIC_ASSERT(AB_PHASE_ID_COUNT <= 32); /* a bit per phase id */

uint32_t ab_config_phase_options(const struct ab_config *cfg)
{
	return (sweep_option_given(cfg) ? 1u << AB_PHASE_SWEEP : 0) | (wal_option_given(cfg) ? 1u << AB_PHASE_WAL : 0) |
	       (ab_run_option_given(cfg, AB_OPTION_OLTP) ? 1u << AB_PHASE_OLTP : 0) |
	       (ab_run_option_given(cfg, AB_OPTION_CURVE) ? 1u << AB_PHASE_LATENCY_CURVE : 0);
}

/* random-read and random-write hold their order, 8 bytes per record of
 * the file, in each worker (1 TiB in 4 KiB records: 2 GiB), untimed: over
 * half the RAM it would swap or be killed rather than measure the disk. */
static gboolean check_sweep_order(const struct ab_config *cfg, const GArray *cells, uint64_t streams,
				  uint64_t physical_ram_bytes, GError **error)
{
	const uint32_t random = (1u << AB_SWEEP_RANDOM_READ) | (1u << AB_SWEEP_RANDOM_WRITE);
	if (!(cfg->sweep_tests & random) || !physical_ram_bytes)
		return TRUE;
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_sweep_cell *c = &g_array_index(cells, struct ab_sweep_cell, i);
		/* Each stream holds its own. */
		uint64_t order = c->file_size / c->record * sizeof(uint64_t) * streams;
		if (order > physical_ram_bytes / 2) {
			g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
				    "sweep cell %" G_GUINT64_FORMAT "k/%" G_GUINT64_FORMAT "k: its random tests need %"
				    G_GUINT64_FORMAT " MiB for their order of records, over half the RAM (%"
				    G_GUINT64_FORMAT " MiB): give larger --sweep-records, or --sweep-tests without "
				    "random-read and random-write",
				    c->file_size / 1024, c->record / 1024, order / AB_MIB, physical_ram_bytes / AB_MIB);
			return FALSE;
		}
	}
	return TRUE;
}

/* The sweep's grid (iozone -a's where no list was given), its tests and
 * its timing rule. */
static gboolean finish_sweep(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t *results_out,
			     GError **error)
{
	*results_out = cfg->phase_ids->len;
	if (!asks_for(cfg, 0, AB_PHASE_SWEEP)) {
		const char *opt = sweep_option_given(cfg);
		if (opt && !another_step_asks_for(cfg, AB_PHASE_SWEEP, AB_PHASE_SWEEP)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s applies to the record-size sweep, which is not asked for (--phases sweep)", opt);
			return FALSE;
		}
		return TRUE;
	}
	if (cfg->untimed_flush && (cfg->include_fsync || cfg->include_close)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--untimed-flush contradicts --include-%s",
			    cfg->include_fsync ? "fsync" : "close");
		return FALSE;
	}
	for (unsigned t = 0; t < AB_SWEEP_TEST_COUNT; t++) {
		const struct ab_sweep_test_info *ti = ab_sweep_test_info(t);
		if ((cfg->sweep_tests & (1u << t)) && ti->after >= 0 && !(cfg->sweep_tests & (1u << ti->after))) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --sweep-tests: '%s' re-reads what '%s' just read; ask for both", ti->name,
				    ab_sweep_test_info(ti->after)->name);
			return FALSE;
		}
	}
	if (cfg->shared_file && !cfg->stream_counts) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--shared-file needs --streams: one stream has a file of its own");
		return FALSE;
	}
	uint64_t most = ab_most_streams(cfg->stream_counts);
	uint64_t files = cfg->files_per_stream ? cfg->files_per_stream : 1;
	if (most * files > AB_MAX_SWEEP_FILES) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--streams %" G_GUINT64_FORMAT " with --sweep-files %" G_GUINT64_FORMAT
			    " makes %" G_GUINT64_FORMAT " files a cell, more than %u",
			    most, files, most * files, AB_MAX_SWEEP_FILES);
		return FALSE;
	}
	struct ab_sweep_grid def = { 0 };
	ab_sweep_grid_default(&def);
	if (!cfg->sweep_grid.file_sizes)
		cfg->sweep_grid.file_sizes = g_steal_pointer(&def.file_sizes);
	if (!cfg->sweep_grid.records)
		cfg->sweep_grid.records = g_steal_pointer(&def.records);
	ab_sweep_grid_clear(&def);
	uint64_t smallest = g_array_index(cfg->sweep_grid.records, uint64_t, 0);
	if (cfg->direct && smallest < 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --sweep-records with --direct: a %" G_GUINT64_FORMAT
			    "-byte record is below O_DIRECT's 4k", smallest);
		return FALSE;
	}
	g_autoptr(GArray) cells = ab_sweep_grid_cells(&cfg->sweep_grid);
	if (!cells->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the sweep has no cell: no record fits a whole number of times in a file size");
		return FALSE;
	}
	/* One result per test of each cell, in one JSON line: more than the
	 * reader takes would be a run that report refuses. */
	guint sweeps = 0;
	int tests = __builtin_popcount(cfg->sweep_tests);
	for (guint i = 0; i < cfg->phase_ids->len; i++)
		sweeps += g_array_index(cfg->phase_ids, unsigned, i) == AB_PHASE_SWEEP;
	/* A pass of the grid per --streams count. */
	uint64_t passes = cfg->stream_counts ? cfg->stream_counts->len : 1;
	uint64_t results = (uint64_t)sweeps * passes * cells->len * (uint64_t)tests +
			   (cfg->phase_ids->len - sweeps);
	if (results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the sweep makes %" G_GUINT64_FORMAT " results (%u cells x %d tests x %" G_GUINT64_FORMAT
			    " stream counts), more than the %d one run holds: give fewer --sweep-file-sizes, "
			    "--sweep-records, --sweep-tests or --streams",
			    results, cells->len, tests, passes, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	*results_out = results;
	return check_sweep_order(cfg, cells, most, physical_ram_bytes, error);
}

/* The wal phase: its options only with it, its defaults, and its results
 * (one per method and commit size) added to `results`. */
static gboolean finish_wal(struct ab_config *cfg, uint64_t *results, GError **error)
{
	const char *given = wal_option_given(cfg);
	guint wals = 0;
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		wals += g_array_index(cfg->phase_ids, unsigned, i) == AB_PHASE_WAL;
	/* oltp+wal runs the committers too (finish_oltp counts its results). */
	if (!wals && !asks_for(cfg, 0, AB_PHASE_OLTP_WAL)) {
		if (given && !another_step_asks_for(cfg, AB_PHASE_WAL, AB_PHASE_WAL) &&
		    !another_step_asks_for(cfg, AB_PHASE_WAL, AB_PHASE_OLTP_WAL)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s applies to the wal phase, which is not asked for (--phases wal)", given);
			return FALSE;
		}
		return TRUE;
	}
	/* oltp+wal's commits run for --oltp-seconds beside their load: a
	 * time or count of the wal phase's own, with no wal phase to take
	 * it, would be quietly ignored. */
	const char *timing = cfg->wal_seconds > 0 ? "--wal-seconds" : cfg->wal_count ? "--wal-commits" : NULL;
	if (!wals && timing && (cfg->step_own_wal_timing || !some_step_asks_for(cfg, AB_PHASE_WAL))) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "%s does not apply to oltp+wal, whose commits run for --oltp-seconds beside the load "
			    "(it times --phases wal)", timing);
		return FALSE;
	}
	if (cfg->wal_seconds > 0 && cfg->wal_count) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--wal-seconds and --wal-commits exclude each other: a method runs for a time or a count");
		return FALSE;
	}
	if (!cfg->wal_syncs) {
		unsigned m = AB_WAL_FDATASYNC; /* PostgreSQL's default on Linux */
		cfg->wal_syncs = g_array_new(FALSE, FALSE, sizeof(unsigned));
		g_array_append_val(cfg->wal_syncs, m);
	}
	if (!cfg->wal_commits) {
		struct ab_wal_commit c = { 1, AB_DEFAULT_CHUNK };
		cfg->wal_commits = g_array_new(FALSE, FALSE, sizeof(struct ab_wal_commit));
		g_array_append_val(cfg->wal_commits, c);
	}
	if (!cfg->wal_count && !(cfg->wal_seconds > 0))
		cfg->wal_seconds = AB_WAL_DEFAULT_SECONDS;
	for (guint i = 0; cfg->direct && i < cfg->wal_commits->len; i++) {
		const struct ab_wal_commit *c = &g_array_index(cfg->wal_commits, struct ab_wal_commit, i);
		if (c->write_size % 4096) {
			g_autofree char *label = ab_wal_commit_label(c);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --wal-records '%s' with --direct: O_DIRECT writes are whole 4k blocks", label);
			return FALSE;
		}
	}
	*results += (uint64_t)wals * (cfg->wal_syncs->len * cfg->wal_commits->len - 1);
	return TRUE;
}

/* The oltp phase's parameters against each other and the run's; `results`
 * grows by what its steps add beyond the one each phase counts for. */
static gboolean finish_oltp(struct ab_config *cfg, uint64_t ram_mib, uint64_t *results, GError **error)
{
	if (!asks_for(cfg, 0, AB_PHASE_OLTP) && !asks_for(cfg, 0, AB_PHASE_OLTP_WAL)) {
		if (ab_run_option_given(cfg, AB_OPTION_OLTP) && !another_step_asks_for(cfg, AB_PHASE_OLTP, AB_PHASE_OLTP) &&
		    !another_step_asks_for(cfg, AB_PHASE_OLTP, AB_PHASE_OLTP_WAL)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "the --oltp-* options apply to the oltp phase, which is not asked for "
				    "(--phases oltp or oltp+wal)");
			return FALSE;
		}
		return TRUE;
	}
	/* Its processes read the data file at random: under a capped cache
	 * the warm share of their reads is the cap over the file, so with no
	 * size given the file is several times the cap.  Without a cap the
	 * -s default (twice the RAM) stays: what the reads can warm in a count
	 * binds before the RAM does, and a larger file only takes longer to
	 * lay out.  The sizing statement says what the cache could hold. */
	if (!cfg->oltp_size && !cfg->file_size_given && cfg->cache == AB_CACHE_CGROUP) {
		/* An absurd -r saturates (the space check then refuses it)
		 * rather than wrapping round to a small file. */
		uint64_t most = UINT64_MAX / AB_MIB / AB_OLTP_CACHE_FACTOR;
		cfg->oltp_size = MAX(cfg->file_size, ram_mib > most ? UINT64_MAX : AB_OLTP_CACHE_FACTOR * ram_mib * AB_MIB);
	}
	uint64_t size = cfg->oltp_size ? cfg->oltp_size : cfg->file_size;
	if (size < cfg->oltp_block) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --oltp-size '%" G_GUINT64_FORMAT "M': smaller than the %u-byte --oltp-block",
			    size / AB_MIB, cfg->oltp_block);
		return FALSE;
	}
	if (cfg->direct && cfg->oltp_block < 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --oltp-block '%u' with --direct: O_DIRECT needs at least 4k", cfg->oltp_block);
		return FALSE;
	}
	if (cfg->oltp_sync_every && cfg->oltp_read_pct == 100) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--oltp-sync-every with --oltp-mix '100:0': there are no writes to sync");
		return FALSE;
	}
	/* Three results (read, write, all) per process count, where the
	 * phase was counted once. */
	guint oltps = 0;
	for (guint i = 0; i < cfg->phase_ids->len; i++)
		oltps += g_array_index(cfg->phase_ids, unsigned, i) == AB_PHASE_OLTP;
	uint64_t counts = cfg->oltp_proc_counts ? cfg->oltp_proc_counts->len : 1;
	*results += (uint64_t)oltps * (3 * counts - 1);
	/* oltp+wal: per commit size and method, the commits alone, then per
	 * count the commits under load and the load's three rows. */
	guint loaded = 0;
	for (guint i = 0; i < cfg->phase_ids->len; i++)
		loaded += g_array_index(cfg->phase_ids, unsigned, i) == AB_PHASE_OLTP_WAL;
	if (loaded)
		*results += (uint64_t)loaded * (cfg->wal_syncs->len * cfg->wal_commits->len * (1 + 4 * counts) - 1);
	if (*results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the run makes %" G_GUINT64_FORMAT " results, more than the %d one run holds: give fewer "
			    "--oltp-procs counts", *results, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	return TRUE;
}

/* The latency curve's parameters, once it is asked for; each curve adds
 * up to a result per step and the sizing row to `results`. */
static gboolean finish_curve(struct ab_config *cfg, uint64_t *results, GError **error)
{
	if (!asks_for(cfg, 0, AB_PHASE_LATENCY_CURVE)) {
		if (ab_run_option_given(cfg, AB_OPTION_CURVE) && !another_step_asks_for(cfg, AB_PHASE_LATENCY_CURVE, AB_PHASE_LATENCY_CURVE)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s applies to the latency curve, which is not asked for (--phases latency-curve)",
				    ab_run_option_given(cfg, AB_OPTION_CURVE));
			return FALSE;
		}
		return TRUE;
	}
	if (cfg->file_size < cfg->curve_block) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid -s size '%" G_GUINT64_FORMAT "k': the latency curve needs at least one %u-byte block",
			    cfg->file_size / 1024, cfg->curve_block);
		return FALSE;
	}
	if (cfg->direct && cfg->curve_block % 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --curve-block '%u' with --direct: O_DIRECT needs a multiple of 4k", cfg->curve_block);
		return FALSE;
	}
	/* Each process needs an I/O of the first step, or the step would
	 * last far longer than asked (4 I/Os at 0.001 IOPS: 4000 s). */
	if (cfg->rate_start * cfg->curve_seconds < cfg->curve_procs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --rate-start '%g': a step of %g s at that rate sends fewer I/Os than the %u "
			    "--curve-procs processes", cfg->rate_start, cfg->curve_seconds, cfg->curve_procs);
		return FALSE;
	}
	/* The last step's I/Os must be countable, and its schedule in nanoseconds. */
	double last = ab_curve_step_rate(cfg->rate_start, cfg->rate_factor, cfg->curve_steps);
	if (!(last * cfg->curve_seconds < 1e12)) {
		/* Any of the three may be the one to change (--curve-steps 40
		 * alone does it at the defaults): name them all. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the latency curve's step %u would offer %g IOPS for %g s (--rate-start %g, --rate-factor %g a "
			    "step), more I/Os than a step can count: give fewer --curve-steps or a lower --rate-start "
			    "or --rate-factor", cfg->curve_steps, last, cfg->curve_seconds, cfg->rate_start,
			    cfg->rate_factor);
		return FALSE;
	}
	for (guint i = 0; i < cfg->phase_ids->len; i++)
		if (g_array_index(cfg->phase_ids, unsigned, i) == AB_PHASE_LATENCY_CURVE)
			*results += cfg->curve_steps; /* steps + sizing, for the one counted */
	return TRUE;
}

/* The checks and defaults of one step's parameters (a profile's step, or
 * the whole run without one), then its steps built; `results` is what
 * they will add to the run. */
static gboolean finish_step(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t *results, GError **error)
{
	uint64_t ram_mib = ab_config_effective_ram_mib(cfg, physical_ram_bytes);
	/* A sweep asked for without bonnie++'s I/O phases has its own sizes:
	 * no default -s file (nor its twice-the-RAM rule) applies. */
	gboolean sweep_only_io = cfg->phases_given &&
				 (asks_for(cfg, 0, AB_PHASE_SWEEP) || asks_for(cfg, 0, AB_PHASE_WAL)) &&
				 !asks_for(cfg, AB_PHASE_IO, AB_PHASE_ID_COUNT);
	if (!cfg->file_size_given)
		cfg->file_size = sweep_only_io ? 0 : default_file_size_mib(ram_mib) * AB_MIB;
	if (cfg->file_size) {
		if (cfg->file_size < cfg->io_chunk || cfg->file_size % cfg->io_chunk) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid -s size '%" G_GUINT64_FORMAT "M': not a multiple of the %u-byte chunk",
				    cfg->file_size / AB_MIB, cfg->io_chunk);
			return FALSE;
		}
		/* Only a phase that reads the test file back (per-char and block
		 * read, rewrite, seeks, the latency curve: the READS flag) could
		 * read it from the page cache; bonnie++'s default list has them
		 * whenever there is a file. */
		gboolean reads = !cfg->phases_given || asks_for(cfg, AB_PHASE_READS, AB_PHASE_ID_COUNT);
		if (reads && ram_mib && cfg->file_size < 2 * ram_mib * AB_MIB) {
			g_autofree char *hint = cache_hint(cfg, ram_mib);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "file size %" G_GUINT64_FORMAT "M is less than twice the RAM (%" G_GUINT64_FORMAT
				    "M) under --cache %s: reads would come from the page cache; %s",
				    cfg->file_size / AB_MIB, ram_mib, ab_cache_mode_name(cfg->cache), hint);
			return FALSE;
		}
	}
	if (cfg->per_char == AB_PER_CHAR_STDIO && cfg->byte_io_size == UINT64_MAX)
		cfg->byte_io_size = cfg->file_size;
	if (cfg->byte_io_size == UINT64_MAX)
		cfg->byte_io_size = AB_DEFAULT_BYTE_IO;
	if (cfg->byte_io_size > cfg->file_size)
		cfg->byte_io_size = cfg->file_size;
	if (cfg->direct && cfg->io_chunk < 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid chunk size '%u' with --direct: O_DIRECT needs at least 4k", cfg->io_chunk);
		return FALSE;
	}
	if (cfg->seekers > cfg->seeks) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid seeker count '%u': more seekers than the %" G_GUINT64_FORMAT " seeks",
			    cfg->seekers, cfg->seeks);
		return FALSE;
	}
	if (!check_phases(cfg, error) || !finish_sweep(cfg, physical_ram_bytes, results, error) ||
	    !finish_wal(cfg, results, error) ||
	    !finish_oltp(cfg, ram_mib, results, error) ||
	    !finish_curve(cfg, results, error))
		return FALSE;
	if (cfg->steps)
		g_array_unref(cfg->steps);
	cfg->steps = ab_steps_build(cfg);
	return TRUE;
}

/* A profile's step names itself in the errors of its checks. */
static gboolean finish_labelled(struct ab_config *cfg, uint64_t physical_ram_bytes, uint64_t *results, GError **error)
{
	if (finish_step(cfg, physical_ram_bytes, results, error))
		return TRUE;
	if (cfg->step_where)
		g_prefix_error(error, "%s: ", cfg->step_where);
	return FALSE;
}

/* A profile's phases, all steps together, for each step's config to see
 * (another_step_asks_for): before any step is finished. */
static uint32_t phase_bits(const struct ab_config *cfg)
{
	uint32_t bits = 0;
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		bits |= 1u << g_array_index(cfg->phase_ids, unsigned, i);
	return bits;
}

static void share_workload_phases(struct ab_config *cfg)
{
	if (!cfg->step_configs || !cfg->step_configs->len)
		return;
	uint32_t all = phase_bits(cfg);
	for (guint i = 0; i < cfg->step_configs->len; i++)
		all |= phase_bits(g_ptr_array_index(cfg->step_configs, i));
	cfg->workload_phases = all;
	for (guint i = 0; i < cfg->step_configs->len; i++)
		((struct ab_config *)g_ptr_array_index(cfg->step_configs, i))->workload_phases = all;
}

gboolean ab_config_finish(struct ab_config *cfg, uint64_t physical_ram_bytes, GError **error)
{
	if (!cfg->dir && !ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "missing -d DIR (a directory to test in) or a target to build (--device, --array, --loop)");
		return FALSE;
	}
	if (cfg->dir && ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "-d '%s' and a target to build exclude each other: the built target is mounted privately",
			    cfg->dir);
		return FALSE;
	}
	if (cfg->cache == AB_CACHE_REMOUNT && !ab_target_spec_builds(&cfg->target)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --cache 'remount': it needs a target arraybench mounts itself "
			    "(--device, --array or --loop), not -d");
		return FALSE;
	}
	if (cfg->cold_metadata && cfg->cache == AB_CACHE_NONE) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--cold-metadata and --cache 'none' contradict each other: one evicts, the other never does");
		return FALSE;
	}
	if (!cfg->machine_name)
		cfg->machine_name = default_machine_name();
	if (cfg->cache == AB_CACHE_CGROUP && cfg->ram_given && cfg->ram_mib < AB_CGROUP_MIN_RAM_MIB) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid -r '%" G_GUINT64_FORMAT "': --cache cgroup needs at least %u MiB "
			    "or the workers themselves would not fit",
			    cfg->ram_mib, AB_CGROUP_MIN_RAM_MIB);
		return FALSE;
	}
	if (!cfg->seed_given) {
		uint64_t st = (uint64_t)g_get_real_time() ^ ((uint64_t)getpid() << 32);
		cfg->seed = ab_rng_splitmix(&st) >> 32; /* bonnie++-sized: fits 32 bits */
	}
	uint64_t results = 0, more = 0;
	share_workload_phases(cfg);
	if (!finish_labelled(cfg, physical_ram_bytes, &results, error))
		return FALSE;
	/* A profile's other steps, each finished alone, run after the first
	 * in file order: one list of steps for the suite. */
	for (guint i = 0; cfg->step_configs && i < cfg->step_configs->len; i++) {
		struct ab_config *sub = g_ptr_array_index(cfg->step_configs, i);
		if (!finish_labelled(sub, physical_ram_bytes, &more, error))
			return FALSE;
		g_array_append_vals(cfg->steps, sub->steps->data, sub->steps->len);
		results += more;
	}
	if (cfg->steps->len > AB_MAX_STEPS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "workload '%s': %u phases in all its steps, more than %d",
			    cfg->workload, cfg->steps->len, AB_MAX_STEPS);
		return FALSE;
	}
	if (results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "workload '%s' makes %" G_GUINT64_FORMAT " results in all its steps, more than the %d one "
			    "run holds", cfg->workload, results, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	return TRUE;
}
