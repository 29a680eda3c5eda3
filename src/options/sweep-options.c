/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep's options against each other and the run's: its
 * grid's defaults, its tests and timing rule, its results and the RAM its
 * random tests' order takes (src/options/sweep-options.h). */
#include "sweep-options.h"
#include "config.h"
#include "../base/error.h"
#include "../model/run.h"
#include "run-option-parse.h"
#include "sweep-grid.h"
#include "../../workloads/sweep.h"
#include "../../workloads/phase.h"
#include "run-option-sets.h"

#include <math.h>
#include <string.h>

/* The first sweep option given, for the message when no sweep runs (one
 * rule for every family: src/options/run-options.c). */
const char *ab_sweep_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_SWEEP);
}

uint64_t ab_sweep_results(const struct ab_config *cfg)
{
	g_autoptr(GArray) cells = ab_sweep_grid_cells(&cfg->sweep_grid);
	uint64_t passes = cfg->stream_counts ? cfg->stream_counts->len : 1;
	return passes * cells->len * (uint64_t)__builtin_popcount(cfg->sweep_tests);
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
gboolean ab_sweep_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error)
{
	if (!ab_config_asks_for(cfg, 0, AB_PHASE_SWEEP)) {
		const char *opt = ab_sweep_option_given(cfg);
		if (opt && !ab_config_another_step_asks_for(cfg, AB_PHASE_SWEEP, AB_PHASE_SWEEP)) {
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
	if (cfg->wearout && !(cfg->stonewall_time_s > 0)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--wearout needs --stonewall-time: the streams wear out to their counts at the deadline");
		return FALSE;
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
	int tests = __builtin_popcount(cfg->sweep_tests);
	/* A pass of the grid per --streams count. */
	uint64_t passes = cfg->stream_counts ? cfg->stream_counts->len : 1;
	*results += ab_phase_family_more_results(ab_phase_family_of(AB_PHASE_SWEEP), cfg);
	if (*results > AB_RUN_MAX_RESULTS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the sweep makes %" G_GUINT64_FORMAT " results (%u cells x %d tests x %" G_GUINT64_FORMAT
			    " stream counts), more than the %d one run holds: give fewer --sweep-file-sizes, "
			    "--sweep-records, --sweep-tests or --streams",
			    *results, cells->len, tests, passes, AB_RUN_MAX_RESULTS);
		return FALSE;
	}
	return check_sweep_order(cfg, cells, most, env->physical_ram_bytes, error);
}

void ab_sweep_space(const struct ab_step *step, struct ab_step_space *out)
{
	if (!step->sweep_grid)
		return;
	g_autoptr(GArray) cells = ab_sweep_grid_cells(step->sweep_grid);
	uint64_t largest = 0;
	for (guint i = 0; i < cells->len; i++)
		largest = MAX(largest, g_array_index(cells, struct ab_sweep_cell, i).file_size);
	uint64_t streams = MAX(step->streams ? step->streams : 1, ab_most_streams(step->stream_counts));
	uint64_t files = ab_space_mul(streams, step->files_per_stream ? step->files_per_stream : 1);
	out->anew = out->emptied = TRUE;
	if (step->shared_file && streams > 1) {
		out->test_file = ab_space_mul(largest, files);
		return;
	}
	out->test_file = largest;
	if (files > 1) {
		char size[32];
		ab_space_size_text(largest, size, sizeof(size));
		out->beside = ab_space_mul(largest, files - 1);
		snprintf(out->beside_what, sizeof(out->beside_what), "%" G_GUINT64_FORMAT " stream file%s of %s",
			 files - 1, files > 2 ? "s" : "", size);
	}
}

const struct ab_phase_family ab_sweep_family = {
	.phase_id = AB_PHASE_SWEEP,
	.space = ab_sweep_space,
	.results = ab_sweep_results,
	.finish = ab_sweep_finish,
	.option_given = ab_sweep_option_given,
	.sizes_own_files = TRUE,
};

/* Its option rows (src/options/option-table.h) and the parsers no kind
 * covers. */
#define CFG(f) AB_OPTION_FIELD(struct ab_config, f)

static gboolean opt_sweep_sizes(const char *name, const char *value, void *data, GError **error)
{
	struct ab_sweep_grid *g = &((struct ab_config *)data)->sweep_grid;
	GArray *sizes;
	if (!ab_sweep_parse_sizes(name, value, 4 * AB_SWEEP_KIB, AB_SWEEP_FILE_LIMIT, &sizes, error))
		return FALSE;
	if (g->file_sizes)
		g_array_unref(g->file_sizes);
	g->file_sizes = sizes;
	return TRUE;
}

static gboolean opt_sweep_records(const char *name, const char *value, void *data, GError **error)
{
	struct ab_sweep_grid *g = &((struct ab_config *)data)->sweep_grid;
	GArray *records;
	if (!ab_sweep_parse_records(name, value, AB_SWEEP_RECORD_MIN, AB_SWEEP_RECORD_LIMIT, &records, error))
		return FALSE;
	if (g->records)
		g_array_unref(g->records);
	g->records = records;
	g->records_given = TRUE; /* iozone's -y/-q/-r: no crossover */
	return TRUE;
}

static gboolean opt_sweep_tests(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) words = g_strsplit(value, ",", 0);
	uint32_t mask = 0;
	for (char **w = words; *w; w++) {
		enum ab_sweep_test t;
		if (g_str_equal(*w, "all"))
			mask |= AB_SWEEP_ALL_TESTS;
		else if (ab_sweep_test_by_name(*w, &t))
			mask |= 1u << t;
		else
			return ab_option_refuse(error, name, **w ? *w : value,
						**w ? "unknown sweep test (write, rewrite, read, reread, random-read, "
						      "random-write, backward-read, record-rewrite, stride-read, fwrite, "
						      "frewrite, fread, freread or all)"
						    : "empty test name in the list");
	}
	if (!mask)
		return ab_option_refuse(error, name, value, "no test named");
	cfg->sweep_tests = mask;
	return TRUE;
}

/* Seconds with decimals, > 0: a deadline under a millisecond would cut
 * every test at its first record, one over a day is no deadline. */
#define STONEWALL_MIN_S 0.001
#define STONEWALL_MAX_S 86400.0

static gboolean opt_stonewall_time(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	char *end = NULL;
	/* Decimal only: strtod would also take "0x10", "nan" and "inf". */
	gboolean decimal = *value && strspn(value, "0123456789.") == strlen(value);
	double s = decimal ? g_ascii_strtod(value, &end) : NAN;
	if (!end || *end || !isfinite(s) || s < STONEWALL_MIN_S || s > STONEWALL_MAX_S)
		return ab_option_refuse(error, name, value, "seconds from 0.001 to 86400 (decimals allowed)");
	cfg->stonewall_time_s = s;
	return TRUE;
}

#define SWEEP .family = AB_OPTION_SWEEP
#define STEP_KEY .profile = AB_OPTION_PROFILE_STEP
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)
#define SWITCH(f) .kind = AB_OPTION_SWITCH, CFG(f)

static const struct ab_option_row ab_sweep_option_rows[] = {
	{ "sweep-file-sizes", 0, CUSTOM(opt_sweep_sizes), SWEEP, STEP_KEY,
	  .help = "Sweep: file sizes, a list or MIN-MAX doubling (KiB without a suffix; 64k-512m)",
	  .arg = "LIST|MIN-MAX" },
	{ "sweep-records", 0, CUSTOM(opt_sweep_records), SWEEP, STEP_KEY,
	  .help = "Sweep: record sizes, powers of two (4k-16m; given: 1k-1g, and small records run for big files too)",
	  .arg = "LIST|MIN-MAX" },
	{ "sweep-tests", 0, CUSTOM(opt_sweep_tests), SWEEP, STEP_KEY,
	  .help = "Sweep: tests to run (all): write, rewrite, read, reread, random-read, random-write, backward-read, "
		  "record-rewrite, stride-read, fwrite, frewrite, fread, freread",
	  .arg = "LIST" },
	{ "stride", 0, .kind = AB_OPTION_COUNT, CFG(stride), .min = 1, .max = (uint64_t)1 << 32,
	  .why = "must be at least 1", SWEEP, STEP_KEY, .flags = AB_OPTION_OWN_ERROR,
	  .help = "Sweep: records between stride-read's reads (17)", .arg = "N" },
	{ "include-fsync", 0, SWITCH(include_fsync), SWEEP, STEP_KEY,
	  .help = "Sweep: every test times an fsync (iozone -e); by default only writes time theirs" },
	{ "include-close", 0, SWITCH(include_close), SWEEP, STEP_KEY,
	  .help = "Sweep: time close; alone, as iozone -c, no fsync is issued at all" },
	{ "untimed-flush", 0, SWITCH(untimed_flush), SWEEP, STEP_KEY,
	  .help = "Sweep: time only the I/O calls, fsync after the clock (iozone's default: writes then measure RAM)" },
	/* Each a pass of the sweep with that many streams (iozone's -t, and
	 * its -l/-u as a list). */
	{ "streams", 0, .kind = AB_OPTION_LIST, .offset = offsetof(struct ab_config, stream_counts),
	  .width = sizeof(uint64_t), .min = 1, .max = AB_MAX_STREAMS, .why = "a stream count from 1 to ", SWEEP,
	  STEP_KEY,
	  .help = "Sweep: N concurrent workers per cell, each its own file (iozone -t); a list runs the grid once per "
		  "count",
	  .arg = "N[,N...]" },
	{ "sweep-files", 0, .kind = AB_OPTION_COUNT, CFG(files_per_stream), .min = 1, .max = AB_MAX_SWEEP_FILES,
	  .why = "a file count from 1 to ", SWEEP, STEP_KEY,
	  .help = "Sweep: files each stream writes or reads in turn, all in one timed region (1)", .arg = "N" },
	{ "shared-file", 0, SWITCH(shared_file), SWEEP, STEP_KEY,
	  .help = "Sweep: the --streams share one file, each its own region of it" },
	{ "stonewall-time", 0, CUSTOM(opt_stonewall_time), SWEEP, STEP_KEY,
	  .help = "Sweep: each stream of every rank stops a test's timed I/O S seconds after its start; the "
		  "later tests of the cell use only what the write wrote",
	  .arg = "S" },
	{ "wearout", 0, SWITCH(wearout), SWEEP, STEP_KEY,
	  .help = "Sweep, with --stonewall-time: after the deadline every stream goes on to the largest count any "
		  "stream of any rank had at it" },
	{ "sweep-csv", 0, .kind = AB_OPTION_PATH, CFG(sweep_csv_path), .why = "file name", SWEEP,
	  .flags = AB_OPTION_MATRIX_OWN, .help = "Append the sweep's cells to FILE, one CSV row each with named columns",
	  .arg = "FILE" },
};

const struct ab_option_set ab_sweep_options = AB_OPTION_SET(ab_sweep_option_rows);
