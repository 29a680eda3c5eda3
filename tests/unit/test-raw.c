/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The raw baseline: the transfer loop on a plain file (counts, caps, stop,
 * a short device, the written data), --block-size's bounds, the phases'
 * registry facts, a raw run through the table and a JSON round trip, and
 * the efficiency lines (their ceilings, every md level spelling). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/base/raid-level.h"
#include "../../src/suite/rawdev.h"
#include "../../reports/report.h"
#include "../../workloads/raw.h"

#define BLOCK 8192

/* A temporary file of `blocks` blocks, open read-write; its path in *path. */
static int temp_file(uint64_t blocks, char **path)
{
	int fd = g_file_open_tmp("test-raw-XXXXXX", path, NULL);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)(blocks * BLOCK)), 0);
	return fd;
}

static struct ab_sample *sample_new(void)
{
	struct ab_sample *sm = g_new0(struct ab_sample, 1);
	ab_histogram_init(&sm->latency);
	return sm;
}

/* Reads up to `blocks` blocks of a file of file_blocks, with the stop
 * flag and time cap given; the sample and the loop's return in *rc. */
static struct ab_sample *read_file(uint64_t file_blocks, uint64_t blocks, sig_atomic_t stop, uint64_t max_ns,
				   int *rc)
{
	g_autofree char *path = NULL;
	int fd = temp_file(file_blocks, &path);
	g_autofree unsigned char *buf = g_malloc(BLOCK);
	volatile sig_atomic_t flag = stop;
	struct ab_raw_io io = { .fd = fd, .name = "/dev/x", .block = BLOCK, .blocks = blocks, .buf = buf,
				.stop = &flag, .max_ns = max_ns };
	struct ab_sample *sm = sample_new();
	*rc = ab_raw_transfer(&io, sm);
	close(fd);
	g_unlink(path);
	return sm;
}

