/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's tests and timing rules, its options and config checks, and
 * its grid as the table and the CSV rows show it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/suite/step-files.h"
#include "../../src/options/run-options.h"
#include "run-args.h"
#include "../../src/runner/rundir.h"
#include "../../reports/report.h"
#include "../../workloads/phase.h"
#include "../../workloads/sweep.h"

static char *calls(enum ab_sweep_test t, enum ab_sweep_timing timing)
{
	g_auto(GStrv) v = ab_sweep_timed_calls(t, timing);
	return g_strjoinv("+", v);
}

/* iozone's -e and -c, exactly; our default times the writes' fsync. */
static void test_timing_rules(void **state)
{
	(void)state;
	static const struct {
		enum ab_sweep_test test;
		enum ab_sweep_timing timing;
		const char *timed;
		gboolean fsync_at_all;
	} cases[] = {
		{ AB_SWEEP_WRITE, AB_SWEEP_TIME_FLUSH, "write+fsync", TRUE },
		{ AB_SWEEP_READ, AB_SWEEP_TIME_FLUSH, "read", FALSE },
		{ AB_SWEEP_RANDOM_WRITE, AB_SWEEP_TIME_FLUSH, "write+fsync", TRUE },
		{ AB_SWEEP_FWRITE, AB_SWEEP_TIME_FLUSH, "fwrite+fflush+fsync", TRUE },
		{ AB_SWEEP_FREAD, AB_SWEEP_TIME_FLUSH, "fread", FALSE },
		{ AB_SWEEP_READ, AB_SWEEP_TIME_FSYNC, "read+fsync", TRUE },
		{ AB_SWEEP_WRITE, AB_SWEEP_TIME_FSYNC, "write+fsync", TRUE },
		/* -c alone: close timed, and no fsync anywhere. */
		{ AB_SWEEP_WRITE, AB_SWEEP_TIME_CLOSE, "write+close", FALSE },
		{ AB_SWEEP_FREWRITE, AB_SWEEP_TIME_CLOSE, "fwrite+fclose", FALSE },
		{ AB_SWEEP_READ, AB_SWEEP_TIME_CLOSE, "read+close", FALSE },
		{ AB_SWEEP_REWRITE, AB_SWEEP_TIME_FSYNC_CLOSE, "write+fsync+close", TRUE },
		/* iozone's default: writes synced after the clock stops. */
		{ AB_SWEEP_WRITE, AB_SWEEP_TIME_NONE, "write", TRUE },
		{ AB_SWEEP_READ, AB_SWEEP_TIME_NONE, "read", FALSE },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = calls(cases[i].test, cases[i].timing);
		if (strcmp(got, cases[i].timed) != 0)
			fail_msg("%s under %s times %s, want %s", ab_sweep_test_info(cases[i].test)->name,
				 ab_sweep_timing_name(cases[i].timing), got, cases[i].timed);
		assert_int_equal(ab_sweep_issues_fsync(cases[i].test, cases[i].timing), cases[i].fsync_at_all);
	}
}

static void test_test_table(void **state)
{
	(void)state;
	static const char *const names[] = { "write", "rewrite", "read", "reread", "random-read", "random-write",
					     "backward-read", "record-rewrite", "stride-read", "fwrite", "frewrite",
					     "fread", "freread" };
	assert_int_equal(G_N_ELEMENTS(names), AB_SWEEP_TEST_COUNT);
	for (unsigned i = 0; i < AB_SWEEP_TEST_COUNT; i++) {
		enum ab_sweep_test t;
		assert_true(ab_sweep_test_by_name(names[i], &t));
		assert_int_equal(t, i);
		assert_string_equal(ab_sweep_test_info(t)->name, names[i]);
	}
	enum ab_sweep_test t;
	assert_false(ab_sweep_test_by_name("Write", &t));
	assert_null(ab_sweep_test_info(AB_SWEEP_TEST_COUNT));
	/* Only the stdio tests are buffered whatever --direct says; only
	 * write and fwrite make the file. */
	for (unsigned i = 0; i < AB_SWEEP_TEST_COUNT; i++) {
		unsigned f = ab_sweep_test_info(i)->flags;
		assert_int_equal((f & AB_SWEEP_STDIO) != 0, i >= AB_SWEEP_FWRITE);
		assert_int_equal((f & AB_SWEEP_CREATES) != 0, i == AB_SWEEP_WRITE || i == AB_SWEEP_FWRITE);
		assert_int_equal((f & AB_SWEEP_WARM) != 0, i == AB_SWEEP_REREAD || i == AB_SWEEP_FREREAD);
	}
	/* The registry has it, out of `all` and out of the CSV line. */
	const struct ab_phase *ph = ab_phase_by_name("sweep");
	assert_non_null(ph);
	assert_true(ph->id >= AB_PHASE_COUNT);
	assert_int_equal(ph->csv_rate_col, -1);
}

