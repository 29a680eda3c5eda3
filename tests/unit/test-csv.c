/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bonnie++ CSV writer: layout, special values, units. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../reports/report.h"
#include "../../workloads/phase.h"

#define AB_MIB ((uint64_t)1 << 20)

static void test_latency_format(void **state)
{
	(void)state;
	char b[32];
	const struct { uint64_t ns; const char *want; } cases[] = {
		{ AB_UNSET, "" },
		{ 0, "0us" },
		{ 500, "0us" },
		{ 24000, "24us" },
		{ 24999, "24us" },             /* truncated, not rounded */
		{ 99999000, "99999us" },
		{ 99999500, "99ms" },
		{ 1560000000, "1560ms" },
		{ 99999999000ull, "99999ms" },
		{ 100000000000ull, "100s" },
		{ 123456000000ull, "123s" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ab_csv_format_latency(cases[i].ns, b, sizeof(b));
		assert_string_equal(b, cases[i].want);
	}
	ab_csv_format_chunk(4096, b, sizeof(b));
	assert_string_equal(b, "4k");
	ab_csv_format_chunk(1 << 20, b, sizeof(b));
	assert_string_equal(b, "1m");
	ab_csv_format_chunk(512, b, sizeof(b));
	assert_string_equal(b, "512");
}

struct fixture {
	struct ab_run *run;
};

static void remove_result(struct ab_run *run, enum ab_phase_id id)
{
	for (guint i = 0; i < run->results->len; i++)
		if (strcmp(((struct ab_result *)g_ptr_array_index(run->results, i))->phase, ab_phase_by_id(id)->name) == 0)
			g_ptr_array_remove_index(run->results, i--);
}

static void set_result(struct ab_run *run, enum ab_phase_id id, double rate, double cpu, gboolean measurable,
		       uint64_t max_ns)
{
	remove_result(run, id);
	struct ab_result *r = ab_result_new(ab_phase_by_id(id)->name);
	r->rate = rate;
	r->cpu_percent = cpu;
	r->measurable = measurable;
	r->latency.max_ns = max_ns ? max_ns : AB_UNSET;
	ab_run_add_result(run, r);
}

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);
	f->run = ab_run_new();
	f->run->tool = g_strdup("arraybench");
	f->run->tool_version = g_strdup(AB_VERSION);
	f->run->concurrency = 1;
	struct ab_conditions *c = &f->run->cond;
	c->file_size = 1024 * AB_MIB;
	c->io_chunk = 8192;
	c->seeks = 8192;
	c->seekers = 5;
	c->num_files_k = 16;
	c->file_kind = g_strdup("file");
	c->file_max = 0;
	c->file_min = 0;
	c->num_dirs = 1;
	c->file_chunk = 8192;
	f->run->machine = g_strdup("bbhost");
	f->run->seed = 1796222993;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	ab_run_free(f->run);
	g_free(f);
	return 0;
}

static char **fields_of(const char *line, guint *n)
{
	g_assert(g_str_has_suffix(line, "\n"));
	g_autofree char *copy = g_strndup(line, strlen(line) - 1);
	char **v = g_strsplit(copy, ",", -1);
	*n = g_strv_length(v);
	return v;
}

/* Every phase ran, with a rate, CPU and maximum latency of its own, and
 * every size field set away from its default: each of the 50 fields has a
 * value only its own column could hold. */
