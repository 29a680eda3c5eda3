/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON reader: JSON -> run -> JSON byte-identical (every member set,
 * every member unknown, live runs), format_version 1, and one error naming
 * the member or the line for each kind of damage. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../reports/report.h"
#include "../../workloads/phase.h"

#define AB_MIB ((uint64_t)1 << 20)

static struct ab_run *read_ok(const char *line)
{
	g_autoptr(GError) error = NULL;
	assert_true(ab_reader_json.claims(line));
	struct ab_run *run = ab_reader_json.read_line(line, &error);
	if (!run)
		fail_msg("%s", error->message);
	return run;
}

static void assert_read_error(const char *line, const char *want)
{
	g_autoptr(GError) error = NULL;
	struct ab_run *run = ab_reader_json.read_line(line, &error);
	assert_null(run);
	assert_non_null(error);
	assert_string_equal(error->message, want);
}

/* Written, read, written again: the same bytes.  Returns the run read. */
static struct ab_run *assert_round_trip(const struct ab_run *run)
{
	g_autofree char *text = ab_json_format(run);
	struct ab_run *back = read_ok(text);
	g_autofree char *again = ab_json_format(back);
	assert_string_equal(again, text);
	return back;
}

static struct ab_result *full_result(const char *phase, unsigned n)
{
	struct ab_result *r = ab_result_new(phase);
	r->key = (struct ab_cell_key){ 64 * AB_MIB, 4096, 3, g_strdup("sweep \"a\""), 1 };
	r->measurable = n % 2;
	r->min_measurable_s = 0.5;
	r->rate = 1234.5678 + n;
	r->cpu_percent = 0.1 * n;
	r->elapsed_s = 1e-7 + n;
	r->bytes = (uint64_t)1 << 40;
	r->ops = 8192 + n;
	r->workers = 2;
	r->user_s = 0.25;
	r->sys_s = 1.0 / 3.0;
	r->life_user_s = 0.5;
	r->life_sys_s = 2.0 / 3.0;
	r->sys_busy_percent = 99.9;
	r->iowait_percent = 0.0;
	r->max_rss_kib = 2776;
	r->direct = TRUE;
	r->sync_mode = g_strdup("fsync-close-timed");
	r->cache_mode = g_strdup("cgroup, cold: the test file was evicted");
	r->cache_state = g_strdup("cold");
	r->laid_out_untimed = FALSE;
	r->timed = g_strsplit("write,fsync", ",", -1);
	r->stonewall_rate = 81234.5;
	r->end_to_end_rate = 79876.25;
	r->min_worker_rate = 39062.5;
	r->max_worker_rate = 42172;
	r->min_bytes_at_stonewall = 4000u * 8192u;
	r->stonewall_time_s = 2.5;
	r->wearout = TRUE;
	r->min_bytes_at_deadline = 3000u * 8192u;
	r->max_bytes_at_deadline = 3100u * 8192u;
	r->deadline_rate = 19660.8;
	r->deadline_counted_s = 2.625;
	r->latency = (struct ab_latency){ 1000, 1955, 2071320.6354166667, 2064383, 2162687, 2621439, 5122640, 99999001 };
	for (int i = 0; i < 2; i++) {
		struct ab_worker_stat w = { .pid = 13924 + i, .ops = 4096 + i, .bytes = (4096u + i) * 8192u,
					    .elapsed_s = 0.80032386799999999, .cpu_s = 0.786924,
					    .bytes_at_stonewall = 4000u * 8192u, .stonewall_rate = 39062.5,
					    .bytes_at_deadline = (3000u + 100u * i) * 8192u };
		g_array_append_val(r->per_worker, w);
		struct ab_device_io d = { g_strdup(i ? "sdb" : "md0"), 1u << 20, (uint64_t)5 << 30, 17, 4242, 999 };
		g_array_append_val(r->devices, d);
	}
	return r;
}

