/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Size, count and spec parsers, and `run` option validation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/pipeline/run-capture.h"
#include "../../src/options/run-options.h"
#include "run-args.h"
#include "../../workloads/phase.h"

/* "a,b,c": the phases of a list of ids or of steps. */
static char *id_names(const GArray *ids)
{
	GString *o = g_string_new(NULL);
	for (guint i = 0; ids && i < ids->len; i++)
		g_string_append_printf(o, "%s%s", i ? "," : "", ab_phase_by_id(g_array_index(ids, unsigned, i))->name);
	return g_string_free(o, FALSE);
}

static char *step_names(const GArray *steps)
{
	GString *o = g_string_new(NULL);
	for (guint i = 0; steps && i < steps->len; i++)
		g_string_append_printf(o, "%s%s", i ? "," : "", g_array_index(steps, struct ab_step, i).phase->name);
	return g_string_free(o, FALSE);
}

static void test_sizes(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(ab_parse_size("4096", AB_MIB, &v, NULL));
	assert_int_equal(v, 4096 * AB_MIB);
	assert_true(ab_parse_size("1g", AB_MIB, &v, NULL));
	assert_int_equal(v, 1024 * AB_MIB);
	assert_true(ab_parse_size("2T", 1, &v, NULL));
	assert_int_equal(v, 2ull << 40);
	assert_true(ab_parse_size("4k", 1, &v, NULL));
	assert_int_equal(v, 4096);
	assert_true(ab_parse_size("512m", AB_MIB, &v, NULL));
	assert_int_equal(v, 512 * AB_MIB);
	assert_true(ab_parse_size("0", AB_MIB, &v, NULL));
	assert_int_equal(v, 0);
	const char *bad[] = { "", "-1", "12q", "1gg", "g", "1.5g", " 1", "99999999999999999999", "20000000t" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		GError *e = NULL;
		assert_false(ab_parse_size(bad[i], AB_MIB, &v, &e));
		assert_non_null(e);
		assert_int_equal(e->code, AB_ERROR_USAGE);
		g_autofree char *quoted = g_strdup_printf("'%s'", bad[i]);
		assert_non_null(strstr(e->message, quoted));
		g_error_free(e);
	}
}

static void test_chunk(void **state)
{
	(void)state;
	uint32_t c;
	assert_true(ab_parse_chunk("256", &c, NULL));
	assert_int_equal(c, 256);
	assert_true(ab_parse_chunk("1m", &c, NULL));
	assert_int_equal(c, 1 << 20);
	assert_true(ab_parse_chunk("64k", &c, NULL));
	assert_int_equal(c, 65536);
	assert_false(ab_parse_chunk("128", &c, NULL));
	assert_false(ab_parse_chunk("3000", &c, NULL));
	assert_false(ab_parse_chunk("2m", &c, NULL));
}

static void test_size_spec(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_size_spec("1g:4k:4000:3", &cfg, NULL));
	assert_int_equal(cfg.file_size, 1024 * AB_MIB);
	assert_int_equal(cfg.io_chunk, 4096);
	assert_int_equal(cfg.seeks, 4000);
	assert_int_equal(cfg.seekers, 3);
	assert_true(ab_parse_size_spec("2048::16k", &cfg, NULL));
	assert_int_equal(cfg.file_size, 2048 * AB_MIB);
	assert_int_equal(cfg.seeks, 16384);
	assert_false(ab_parse_size_spec("1g:4k:0", &cfg, NULL));
	assert_false(ab_parse_size_spec("1g:4k:10:0", &cfg, NULL));
	assert_false(ab_parse_size_spec("1g:4k:10:5000", &cfg, NULL));
	assert_false(ab_parse_size_spec("1g:4k:10:5:9", &cfg, NULL));
	assert_false(ab_parse_size_spec("1536k", &cfg, NULL)); /* not whole MiB */
	ab_config_clear(&cfg);
}