static void expect_error(GError *e, int status, const char *what)
{
	assert_non_null(e);
	assert_int_equal(ab_error_exit_status(e), status);
	if (!strstr(e->message, what))
		fail_msg("error '%s' does not say '%s'", e->message, what);
}

static void test_options(void **state)
{
	(void)state;
	const uint64_t ram = 24ull << 30;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "64k-1m",
			       "--sweep-records", "4k,16k", "--sweep-tests", "write,read,reread", "--stride", "5",
			       "--include-close", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	/* A sweep alone has no -s file, so no twice-the-RAM rule either. */
	assert_int_equal(cfg.file_size, 0);
	assert_int_equal(cfg.steps->len, 1);
	const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, 0);
	assert_string_equal(st->phase->name, "sweep");
	assert_int_equal(st->sweep_timing, AB_SWEEP_TIME_CLOSE);
	assert_int_equal(st->stride, 5);
	assert_int_equal(st->sweep_tests, (1u << AB_SWEEP_WRITE) | (1u << AB_SWEEP_READ) | (1u << AB_SWEEP_REREAD));
	assert_int_equal(st->sweep_grid->file_sizes->len, 5);
	assert_true(st->sweep_grid->records_given);
	ab_config_clear(&cfg);

	/* Defaults: iozone -a's grid, every test, stride 17, writes' fsync timed. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	st = &g_array_index(cfg.steps, struct ab_step, 0);
	assert_int_equal(st->sweep_timing, AB_SWEEP_TIME_FLUSH);
	assert_int_equal(st->stride, 17);
	assert_int_equal(st->sweep_tests, AB_SWEEP_ALL_TESTS);
	g_autoptr(GArray) cells = ab_sweep_grid_cells(st->sweep_grid);
	assert_int_equal(cells->len, 126);
	ab_config_clear(&cfg);

	/* Refused while parsing: the value named. */
	const char *bad[][3] = {
		{ "--sweep-tests", "write,bogus", "'bogus'" },
		{ "--sweep-tests", "write,,read", "empty test name" },
		{ "--stride", "0", "'0'" },
		{ "--sweep-records", "3k", "'3k'" },
		{ "--sweep-records", "2g", "'2g'" },
		{ "--sweep-file-sizes", "6k", "'6k'" },
		{ "--sweep-file-sizes", "", "--sweep-file-sizes" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *e = NULL;
		ab_config_init(&cfg);
		assert_false(parse_args(&cfg, &e, "-d", "/tmp", "--phases", "sweep", bad[i][0], bad[i][1], NULL));
		expect_error(e, 1, bad[i][2]);
		g_error_free(e);
		ab_config_clear(&cfg);
	}

	/* Refused by the checks of the combination. */
	const char *combos[][5] = {
		{ "--phases", "block-write", "--stride", "3", "--stride applies to the record-size sweep" },
		{ "--phases", "sweep", "--sweep-tests", "reread", "'reread' re-reads what 'read' just read" },
		{ "--phases", "sweep", "--sweep-tests", "freread,read", "'freread' re-reads what 'fread'" },
		{ "--phases", "sweep", "--sweep-records", "1k", "below O_DIRECT's 4k" },
		{ "--phases", "sweep", "--sweep-records", "1m", "no cell" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(combos); i++) {
		GError *e = NULL;
		ab_config_init(&cfg);
		gboolean parsed = i == 3 ? parse_args(&cfg, NULL, "-d", "/tmp", "-D", combos[i][0], combos[i][1],
						       combos[i][2], combos[i][3], NULL)
				  : i == 4 ? parse_args(&cfg, NULL, "-d", "/tmp", "--sweep-file-sizes", "64k",
							combos[i][0], combos[i][1], combos[i][2], combos[i][3], NULL)
					   : parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64g", combos[i][0], combos[i][1],
							combos[i][2], combos[i][3], NULL);
		assert_true(parsed);
		assert_false(ab_config_finish(&cfg, ram, &e));
		expect_error(e, 1, combos[i][4]);
		g_error_free(e);
		ab_config_clear(&cfg);
	}
	GError *e = NULL;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--untimed-flush", "--include-fsync", NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	expect_error(e, 1, "--untimed-flush contradicts --include-fsync");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	/* The random tests' order, 8 bytes a record, must fit in half the RAM:
	 * 1 TiB in 4 KiB records is 2 GiB, refused on a 1 GiB machine, run
	 * without the random tests. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "1t",
			       "--sweep-records", "4k", NULL));
	assert_false(ab_config_finish(&cfg, 1ull << 30, &e));
	expect_error(e, 3, "sweep cell 1073741824k/4k: its random tests need 2048 MiB");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "1t",
			       "--sweep-records", "4k", "--sweep-tests", "write,read", NULL));
	assert_true(ab_config_finish(&cfg, 1ull << 30, NULL));
	ab_config_clear(&cfg);
	/* 64 file sizes x 15 records x 13 tests is 12480 results: more than a
	 * run's JSON may hold for report to read it back. */
	ab_config_init(&cfg);
	g_autoptr(GString) sizes = g_string_new(NULL);
	for (int i = 0; i < 64; i++)
		g_string_append_printf(sizes, "%s%dm", i ? "," : "", 16 * (i + 1));
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", sizes->str,
			       "--sweep-records", "1k-16m", NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	expect_error(e, 1, "the sweep makes 12480 results (960 cells x 13 tests x 1 stream counts), more than the 10000");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", sizes->str,
			       "--sweep-records", "1k-16m", "--sweep-tests", "write,read,reread", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	ab_config_clear(&cfg);
	/* ... but each stream count is a pass of the grid; and each stream
	 * holds its own order of records. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", sizes->str,
			       "--sweep-records", "1k-16m", "--sweep-tests", "write,read,reread", "--streams", "1,2,4,8",
			       NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	expect_error(e, 1, "the sweep makes 11520 results (960 cells x 3 tests x 4 stream counts)");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "1t",
			       "--sweep-records", "4k", NULL));
	assert_true(ab_config_finish(&cfg, 8ull << 30, NULL)); /* 2 GiB of 8 */
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "1t",
			       "--sweep-records", "4k", "--streams", "4", NULL));
	assert_false(ab_config_finish(&cfg, 8ull << 30, &e)); /* 4 x 2 GiB of 8 */
	expect_error(e, 3, "its random tests need 8192 MiB");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	/* A cell is whole records: 12k in 8k records is left out (it moved 8k
	 * and keyed it as 12k), 16k in 8k records stays. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "sweep", "--sweep-file-sizes", "12k,16k",
			       "--sweep-records", "8k", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	{
		g_autoptr(GArray) whole = ab_sweep_grid_cells(&cfg.sweep_grid);
		assert_int_equal(whole->len, 1);
		assert_int_equal(g_array_index(whole, struct ab_sweep_cell, 0).file_size, 16 * 1024);
	}
	ab_config_clear(&cfg);
	/* `all` is bonnie++'s phases: no sweep in it. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64g", "--phases", "all", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.steps->len, AB_PHASE_COUNT);
	ab_config_clear(&cfg);
}

/* Built-in workloads: their options first, the user's change them. */
static void test_workloads(void **state)
{
	(void)state;
	const uint64_t ram = 24ull << 30;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "mirror", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, 0);
	assert_int_equal(cfg.steps->len, 1);
	assert_string_equal(st->phase->name, "sweep");
	assert_int_equal(st->files_per_stream, 50);
	assert_int_equal(st->stream_counts->len, 1);
	assert_int_equal(g_array_index(st->stream_counts, uint64_t, 0), 4);
	assert_int_equal(g_array_index(st->sweep_grid->file_sizes, uint64_t, 0), 40 * AB_MIB);
	assert_int_equal(st->sweep_tests, (1u << AB_SWEEP_WRITE) | (1u << AB_SWEEP_READ) |
						  (1u << AB_SWEEP_RANDOM_READ) | (1u << AB_SWEEP_RANDOM_WRITE));
	ab_config_clear(&cfg);
	/* Given before or after --workload, the user's options win. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "--streams", "2", "-d", "/tmp", "--workload=lab", "--sweep-file-sizes", "1g",
			       NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	st = &g_array_index(cfg.steps, struct ab_step, 0);
	assert_int_equal(g_array_index(st->stream_counts, uint64_t, 0), 2);
	assert_int_equal(g_array_index(st->sweep_grid->file_sizes, uint64_t, 0), 1ull << 30);
	assert_int_equal(g_array_index(st->sweep_grid->records, uint64_t, 0), 1ull << 30);
	assert_int_equal(st->files_per_stream, 10);
	assert_int_equal(st->sweep_tests, 1u << AB_SWEEP_WRITE);
	ab_config_clear(&cfg);
	GError *e = NULL;
	ab_config_init(&cfg);
	assert_false(parse_args(&cfg, &e, "-d", "/tmp", "--workload", "oracle", NULL));
	expect_error(e, 1,
		     "invalid --workload 'oracle': no such built-in profile (bonnie, database, iozone-auto, lab, mirror)");
	g_clear_error(&e);
	ab_config_clear(&cfg);
	/* Too many files a cell. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--workload", "mirror", "--streams", "100", NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	expect_error(e, 1, "makes 5000 files a cell, more than 4096");
	g_clear_error(&e);
	ab_config_clear(&cfg);
}

/* A cell as the sweep leaves it. */
static struct ab_result *cell(uint64_t file_kib, uint64_t rec_kib, const char *test, double rate, const char *state,
			      double resident, enum ab_sweep_timing timing)
{
	struct ab_result *r = ab_result_new("sweep");
	enum ab_sweep_test t;
	assert_true(ab_sweep_test_by_name(test, &t));
	r->key.file_size = file_kib * 1024;
	r->key.record_size = rec_kib * 1024;
	r->key.streams = 1;
	r->key.test = g_strdup(test);
	r->rate = rate;
	r->cache_state = g_strdup(state);
	r->resident_at_start = resident;
	r->timed = ab_sweep_timed_calls(t, timing);
	r->sync_mode = g_strdup(ab_sweep_timing_name(timing));
	r->direct = FALSE;
	return r;
}