/* Every member set, to values that only its own member holds. */
static struct ab_run *full_run(void)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup("0.1.0");
	run->run_id = g_strdup("261203130411-13923-b6fde8");
	run->repeat = 2;
	run->seed = 0xF000000000000001ull; /* over INT64_MAX: negative in the file */
	run->seed_text = g_strdup("/tmp/seed file");
	run->start_unix = 1796222993;
	run->concurrency = 1;
	run->machine = g_strdup("fixhost");
	run->host = g_strdup("node7.example");
	run->kernel = g_strdup("Linux 6.18 x86_64");
	run->cpus = 2;
	run->ram_bytes = 25276071936ull;
	run->fs_type = g_strdup("ext4");
	run->cache_desc = g_strdup("cgroup v2, memory.max 512M");
	run->cache_limit_bytes = 512 * AB_MIB;
	run->cache_controlled = FALSE;
	run->cache_warning = g_strdup("file 64M is under twice the RAM");
	struct ab_conditions *c = &run->cond;
	c->dir = g_strdup("/mnt/a \"quoted\"\tdir é");
	c->file_size = 64 * AB_MIB;
	c->io_chunk = 4096;
	c->seeks = 2097152;
	c->seeks_given = FALSE;
	c->seekers = 5;
	c->per_char_bytes = 3 * AB_MIB;
	c->per_char_mode = g_strdup("syscall");
	c->num_files_k = 2;
	c->file_kind = g_strdup("file");
	c->file_max = 8192;
	c->file_min = 1024;
	c->num_dirs = 3;
	c->file_chunk = 16384;
	c->ram_mib = 32;
	c->ram_given = TRUE;
	c->repeats = 3;
	c->data = g_strdup("random");
	c->direct = TRUE;
	c->sync_each_write = FALSE;
	c->cache_mode = g_strdup("cgroup");
	c->cache_limits = g_strdup("nothing is evicted");
	c->cold_metadata = TRUE;
	c->stride = 17;
	c->stonewall_time_s = 2.5;
	c->wearout = TRUE;
	c->files_per_stream = 50;
	c->shared_file = FALSE;
	struct ab_target_desc *t = &run->target;
	t->backend = g_strdup("mdadm");
	t->mount_dir = g_strdup("/run/arraybench/mnt");
	t->level = g_strdup("10");
	t->chunk_bytes = 524288;
	t->layout = g_strdup("f2");
	t->fs = g_strdup("xfs");
	t->source = g_strdup("/dev/md127");
	g_ptr_array_add(t->members, g_strdup("/dev/loop0"));
	g_ptr_array_add(t->members, g_strdup("/dev/loop1"));
	t->mkfs_command = g_strdup("mkfs.xfs -f -d su=512k,sw=1 /dev/md127");
	t->mount_options = g_strdup("noatime");
	t->mount_effective = g_strdup("rw,noatime,attr2");
	t->label = g_strdup("abtest");
	t->image_count = 4;
	t->image_size = 1024 * AB_MIB;
	t->image_dir = g_strdup("/var/tmp");
	t->image_dir_fs = g_strdup("ext4");
	for (int i = 0; i < 2; i++) {
		struct ab_queue_desc q = { g_strdup(i ? "loop1" : "loop0"), g_strdup("none"), 128 + i, 0, 512, 4096 };
		g_array_append_val(t->queues, q);
	}
	ab_run_add_result(run, full_result("block-write", 0));
	ab_run_add_result(run, full_result("seeks", 1));
	ab_run_add_result(run, full_result("seq-create", 2));
	ab_run_add_result(run, full_result("seeks", 3)); /* the same step again: pass 2 */
	return run;
}

static void test_full_round_trip(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = full_run();
	g_autoptr(ab_run) back = assert_round_trip(run);
	assert_int_equal(back->seed, 0xF000000000000001ull);
	assert_int_equal(back->start_unix, 1796222993);
	assert_string_equal(back->host, "node7.example");
	assert_string_equal(back->cond.dir, run->cond.dir);
	assert_string_equal(back->cond.cache_mode, "cgroup");
	assert_int_equal(back->cache_limit_bytes, 512 * AB_MIB);
	assert_int_equal(back->cond.cold_metadata, TRUE);
	assert_int_equal(back->target.members->len, 2);
	assert_int_equal(back->target.queues->len, 2);
	assert_int_equal(g_array_index(back->target.queues, struct ab_queue_desc, 1).read_ahead_kb, 129);
	assert_int_equal(back->results->len, 4);
	const uint64_t pass[] = { 1, 1, 1, 2 };
	for (guint i = 0; i < 4; i++) {
		const struct ab_result *r = g_ptr_array_index(back->results, i);
		const struct ab_result *w = g_ptr_array_index(run->results, i);
		assert_string_equal(r->phase, w->phase);
		assert_int_equal(r->key.pass, pass[i]);
		assert_true(r->rate == w->rate && r->elapsed_s == w->elapsed_s && r->sys_s == w->sys_s);
		assert_int_equal(r->latency.max_ns, 99999001);
		assert_true(r->latency.mean_ns == w->latency.mean_ns);
		assert_int_equal(r->per_worker->len, 2);
		assert_int_equal(g_array_index(r->devices, struct ab_device_io, 1).written_bytes, (uint64_t)5 << 30);
		assert_string_equal(r->key.test, "sweep \"a\"");
	}
}

/* A tune's visit carries its stamp (the stage, round, candidate and its
 * words, the objective and alpha), read back as written; a run without
 * one writes no tune block. */
