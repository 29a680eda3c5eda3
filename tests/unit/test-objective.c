/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tune's --objective: each SPEC's figure and direction, the bad ones
 * refused naming themselves, and the figure read off a run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../src/base/error.h"
#include "../../src/model/objective.h"

static const char *const phases[] = { "block-write", "block-read", "wal", "oltp", "latency-curve", NULL };

static void parse_ok(const char *spec, struct ab_objective *o)
{
	g_autoptr(GError) error = NULL;
	gboolean ok = ab_objective_parse(spec, phases, o, &error);
	if (!ok)
		fail_msg("'%s': %s", spec, error->message);
}

static void test_commits(void **state)
{
	(void)state;
	struct ab_objective o;
	parse_ok("commits", &o);
	assert_string_equal(o.phase, "wal");
	assert_string_equal(o.test, "fdatasync");
	assert_string_equal(o.wal_sync, "fdatasync");
	assert_string_equal(o.wal_record, "8k");
	assert_int_equal(o.wal_bytes, 8192);
	assert_true(o.higher_is_better);
	assert_string_equal(o.name, "max:commits:fdatasync:8k");
	ab_objective_clear(&o);
	parse_ok("commits:fsync:2x8k", &o);
	assert_string_equal(o.test, "fsync 2x8k");
	assert_int_equal(o.wal_writes, 2);
	assert_int_equal(o.wal_bytes, 16384);
	ab_objective_clear(&o);
	parse_ok("min:commits:open_sync", &o);
	assert_false(o.higher_is_better);
	assert_string_equal(o.name, "min:commits:open_sync:8k");
	ab_objective_clear(&o);
}

static void test_figures(void **state)
{
	(void)state;
	struct ab_objective o;
	parse_ok("iops", &o);
	assert_string_equal(o.phase, "oltp");
	assert_string_equal(o.test, "all");
	assert_int_equal(o.figure, AB_OBJECTIVE_RATE);
	assert_true(o.higher_is_better);
	ab_objective_clear(&o);
	parse_ok("p99", &o);
	assert_string_equal(o.phase, "oltp");
	assert_int_equal(o.figure, AB_OBJECTIVE_P99);
	assert_false(o.higher_is_better);
	assert_string_equal(ab_objective_direction_word(&o), "lower is better");
	ab_objective_clear(&o);
	parse_ok("curve", &o);
	assert_string_equal(o.phase, "latency-curve");
	assert_string_equal(o.test, "sizing");
	ab_objective_clear(&o);
	parse_ok("block-write", &o);
	assert_string_equal(o.phase, "block-write");
	assert_null(o.test);
	assert_true(o.higher_is_better);
	assert_string_equal(o.name, "max:block-write");
	ab_objective_clear(&o);
	parse_ok("block-read:p99", &o);
	assert_int_equal(o.figure, AB_OBJECTIVE_P99);
	assert_false(o.higher_is_better);
	ab_objective_clear(&o);
	parse_ok("max:block-read:p99", &o);
	assert_true(o.higher_is_better);
	ab_objective_clear(&o);
	parse_ok("oltp", &o);
	assert_string_equal(o.test, "all");
	ab_objective_clear(&o);
}

static void test_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "max:", "speed", "commits:FSYNC", "commits:fsync:8q", "commits:fsync:0x8k", "commits:a:8k:x",
		"iops:p99", "block-write:p50", "block-write:p99:x", "curve:1", ":p99", NULL,
	};
	for (const char *const *b = bad; *b; b++) {
		struct ab_objective o;
		g_autoptr(GError) error = NULL;
		if (ab_objective_parse(*b, phases, &o, &error))
			fail_msg("'%s' was taken", *b);
		assert_int_equal(error->code, AB_ERROR_USAGE);
		g_autofree char *quoted = g_strdup_printf("'%s'", *b);
		assert_non_null(strstr(error->message, quoted));
		assert_null(strchr(error->message, '\n'));
		assert_null(o.spec);
	}
}

static struct ab_result *result(const char *phase, const char *test, uint64_t record, double rate, uint64_t p99)
{
	struct ab_result *r = ab_result_new(phase);
	r->key.test = test ? g_strdup(test) : NULL;
	r->key.record_size = record;
	r->rate = rate;
	r->latency.p99_ns = p99;
	r->latency.samples = 100;
	return r;
}

static void test_extract(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, result("block-write", NULL, 8192, 500, 2000000));
	ab_run_add_result(run, result("wal", "fdatasync", 16384, 11, AB_UNSET));
	ab_run_add_result(run, result("wal", "fdatasync", 8192, 22, AB_UNSET));
	ab_run_add_result(run, result("wal", "fdatasync 2x8k", 16384, 33, AB_UNSET));
	ab_run_add_result(run, result("wal", "fdatasync rewrite", 8192, 44, AB_UNSET));
	ab_run_add_result(run, result("oltp", "read", 8192, 100, 1000000));
	ab_run_add_result(run, result("oltp", "all", 8192, 300, 3000000));
	ab_run_add_result(run, result("oltp", "all", 8192, 900, 9000000)); /* the second procs count */
	struct ab_objective o;
	parse_ok("commits", &o);
	assert_true(ab_objective_extract(&o, run) == 22);
	ab_objective_clear(&o);
	parse_ok("commits:fdatasync:2x8k", &o);
	assert_true(ab_objective_extract(&o, run) == 33);
	ab_objective_clear(&o);
	parse_ok("commits:fsync", &o);
	assert_true(isnan(ab_objective_extract(&o, run)));
	ab_objective_clear(&o);
	parse_ok("iops", &o);
	assert_true(ab_objective_extract(&o, run) == 300);
	ab_objective_clear(&o);
	parse_ok("p99", &o);
	assert_true(ab_objective_extract(&o, run) == 3.0);
	ab_objective_clear(&o);
	parse_ok("block-write", &o);
	assert_true(ab_objective_extract(&o, run) == 500);
	ab_objective_clear(&o);
	parse_ok("block-write:p99", &o);
	assert_true(ab_objective_extract(&o, run) == 2.0);
	ab_objective_clear(&o);
	parse_ok("curve", &o); /* none in the run */
	assert_true(isnan(ab_objective_extract(&o, run)));
	ab_objective_clear(&o);
	/* A failed visit has no figure, whatever it holds. */
	parse_ok("block-write", &o);
	run->failure = g_strdup("mkfs failed");
	assert_true(isnan(ab_objective_extract(&o, run)));
	assert_true(isnan(ab_objective_extract(&o, NULL)));
	ab_objective_clear(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commits),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_extract),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
