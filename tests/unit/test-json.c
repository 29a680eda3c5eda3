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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