static void test_files_spec(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("2:8k:1k:3:4k", &cfg, NULL));
	assert_int_equal(cfg.num_files, 2);
	assert_int_equal(cfg.file_max, 8192);
	assert_int_equal(cfg.file_min, 1024);
	assert_int_equal(cfg.num_dirs, 3);
	assert_int_equal(cfg.file_chunk, 4096);
	assert_true(ab_parse_files_spec("1:-1", &cfg, NULL));
	assert_int_equal(cfg.file_max, AB_FILES_HARDLINK);
	assert_true(ab_parse_files_spec("1:-2", &cfg, NULL));
	assert_int_equal(cfg.file_max, AB_FILES_SYMLINK);
	assert_true(ab_parse_files_spec("0", &cfg, NULL));
	assert_int_equal(cfg.num_files, 0);
	assert_true(ab_parse_files_spec("1m", &cfg, NULL));
	assert_int_equal(cfg.num_files, 1024);
	assert_false(ab_parse_files_spec("1:1k:2k", &cfg, NULL));   /* min > max */
	assert_false(ab_parse_files_spec("1:4k:0:0", &cfg, NULL));  /* zero dirs */
	assert_false(ab_parse_files_spec("1:4k:0:100000", &cfg, NULL));
	assert_false(ab_parse_files_spec("1:-3", &cfg, NULL));
	assert_false(ab_parse_files_spec("1:-1:5", &cfg, NULL));
	ab_config_clear(&cfg);
}

static void test_machine_and_user(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_machine_name("db01-raid10", &cfg, NULL));
	assert_string_equal(cfg.machine_name, "db01-raid10");
	assert_false(ab_parse_machine_name("a,b", &cfg, NULL));
	assert_false(ab_parse_machine_name("a b", &cfg, NULL));
	assert_false(ab_parse_machine_name("", &cfg, NULL));
	char longname[80];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[79] = '\0';
	assert_false(ab_parse_machine_name(longname, &cfg, NULL));
	assert_true(ab_parse_user_spec("root", &cfg, NULL));
	assert_int_equal(cfg.uid, 0);
	assert_true(ab_parse_user_spec("1234:5678", &cfg, NULL));
	assert_int_equal(cfg.uid, 1234);
	assert_int_equal(cfg.gid, 5678);
	assert_false(ab_parse_user_spec("no-such-user-here", &cfg, NULL));
	assert_false(ab_parse_user_spec("root:no-such-group-here", &cfg, NULL));
	ab_config_clear(&cfg);
}

static void test_run_options(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "1g:4k", "-n", "4", "-r", "512", "-x", "3", "-z",
			       "77", "-b", "-q", "-D", "--seekers", "28", "--per-char", "stdio", "--data", "zeros",
			       "--cache", "none", "--phases", "seeks,block-read", "-m", "box", NULL));
	assert_string_equal(cfg.dir, "/tmp");
	assert_int_equal(cfg.io_chunk, 4096);
	assert_int_equal(cfg.num_files, 4);
	assert_int_equal(cfg.ram_mib, 512);
	assert_int_equal(cfg.repeats, 3);
	assert_int_equal(cfg.seed, 77);
	assert_true(cfg.sync_each_write && cfg.quiet && cfg.direct);
	assert_int_equal(cfg.seekers, 28);
	assert_int_equal(cfg.per_char, AB_PER_CHAR_STDIO);
	assert_int_equal(cfg.data, AB_DATA_ZEROS);
	assert_int_equal(cfg.cache, AB_CACHE_NONE);
	/* In the order given, not bonnie++'s. */
	g_autofree char *asked = id_names(cfg.phase_ids);
	assert_string_equal(asked, "seeks,block-read");
	ab_config_clear(&cfg);

	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-f", NULL));
	assert_int_equal(cfg.byte_io_size, 0);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-f20", NULL));
	assert_int_equal(cfg.byte_io_size, 20 * AB_MIB);
	ab_config_clear(&cfg);

	const char *bad[][3] = {
		{ "-x", "0", "'0'" }, { "-r", "lots", "'lots'" }, { "--per-char", "putc", "'putc'" },
		{ "--data", "ones", "'ones'" }, { "-z", "-1", "'-1'" }, { "--seeks", "0", "'0'" },
		{ "--bogus", "1", "--bogus" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		GError *e = NULL;
		ab_config_init(&cfg);
		assert_false(parse_args(&cfg, &e, "-d", "/tmp", bad[i][0], bad[i][1], NULL));
		assert_non_null(e);
		assert_int_equal(ab_error_exit_status(e), 1);
		if (!strstr(e->message, bad[i][2]))
			fail_msg("'%s' does not name %s", e->message, bad[i][2]);
		g_error_free(e);
		ab_config_clear(&cfg);
	}
}

/* ab_config_finish refuses cfg with a usage error whose message holds `what`. */
static void finish_fails(struct ab_config *cfg, uint64_t ram, const char *what)
{
	GError *e = NULL;
	assert_false(ab_config_finish(cfg, ram, &e));
	assert_non_null(e);
	assert_true(e->domain == AB_ERROR);
	assert_int_equal(e->code, AB_ERROR_USAGE);
	if (!strstr(e->message, what))
		fail_msg("error '%s' does not say '%s'", e->message, what);
	g_error_free(e);
}

