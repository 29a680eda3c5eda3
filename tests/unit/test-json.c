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

static void test_round_trip(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	cfg.file_size = 64 * AB_MIB;
	cfg.dir = g_strdup("/mnt/a \"quoted\" dir");
	struct ab_run *run = g_new0(struct ab_run, 1);
	run->cfg = &cfg;
	run->seed = 4242;
	run->machine = g_strdup("box");
	run->cache_desc = g_strdup("cgroup-v1 limit 512M");
	run->cache_warning = NULL;
	run->cache_controlled = TRUE;
	struct ab_result *r = &run->results[AB_PHASE_SEEKS];
	r->ran = TRUE;
	r->phase = ab_phase_by_id(AB_PHASE_SEEKS);
	r->measurable = TRUE;
	r->rate = 812.5;
	r->workers = 28;
	r->direct = TRUE;
	g_strlcpy(r->sync_mode, "fsync-close-timed", sizeof(r->sync_mode));
	g_strlcpy(r->cache_mode, "cgroup-v1 limit 512M", sizeof(r->cache_mode));
	ab_histogram_init(&r->latency);
	for (int i = 1; i <= 1000; i++)
		ab_histogram_record(&r->latency, (uint64_t)i * 1000);

	g_autofree char *text = ab_json_format(run);
	assert_null(strchr(text, '\n'));
	g_autoptr(JsonParser) p = json_parser_new();
	assert_true(json_parser_load_from_data(p, text, -1, NULL));
	JsonObject *o = json_node_get_object(json_parser_get_root(p));
	assert_string_equal(json_object_get_string_member(o, "format"), "arraybench-run");
	assert_int_equal(json_object_get_int_member(o, "format_version"), 1);
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
	JsonObject *lat = json_object_get_object_member(s, "latency_us");
	double p50 = json_object_get_double_member(lat, "p50");
	assert_true(p50 >= 500 && p50 <= 520);
	assert_true(json_object_get_double_member(lat, "max") == 1000.0);
	assert_int_equal(json_object_get_int_member(lat, "samples"), 1000);
	ab_run_clear(run);
	g_free(run);
	ab_config_clear(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
