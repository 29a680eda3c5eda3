/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep grid: iozone -a's cells, explicit lists, parsers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/base/error.h"
#include "../../src/options/sweep-grid.h"

#define K ((uint64_t)1024)
#define M (K * K)

static gboolean has_cell(const GArray *cells, uint64_t file, uint64_t record)
{
	for (guint i = 0; i < cells->len; i++) {
		const struct ab_sweep_cell *c = &g_array_index(cells, struct ab_sweep_cell, i);
		if (c->file_size == file && c->record == record)
			return TRUE;
	}
	return FALSE;
}

/* Row order: file size, then record, each strictly ascending. */
static void assert_row_order(const GArray *cells)
{
	for (guint i = 1; i < cells->len; i++) {
		const struct ab_sweep_cell *a = &g_array_index(cells, struct ab_sweep_cell, i - 1);
		const struct ab_sweep_cell *b = &g_array_index(cells, struct ab_sweep_cell, i);
		assert_true(a->file_size < b->file_size ||
			    (a->file_size == b->file_size && a->record < b->record));
	}
}

static GArray *u64s(size_t n, const uint64_t *v)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_array_append_vals(a, v, (guint)n);
	return a;
}

static void assert_values(const GArray *a, size_t n, const uint64_t *want)
{
	assert_non_null(a);
	assert_int_equal(a->len, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(g_array_index(a, uint64_t, i), want[i]);
}

static void test_default_grid(void **state)
{
	(void)state;
	struct ab_sweep_grid g = { 0 };
	ab_sweep_grid_default(&g);
	assert_int_equal(g.file_sizes->len, 14); /* 64k .. 512m */
	assert_int_equal(g.records->len, 13);    /* 4k .. 16m */
	assert_false(g.records_given);
	assert_int_equal(g_array_index(g.file_sizes, uint64_t, 0), 64 * K);
	assert_int_equal(g_array_index(g.file_sizes, uint64_t, 13), 512 * M);
	assert_int_equal(g_array_index(g.records, uint64_t, 0), 4 * K);
	assert_int_equal(g_array_index(g.records, uint64_t, 12), 16 * M);

	g_autoptr(GArray) cells = ab_sweep_grid_cells(&g);
	/* 64k..16m files: 5+6+...+13 = 81 cells; 32m..512m: 64k..16m records,
	 * 9 each, 45 cells. */
	assert_int_equal(cells->len, 126);
	assert_row_order(cells);
	const struct ab_sweep_cell *first = &g_array_index(cells, struct ab_sweep_cell, 0);
	assert_int_equal(first->file_size, 64 * K);
	assert_int_equal(first->record, 4 * K);

	/* Record never larger than the file. */
	assert_true(has_cell(cells, 64 * K, 64 * K));
	assert_false(has_cell(cells, 64 * K, 128 * K));
	assert_true(has_cell(cells, 1 * M, 1 * M));
	assert_false(has_cell(cells, 1 * M, 2 * M));
	/* The crossover: 16m still has small records, 32m does not. */
	assert_true(has_cell(cells, 16 * M, 4 * K));
	assert_true(has_cell(cells, 16 * M, 32 * K));
	assert_true(has_cell(cells, 16 * M, 16 * M));
	assert_false(has_cell(cells, 32 * M, 4 * K));
	assert_false(has_cell(cells, 32 * M, 32 * K));
	assert_true(has_cell(cells, 32 * M, 64 * K));
	assert_true(has_cell(cells, 512 * M, 64 * K));
	assert_true(has_cell(cells, 512 * M, 16 * M));
	assert_false(has_cell(cells, 512 * M, 4 * K));

	/* Default over a grid already held frees it (ASan would tell). */
	ab_sweep_grid_default(&g);
	assert_int_equal(g.file_sizes->len, 14);
	ab_sweep_grid_clear(&g);
	assert_null(g.file_sizes);
	assert_null(g.records);
	ab_sweep_grid_clear(&g);
}

static void test_crossover_is_larger_than_16m(void **state)
{
	(void)state;
	/* Not a doubling size: "larger than 16 MiB" is the rule, not ">= 32m". */
	const uint64_t files[] = { 16 * M, 20 * M };
	const uint64_t records[] = { 4 * K, 64 * K };
	struct ab_sweep_grid g = { .file_sizes = u64s(2, files), .records = u64s(2, records) };
	g_autoptr(GArray) cells = ab_sweep_grid_cells(&g);
	assert_int_equal(cells->len, 3);
	assert_true(has_cell(cells, 16 * M, 4 * K));
	assert_false(has_cell(cells, 20 * M, 4 * K));
	assert_true(has_cell(cells, 20 * M, 64 * K));
	ab_sweep_grid_clear(&g);
}

static void test_explicit_records_honoured(void **state)
{
	(void)state;
	const uint64_t files[] = { 16 * K, 1 * M, 512 * M };
	const uint64_t records[] = { 4 * K, 16 * K, 32 * M };
	struct ab_sweep_grid g = {
		.file_sizes = u64s(3, files), .records = u64s(3, records), .records_given = TRUE,
	};
	g_autoptr(GArray) cells = ab_sweep_grid_cells(&g);
	assert_row_order(cells);
	/* Small records on a big file are kept; only 32m on the small files goes. */
	const struct ab_sweep_cell want[] = {
		{ 16 * K, 4 * K }, { 16 * K, 16 * K },
		{ 1 * M, 4 * K }, { 1 * M, 16 * K },
		{ 512 * M, 4 * K }, { 512 * M, 16 * K }, { 512 * M, 32 * M },
	};
	assert_int_equal(cells->len, G_N_ELEMENTS(want));
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		assert_int_equal(g_array_index(cells, struct ab_sweep_cell, i).file_size, want[i].file_size);
		assert_int_equal(g_array_index(cells, struct ab_sweep_cell, i).record, want[i].record);
	}

	/* The same lists without records_given: the crossover drops them. */
	g.records_given = FALSE;
	g_autoptr(GArray) crossed = ab_sweep_grid_cells(&g);
	assert_int_equal(crossed->len, 5);
	assert_false(has_cell(crossed, 512 * M, 4 * K));
	assert_false(has_cell(crossed, 512 * M, 16 * K));
	assert_true(has_cell(crossed, 512 * M, 32 * M));
	ab_sweep_grid_clear(&g);
}