/* --phases builds the steps: in the order given, a phase named twice twice,
 * each step with its own copy of the parameters. */
static void test_steps(void **state)
{
	(void)state;
	const uint64_t ram = 1024 * AB_MIB;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m:4k", "-n", "0", "-f", "-b", "--cache", "none", "-r", "0",
			       "--phases", "block-write,block-read,block-read", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	g_autofree char *names = step_names(cfg.steps);
	assert_string_equal(names, "block-write,block-read,block-read");
	for (guint i = 0; i < cfg.steps->len; i++) {
		const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, i);
		assert_int_equal(st->file_size, 64 * AB_MIB);
		assert_int_equal(st->io_chunk, 4096);
		assert_true(st->sync_each_write);
		assert_true(st->grow_seeks); /* no seek count given */
		assert_false(st->evict_after_layout); /* --cache none */
	}
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m:8k:500:3", "--cache", "none", "-r", "0", "--phases", "all,seeks", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.steps->len, AB_PHASE_COUNT + 1);
	const struct ab_step *last = &g_array_index(cfg.steps, struct ab_step, cfg.steps->len - 1);
	assert_string_equal(last->phase->name, "seeks");
	assert_int_equal(last->seeks, 500);
	assert_int_equal(last->seekers, 3);
	assert_false(last->grow_seeks);
	ab_config_clear(&cfg);
}

