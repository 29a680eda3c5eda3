/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sizing statement (reports/sizing-text.c) and the curve block's answer
 * line (reports/curve-table.c) on results such as a hand-edited JSON holds:
 * a load count that is no count, one oltp process, a sizing row with no
 * step before it.  Each line says only what the results show. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../src/model/run.h"
#include "../../reports/report.h"

#define MS 1000000ull

static struct ab_result *row(const char *phase, const char *test, uint64_t streams, double rate, uint64_t p99)
{
	struct ab_result *r = ab_result_new(phase);
	r->key.test = g_strdup(test);
	r->key.streams = streams;
	r->key.record_size = 8192;
	r->key.file_size = 16u << 20;
	r->key.pass = 1;
	r->rate = rate;
	r->latency.p99_ns = p99;
	return r;
}

static char *statement(const struct ab_run *run)
{
	g_autoptr(GString) s = g_string_new(NULL);
	ab_text_sizing(s, run);
	return g_strdup(s->str);
}

/* "under oltp x-5" or "xabc" names no process count: the line says none,
 * never 18446744073709551611 or 0 processes. */
static void test_load_not_a_count(void **state)
{
	(void)state;
	static const char *const tests[] = { "fdatasync under oltp x-5", "fdatasync under oltp xabc",
					     "fdatasync under oltp x0", "fdatasync under oltp x 7",
					     "fdatasync under oltp x99999999999999999999" };
	for (size_t i = 0; i < G_N_ELEMENTS(tests); i++) {
		g_autoptr(ab_run) run = ab_run_new();
		ab_run_add_result(run, row("wal", "fdatasync", 1, 5000, 1 * MS));
		ab_run_add_result(run, row("wal", tests[i], 1, 3000, 2 * MS));
		g_autofree char *s = statement(run);
		const char *line = strstr(s, "  commits under load: ");
		if (!line || strstr(line, "beside"))
			fail_msg("'%s': %s", tests[i], s);
	}
	/* A real count is said. */
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, row("wal", "fdatasync", 1, 5000, 1 * MS));
	ab_run_add_result(run, row("wal", "fdatasync under oltp x32", 1, 3000, 2 * MS));
	g_autofree char *s = statement(run);
	assert_non_null(strstr(s, "  commits under load: 3000/s at p99 2.00ms beside 32 oltp processes (fdatasync;"));
}

/* One process is "1 process"; an unknown count is not printed. */
static void test_oltp_processes(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, row("oltp", "read", 1, 700, 1 * MS));
	ab_run_add_result(run, row("oltp", "write", 1, 300, 2 * MS));
	ab_run_add_result(run, row("oltp", "all", 1, 1000, 2 * MS));
	g_autofree char *s = statement(run);
	assert_non_null(strstr(s, "  random 8 KiB, closed loop: 1000 IOPS with 1 process, 70% reads;"));

	/* The figure the main table shows (truncated, as bonnie++'s CSV). */
	g_autoptr(ab_run) big = ab_run_new();
	ab_run_add_result(big, row("oltp", "all", 2, 1129094.62, 2 * MS));
	g_autofree char *b = statement(big);
	assert_non_null(strstr(b, "  random 8 KiB, closed loop: 1129094 IOPS with 2 processes\n"));
	g_autofree char *table = ab_text_format(big);
	assert_non_null(strstr(table, " 1129094 IOPS "));

	g_autoptr(ab_run) unknown = ab_run_new();
	ab_run_add_result(unknown, row("oltp", "all", AB_UNSET, 1000, 2 * MS));
	g_autofree char *u = statement(unknown);
	assert_non_null(strstr(u, "  random 8 KiB, closed loop: 1000 IOPS\n"));

	/* On many ranks the count is each rank's, and the rate all of them. */
	g_autoptr(ab_run) ranks = ab_run_new();
	ranks->mpi.ranks = 4;
	ab_run_add_result(ranks, row("oltp", "all", 2, 4000, 2 * MS));
	g_autofree char *k = statement(ranks);
	assert_non_null(strstr(k, "  random 8 KiB, closed loop: 4000 IOPS with 2 processes on each of 4 ranks\n"));
}

static struct ab_result *curve_row(const char *test, double offered, double rate, uint64_t p99)
{
	struct ab_result *r = row("latency-curve", test, 4, rate, p99);
	r->offered_rate = offered;
	r->late_ops = 0;
	return r;
}

/* A sizing row with no step before it in its curve: neither the curve's
 * block nor the statement claims every step passed or which one did. */