static void test_tune_stamp_round_trip(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = full_run();
	g_autofree char *plain = ab_json_format(run);
	assert_null(strstr(plain, "\"tune\""));
	run->tune.objective = g_strdup("max:commits:fdatasync:8k");
	run->tune.direction = g_strdup("max");
	run->tune.stage = g_strdup("race");
	run->tune.round = 2;
	run->tune.candidate = g_strdup("noatime,commit=30");
	const char *words[] = { "--mount-opts", "noatime,commit=30", NULL };
	run->tune.words = g_strdupv((char **)words);
	run->tune.alpha = 0.05;
	run->tune.index = 3;
	run->tune.min_rounds = 4;
	g_autoptr(ab_run) back = assert_round_trip(run);
	assert_int_equal(back->tune.index, 3);
	assert_int_equal(back->tune.min_rounds, 4);
	assert_string_equal(back->tune.objective, "max:commits:fdatasync:8k");
	assert_string_equal(back->tune.direction, "max");
	assert_string_equal(back->tune.stage, "race");
	assert_int_equal(back->tune.round, 2);
	assert_string_equal(back->tune.candidate, "noatime,commit=30");
	assert_int_equal(g_strv_length(back->tune.words), 2);
	assert_string_equal(back->tune.words[1], "noatime,commit=30");
	assert_true(back->tune.alpha == 0.05);
	g_autoptr(ab_run) none = read_ok(plain);
	assert_null(none->tune.stage);
	assert_false(ab_known(none->tune.round));
}

/* Nothing known: every member null, lists empty; read back, all unknown,
 * none 0. */
static void test_unknown_round_trip(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	struct ab_result *r = ab_result_new("rand-delete");
	struct ab_worker_stat w = { .pid = INT64_MIN, .ops = AB_UNSET, .bytes = AB_UNSET, .elapsed_s = NAN,
				    .cpu_s = NAN, .bytes_at_stonewall = AB_UNSET, .stonewall_rate = NAN,
				    .bytes_at_deadline = AB_UNSET };
	g_array_append_val(r->per_worker, w);
	struct ab_device_io d = { NULL, AB_UNSET, AB_UNSET, AB_UNSET, AB_UNSET, AB_UNSET };
	g_array_append_val(r->devices, d);
	ab_run_add_result(run, r);
	struct ab_queue_desc q = { NULL, NULL, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN };
	g_array_append_val(run->target.queues, q);
	g_autoptr(ab_run) back = assert_round_trip(run);
	assert_null(back->tool);
	assert_false(ab_known(back->seed));
	assert_false(ab_known(back->concurrency));
	assert_int_equal(back->start_unix, INT64_MIN);
	assert_int_equal(back->cache_controlled, AB_FLAG_UNKNOWN);
	assert_false(ab_known(back->cond.file_size));
	assert_false(ab_known(back->cond.num_files_k));
	assert_int_equal(back->cond.direct, AB_FLAG_UNKNOWN);
	assert_null(back->cond.cache_mode);
	assert_false(ab_known(back->target.chunk_bytes));
	const struct ab_result *b = g_ptr_array_index(back->results, 0);
	assert_true(isnan(b->rate) && isnan(b->cpu_percent) && isnan(b->min_measurable_s));
	assert_false(ab_known(b->key.file_size));
	assert_int_equal(b->max_rss_kib, -1);
	assert_false(ab_known(b->latency.max_ns));
	assert_true(isnan(b->latency.mean_ns));
	assert_int_equal(g_array_index(b->per_worker, struct ab_worker_stat, 0).pid, INT64_MIN);
	assert_int_equal(g_array_index(back->target.queues, struct ab_queue_desc, 0).rotational, INT64_MIN);

	/* Members missing altogether stay unknown too. */
	g_autoptr(ab_run) bare = read_ok("{\"format\":\"arraybench-run\",\"format_version\":2,"
					 "\"phases\":[{\"name\":\"seeks\"}]}");
	assert_false(ab_known(bare->seed));
	assert_false(ab_known(bare->cond.seeks));
	assert_int_equal(bare->results->len, 1);
	const struct ab_result *s = g_ptr_array_index(bare->results, 0);
	assert_int_equal(s->key.pass, 1);
	assert_true(isnan(s->rate));
	assert_false(ab_known(s->latency.samples));
}

/* What a line of the fixture (written before resident_at_start and timed
 * were members) writes back as: the same bytes, with the new members null
 * (not known, never 0 or empty) where they go in each phase. */