static void test_empty_grid(void **state)
{
	(void)state;
	struct ab_sweep_grid g = { 0 };
	g_autoptr(GArray) cells = ab_sweep_grid_cells(&g);
	assert_non_null(cells);
	assert_int_equal(cells->len, 0);
}

static void test_parse_range(void **state)
{
	(void)state;
	g_autoptr(GArray) r = NULL;
	assert_true(ab_sweep_parse_records("--r", "4k-64k", 4 * K, 16 * M, &r, NULL));
	assert_values(r, 5, (const uint64_t[]){ 4 * K, 8 * K, 16 * K, 32 * K, 64 * K });

	g_autoptr(GArray) one = NULL;
	assert_true(ab_sweep_parse_records("--r", "1m-1m", 4 * K, 16 * M, &one, NULL));
	assert_values(one, 1, (const uint64_t[]){ 1 * M });

	/* Plain numbers are KiB, as in iozone. */
	g_autoptr(GArray) f = NULL;
	assert_true(ab_sweep_parse_sizes("--f", "64-256", 4 * K, 1 * M * M, &f, NULL));
	assert_values(f, 3, (const uint64_t[]){ 64 * K, 128 * K, 256 * K });

	/* The default grid's file sizes, spelled as a range. */
	g_autoptr(GArray) d = NULL;
	assert_true(ab_sweep_parse_sizes("--f", "64k-512M", 4 * K, 1 * M * M, &d, NULL));
	assert_int_equal(d->len, 14);
	assert_int_equal(g_array_index(d, uint64_t, 13), 512 * M);

	/* Up to 2^63, the largest power of two: doubling past it must not
	 * wrap to zero and loop for ever. */
	g_autoptr(GArray) big = NULL;
	assert_true(ab_sweep_parse_sizes("--f", "4194304t-8388608t", 4 * K, UINT64_MAX, &big, NULL));
	assert_values(big, 2, (const uint64_t[]){ (uint64_t)1 << 62, (uint64_t)1 << 63 });
}

static void test_parse_list(void **state)
{
	(void)state;
	g_autoptr(GArray) r = NULL;
	assert_true(ab_sweep_parse_records("--r", "64k,4k,16K,4,1m,64k", 4 * K, 16 * M, &r, NULL));
	assert_values(r, 4, (const uint64_t[]){ 4 * K, 16 * K, 64 * K, 1 * M });

	/* File sizes need not be powers of two, only whole 4 KiB pages. */
	g_autoptr(GArray) f = NULL;
	assert_true(ab_sweep_parse_sizes("--f", "1g,12k,20m,12", 4 * K, 1 * M * M, &f, NULL));
	assert_values(f, 3, (const uint64_t[]){ 12 * K, 20 * M, 1024 * M });

	/* Exactly 64 distinct values is allowed. */
	GString *s = g_string_new(NULL);
	for (int i = 1; i <= 64; i++)
		g_string_append_printf(s, "%s%dk", i > 1 ? "," : "", 4 * i);
	g_autoptr(GArray) many = NULL;
	assert_true(ab_sweep_parse_sizes("--f", s->str, 4 * K, 1 * M, &many, NULL));
	assert_int_equal(many->len, 64);
	g_string_free(s, TRUE);
}