static void test_sizing_without_steps(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	struct ab_result *sz = curve_row("sizing", NAN, 400, 10 * MS);
	sz->interpolated = FALSE;
	ab_run_add_result(run, sz);
	g_autofree char *s = statement(run);
	assert_non_null(strstr(s, "  random 8 KiB reads: 400.0 IOPS at p99 <= 10.00ms with 4 processes\n"));
	g_autoptr(GString) block = g_string_new(NULL);
	ab_text_curve(block, run);
	assert_non_null(strstr(block->str, "\nsizing: 400.0 IOPS at p99 <= 10.00ms\n"));

	/* A second curve without steps does not borrow the first's. */
	g_autoptr(ab_run) two = ab_run_new();
	ab_run_add_result(two, curve_row("step 1", 100, 100, 1 * MS));
	ab_run_add_result(two, curve_row("step 2", 200, 200, 2 * MS));
	ab_run_add_result(two, curve_row("sizing", NAN, 200, 10 * MS));
	ab_run_add_result(two, curve_row("sizing", NAN, 200, 10 * MS));
	g_autofree char *t = statement(two);
	assert_non_null(strstr(t, "with 4 processes (at least: every step passed)\n"));
	assert_non_null(strstr(t, "with 4 processes\n"));
	/* No target on the sizing row: no step was judged, none passed. */
	g_autoptr(ab_run) blind = ab_run_new();
	ab_run_add_result(blind, curve_row("step 1", 100, 100, 1 * MS));
	ab_run_add_result(blind, curve_row("sizing", NAN, 100, AB_UNSET));
	g_autofree char *b = statement(blind);
	assert_non_null(strstr(b, "  random 8 KiB reads: 100.0 IOPS at p99 <= - with 4 processes\n"));
	g_autoptr(GString) bb = g_string_new(NULL);
	ab_text_curve(bb, blind);
	assert_non_null(strstr(bb->str, "\nsizing: 100.0 IOPS at p99 <= -\n"));
	/* With steps all passing, both still say "at least". */
	g_autoptr(GString) b2 = g_string_new(NULL);
	ab_text_curve(b2, two);
	assert_non_null(strstr(b2->str, "sizing: 200.0 IOPS at p99 <= 10.00ms, at least: every step passed"));
}

/* Each figure of the statement reads as its table prints it (one
 * formatter): commits over 1000 by their whole part, as the wal table;
 * a rate under 1000 with its decimal, as the main table. */
static void test_figures_as_the_tables(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, row("wal", "fdatasync", 1, 1234.7, 1 * MS));
	ab_run_add_result(run, row("oltp", "all", 8, 999.7, 2 * MS));
	g_autofree char *s = statement(run);
	assert_non_null(strstr(s, "  commits: 1234/s at p99 1.00ms (fdatasync;"));
	assert_non_null(strstr(s, "  random 8 KiB, closed loop: 999.7 IOPS with 8 processes"));
	g_autoptr(GString) wal = g_string_new(NULL);
	ab_text_wal(wal, run);
	assert_non_null(strstr(wal->str, " 1234 "));
	assert_null(strstr(wal->str, "1234.7"));
	g_autofree char *table = ab_text_format(run);
	assert_non_null(strstr(table, " 999.7 IOPS "));
}

/* How much of the oltp's data file the cache could hold, from the run's
 * cgroup limit or the machine's RAM (issue 20: a 1 GiB file under the
 * 512 MiB default limit had half its reads from memory, unsaid). */
static void test_oltp_cache_share(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	run->cond.cache_mode = g_strdup("cgroup");
	run->cache_limit_bytes = 512ull << 20;
	run->ram_bytes = 24ull << 30;
	struct ab_result *all = row("oltp", "all", 32, 5000, 2 * MS);
	all->key.file_size = 1ull << 30;
	ab_run_add_result(run, all);
	g_autofree char *s = statement(run);
	assert_non_null(strstr(s, "  random 8 KiB, closed loop: 5000 IOPS with 32 processes\n"
				  "    the page cache could hold 50% of its 1.0 GiB data file (the memory cgroup's limit, "
				  "512 MiB): once warm, about that share of its reads may come from memory\n"));
	/* Four times the limit: a quarter. */
	all->key.file_size = 2ull << 30;
	g_autofree char *q = statement(run);
	assert_non_null(strstr(q, "could hold 25% of its 2.0 GiB data file"));
	/* No cgroup: the machine's RAM bounds it. */
	g_free(run->cond.cache_mode);
	run->cond.cache_mode = g_strdup("fadvise");
	run->cache_limit_bytes = AB_UNSET;
	all->key.file_size = 64ull << 20;
	g_autofree char *r = statement(run);
	assert_non_null(strstr(r, "    the page cache could hold all of its 64 MiB data file (the machine's RAM, 24.0 GiB): "
				  "once warm, its reads may come from memory, not the disks\n"));
	/* O_DIRECT reads bypass it; a cgroup run that did not record its
	 * limit (an older JSON) is not guessed at. */
	all->direct = TRUE;
	g_autofree char *d = statement(run);
	assert_null(strstr(d, "page cache"));
	all->direct = FALSE;
	g_free(run->cond.cache_mode);
	run->cond.cache_mode = g_strdup("cgroup");
	g_autofree char *u = statement(run);
	assert_null(strstr(u, "page cache"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_not_a_count),
		cmocka_unit_test(test_oltp_processes),
		cmocka_unit_test(test_sizing_without_steps),
		cmocka_unit_test(test_figures_as_the_tables),
		cmocka_unit_test(test_oltp_cache_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
