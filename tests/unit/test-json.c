/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON writer, read back with json-glib. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-glib/json-glib.h>
#include <string.h>

#include "../../reports/report.h"
#include "../../src/model/result.h"
#include "rank-run.h"

#define AB_MIB ((uint64_t)1 << 20)

static void test_round_trip(void **state)
{
	(void)state;
	struct ab_run *run = ab_run_new();
	run->cond.file_size = 64 * AB_MIB;
	run->cond.dir = g_strdup("/mnt/a \"quoted\" dir");
	run->seed = 4242;
	run->machine = g_strdup("box");
	run->cache_desc = g_strdup("cgroup-v1 limit 512M");
	run->cache_warning = NULL;
	run->cache_controlled = TRUE;
	struct ab_result *r = ab_result_new("seeks");
	r->measurable = TRUE;
	r->rate = 812.5;
	r->workers = 28;
	r->direct = TRUE;
	r->sync_mode = g_strdup("fsync-close-timed");
	r->cache_mode = g_strdup("cgroup-v1 limit 512M");
	struct ab_histogram h;
	ab_histogram_init(&h);
	for (int i = 1; i <= 1000; i++)
		ab_histogram_record(&h, (uint64_t)i * 1000);
	ab_latency_from_histogram(&h, &r->latency);
	ab_run_add_result(run, r);
	g_autofree char *text = ab_json_format(run);
	assert_null(strchr(text, '\n'));
	g_autoptr(JsonParser) p = json_parser_new();
	assert_true(json_parser_load_from_data(p, text, -1, NULL));
	JsonObject *o = json_node_get_object(json_parser_get_root(p));
	assert_string_equal(json_object_get_string_member(o, "format"), "arraybench-run");
	assert_int_equal(json_object_get_int_member(o, "format_version"), AB_JSON_FORMAT_VERSION);
	assert_int_equal(json_object_get_int_member(o, "seed"), 4242);
	JsonObject *c = json_object_get_object_member(o, "config");
	assert_string_equal(json_object_get_string_member(c, "dir"), "/mnt/a \"quoted\" dir");
	assert_int_equal(json_object_get_int_member(c, "file_size_bytes"), 64 * AB_MIB);
	JsonObject *cache = json_object_get_object_member(o, "cache");
	assert_true(json_object_get_boolean_member(cache, "controlled"));
	assert_true(json_object_get_null_member(cache, "warning"));
	JsonArray *phases = json_object_get_array_member(o, "phases");
	assert_int_equal(json_array_get_length(phases), 1);
	JsonObject *s = json_array_get_object_element(phases, 0);
	assert_string_equal(json_object_get_string_member(s, "name"), "seeks");
	assert_string_equal(json_object_get_string_member(s, "unit"), "seeks/s");
	assert_int_equal(json_object_get_int_member(s, "workers"), 28);
	assert_true(json_object_get_boolean_member(s, "direct"));
	assert_string_equal(json_object_get_string_member(s, "sync_mode"), "fsync-close-timed");
	JsonObject *lat = json_object_get_object_member(s, "latency_ns");
	int64_t p50 = json_object_get_int_member(lat, "p50");
	assert_true(p50 >= 500000 && p50 <= 520000);
	assert_int_equal(json_object_get_int_member(lat, "max"), 1000000);
	/* Unknown stays unknown: no figure became 0. */
	assert_true(json_object_get_null_member(s, "elapsed_s"));
	assert_int_equal(json_object_get_int_member(lat, "samples"), 1000);
	ab_run_free(run);
}

/* A run on 4 ranks, one an outlier: its mpi block and each rank's row
 * written under snake_case keys, read back to the same run (every figure,
 * the rank that started a hair before the barrier's exit too). */
static void test_rank_round_trip(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = rank_run_of("mpi cell");
	g_autofree char *text = ab_json_format(run);
	g_autoptr(JsonParser) p = json_parser_new();
	assert_true(json_parser_load_from_data(p, text, -1, NULL));
	JsonObject *o = json_node_get_object(json_parser_get_root(p));
	JsonObject *mpi = json_object_get_object_member(o, "mpi");
	assert_non_null(mpi);
	assert_int_equal(json_object_get_int_member(mpi, "ranks"), 4);
	assert_int_equal(json_object_get_int_member(mpi, "nodes"), 2);
	assert_string_equal(json_object_get_string_member(mpi, "layout"), "private");
	assert_int_equal(json_array_get_length(json_object_get_array_member(mpi, "hosts")), 4);
	JsonObject *s = json_array_get_object_element(json_object_get_array_member(o, "phases"), 0);
	assert_true(json_object_get_double_member(s, "clock_bound_s") == 25e-6);
	JsonArray *ranks = json_object_get_array_member(s, "per_rank");
	assert_int_equal(json_array_get_length(ranks), 4);
	JsonObject *slow = json_array_get_object_element(ranks, RANK_RUN_SLOW);
	assert_true(json_object_get_boolean_member(slow, "outlier"));
	assert_string_equal(json_object_get_string_member(slow, "host"), "node-b");
	assert_true(json_object_has_member(slow, "barrier_wait_s"));

	g_autoptr(GError) error = NULL;
	g_autoptr(ab_run) back = ab_reader_json.read_line(text, &error);
	if (!back)
		fail_msg("%s", error->message);
	g_autofree char *again = ab_json_format(back);
	assert_string_equal(again, text);
	assert_int_equal(back->mpi.ranks, 4);
	assert_int_equal(back->mpi.reorder, FALSE);
	assert_string_equal(g_ptr_array_index(back->mpi.hosts, 3), "node-b");
	assert_string_equal(back->mpi.library, run->mpi.library);
	assert_true(back->mpi.start_spread_s == run->mpi.start_spread_s);
	const struct ab_result *w = g_ptr_array_index(run->results, 0), *r = g_ptr_array_index(back->results, 0);
	assert_true(r->clock_bound_s == w->clock_bound_s && r->start_spread_s == w->start_spread_s);
	assert_int_equal(r->per_rank->len, 4);
	for (guint i = 0; i < 4; i++) {
		const struct ab_rank_stat *a = &g_array_index(w->per_rank, struct ab_rank_stat, i);
		const struct ab_rank_stat *b = &g_array_index(r->per_rank, struct ab_rank_stat, i);
		assert_int_equal(a->rank, b->rank);
		assert_string_equal(a->host, b->host);
		assert_int_equal(a->workers, b->workers);
		assert_int_equal(a->ops, b->ops);
		assert_int_equal(a->bytes, b->bytes);
		assert_true(a->rate == b->rate && a->start_s == b->start_s && a->stop_s == b->stop_s);
		assert_true(a->cpu_s == b->cpu_s && a->barrier_wait_s == b->barrier_wait_s);
		assert_int_equal(a->outlier, b->outlier);
	}
	assert_true(g_array_index(r->per_rank, struct ab_rank_stat, 0).start_s < 0);
}

/* Off MPI: no mpi block, no per-rank members at all (the runs of before
 * write the same bytes). */
static void test_no_rank_members(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, ab_result_new("seeks"));
	g_autofree char *text = ab_json_format(run);
	assert_null(strstr(text, "\"mpi\""));
	assert_null(strstr(text, "per_rank"));
	assert_null(strstr(text, "clock_bound_s"));
	assert_null(strstr(text, "start_spread_s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rank_round_trip),
		cmocka_unit_test(test_no_rank_members),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