struct refusal {
	gboolean records;
	const char *text;
	const char *message;
};

static void test_refusals(void **state)
{
	(void)state;
	static const struct refusal cases[] = {
		{ TRUE, "", "invalid --sweep-records '': empty value" },
		{ TRUE, "4k,,8k", "invalid --sweep-records '4k,,8k': empty item" },
		{ TRUE, "4k,", "invalid --sweep-records '4k,': empty item" },
		{ TRUE, "4x", "invalid --sweep-records '4x': not a size (KiB, or a number with a k, m or g suffix)" },
		{ TRUE, "4k, 8k", "invalid --sweep-records ' 8k': not a size (KiB, or a number with a k, m or g suffix)" },
		{ TRUE, "0", "invalid --sweep-records '0': must not be zero" },
		{ TRUE, "12k", "invalid --sweep-records '12k': not a power of two" },
		{ TRUE, "2k", "invalid --sweep-records '2k': smaller than 4k" },
		{ TRUE, "32m", "invalid --sweep-records '32m': larger than 16m" },
		{ TRUE, "64k-4k", "invalid --sweep-records '64k-4k': MIN is larger than MAX" },
		{ TRUE, "-4k", "invalid --sweep-records '-4k': expected MIN-MAX" },
		{ TRUE, "4k-", "invalid --sweep-records '4k-': expected MIN-MAX" },
		{ TRUE, "4k-8k-16k", "invalid --sweep-records '8k-16k': not a size (KiB, or a number with a k, m or g suffix)" },
		{ TRUE, "4k-8k,16k", "invalid --sweep-records '4k-8k': not a size (KiB, or a number with a k, m or g suffix)" },
		{ TRUE, "4k-64m", "invalid --sweep-records '64m': larger than 16m" },
		{ FALSE, "0", "invalid --sweep-file-sizes '0': must not be zero" },
		{ FALSE, "6k", "invalid --sweep-file-sizes '6k': not a multiple of 4k" },
		{ FALSE, "2g", "invalid --sweep-file-sizes '2g': larger than 1g" },
		{ FALSE, "4k", "invalid --sweep-file-sizes '4k': smaller than 64k" },
		{ FALSE, "64k-12m", "invalid --sweep-file-sizes '12m': a MIN-MAX range needs powers of two" },
		{ FALSE, "96k-1m", "invalid --sweep-file-sizes '96k': a MIN-MAX range needs powers of two" },
		{ FALSE, "1m-64k", "invalid --sweep-file-sizes '1m-64k': MIN is larger than MAX" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct refusal *c = &cases[i];
		GArray *out = NULL;
		GError *e = NULL;
		gboolean ok = c->records
			? ab_sweep_parse_records("--sweep-records", c->text, 4 * K, 16 * M, &out, &e)
			: ab_sweep_parse_sizes("--sweep-file-sizes", c->text, 64 * K, 1024 * M, &out, &e);
		if (ok || !e || !g_str_equal(e->message, c->message))
			fail_msg("'%s': got %s, want %s", c->text, e ? e->message : "success", c->message);
		assert_null(out);
		assert_int_equal(e->code, AB_ERROR_USAGE);
		g_error_free(e);
	}
}

static void test_too_many(void **state)
{
	(void)state;
	GString *s = g_string_new(NULL);
	for (int i = 1; i <= 65; i++)
		g_string_append_printf(s, "%s%dk", i > 1 ? "," : "", 4 * i);
	g_autofree char *want = g_strdup_printf("invalid --sweep-file-sizes '%s': 65 sizes, at most 64 allowed", s->str);
	GArray *out = NULL;
	GError *e = NULL;
	assert_false(ab_sweep_parse_sizes("--sweep-file-sizes", s->str, 4 * K, 1 * M, &out, &e));
	assert_null(out);
	assert_string_equal(e->message, want);
	g_error_free(e);
	g_string_free(s, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_grid),
		cmocka_unit_test(test_crossover_is_larger_than_16m),
		cmocka_unit_test(test_explicit_records_honoured),
		cmocka_unit_test(test_empty_grid),
		cmocka_unit_test(test_parse_range),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