static void test_finish(void **state)
{
	(void)state;
	struct ab_config cfg;
	const uint64_t ram = 24ull << 30;

	/* bonnie++'s rule: refuse a file under twice the effective RAM. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_NONE;
	assert_true(ab_parse_size_spec("1g", &cfg, NULL));
	finish_fails(&cfg, ram, "1024M is less than twice the RAM (24576M) under --cache none");
	ab_config_clear(&cfg);

	/* Under cgroup, -r is the limit; default 512 MiB gives a 1 GiB default file. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_CGROUP;
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.file_size, 1024 * AB_MIB);
	assert_int_equal(cfg.byte_io_size, 3 * AB_MIB);
	g_autofree char *all = step_names(cfg.steps);
	assert_string_equal(all, "per-char-write,block-write,rewrite,per-char-read,block-read,seeks,seq-create,"
				 "seq-stat,seq-delete,rand-create,rand-stat,rand-delete");
	ab_config_clear(&cfg);

	/* -r below the cgroup floor. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_CGROUP;
	cfg.ram_given = TRUE;
	cfg.ram_mib = 4;
	finish_fails(&cfg, ram, "invalid -r '4': --cache cgroup needs at least 16 MiB");
	ab_config_clear(&cfg);

	/* The workers' buffers need half the group: 64 seekers of 1 MiB
	 * chunks (64 x 1.06 MiB with their slack) need -r 136, refused at
	 * 16 naming it, taken at 136; outside the group the buffers are the
	 * machine's business. */
	const struct {
		enum ab_cache_mode cache;
		uint64_t ram_mib;
		const char *size, *refusal;
	} rooms[] = {
		{ AB_CACHE_CGROUP, 16, "64m:1m:8192:64",
		  "invalid -r '16': phase 'seeks' holds 68.0 MiB of buffers in the memory group, which needs twice "
		  "that for the page cache to fit beside them: give -r 136 or more" },
		{ AB_CACHE_CGROUP, 136, "272m:1m:8192:64", NULL },
		{ AB_CACHE_NONE, 16, "64m:1m:8192:64", NULL },
		/* -r not given (0 here): the default's, said to be the default. */
		{ AB_CACHE_CGROUP, 0, "2g:1m:8192:300",
		  "the default -r (512) is too small: phase 'seeks' holds 318.8 MiB of buffers in the memory group, "
		  "which needs twice that for the page cache to fit beside them: give -r 638 or more" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(rooms); i++) {
		ab_config_init(&cfg);
		cfg.dir = g_strdup("/tmp");
		cfg.cache = rooms[i].cache;
		cfg.ram_given = rooms[i].ram_mib != 0;
		if (cfg.ram_given)
			cfg.ram_mib = rooms[i].ram_mib;
		assert_true(ab_parse_size_spec(rooms[i].size, &cfg, NULL));
		assert_true(ab_parse_phase_list("block-write,seeks", &cfg, NULL));
		if (rooms[i].refusal)
			finish_fails(&cfg, ram, rooms[i].refusal);
		else
			assert_true(ab_config_finish(&cfg, ram, NULL));
		ab_config_clear(&cfg);
	}

	/* -f drops the per-char phases; asking for one then is an error. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_CGROUP;
	cfg.byte_io_size = 0;
	assert_true(ab_config_finish(&cfg, ram, NULL));
	g_autofree char *no_pc = step_names(cfg.steps);
	assert_null(strstr(no_pc, "per-char"));
	assert_non_null(strstr(no_pc, "block-write"));
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_CGROUP;
	cfg.byte_io_size = 0;
	assert_true(ab_parse_phase_list("per-char-read", &cfg, NULL));
	finish_fails(&cfg, ram, "phase 'per-char-read' cannot run");
	ab_config_clear(&cfg);

	/* stdio per-char covers the whole file, as bonnie++ 1.03 did. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_NONE;
	cfg.per_char = AB_PER_CHAR_STDIO;
	cfg.ram_given = TRUE;
	cfg.ram_mib = 0; /* -r 0: no RAM rule */
	assert_true(ab_parse_size_spec("64m", &cfg, NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.byte_io_size, 64 * AB_MIB);
	ab_config_clear(&cfg);
	/* ... unless -fSIZE: then it covers SIZE. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_NONE;
	cfg.per_char = AB_PER_CHAR_STDIO;
	cfg.ram_given = TRUE;
	cfg.ram_mib = 0;
	cfg.byte_io_size = 8 * AB_MIB; /* -f8 */
	assert_true(ab_parse_size_spec("64m", &cfg, NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.byte_io_size, 8 * AB_MIB);
	ab_config_clear(&cfg);

	/* --cold-metadata under --cache none: each undoes the other. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_NONE;
	cfg.cold_metadata = TRUE;
	cfg.ram_given = TRUE;
	finish_fails(&cfg, ram, "--cold-metadata and --cache 'none' contradict each other");
	ab_config_clear(&cfg);

	/* Nothing to run. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_NONE;
	assert_true(ab_parse_size_spec("0", &cfg, NULL));
	assert_true(ab_parse_files_spec("0", &cfg, NULL));
	finish_fails(&cfg, ram, "nothing to run: both -s 0 and -n 0");
	ab_config_clear(&cfg);

	/* More seekers than seeks. */
	ab_config_init(&cfg);
	cfg.dir = g_strdup("/tmp");
	cfg.cache = AB_CACHE_CGROUP;
	assert_true(ab_parse_size_spec("1g:8k:4:5", &cfg, NULL));
	assert_true(cfg.seeks_given);
	finish_fails(&cfg, ram, "invalid seeker count '5': more seekers than the 4 seeks");
	ab_config_clear(&cfg);
}

/* The twice-the-RAM rule (and the run's cache warning) is for the phases
 * that read the test file back: a run of the file phases, oltp or wal
 * with a small -s reads none of it (issue 20). */
static void test_ram_rule_reads(void **state)
{
	(void)state;
	const uint64_t ram = 24ull << 30;
	const char *none[] = { "seq-create,seq-stat,seq-delete", "rand-create,rand-stat,rand-delete", "block-write",
			       "per-char-write", "oltp", "wal" };
	for (size_t i = 0; i < G_N_ELEMENTS(none); i++) {
		struct ab_config cfg;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-n", "1", "--cache", "none", "--phases",
				       none[i], NULL));
		GError *e = NULL;
		if (!ab_config_finish(&cfg, ram, &e))
			fail_msg("--phases %s: %s", none[i], e->message);
		g_autofree char *warning = ab_run_cache_warning(&cfg, ram);
		assert_null(warning);
		ab_config_clear(&cfg);
	}
	const char *reads[] = { "block-read", "per-char-read", "rewrite", "seeks", "latency-curve",
				"seq-create,block-read" };
	for (size_t i = 0; i < G_N_ELEMENTS(reads); i++) {
		struct ab_config cfg;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-n", "1", "--cache", "none", "--phases",
				       reads[i], NULL));
		finish_fails(&cfg, ram, "64M is less than twice the RAM (24576M) under --cache none");
		ab_config_clear(&cfg);
	}
	/* The default phases read it. */
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "--cache", "none", NULL));
	finish_fails(&cfg, ram, "64M is less than twice the RAM");
	ab_config_clear(&cfg);
	/* With -r 0 a reading run goes on, warned; the warning names it. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-r", "0", "--cache", "none", "--phases",
			       "seq-create,block-read", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	g_autofree char *warning = ab_run_cache_warning(&cfg, ram);
	assert_non_null(warning);
	assert_non_null(strstr(warning, "file 64M is under twice the RAM (24576M)"));
	ab_config_clear(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_chunk),
		cmocka_unit_test(test_size_spec),
		cmocka_unit_test(test_files_spec),
		cmocka_unit_test(test_machine_and_user),
		cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_ram_rule_reads),
	};
	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