/* The line of the grid that starts with these two sizes. */
static char *grid_row(const char *table, const char *sizes)
{
	g_auto(GStrv) lines = g_strsplit(table, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_autofree char *lead = g_strdup(*l);
		g_strchug(lead);
		if (g_str_has_prefix(lead, sizes))
			return g_strdup(*l);
	}
	fail_msg("no row '%s' in:\n%s", sizes, table);
	return NULL;
}

static void test_grid(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	run->run_id = g_strdup("r1");
	ab_run_add_result(run, cell(64, 4, "write", 1000, "warm", NAN, AB_SWEEP_TIME_FLUSH));
	ab_run_add_result(run, cell(64, 4, "read", 2000, "cold", 0.0, AB_SWEEP_TIME_FLUSH));
	ab_run_add_result(run, cell(64, 4, "reread", 9000, "warm", 1.0, AB_SWEEP_TIME_FLUSH));
	/* A cold read that found most of its file cached is marked too. */
	ab_run_add_result(run, cell(128, 4, "read", 7000, "cold", 0.8, AB_SWEEP_TIME_FLUSH));
	ab_run_add_result(run, cell(128, 4, "write", 3000, "warm", NAN, AB_SWEEP_TIME_NONE));
	g_autofree char *t = ab_text_format(run);
	assert_non_null(strstr(t, "record-size sweep, KiB/s"));
	assert_non_null(strstr(t, "fsync-timed-on-writes"));
	assert_non_null(strstr(t, "fsync-close-untimed"));
	/* No bonnie++ rows: no table heading for them. */
	assert_null(strstr(t, "%iowait"));
	g_autofree char *r64 = grid_row(t, "64       4");
	g_autofree char *r128 = grid_row(t, "128       4");
	assert_non_null(strstr(r64, "     1000                2000      9000c"));
	assert_non_null(strstr(r128, "     3000w               7000c"));
	assert_non_null(strstr(t, "\nc  read from the page cache"));
	assert_non_null(strstr(t, "\nw  no fsync in the timing"));
	/* No bonnie++ line for a run of nothing but a sweep. */
	assert_false(ab_csv_has_line(run));
	/* The CSV rows: a header's worth of columns each, timed joined by +. */
	g_autofree char *rows = ab_sweep_csv_rows(run);
	g_auto(GStrv) lines = g_strsplit(rows, "\n", -1);
	assert_int_equal(g_strv_length(lines), 6); /* 5 rows and the empty tail */
	g_auto(GStrv) head = g_strsplit(ab_sweep_csv_header(), ",", -1);
	for (int i = 0; i < 5; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
		assert_int_equal(g_strv_length(f), g_strv_length(head));
	}
	assert_non_null(strstr(lines[0], ",64,4,write,1000.0,"));
	assert_non_null(strstr(lines[0], ",write+fsync,warm,,"));
	assert_non_null(strstr(lines[3], ",128,4,read,7000.0,"));
	assert_non_null(strstr(lines[3], ",cold,0.800,"));
}