static char *with_new_members(const char *line)
{
	g_autoptr(GRegex) re = g_regex_new("(\"laid_out_untimed\":(true|false|null),)", 0, 0, NULL);
	g_autofree char *one = g_regex_replace(re, line, -1, 0, "\\1\"resident_at_start\":null,\"interpolated\":null,\"late_ops\":null,\"max_late_s\":null,", 0, NULL);
	g_autoptr(GRegex) re2 = g_regex_new("(\"cache_state\":(\"[a-z]*\"|null),)", 0, 0, NULL);
	g_autofree char *two = g_regex_replace(re2, one, -1, 0, "\\1\"timed\":null,", 0, NULL);
	/* The figures of concurrent streams, and each worker's bytes. */
	g_autoptr(GRegex) re3 = g_regex_new("(\"rate\":[^,]*,)", 0, 0, NULL);
	g_autofree char *three = g_regex_replace(re3, two, -1, 0,
						 "\\1\"offered_rate\":null,\"stonewall_rate\":null,\"end_to_end_rate\":null,"
						 "\"min_worker_rate\":null,\"max_worker_rate\":null,"
						 "\"min_bytes_at_stonewall\":null,\"stonewall_time_s\":null,"
						 "\"wearout\":null,\"min_bytes_at_deadline\":null,"
						 "\"max_bytes_at_deadline\":null,\"deadline_rate\":null,"
						 "\"deadline_counted_s\":null,", 0, NULL);
	g_autoptr(GRegex) re4 = g_regex_new("(\"pid\":[0-9]+,\"ops\":[0-9]+,)", 0, 0, NULL);
	g_autofree char *four = g_regex_replace(re4, three, -1, 0, "\\1\"bytes\":null,", 0, NULL);
	g_autoptr(GRegex) re5 = g_regex_new("(\"cpu_s\":[^}]*)}", 0, 0, NULL);
	g_autofree char *five = g_regex_replace(re5, four, -1, 0,
						"\\1,\"bytes_at_stonewall\":null,\"stonewall_rate\":null,"
						"\"bytes_at_deadline\":null}", 0, NULL);
	/* The sweep's conditions. */
	g_autoptr(GRegex) re6 = g_regex_new("(\"cold_metadata\":(true|false|null))", 0, 0, NULL);
	g_autofree char *six = g_regex_replace(re6, five, -1, 0,
					       "\\1,\"stride\":null,\"files_per_stream\":null,\"shared_file\":null,"
					       "\"stonewall_time_s\":null,\"wearout\":null", 0, NULL);
	/* Comparison runs: the matrix cell, the workload, a failed visit. */
	g_autoptr(GRegex) re7 = g_regex_new("(\"concurrency\":[0-9]+,)", 0, 0, NULL);
	g_autofree char *seven =
		g_regex_replace(re7, six, -1, 0, "\\1\"cell\":null,\"workload\":null,\"failure\":null,", 0, NULL);
	/* The cgroup's limit (the fixture's runs had --cache none). */
	g_autoptr(GRegex) re8 = g_regex_new("(\"cache\":\\{\"mode\":\"[a-z]*\",\"description\":(\"[^\"]*\"|null),)", 0, 0, NULL);
	g_autofree char *eight = g_regex_replace(re8, seven, -1, 0, "\\1\"limit_bytes\":null,", 0, NULL);
	/* The host it was measured on, beside the machine name. */
	g_autoptr(GRegex) re9 = g_regex_new("(\"environment\":\\{\"machine\":(\"[^\"]*\"|null),)", 0, 0, NULL);
	return g_regex_replace(re9, eight, -1, 0, "\\1\"host\":null,", 0, NULL);
}

/* The live runs' JSON (tests/fixtures/README) writes back as it was. */
static void test_fixture_round_trip(void **state)
{
	(void)state;
	g_autofree char *path = g_build_filename(AB_FIXTURES, "arraybench-run.json", NULL);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	assert_int_equal(g_strv_length(lines), 5); /* 4 and the empty rest */
	for (int i = 0; i < 4; i++) {
		g_autoptr(ab_run) run = read_ok(lines[i]);
		g_autofree char *again = ab_json_format(run);
		g_autofree char *want = with_new_members(lines[i]);
		assert_string_not_equal(want, lines[i]); /* the fixture predates the member */
		/* Then its findings (--cache none on a 64M file, phases under
		 * 0.5 s), derived when written, after the phases. */
		size_t head = strlen(want) - 1; /* all but its closing brace */
		if (strncmp(again, want, head) != 0)
			assert_string_equal(again, want);
		assert_true(g_str_has_prefix(again + head, i < 3 ? ",\"findings\":[{\"id\":\"cache-none-fits\""
								 : ",\"findings\":[{\"id\":\"too-short\""));
		assert_true(g_str_has_suffix(again, "]}"));
		assert_string_equal(run->machine, "fixhost");
		assert_int_equal(run->repeat, i == 1 ? 2 : 1);
	}
	g_autoptr(ab_run) run = read_ok(lines[0]);
	assert_int_equal(run->results->len, AB_PHASE_COUNT);
	assert_string_equal(run->cond.cache_mode, "none");
	assert_int_equal(run->cond.per_char_bytes, 3 * AB_MIB);
	/* Read from JSON and from CSV, a run writes the same CSV. */
	g_autofree char *cpath = g_build_filename(AB_FIXTURES, "arraybench-run.csv", NULL);
	g_autofree char *csv = NULL;
	assert_true(g_file_get_contents(cpath, &csv, NULL, NULL));
	g_autofree char *line = ab_csv_format_line(run);
	assert_true(g_str_has_prefix(csv, line));
}

