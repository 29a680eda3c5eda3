/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep's options (--phases sweep; workloads/sweep.h), as
 * rows of src/options/option-table.h, with the parsers no kind covers. */
#include "run-option-sets.h"
#include "config.h"
#include "../../workloads/sweep.h"

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
	{ "sweep-csv", 0, .kind = AB_OPTION_PATH, CFG(sweep_csv_path), .why = "file name", SWEEP,
	  .flags = AB_OPTION_MATRIX_OWN, .help = "Append the sweep's cells to FILE, one CSV row each with named columns",
	  .arg = "FILE" },
};

const struct ab_option_set ab_sweep_options = AB_OPTION_SET(ab_sweep_option_rows);
