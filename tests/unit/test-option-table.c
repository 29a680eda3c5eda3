/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option rows (src/options/option-table.h): each kind's handler and words,
 * the run's rows as the other places read them (profile keys, the given
 * mask, a matrix's own options). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/options/option-table.h"
#include "../../src/options/profile.h"
#include "../../src/options/run-options.h"
#include "run-args.h"

/* One field of each kind, for rows that are not the run's. */
struct sample {
	gboolean flag;
	uint32_t count;
	uint64_t size;
	char *text;
	GArray *list;
	int word;
};

static const struct ab_option_word sample_words[] = { { "one", 1 }, { "two", 2 }, { NULL, 0 } };

#define S(f) AB_OPTION_FIELD(struct sample, f)
static const struct ab_option_row sample_rows[] = {
	{ "flag", 'f', .kind = AB_OPTION_SWITCH, S(flag), .help = "A switch" },
	{ "count", 0, .kind = AB_OPTION_COUNT, S(count), .min = 1, .max = 9, .why = "a count from 1 to " },
	{ "own-count", 0, .kind = AB_OPTION_COUNT, S(count), .min = 1, .max = 9, .why = "must be at least 1",
	  .flags = AB_OPTION_OWN_ERROR },
	{ "size", 's', .kind = AB_OPTION_SIZE, S(size), .unit = 1024, .min = 4096, .max = 1u << 20,
	  .why = "a power of two from 4k to 1m", .flags = AB_OPTION_POWER_OF_TWO },
	{ "text", 0, .kind = AB_OPTION_STRING, S(text), .why = "value" },
	{ "list", 0, .kind = AB_OPTION_LIST, .offset = offsetof(struct sample, list), .width = sizeof(uint32_t),
	  .min = 1, .max = 8, .why = "a count from 1 to " },
	{ "word", 0, .kind = AB_OPTION_ENUM, S(word), .words = sample_words, .why = "expected 'one' or 'two'" },
};

static gboolean parse_sample(struct sample *s, uint64_t *given, GError **error, const char *a, const char *b)
{
	static const struct ab_option_command cmd = { "sample", "", "A sample.", "" };
	const struct ab_option_set set = AB_OPTION_SET(sample_rows);
	char *argv[] = { "sample", (char *)a, (char *)b, NULL };
	int argc = b ? 3 : 2;
	char **view = argv;
	return ab_option_parse(&cmd, &set, 1, s, given, &argc, &view, error);
}

static void sample_clear(struct sample *s)
{
	g_free(s->text);
	if (s->list)
		g_array_unref(s->list);
	memset(s, 0, sizeof(*s));
}

static void test_kinds(void **state)
{
	(void)state;
	struct sample s = { 0 };
	uint64_t given = 0;
	assert_true(parse_sample(&s, &given, NULL, "-f", NULL));
	assert_true(s.flag);
	assert_int_equal(given, 1u << 0);
	assert_true(parse_sample(&s, &given, NULL, "--count", "7"));
	assert_int_equal(s.count, 7);
	assert_true(parse_sample(&s, &given, NULL, "-s", "64"));
	assert_int_equal(s.size, 64 * 1024);
	assert_true(parse_sample(&s, &given, NULL, "--text", "a b"));
	assert_string_equal(s.text, "a b");
	assert_true(parse_sample(&s, &given, NULL, "--list", "3,1"));
	assert_int_equal(s.list->len, 2);
	assert_int_equal(g_array_index(s.list, uint32_t, 0), 3);
	assert_true(parse_sample(&s, &given, NULL, "--word", "two"));
	assert_int_equal(s.word, 2);
	assert_int_equal(given, (1u << 0) | (1u << 1) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6));
	sample_clear(&s);

	static const char *const bad[][3] = {
		{ "--count", "0", "invalid --count '0': a count from 1 to 9" },
		{ "--count", "10", "invalid --count '10': a count from 1 to 9" },
		{ "--own-count", "0", "invalid --own-count '0': must be at least 1" },
		{ "--own-count", "10", "--own-count: invalid count '10': must be at most 9" },
		{ "--size", "3", "invalid --size '3': a power of two from 4k to 1m" },
		{ "-s", "2g", "invalid -s '2g': a power of two from 4k to 1m" },
		{ "--text", "", "invalid --text '': empty value" },
		{ "--list", "1,,2", "invalid --list '1,,2': empty count in the list" },
		{ "--list", "2,2", "invalid --list '2': given twice in the list" },
		{ "--list", "9", "invalid --list '9': a count from 1 to 8" },
		{ "--list", ",", "invalid --list ',': empty count in the list" },
		{ "--word", "three", "invalid --word 'three': expected 'one' or 'two'" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) e = NULL;
		given = 0;
		assert_false(parse_sample(&s, &given, &e, bad[i][0], bad[i][1]));
		assert_int_equal(ab_error_exit_status(e), 1);
		assert_string_equal(e->message, bad[i][2]);
		assert_int_equal(given, 0); /* a refused value is not given */
		sample_clear(&s);
	}
}