/* Version 1 (before the results model): latency_us doubles, no tool, no
 * keys, derived file_count. */
static void test_version_1(void **state)
{
	(void)state;
	const char *v1 =
		"{\"format\":\"arraybench-run\",\"format_version\":1,\"tool_version\":\"0.0.9\",\"repeat\":1,"
		"\"seed\":42,\"run_id\":\"r1\",\"start_time\":\"2026-01-02T03:04:05Z\",\"config\":{\"dir\":\"/mnt/x\","
		"\"file_size_bytes\":1048576,\"io_chunk_bytes\":8192,\"seeks\":8192,\"seeks_given\":false,"
		"\"seekers\":5,\"per_char_bytes\":3145728,\"per_char_mode\":\"syscall\",\"num_files_k\":2,"
		"\"file_count\":2048,\"file_kind\":\"file\",\"file_max_bytes\":0,\"file_min_bytes\":0,\"num_dirs\":1,"
		"\"file_chunk_bytes\":8192,\"ram_mib\":512,\"ram_given\":false,\"repeats\":1,\"data\":\"random\","
		"\"direct\":false,\"sync_each_write\":false,\"cache_mode\":\"drop\",\"cold_metadata\":false},"
		"\"environment\":{\"machine\":\"box\",\"kernel\":\"Linux\",\"cpus\":2,\"ram_bytes\":1000,"
		"\"dir\":\"/mnt/x\",\"fs_type\":\"ext4\"},\"target\":{\"backend\":\"dir\",\"mount_dir\":\"/mnt/x\"},"
		"\"cache\":{\"mode\":\"drop\",\"description\":\"drop\",\"controlled\":true,\"warning\":null},"
		"\"phases\":[{\"name\":\"block-write\",\"csv_name\":\"put_block\",\"measurable\":true,"
		"\"rate\":1234.5,\"unit\":\"KiB/s\",\"elapsed_s\":2.5,\"bytes\":1048576,\"ops\":128,\"workers\":1,"
		"\"cpu_percent\":12.5,\"user_s\":0.1,\"sys_s\":0.2,\"worker_life_user_s\":0.1,"
		"\"worker_life_sys_s\":0.2,\"system_busy_percent\":50.0,\"iowait_percent\":1.0,"
		"\"worker_max_rss_kib\":2000,\"cache_mode\":\"drop, warm\",\"cache_state\":\"warm\","
		"\"laid_out_untimed\":false,\"min_measurable_s\":0.5,\"sync_mode\":\"fsync-close-timed\","
		"\"direct\":false,\"per_worker\":[{\"pid\":5,\"ops\":128,\"elapsed_s\":2.5,\"cpu_s\":0.3}],"
		"\"devices\":[],\"latency_us\":{\"samples\":10,\"min\":1.5,\"mean\":2.25,\"p50\":2.0,\"p90\":3.0,"
		"\"p99\":4.0,\"p99_9\":4.5,\"max\":5.0004}},{\"name\":\"seeks\",\"measurable\":false,"
		"\"latency_us\":{\"samples\":0,\"min\":0.0,\"mean\":0.0,\"p50\":0.0,\"p90\":0.0,\"p99\":0.0,"
		"\"p99_9\":0.0,\"max\":0.0}}]}";
	g_autoptr(ab_run) run = read_ok(v1);
	assert_string_equal(run->tool, "arraybench");
	assert_string_equal(run->tool_version, "0.0.9");
	assert_int_equal(run->seed, 42);
	assert_int_equal(run->start_unix, 1767323045);
	assert_string_equal(run->cond.cache_mode, "drop");
	assert_int_equal(run->cond.num_files_k, 2);
	assert_int_equal(run->cache_controlled, TRUE);
	assert_int_equal(run->results->len, 2);
	const struct ab_result *bw = g_ptr_array_index(run->results, 0);
	assert_true(bw->rate == 1234.5);
	assert_int_equal(bw->key.pass, 1);
	assert_int_equal(bw->latency.samples, 10);
	assert_int_equal(bw->latency.min_ns, 1500);
	assert_true(bw->latency.mean_ns == 2250.0);
	assert_int_equal(bw->latency.p99_9_ns, 4500);
	assert_int_equal(bw->latency.max_ns, 5000);
	assert_int_equal(bw->per_worker->len, 1);
	const struct ab_result *sk = g_ptr_array_index(run->results, 1);
	assert_int_equal(sk->latency.samples, 0);
	assert_false(ab_known(sk->latency.max_ns)); /* no samples: no zeros */
	assert_true(isnan(sk->latency.mean_ns));
	/* Written again it is version 2. */
	g_autofree char *v2 = ab_json_format(run);
	assert_non_null(strstr(v2, "\"format_version\":2,"));
	assert_non_null(strstr(v2, "\"latency_ns\":{\"samples\":10,\"min\":1500,\"mean\":2250.0,"));
	g_autoptr(ab_run) again = read_ok(v2);
	g_autofree char *v2b = ab_json_format(again);
	assert_string_equal(v2b, v2);
}