static void test_full_line(void **state)
{
	struct fixture *f = *state;
	f->run->cond.file_size = 1536 * AB_MIB;
	f->run->cond.io_chunk = 4096;
	f->run->cond.seekers = 7;
	f->run->cond.num_files_k = 3;
	f->run->cond.file_max = 2000;
	f->run->cond.file_min = 100;
	f->run->cond.num_dirs = 9;
	f->run->cond.file_chunk = 16384;
	const double rate[AB_PHASE_COUNT] = { 1001.9, 2002, 3003, 4004, 5005, 606.66,
					      7007, 8008, 9009, 10010, 11011, 12012 };
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		set_result(f->run, id, rate[id], 11.0 + id + 0.9, TRUE, (101 + id) * 1000ull);
	f->run->cond.seeks = 32768; /* grown: the count of the reported pass */
	g_autofree char *line = ab_csv_format_line(f->run);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	const char *want[AB_CSV_FIELDS] = {
		"1.98", "arraybench-" AB_VERSION, "bbhost", "1", "1796222993",
		"1536M", "4k", "32768", "7",                      /* 5-8: size, chunk, seeks, seekers */
		"1001", "11", "2002", "12", "3003", "13",         /* 9-14: putc, put_block, rewrite */
		"4004", "14", "5005", "15", "606.7", "16",        /* 15-20: getc, get_block, seeks */
		"3", "2000", "100", "9", "16k",                   /* 21-25: files, max, min, dirs, chunk */
		"7007", "17", "8008", "18", "9009", "19",         /* 26-31: seq create, stat, delete */
		"10010", "20", "11011", "21", "12012", "22",      /* 32-37: rand create, stat, delete */
		"101us", "102us", "103us", "104us", "105us", "106us", /* 38-43: I/O latencies */
		"107us", "108us", "109us", "110us", "111us", "112us", /* 44-49: file latencies */
	};
	assert_int_equal(n, AB_CSV_FIELDS);
	for (int i = 0; i < AB_CSV_FIELDS; i++) {
		if (strcmp(v[i], want[i]) != 0)
			fail_msg("field %d is '%s', want '%s'", i, v[i], want[i]);
	}
	assert_null(strchr(line, ' '));

	/* Seeks over 1000 lose their decimal; a seek count given stays as given. */
	set_result(f->run, AB_PHASE_SEEKS, 4321.5, 50, TRUE, 1);
	g_autofree char *line2 = ab_csv_format_line(f->run);
	g_auto(GStrv) v2 = fields_of(line2, &n);
	assert_string_equal(v2[19], "4322");
}

/* Nothing ran: every field after the seed is empty, whatever the sizes. */
static void test_nothing_ran(void **state)
{
	struct fixture *f = *state;
	g_autofree char *line = ab_csv_format_line(f->run);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	assert_int_equal(n, AB_CSV_FIELDS);
	for (int i = 5; i < AB_CSV_FIELDS; i++)
		if (*v[i])
			fail_msg("field %d is '%s' with no phase run", i, v[i]);
}

/* Only file phases ran (with -s set): fields 5-20 and 38-43 are empty, or
 * bon_csv2txt prints an empty I/O row; and the other way round. */
static void test_one_group_ran(void **state)
{
	struct fixture *f = *state;
	set_result(f->run, AB_PHASE_SEQ_STAT, 50000, 99, TRUE, 2000);
	g_autofree char *line = ab_csv_format_line(f->run);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	assert_int_equal(n, AB_CSV_FIELDS);
	for (int i = 5; i < AB_CSV_FIELDS; i++) {
		gboolean filled = i == 21 || i == 28 || i == 29 || i == 45;
		if (filled != (*v[i] != '\0'))
			fail_msg("field %d is '%s'", i, v[i]);
	}
	remove_result(f->run, AB_PHASE_SEQ_STAT);
	set_result(f->run, AB_PHASE_BLOCK_READ, 50000, 99, TRUE, 2000);
	g_autofree char *l2 = ab_csv_format_line(f->run);
	g_auto(GStrv) v2 = fields_of(l2, &n);
	for (int i = 5; i < AB_CSV_FIELDS; i++) {
		gboolean filled = i == 5 || i == 7 || i == 8 || i == 17 || i == 18 || i == 42;
		if (filled != (*v2[i] != '\0'))
			fail_msg("field %d is '%s'", i, v2[i]);
	}
	assert_string_equal(v2[7], "8192"); /* no seeks phase: the configured count */
}