/* The stream files' names, which cleanup removes from a run directory:
 * exactly ours, nothing that merely looks alike. */
static void test_stream_names(void **state)
{
	(void)state;
	assert_true(ab_run_dir_is_stream_name("stream.1"));
	assert_true(ab_run_dir_is_stream_name("stream.4095"));
	const char *not_ours[] = { "stream.0", "stream.4096", "stream.01", "stream.+1", "stream. 1", "stream.1x",
				   "stream.", "stream", "xstream.1", "stream.4294967297", "files" };
	for (size_t i = 0; i < G_N_ELEMENTS(not_ours); i++)
		if (ab_run_dir_is_stream_name(not_ours[i]))
			fail_msg("'%s' taken for a stream file", not_ours[i]);
}

/* What a deadline's cut write leaves a stream's later tests (--stonewall-time):
 * whole records, files in turn (whole files, then a part). */
static void test_written_carried(void **state)
{
	(void)state;
	const uint64_t rec = 4096, per_file = 10; /* files of 40 KiB */
	/* No deadline: every file whole. */
	assert_int_equal(ab_sweep_file_records(AB_SWEEP_WHOLE, rec, per_file, 0), 10);
	assert_int_equal(ab_sweep_file_records(AB_SWEEP_WHOLE, rec, per_file, 3), 10);
	/* 23 records written over files of 10: 10, 10, 3, then nothing. */
	assert_int_equal(ab_sweep_file_records(23 * rec, rec, per_file, 0), 10);
	assert_int_equal(ab_sweep_file_records(23 * rec, rec, per_file, 1), 10);
	assert_int_equal(ab_sweep_file_records(23 * rec, rec, per_file, 2), 3);
	assert_int_equal(ab_sweep_file_records(23 * rec, rec, per_file, 3), 0);
	/* One file, cut at 7 records; a count off a record boundary keeps the
	 * whole records only (never a read past what was written). */
	assert_int_equal(ab_sweep_file_records(7 * rec, rec, per_file, 0), 7);
	assert_int_equal(ab_sweep_file_records(7 * rec + 100, rec, per_file, 0), 7);
	/* Nothing written: nothing to read. */
	assert_int_equal(ab_sweep_file_records(0, rec, per_file, 0), 0);
	/* All of it written: the files whole. */
	assert_int_equal(ab_sweep_file_records(20 * rec, rec, per_file, 1), 10);
	/* A file number whose offset would overflow: none. */
	assert_int_equal(ab_sweep_file_records(23 * rec, rec, per_file, UINT64_MAX / 2), 0);
}

