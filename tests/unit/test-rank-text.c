/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text table of a run on many ranks: the header's ranks line, and
 * after the main table a block per result with one row per rank, the
 * aggregate row and the timebase's figures; none of it off MPI. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../reports/report.h"
#include "rank-run.h"

static guint count(const char *hay, const char *needle)
{
	guint n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The line of s that starts with prefix, or fails. */
static char *line_of(const char *s, const char *prefix)
{
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, prefix))
			return g_strdup(*l);
	fail_msg("no line starting '%s' in:\n%s", prefix, s);
	return NULL;
}

static void test_rank_block(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = rank_run_of("mpi");
	g_autofree char *text = ab_text_format(run);
	g_autofree char *ranks = line_of(text, "ranks   ");
	assert_string_equal(ranks, "ranks   4 on 2 nodes  layout private  library Open MPI v4.1.6, package: Debian");
	/* After the main table. */
	const char *table = strstr(text, "\nphase ");
	const char *block = strstr(text, "per rank: block-write (rate in KiB/s;");
	assert_non_null(table);
	assert_non_null(block);
	assert_true(block > table);
	g_autofree char *head = line_of(block, " rank ");
	assert_non_null(strstr(head, "barrier wait"));
	/* Rank 2: half as fast, its own rate, its start and stop, its wait
	 * and CPU, and the mark. */
	g_autofree char *slow = line_of(block, "    2 node-b");
	assert_string_equal(slow, "    2 node-b                 2           4096     0.0002     4.0002        200us     2.75  outlier");
	g_autofree char *fast = line_of(block, "    3 node-b");
	assert_null(strstr(fast, "outlier"));
	assert_int_equal(count(block, "  outlier\n"), 1);
	/* The aggregate: the result's rate over the ranks' whole span. */
	g_autofree char *all = line_of(block, "  all ");
	assert_string_equal(all, "  all                        8          16382    -0.0000     4.0002                  9.00");
	g_autofree char *clock = line_of(block, "clock bound");
	assert_string_equal(clock, "clock bound 25us  start spread 400us");
	assert_non_null(strstr(block, "outlier: a rank whose rate is more than 25% off the ranks' median\n"));
}

/* A result too short for the ranks' timebase says why. */
static void test_rank_block_too_short(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = rank_run_of("mpi");
	struct ab_result *r = g_ptr_array_index(run->results, 0);
	r->measurable = FALSE;
	r->min_measurable_s = 0.0425;
	g_autofree char *text = ab_text_format(run);
	g_autofree char *clock = line_of(text, "clock bound");
	assert_non_null(strstr(clock, "too short: a phase on many ranks must last 0.043 s"));
}

/* Off MPI: no ranks line and no block. */
static void test_no_rank_block(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	struct ab_result *r = ab_result_new("block-write");
	r->rate = 1000;
	r->measurable = TRUE;
	ab_run_add_result(run, r);
	g_autofree char *text = ab_text_format(run);
	assert_null(strstr(text, "per rank"));
	assert_null(strstr(text, "\nranks "));
	assert_null(strstr(text, "clock bound"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_block),
		cmocka_unit_test(test_rank_block_too_short),
		cmocka_unit_test(test_no_rank_block),
	};
	return cmocka_run_group_tests_name("rank-text", tests, NULL, NULL);
}