static void test_special_values(void **state)
{
	struct fixture *f = *state;
	/* -f: per-char not run -> empty rate, cpu and latency; too fast ->
	 * +++++/+++ with the latency still written. */
	set_result(f->run, AB_PHASE_BLOCK_WRITE, 270058, 42, TRUE, 4109000);
	set_result(f->run, AB_PHASE_BLOCK_READ, 1e7, 50, FALSE, 133000);
	set_result(f->run, AB_PHASE_SEQ_CREATE, 5000, 50, TRUE, 1000);
	f->run->cond.io_chunk = 4096;
	f->run->cond.file_size = 1536 * AB_MIB;
	g_free(f->run->cond.file_kind);
	f->run->cond.file_kind = g_strdup("symlink");
	f->run->cond.num_dirs = 3;
	f->run->cond.file_chunk = 4096;
	g_autofree char *line = ab_csv_format_line(f->run);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	assert_int_equal(n, AB_CSV_FIELDS);
	assert_string_equal(v[5], "1536M");
	assert_string_equal(v[6], "4k");
	assert_string_equal(v[9], "");
	assert_string_equal(v[10], "");
	assert_string_equal(v[11], "270058");
	assert_string_equal(v[17], "+++++");
	assert_string_equal(v[18], "+++");
	assert_string_equal(v[38], "");
	assert_string_equal(v[42], "133us");
	assert_string_equal(v[22], "symlink");
	assert_string_equal(v[23], "");
	assert_string_equal(v[24], "3");
	assert_string_equal(v[25], "4k");
	g_free(f->run->cond.file_kind);
	f->run->cond.file_kind = g_strdup("hardlink");
	g_autofree char *l2 = ab_csv_format_line(f->run);
	assert_non_null(strstr(l2, ",16,link,,3,4k,"));
}

static void test_skipped_sections(void **state)
{
	struct fixture *f = *state;
	/* -s 0: fields 5-20 empty; -n 0: fields 21-37 empty. */
	f->run->cond.file_size = 0;
	f->run->cond.num_files_k = 0;
	g_autofree char *line = ab_csv_format_line(f->run);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	assert_int_equal(n, AB_CSV_FIELDS);
	for (int i = 5; i < AB_CSV_FIELDS; i++)
		assert_string_equal(v[i], "");
	f->run->cond.num_files_k = 64;
	f->run->cond.file_max = 4096;
	set_result(f->run, AB_PHASE_SEQ_CREATE, 17055.9, 47.2, TRUE, 8102000);
	g_autofree char *l2 = ab_csv_format_line(f->run);
	assert_string_equal(strchr(l2, ',') ? l2 + strlen("1.98,arraybench-" AB_VERSION ",bbhost,1,1796222993") : "",
			    ",,,,,,,,,,,,,,,,,64,4096,,,,17055,47,,,,,,,,,,,,,,,,,8102us,,,,,\n");
}

/* Names come from JSON too, where they may hold anything: a comma, a
 * newline or a CR in the machine, seed or version would break the line
 * into more fields or lines (bon_csv2txt then reads garbage). */
static void test_free_text(void **state)
{
	struct fixture *f = *state;
	g_free(f->run->machine);
	f->run->machine = g_strdup("ho,st\nx\r\ty\x1b\x7f z");
	f->run->seed_text = g_strdup("se,ed\n");
	g_free(f->run->tool);
	f->run->tool = g_strdup("bonnie++");
	g_free(f->run->tool_version);
	f->run->tool_version = g_strdup("2,0\r");
	set_result(f->run, AB_PHASE_SEQ_CREATE, 5000, 50, TRUE, 1000);
	g_autofree char *line = ab_csv_format_line(f->run);
	assert_null(strpbrk(line, "\r\t\x1b\x7f"));
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
	guint n;
	g_auto(GStrv) v = fields_of(line, &n);
	assert_int_equal(n, AB_CSV_FIELDS);
	assert_string_equal(v[1], "2_0_");
	assert_string_equal(v[2], "ho_st_x__y__ z");
	assert_string_equal(v[4], "se_ed_");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_format),
		cmocka_unit_test_setup_teardown(test_full_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_ran, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_group_ran, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skipped_sections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_text, setup, teardown),
	};
	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