/* A sweep cell read back from JSON: hand edits the sweep could not have
 * made (dropped from the grid, kept in sweep-csv) are refused, naming the
 * member. */
static void test_read_back(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	run->run_id = g_strdup("r1");
	ab_run_add_result(run, cell(64, 4, "write", 1000, "warm", NAN, AB_SWEEP_TIME_FLUSH));
	g_autofree char *line = ab_json_format(run);
	GError *e = NULL;
	g_autoptr(ab_run) back = ab_reader_json.read_line(line, &e);
	assert_null(e);
	assert_non_null(back);
	const char *bad[][3] = {
		{ "\"test\":\"write\"", "\"test\":\"bogus\"", "member 'phases[0].key.test': unknown sweep test 'bogus'" },
		{ "\"test\":\"write\"", "\"test\":\"wr,ite\"", "unknown sweep test" },
		{ "\"test\":\"write\"", "\"test\":null", "member 'phases[0].key.test': missing" },
		{ "\"record_size_bytes\":4096", "\"record_size_bytes\":0", "member 'phases[0].key.record_size_bytes'" },
		{ "\"record_size_bytes\":4096", "\"record_size_bytes\":1048576", "not dividing the file size" },
		{ "\"record_size_bytes\":4096", "\"record_size_bytes\":12288", "not dividing the file size" },
		{ "\"file_size_bytes\":65536", "\"file_size_bytes\":null", "member 'phases[0].key.file_size_bytes'" },
		{ "\"timed\":[\"write\",\"fsync\"]", "\"timed\":5", "member 'phases[0].timed': not an array" },
		{ "\"timed\":[\"write\",\"fsync\"]", "\"timed\":[\"write\",1]", "element 1 is not a string" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		const char *at = strstr(line, bad[i][0]);
		if (!at)
			fail_msg("no '%s' in %s", bad[i][0], line);
		g_autofree char *head = g_strndup(line, (gsize)(at - line));
		g_autofree char *edited = g_strconcat(head, bad[i][1], at + strlen(bad[i][0]), NULL);
		struct ab_run *r = ab_reader_json.read_line(edited, &e);
		assert_null(r);
		expect_error(e, 1, bad[i][2]);
		g_clear_error(&e);
	}
}

/* The parent's mincore covers only the cell's file: with -u the user may
 * put a sparse file of terabytes (or an exabyte) in the test file's place,
 * whose windows it would otherwise map one by one for hours. */
static void test_residency_cap(void **state)
{
	(void)state;
	char path[] = "/var/tmp/ab-sweep-residency.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	enum { CELL = 64 * 1024 };
	g_autofree char *buf = g_malloc0(CELL);
	assert_int_equal(pwrite(fd, buf, CELL, 0), CELL);
	if (ftruncate(fd, (off_t)4 << 40) != 0) { /* 4 TiB, sparse */
		close(fd);
		skip();
	}
	assert_int_equal(pread(fd, buf, CELL, 0), CELL);
	gint64 t0 = g_get_monotonic_time();
	double share = ab_file_resident_share(fd, CELL);
	gint64 took = g_get_monotonic_time() - t0;
	close(fd);
	if (!(share > 0.9))
		fail_msg("the cell's 64k, just read, show %.3f resident: the share is of more than the cell", share);
	if (took > G_USEC_PER_SEC)
		fail_msg("the cell's residency took %" G_GINT64_FORMAT " us", took);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timing_rules),
		cmocka_unit_test(test_test_table),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_stream_names),
		cmocka_unit_test(test_written_carried),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_residency_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