/* Replaces the first `from` in the full run's JSON by `to`. */
static char *full_with(const char *from, const char *to)
{
	g_autoptr(ab_run) run = full_run();
	g_autofree char *text = ab_json_format(run);
	const char *at = strstr(text, from);
	if (!at)
		fail_msg("'%s' is not in the JSON", from);
	return g_strdup_printf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_member_errors(void **state)
{
	(void)state;
	const struct { const char *from, *to, *want; } cases[] = {
		{ "\"seeks\":2097152", "\"seeks\":\"many\"", "member 'config.seeks': not a number" },
		{ "\"seeks\":2097152", "\"seeks\":1.5", "member 'config.seeks': '1.5' is not an integer" },
		{ "\"direct\":true", "\"direct\":1", "member 'config.direct': not a boolean" },
		{ "\"machine\":\"fixhost\"", "\"machine\":7", "member 'environment.machine': not a string" },
		{ "\"config\":{", "\"config\":[],\"x\":{", "member 'config': not an object" },
		{ "\"members\":[\"/dev/loop0\",\"/dev/loop1\"]", "\"members\":[\"/dev/loop0\",null]",
		  "member 'target.members[1]': not a string" },
		{ "\"queues\":[{\"name\":\"loop0\"", "\"queues\":[7,{\"name\":\"loop0\"",
		  "member 'target.queues[0]': not an object" },
		{ "\"read_ahead_kb\":129", "\"read_ahead_kb\":\"129\"",
		  "member 'target.queues[1].read_ahead_kb': not a number" },
		{ "\"name\":\"block-write\"", "\"name\":\"warp-drive\"",
		  "member 'phases[0].name': unknown phase 'warp-drive'" },
		{ "{\"name\":\"block-write\"", "7,{\"name\":\"block-write\"", "member 'phases[0]': not an object" },
		{ "\"pid\":13924", "\"pid\":[]", "member 'phases[0].per_worker[0].pid': not a number" },
		{ "\"busy_ms\":999", "\"busy_ms\":true", "member 'phases[0].devices[0].busy_ms': not a number" },
		{ "\"p50\":2064383", "\"p50\":\"2ms\"", "member 'phases[0].latency_ns.p50': not a number" },
		{ "\"rate\":1235.5678", "\"rate\":\"fast\"", "member 'phases[1].rate': not a number" },
		/* json-glib would write 1e30 back as "1e+30.0"; casts would overflow */
		{ "\"rate\":1235.5678", "\"rate\":1e30", "member 'phases[1].rate': out of range" },
		{ "\"rate\":1235.5678", "\"rate\":-5000.0", "member 'phases[1].rate': out of range" },
		{ "\"measurable\":false", "\"measurable\":0", "member 'phases[0].measurable': not a boolean" },
		{ "\"pass\":2", "\"pass\":1",
		  "member 'phases[3].key.pass': '1', but it is result 2 of its phase and cell" },
		{ "\"mode\":\"cgroup\"", "\"mode\":\"drop\"",
		  "member 'cache.mode': 'drop', but config.cache_mode is 'cgroup'" },
		{ "\"start_time\":\"2026-12-02T14:49:53Z\"", "\"start_time\":\"yesterday\"",
		  "member 'start_time': 'yesterday' is not an ISO 8601 time" },
		{ "\"format\":\"arraybench-run\"", "\"format\":\"fio\"", "member 'format': 'fio' is not 'arraybench-run'" },
		{ "\"format\":\"arraybench-run\",", "", "member 'format': missing: not an arraybench run" },
		{ "\"format_version\":2", "\"format_version\":3",
		  "member 'format_version': '3' is not supported: 1 and 2 are" },
		{ "\"phases\":[", "\"phases\":{},\"x\":[", "member 'phases': not an array" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *line = full_with(cases[i].from, cases[i].to);
		assert_read_error(line, cases[i].want);
	}
	/* Either cache member alone gives the cache mode. */
	g_autofree char *only_cache = full_with("\"cache_mode\":\"cgroup\"", "\"cache_mode\":null");
	g_autoptr(ab_run) a = read_ok(only_cache);
	assert_string_equal(a->cond.cache_mode, "cgroup");
	g_autofree char *only_config = full_with("\"mode\":\"cgroup\"", "\"mode\":null");
	g_autoptr(ab_run) b = read_ok(only_config);
	assert_string_equal(b->cond.cache_mode, "cgroup");
	/* Derived members are not read: a wrong unit or csv_name changes nothing. */
	g_autofree char *derived = full_with("\"unit\":\"KiB/s\"", "\"unit\":\"furlongs\"");
	g_autoptr(ab_run) c = read_ok(derived);
	g_autofree char *text = ab_json_format(c);
	assert_non_null(strstr(text, "\"unit\":\"KiB/s\""));
}

static void test_broken_json(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = full_run();
	g_autofree char *text = ab_json_format(run);
	g_autofree char *half = g_strndup(text, strlen(text) / 2);
	g_autoptr(GError) error = NULL;
	assert_null(ab_reader_json.read_line(half, &error));
	assert_true(g_str_has_prefix(error->message, "not valid JSON: "));
	GString *deep = g_string_new("{\"a\":");
	for (int i = 0; i < 5000000; i++)
		g_string_append_c(deep, '[');
	assert_read_error(deep->str, "not arraybench JSON: nested deeper than 32");
	g_string_free(deep, TRUE);
	/* Brackets inside strings are no nesting. */
	g_autofree char *brackets = g_strnfill(100, '[');
	g_autofree char *in_string = g_strdup_printf("{\"format\":\"arraybench-run\",\"format_version\":2,"
						     "\"run_id\":\"%s\\\"\"}", brackets);
	g_autoptr(ab_run) s = read_ok(in_string);
	assert_true(g_str_has_prefix(s->run_id, "[[[["));
	assert_read_error("{\"run_id\":\"\xff\"}", "not valid JSON: JSON data must be UTF-8 encoded");
	/* Two objects on one line (a lost newline): json-glib would keep one
	 * and leak the other; refused, naming why. */
	g_autofree char *two = g_strdup_printf("%s%s", in_string, in_string);
	assert_read_error(two, "not arraybench JSON: text after the closing brace (two objects on one line?)");
	g_autofree char *spaced = g_strdup_printf("%s  \t", in_string);
	g_autoptr(ab_run) sp = read_ok(spaced);
	assert_true(g_str_has_prefix(sp->run_id, "[[[["));
	GString *many = g_string_new("{\"format\":\"arraybench-run\",\"format_version\":2,\"phases\":[");
	for (int i = 0; i < 10001; i++)
		g_string_append(many, i ? ",{\"name\":\"seeks\"}" : "{\"name\":\"seeks\"}");
	g_string_append(many, "]}");
	assert_read_error(many->str, "member 'phases': 10001 results, more than 10000");
	g_string_free(many, TRUE);
	assert_false(ab_reader_json.claims("[1]"));
	assert_false(ab_reader_json.claims("1.98,{"));
	assert_true(ab_reader_json.claims(" \t{"));
}

/* Through ab_report_read_text: one problem per bad line, with its number;
 * the good lines around it read. */
static void test_read_text(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = full_run();
	g_autofree char *good = ab_json_format(run);
	g_autofree char *half = g_strndup(good, strlen(good) / 2);
	g_autofree char *bad_seeks = full_with("\"seeks\":2097152", "\"seeks\":\"x\"");
	GString *t = g_string_new(NULL);
	g_string_append_printf(t, "%s\n%s\r\n\n%s\n{\"a\":\"\xc3\x28\"}\n", good, half, bad_seeks);
	g_string_append_len(t, "{\"a\":\0}\n", 8);
	g_string_append_printf(t, "{ not json\n%s", good);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	struct ab_run_set set;
	ab_run_set_init(&set);
	unsigned n = ab_report_read_text("j.json", t->str, t->len, &set, problems);
	g_string_free(t, TRUE);
	assert_int_equal(n, 2);
	assert_int_equal(problems->len, 5);
	const char *prefix[] = {
		"j.json:2: not valid JSON: ",
		"j.json:4: member 'config.seeks': not a number",
		"j.json:5: not valid JSON: ",
		"j.json:6: holds a NUL byte",
		"j.json:7: not valid JSON: ",
	};
	for (guint i = 0; i < problems->len; i++)
		if (!g_str_has_prefix(g_ptr_array_index(problems, i), prefix[i]))
			fail_msg("'%s', want '%s...'", (char *)g_ptr_array_index(problems, i), prefix[i]);
	for (guint i = 0; i < set.runs->len; i++) {
		g_autofree char *again = ab_json_format(g_ptr_array_index(set.runs, i));
		assert_string_equal(again, good);
	}
	ab_run_set_clear(&set);
}

/* A set of ab_run_set_init_once() (report's) holds a run read twice once:
 * JSON lines by run id, repeat and cell, a line without a run id by its
 * text, and a JSON run's CSV line (run --json J --csv C) as that run; a
 * plain set (the matrix's resume) keeps what it reads. */
static void test_read_once(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = full_run();
	g_autofree char *good = ab_json_format(run);
	g_autofree char *csv = ab_csv_format_line(run); /* ends in its newline */
	g_autofree char *repeat3 = full_with("\"repeat\":2", "\"repeat\":3");
	g_autofree char *other_cell = full_with("\"cell\":null", "\"cell\":\"raid5 xfs\"");
	g_autofree char *no_id = full_with("\"run_id\":\"261203130411-13923-b6fde8\"", "\"run_id\":null");
	g_autofree char *no_id_seed = full_with("\"run_id\":\"261203130411-13923-b6fde8\"", "\"run_id\":null ");
	g_autofree char *other_csv = g_strdup(csv);
	*strstr(other_csv, "fixhost") = 'F';
	struct ab_run_set set;
	ab_run_set_init_once(&set);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	/* The CSV line of `good` (lines 3 and 6) is good's: both dropped.
	 * repeat3 and other_cell have that CSV line too (the same figures and
	 * seed) and stay: other runs. */
	g_autofree char *a = g_strdup_printf("%s\n%s\n%s%s\n%s\n%s", good, repeat3, csv, other_cell, no_id, csv);
	assert_int_equal(ab_report_read_text("a.json", a, strlen(a), &set, problems), 6);
	assert_int_equal(set.runs->len, 4);
	assert_int_equal(set.dropped, 2);
	assert_string_equal(set.first_dropped, "a.json:3");
	/* The same runs in a second file: all dropped, the first named stays. */
	g_autofree char *b = g_strdup_printf("%s\r\n%s\n%s%s%s\n%s\n", good, no_id, csv, other_csv, no_id_seed, repeat3);
	assert_int_equal(ab_report_read_text("b.json", b, strlen(b), &set, problems), 6);
	assert_int_equal(problems->len, 0);
	/* Kept: the other CSV line and the JSON line whose text differs. */
	assert_int_equal(set.runs->len, 6);
	assert_int_equal(set.dropped, 6);
	assert_string_equal(set.first_dropped, "a.json:3");
	const struct ab_run *first = g_ptr_array_index(set.runs, 0);
	assert_int_equal(first->repeat, 2);
	ab_run_set_clear(&set);
	assert_null(set.runs);
	assert_null(set.keys);
	/* The CSV file first (report --compare C J): its line is replaced by
	 * the JSON run, in its place; the other CSV line stays. */
	ab_run_set_init_once(&set);
	g_autofree char *c = g_strdup_printf("%s%s", other_csv, csv);
	assert_int_equal(ab_report_read_text("c.csv", c, strlen(c), &set, NULL), 2);
	g_autofree char *j = g_strdup_printf("%s\n%s\n", good, good);
	assert_int_equal(ab_report_read_text("j.json", j, strlen(j), &set, NULL), 2);
	assert_int_equal(set.runs->len, 2);
	assert_int_equal(set.dropped, 2);
	assert_string_equal(set.first_dropped, "j.json:1");
	assert_null(((const struct ab_run *)g_ptr_array_index(set.runs, 0))->run_id);
	assert_string_equal(((const struct ab_run *)g_ptr_array_index(set.runs, 1))->run_id, run->run_id);
	/* ... and read again after, the CSV line is still that run. */
	assert_int_equal(ab_report_read_text("c.csv", c, strlen(c), &set, NULL), 2);
	assert_int_equal(set.runs->len, 2);
	assert_int_equal(set.dropped, 4);
	ab_run_set_clear(&set);
	/* A plain set keeps both. */
	ab_run_set_init(&set);
	g_autofree char *twice = g_strdup_printf("%s\n%s\n%s%s", good, good, csv, csv);
	assert_int_equal(ab_report_read_text("m.json", twice, strlen(twice), &set, NULL), 4);
	assert_int_equal(set.runs->len, 4);
	assert_int_equal(set.dropped, 0);
	assert_null(set.first_dropped);
	ab_run_set_clear(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_round_trip),
		cmocka_unit_test(test_unknown_round_trip),
		cmocka_unit_test(test_tune_stamp_round_trip),
		cmocka_unit_test(test_fixture_round_trip),
		cmocka_unit_test(test_version_1),
		cmocka_unit_test(test_member_errors),
		cmocka_unit_test(test_broken_json),
		cmocka_unit_test(test_read_text),
		cmocka_unit_test(test_read_once),
	};
	return cmocka_run_group_tests_name("json-read", tests, NULL, NULL);
}