/* Every run row: a field that fits its kind (ab_option_parse asserts it),
 * help, and a name no other row has. */
static void test_run_rows(void **state)
{
	(void)state;
	size_t n_sets;
	const struct ab_option_set *sets = ab_run_option_sets(&n_sets);
	g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
	unsigned shorts[256] = { 0 };
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct ab_option_row *row = &sets[s].rows[i];
			assert_non_null(row->help);
			if (!g_hash_table_add(names, (gpointer)row->long_name))
				fail_msg("--%s has two rows", row->long_name);
			if (row->short_name && shorts[(unsigned char)row->short_name]++)
				fail_msg("-%c has two rows", row->short_name);
			assert_ptr_equal(ab_run_option_row(row->long_name), row);
		}
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", NULL));
}

/* A profile may set exactly the rows that say so, and its own two. */
static void test_profile_keys(void **state)
{
	(void)state;
	gboolean streams = FALSE, cache = FALSE, summary = FALSE;
	for (const char *const *k = ab_profile_keys(); *k; k++) {
		streams |= g_str_equal(*k, "streams");
		cache |= g_str_equal(*k, "cache");
		summary |= g_str_equal(*k, "summary");
		if (g_str_equal(*k, "csv") || g_str_equal(*k, "device") || g_str_equal(*k, "sweep-csv"))
			fail_msg("'%s' is no profile key", *k);
	}
	assert_true(streams && cache && summary);
}

/* One rule for every family: an option counts as given whatever its
 * value, and the one named is the first of its family in the rows. */
static void test_given(void **state)
{
	(void)state;
	static const char *const cases[][6] = {
		{ "--stride", "17", NULL, NULL, "--stride applies to the record-size sweep" },
		{ "--sweep-csv", "x.csv", "--streams", "2", "--streams applies to the record-size sweep" },
		{ "--curve-steps", "3", "--rate-start", "5", "--rate-start applies to the latency curve" },
		{ "--wal-rewrite", "--wal-writers", "2", NULL, "--wal-writers applies to the wal phase" },
		{ "--oltp-mix", "50:50", NULL, NULL, "the --oltp-* options apply to the oltp phase" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		g_autoptr(GError) e = NULL;
		assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "--phases", "block-write", cases[i][0],
				       cases[i][1], cases[i][2], cases[i][3], NULL));
		assert_false(ab_config_finish(&cfg, 1ull << 30, &e));
		if (!strstr(e->message, cases[i][4]))
			fail_msg("error '%s' does not say '%s'", e->message, cases[i][4]);
	}
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--csv", "x", NULL));
	assert_null(ab_run_option_given(&cfg, AB_OPTION_SWEEP));
	assert_string_equal(ab_run_option_given(&cfg, AB_OPTION_OUTPUT), "--csv");
}

static void test_matrix_own(void **state)
{
	(void)state;
	static const char *const own[] = { "-d", "--directory", "-x", "--repeats", "-q", "--sweep-csv", "--workload" };
	for (size_t i = 0; i < G_N_ELEMENTS(own); i++)
		if (!ab_run_option_matrix_own(own[i]))
			fail_msg("a matrix should set %s itself", own[i]);
	static const char *const cells[] = { "-s", "--layout", "--chunk", "--streams", "-m", "--frob" };
	for (size_t i = 0; i < G_N_ELEMENTS(cells); i++)
		if (ab_run_option_matrix_own(cells[i]))
			fail_msg("a cell may set %s", cells[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),      cmocka_unit_test(test_run_rows),
		cmocka_unit_test(test_profile_keys), cmocka_unit_test(test_given),
		cmocka_unit_test(test_matrix_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