static void test_read_counts(void **state)
{
	(void)state;
	int rc;
	g_autofree struct ab_sample *sm = read_file(10, 10, 0, 0, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(sm->ops, 10);
	assert_int_equal(sm->bytes, 10 * BLOCK);
	/* One latency sample per transfer, and their sum is the elapsed time. */
	assert_int_equal(sm->latency.count, 10);
	assert_int_equal(sm->latency.sum_ns, sm->end_ns - sm->start_ns);
}

/* A device shorter than planned fails naming it and the byte, counting
 * only what was read. */
static void test_short_device(void **state)
{
	(void)state;
	int rc;
	g_autofree struct ab_sample *sm = read_file(3, 5, 0, 0, &rc);
	assert_int_equal(rc, -1);
	assert_int_equal(sm->ops, 3);
	assert_non_null(strstr(sm->error, "cannot read '/dev/x' at byte 24576: the device ended there"));
}

/* A stop request before the first block: nothing moved, no error. */
static void test_stop(void **state)
{
	(void)state;
	int rc;
	g_autofree struct ab_sample *sm = read_file(4, 4, 1, 0, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(sm->ops, 0);
	assert_int_equal(sm->bytes, 0);
}

/* A time cap of 1 ns lets exactly one transfer start. */
static void test_time_cap(void **state)
{
	(void)state;
	int rc;
	g_autofree struct ab_sample *sm = read_file(4, 4, 0, 1, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(sm->ops, 1);
}

/* Writes put the data buffer's blocks in order, none the same. */
static void test_write(void **state)
{
	(void)state;
	g_autofree char *path = NULL;
	int fd = temp_file(0, &path);
	struct ab_databuf db;
	assert_int_equal(ab_databuf_init(&db, AB_DATA_RANDOM, BLOCK, 3), 0);
	struct ab_raw_io io = { .fd = fd, .name = "dev", .write = 1, .block = BLOCK, .blocks = 6, .data = &db };
	g_autofree struct ab_sample *sm = sample_new();
	assert_int_equal(ab_raw_transfer(&io, sm), 0);
	assert_int_equal(sm->bytes, 6 * BLOCK);
	g_autofree char *text = NULL;
	gsize len = 0;
	assert_true(g_file_get_contents(path, &text, &len, NULL));
	assert_int_equal(len, 6 * BLOCK);
	for (int i = 1; i < 6; i++)
		assert_memory_not_equal(text, text + i * BLOCK, BLOCK);
	ab_databuf_clear(&db);
	close(fd);
	g_unlink(path);
}

static void test_parse_block(void **state)
{
	(void)state;
	uint32_t v = 0;
	assert_true(ab_rawdev_parse_block("4m", &v, NULL));
	assert_int_equal(v, 4 << 20);
	assert_true(ab_rawdev_parse_block("1536k", &v, NULL)); /* three 512k chunks: a stripe */
	assert_int_equal(v, 1536 << 10);
	assert_true(ab_rawdev_parse_block("4096", &v, NULL));
	const char *bad[] = { "3", "0", "6000", "2k", "512m", "1t", "99999999999999999999", "-4k", "4x", "", NULL };
	for (const char **b = bad; *b; b++) {
		g_autoptr(GError) error = NULL;
		assert_false(ab_rawdev_parse_block(*b, &v, &error));
		assert_int_equal(error->code, AB_ERROR_USAGE);
		g_autofree char *quoted = g_strdup_printf("'%s'", *b);
		assert_non_null(strstr(error->message, quoted));
	}
}

static void test_registry(void **state)
{
	(void)state;
	const struct ab_phase *r = ab_phase_by_name("raw-read"), *w = ab_phase_by_name("raw-write");
	assert_ptr_equal(r, &ab_phase_raw_read);
	assert_ptr_equal(w, &ab_phase_raw_write);
	/* Never bonnie++'s: no CSV column, not among ids 0..AB_PHASE_COUNT-1. */
	assert_int_equal(r->csv_rate_col, -1);
	assert_true(r->id > AB_PHASE_COUNT && w->id > AB_PHASE_COUNT);
	assert_true(r->flags & AB_PHASE_DEVICE);
	assert_true((w->flags & AB_PHASE_DEVICE) && (w->flags & AB_PHASE_WRITES));
	assert_string_equal(ab_rate_unit_name(r->unit), "KiB/s");
}

static struct ab_run *raw_run(void)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup("0.1.0");
	run->run_id = g_strdup("id1");
	run->cond.io_chunk = 4 << 20;
	run->target.backend = g_strdup("raw");
	g_ptr_array_add(run->target.members, g_strdup("/dev/disk/by-id/a-long-name-of-a-disk"));
	for (int w = 0; w < 2; w++) {
		struct ab_result *res = ab_result_new(w ? "raw-write" : "raw-read");
		res->key.test = g_strdup("/dev/disk/by-id/a-long-name-of-a-disk");
		res->key.record_size = 4 << 20;
		res->rate = w ? 1000 : 2000;
		res->measurable = TRUE;
		res->cache_state = g_strdup("bypassed (O_DIRECT)");
		ab_run_add_result(run, res);
	}
	return run;
}

/* Each row names its device, and the columns stay aligned with it. */
static void test_text(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = raw_run();
	g_autofree char *text = ab_text_format(run);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	const char *head = NULL, *row = NULL;
	for (char **l = lines; *l; l++) {
		if (g_str_has_prefix(*l, "phase "))
			head = *l;
		if (g_str_has_prefix(*l, "raw-write /dev/disk/by-id/a-long-name-of-a-disk "))
			row = *l;
	}
	assert_non_null(head);
	assert_non_null(row);
	assert_non_null(strstr(text, "devices /dev/disk/by-id/a-long-name-of-a-disk"));
	/* The columns of the header end where the row's do. */
	assert_int_equal(strlen(head), strlen(row));
}

static void test_json_round_trip(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = raw_run();
	g_autofree char *json = ab_json_format(run);
	struct ab_run_set set;
	ab_run_set_init(&set);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	assert_int_equal(ab_report_read_text("x", json, strlen(json), &set, problems), 1);
	assert_int_equal(problems->len, 0);
	const struct ab_run *back = g_ptr_array_index(set.runs, 0);
	assert_int_equal(back->results->len, 2);
	const struct ab_result *w = g_ptr_array_index(back->results, 1);
	assert_string_equal(w->phase, "raw-write");
	assert_string_equal(w->key.test, "/dev/disk/by-id/a-long-name-of-a-disk");
	g_autofree char *again = ab_json_format(back);
	assert_string_equal(again, json);
	ab_run_set_clear(&set);
}

/* What the members allow, by level and direction: 4 members of 100 (the
 * slowest 40, so the sum is 340). */
static void test_efficiency_ceiling(void **state)
{
	(void)state;
	const double sum = 340, slow = 40;
	struct {
		const char *backend, *level;
		enum ab_efficiency_dir dir;
		double want;
	} cases[] = {
		/* A stripe waits for its slowest member: 4 x 40, not the sum. */
		{ "mdadm", "raid0", AB_EFFICIENCY_WRITE, 160 },  { "mdadm", "raid0", AB_EFFICIENCY_READ, 160 },
		{ "device", "single", AB_EFFICIENCY_READ, 340 }, { "btrfs", "single", AB_EFFICIENCY_WRITE, 340 },
		{ "mdadm", "raid1", AB_EFFICIENCY_READ, 340 },   { "mdadm", "raid1", AB_EFFICIENCY_WRITE, 40 },
		{ "btrfs", "raid1", AB_EFFICIENCY_WRITE, 170 },  { "mdadm", "raid10", AB_EFFICIENCY_WRITE, 80 },
		{ "mdadm", "raid10", AB_EFFICIENCY_READ, 340 },
		{ "mdadm", "raid5", AB_EFFICIENCY_READ, 120 },   { "mdadm", "raid5", AB_EFFICIENCY_WRITE, 120 },
		{ "btrfs", "raid6", AB_EFFICIENCY_WRITE, 80 },
		/* Rewrite: read at 340 then write at 80, in turn: 64.8. */
		{ "mdadm", "raid10", AB_EFFICIENCY_REWRITE, 340.0 * 80 / 420 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		double got = ab_efficiency_ceiling(cases[i].backend, cases[i].level, 4, sum, slow, cases[i].dir);
		if (fabs(got - cases[i].want) > 1e-9)
			fail_msg("%s %s dir %d: %g, want %g", cases[i].backend, cases[i].level, cases[i].dir, got,
				 cases[i].want);
	}
	assert_true(isnan(ab_efficiency_ceiling("mdadm", "raid6", 2, sum, slow, AB_EFFICIENCY_READ)));
	assert_true(isnan(ab_efficiency_ceiling("mdadm", "linear?", 4, sum, slow, AB_EFFICIENCY_WRITE)));
	assert_true(isnan(ab_efficiency_ceiling("mdadm", "raid0", 0, sum, slow, AB_EFFICIENCY_READ)));
}

/* The efficiency lines: only when every member has its raw row. */
static void test_efficiency_text(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	run->target.backend = g_strdup("btrfs");
	run->target.level = g_strdup("raid1");
	const char *members[] = { "/dev/loop7", "/dev/loop8" };
	for (int i = 0; i < 2; i++) {
		g_ptr_array_add(run->target.members, g_strdup(members[i]));
		struct ab_result *raw = ab_result_new("raw-read");
		raw->key.test = g_strdup(members[i]);
		raw->rate = 1000;
		ab_run_add_result(run, raw);
	}
	struct ab_result *bw = ab_result_new("block-write");
	bw->rate = 500;
	ab_run_add_result(run, bw);
	g_autoptr(GString) s = g_string_new(NULL);
	ab_text_efficiency(s, run);
	/* Two copies: writes allow 1000 of the 2000 read; each rate as the
	 * table prints it. */
	assert_non_null(strstr(s->str, "block-write          500.0 of       1000 KiB/s   50.0%"));
	/* A figure over 1000 is the table's whole part, not one more (issue
	 * 20: 237355 in the table, 237356 in the efficiency line). */
	bw->rate = 237355.62;
	g_string_truncate(s, 0);
	ab_text_efficiency(s, run);
	assert_non_null(strstr(s->str, "block-write         237355 of "));
	g_autofree char *table = ab_text_format(run);
	assert_non_null(strstr(table, " 237355 KiB/s "));
	assert_null(strstr(table, "237356"));
	g_ptr_array_add(run->target.members, g_strdup("/dev/loop9"));
	g_string_truncate(s, 0);
	ab_text_efficiency(s, run);
	assert_int_equal(s->len, 0);
}

/* Every md level spelling --array takes ("10" as "raid10", "1+0"): a run
 * of the mdadm backend records the word as typed, and its efficiency
 * lines read it as that level.  4 members read raw at 100, 100, 100 and
 * 40 (the sum 340, the slowest 40). */
static void test_efficiency_level_spellings(void **state)
{
	(void)state;
	struct {
		const char *word, *canonical;
		const char *write_ceiling; /* as the line prints it */
		const char *rule;
	} cases[] = {
		{ "0", "raid0", "160.0", "vs the slowest member times the members" },
		{ "raid0", "raid0", "160.0", "vs the slowest member times the members" },
		{ "1", "raid1", "40.0", "writes vs the slowest member" },
		{ "raid1", "raid1", "40.0", "writes vs the slowest member" },
		{ "4", "raid4", "120.0", "times the data members" },
		{ "raid4", "raid4", "120.0", "times the data members" },
		{ "5", "raid5", "120.0", "times the data members" },
		{ "raid5", "raid5", "120.0", "times the data members" },
		{ "6", "raid6", "80.0", "times the data members" },
		{ "raid6", "raid6", "80.0", "times the data members" },
		{ "10", "raid10", "80.0", "times half the members (two copies)" },
		{ "raid10", "raid10", "80.0", "times half the members (two copies)" },
		{ "1+0", "raid1+0", "80.0", "times half the members (two copies)" },
		{ "raid1+0", "raid1+0", "80.0", "times half the members (two copies)" },
	};
	const char *members[] = { "/dev/loop4", "/dev/loop5", "/dev/loop6", "/dev/loop7" };
	const double raw[] = { 100, 100, 100, 40 };
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ab_run) run = ab_run_new();
		run->target.backend = g_strdup("mdadm");
		run->target.level = g_strdup(cases[i].word);
		for (size_t m = 0; m < G_N_ELEMENTS(members); m++) {
			g_ptr_array_add(run->target.members, g_strdup(members[m]));
			struct ab_result *r = ab_result_new("raw-read");
			r->key.test = g_strdup(members[m]);
			r->rate = raw[m];
			ab_run_add_result(run, r);
		}
		struct ab_result *bw = ab_result_new("block-write");
		bw->rate = 17;
		ab_run_add_result(run, bw);
		g_autoptr(GString) s = g_string_new(NULL);
		ab_text_efficiency(s, run);
		g_autofree char *head = g_strdup_printf("efficiency: mdadm %s of 4,", cases[i].canonical);
		g_autofree char *line = g_strdup_printf("  block-write           17.0 of %10s KiB/s", cases[i].write_ceiling);
		if (!strstr(s->str, head) || !strstr(s->str, line) || !strstr(s->str, cases[i].rule))
			fail_msg("--array '%s': want '%s', '%s' and '%s' in:\n%s", cases[i].word, head, line,
				 cases[i].rule, s->str);
		assert_string_equal(ab_raid_level_canonical(cases[i].word), cases[i].canonical);
	}
	/* Words that are no md level stay as they are. */
	assert_null(ab_raid_level_canonical("single"));
	assert_null(ab_raid_level_canonical("raid7"));
	assert_null(ab_raid_level_canonical("raid"));
	assert_null(ab_raid_level_canonical("10 "));
	assert_null(ab_raid_level_canonical(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_counts), cmocka_unit_test(test_short_device),
		cmocka_unit_test(test_stop),        cmocka_unit_test(test_time_cap),
		cmocka_unit_test(test_write),       cmocka_unit_test(test_parse_block),
		cmocka_unit_test(test_registry),    cmocka_unit_test(test_text),
		cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_efficiency_ceiling),
		cmocka_unit_test(test_efficiency_text), cmocka_unit_test(test_efficiency_level_spellings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
