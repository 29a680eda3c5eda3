/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wal phase: its option parsers, its method table and the steps and
 * checks a run with it gets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/options/wal-options.h"
#include "../../workloads/phase.h"
#include "../../workloads/wal.h"
#include "run-args.h"

/* `slot` is read after the call that fills it (an argument would be read
 * in no set order). */
static void assert_refused(gboolean ok, GError **slot, const char *message)
{
	GError *error = *slot;
	*slot = NULL;
	assert_false(ok);
	assert_non_null(error);
	assert_int_equal(error->code, AB_ERROR_USAGE);
	if (!g_str_equal(error->message, message))
		print_error("got '%s'\n", error->message);
	assert_string_equal(error->message, message);
	g_error_free(error);
}

static void test_syncs(void **state)
{
	(void)state;
	GArray *l = NULL;
	GError *error = NULL;
	assert_true(ab_wal_parse_syncs("--wal-sync", "fsync,open_datasync", &l, &error));
	assert_int_equal(l->len, 2);
	assert_int_equal(g_array_index(l, unsigned, 0), AB_WAL_FSYNC);
	assert_int_equal(g_array_index(l, unsigned, 1), AB_WAL_OPEN_DATASYNC);
	g_array_unref(l);
	/* all: pg_test_fsync's order. */
	assert_true(ab_wal_parse_syncs("--wal-sync", "all", &l, &error));
	assert_int_equal(l->len, 4);
	const unsigned pg[] = { AB_WAL_OPEN_DATASYNC, AB_WAL_FDATASYNC, AB_WAL_FSYNC, AB_WAL_OPEN_SYNC };
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(g_array_index(l, unsigned, i), pg[i]);
	g_array_unref(l);
	assert_refused(ab_wal_parse_syncs("--wal-sync", "fdatasinc", &l, &error), &error,
		       "invalid --wal-sync 'fdatasinc': unknown sync method (fdatasync, fsync, open_datasync, "
		       "open_sync or all)");
	error = NULL;
	assert_refused(ab_wal_parse_syncs("--wal-sync", "fsync,fsync", &l, &error), &error,
		       "invalid --wal-sync 'fsync': given twice in the list");
	error = NULL;
	assert_refused(ab_wal_parse_syncs("--wal-sync", "all,fsync", &l, &error), &error,
		       "invalid --wal-sync 'all,fsync': 'all' stands alone");
	error = NULL;
	assert_refused(ab_wal_parse_syncs("--wal-sync", "fsync,", &l, &error), &error,
		       "invalid --wal-sync 'fsync,': empty method in the list");
	error = NULL;
	assert_refused(ab_wal_parse_syncs("--wal-sync", "", &l, &error), &error,
		       "invalid --wal-sync '': no method given");
}

static void test_commits(void **state)
{
	(void)state;
	GArray *l = NULL;
	GError *error = NULL;
	assert_true(ab_wal_parse_commits("--wal-records", "8k,2X8k,16k,4x4096", &l, &error));
	assert_int_equal(l->len, 4);
	const struct ab_wal_commit want[] = { { 1, 8192 }, { 2, 8192 }, { 1, 16384 }, { 4, 4096 } };
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(g_array_index(l, struct ab_wal_commit, i).writes, want[i].writes);
		assert_int_equal(g_array_index(l, struct ab_wal_commit, i).write_size, want[i].write_size);
	}
	g_array_unref(l);
	const struct { const char *text, *message; } bad[] = {
		{ "0x8k", "invalid --wal-records '0x8k': the writes of a commit are 1 to 64" },
		{ "65x8k", "invalid --wal-records '65x8k': the writes of a commit are 1 to 64" },
		{ "x8k", "invalid --wal-records 'x8k': the writes of a commit are 1 to 64" },
		{ "2x", "invalid --wal-records '2x': not a size (bytes, or with k or m)" },
		{ "8q", "invalid --wal-records '8q': not a size (bytes, or with k or m)" },
		{ "-8k", "invalid --wal-records '-8k': not a size (bytes, or with k or m)" },
		{ "100", "invalid --wal-records '100': a write is 512 bytes to 1m, a multiple of 512" },
		{ "1000", "invalid --wal-records '1000': a write is 512 bytes to 1m, a multiple of 512" },
		{ "2m", "invalid --wal-records '2m': a write is 512 bytes to 1m, a multiple of 512" },
		{ "8x1m", "invalid --wal-records '8x1m': a commit is at most 4m, a quarter of the 16m log" },
		{ "8k,8k", "invalid --wal-records '8k': given twice in the list" },
		{ "8k,,16k", "invalid --wal-records '8k,,16k': empty commit size in the list" },
		{ "", "invalid --wal-records '': no commit size given" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		error = NULL;
		assert_refused(ab_wal_parse_commits("--wal-records", bad[i].text, &l, &error), &error, bad[i].message);
	}
}

static void test_seconds(void **state)
{
	(void)state;
	double s = 0;
	GError *error = NULL;
	assert_true(ab_wal_parse_seconds("--wal-seconds", "0.5", &s, &error));
	assert_true(s == 0.5);
	assert_true(ab_wal_parse_seconds("--wal-seconds", "3600", &s, &error));
	const char *bad[] = { "0", "0.05", "3601", "nan", "inf", "5s", "", " 5", "-1", "1e9", "0x10", "1e" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		error = NULL;
		g_autofree char *msg = g_strdup_printf("invalid --wal-seconds '%s': seconds from 0.1 to 3600", bad[i]);
		assert_refused(ab_wal_parse_seconds("--wal-seconds", bad[i], &s, &error), &error, msg);
	}
}

/* What each method opens with and calls: what t1008 then sees under strace. */
static void test_method_table(void **state)
{
	(void)state;
	const struct { const char *name; int flags; const char *call; } want[AB_WAL_SYNC_COUNT] = {
		[AB_WAL_OPEN_DATASYNC] = { "open_datasync", O_DSYNC, NULL },
		[AB_WAL_FDATASYNC] = { "fdatasync", 0, "fdatasync" },
		[AB_WAL_FSYNC] = { "fsync", 0, "fsync" },
		[AB_WAL_OPEN_SYNC] = { "open_sync", O_SYNC, NULL },
	};
	for (unsigned m = 0; m < AB_WAL_SYNC_COUNT; m++) {
		const struct ab_wal_sync_info *info = ab_wal_sync_info(m);
		assert_non_null(info);
		assert_string_equal(info->name, want[m].name);
		assert_int_equal(info->open_flags, want[m].flags);
		assert_true(g_strcmp0(info->call, want[m].call) == 0);
		assert_non_null(info->sync_mode);
		unsigned back = 99;
		assert_true(ab_wal_sync_by_name(info->name, &back));
		assert_int_equal(back, m);
	}
	assert_null(ab_wal_sync_info(AB_WAL_SYNC_COUNT));
	unsigned m;
	assert_false(ab_wal_sync_by_name("all", &m));
	assert_false(ab_wal_sync_by_name("fsync_writethrough", &m));
	/* Test names and labels, as the results are keyed. */
	struct ab_wal_commit one = { 1, 8192 }, two = { 2, 8192 }, big = { 1, 16384 }, odd = { 3, 1536 };
	g_autofree char *a = ab_wal_test_name(AB_WAL_FDATASYNC, &one, FALSE);
	g_autofree char *b = ab_wal_test_name(AB_WAL_FDATASYNC, &two, FALSE);
	g_autofree char *c = ab_wal_test_name(AB_WAL_OPEN_SYNC, &big, FALSE);
	g_autofree char *d = ab_wal_commit_label(&odd);
	assert_string_equal(a, "fdatasync");
	assert_string_equal(b, "fdatasync 2x8k");
	assert_string_equal(c, "open_sync");
	assert_string_equal(d, "3x1536");
	g_autofree char *e = ab_wal_test_name(AB_WAL_FDATASYNC, &one, TRUE);
	g_autofree char *f = ab_wal_test_name(AB_WAL_OPEN_DATASYNC, &two, TRUE);
	assert_string_equal(e, "fdatasync rewrite");
	assert_string_equal(f, "open_datasync 2x8k rewrite");
	g_auto(GStrv) calls = ab_wal_timed_calls(AB_WAL_FSYNC, &two);
	g_autofree char *joined = g_strjoinv("+", calls);
	assert_string_equal(joined, "pwrite+pwrite+fsync");
	g_auto(GStrv) calls2 = ab_wal_timed_calls(AB_WAL_OPEN_DATASYNC, &one);
	g_autofree char *joined2 = g_strjoinv("+", calls2);
	assert_string_equal(joined2, "pwrite");
	/* The phase: extra, commits/s, a worker per writer. */
	const struct ab_phase *ph = ab_phase_by_name("wal");
	assert_non_null(ph);
	assert_true(ph->id >= AB_PHASE_COUNT);
	assert_int_equal(ph->unit, AB_UNIT_COMMITS_PER_SEC);
	struct ab_step st = { .phase = ph, .wal_writers = 3 };
	assert_int_equal(ph->worker_count(&st), 3);
}

static gboolean finish(struct ab_config *cfg, GError **error)
{
	return ab_config_finish(cfg, 0, error);
}

/* A run with the phase: its defaults reach the step; its options are
 * refused without it, and where they contradict. */
static void test_config(void **state)
{
	(void)state;
	GError *error = NULL;
	{
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, &error, "-d", "/tmp", "--phases", "wal", NULL));
		assert_true(finish(&cfg, &error));
		assert_int_equal(cfg.file_size, 0); /* no bonnie++ file: no twice-the-RAM rule */
		assert_int_equal(cfg.steps->len, 1);
		const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, 0);
		assert_int_equal(st->wal_syncs->len, 1);
		assert_int_equal(g_array_index(st->wal_syncs, unsigned, 0), AB_WAL_FDATASYNC);
		assert_int_equal(st->wal_commits->len, 1);
		assert_int_equal(g_array_index(st->wal_commits, struct ab_wal_commit, 0).write_size, 8192);
		assert_true(st->wal_seconds == AB_WAL_DEFAULT_SECONDS);
		assert_int_equal(st->wal_count, 0);
		assert_int_equal(st->wal_writers, 1);
		assert_int_equal(st->wal_log_size, AB_WAL_LOG_SIZE);
	}
	{
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, &error, "-d", "/tmp", "--phases", "wal", "--wal-sync", "all", "--wal-records",
				       "8k,2x8k", "--wal-writers", "4", "--wal-commits", "10", NULL));
		assert_true(finish(&cfg, &error));
		const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, 0);
		assert_int_equal(st->wal_syncs->len, 4);
		assert_int_equal(st->wal_commits->len, 2);
		assert_int_equal(st->wal_writers, 4);
		assert_int_equal(st->wal_count, 10);
	}
	{
		/* With the wal phase beside it, --wal-seconds is for that. */
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, &error, "-d", "/tmp", "--phases", "wal,oltp+wal", "--wal-seconds", "2", NULL));
		assert_true(finish(&cfg, &error));
	}
	const struct { const char *a, *b, *c, *d, *message; } bad[] = {
		{ "--wal-sync", "fsync", NULL, NULL,
		  "--wal-sync applies to the wal phase, which is not asked for (--phases wal)" },
		{ "--phases", "wal", "--wal-seconds=2", "--wal-commits=5",
		  "--wal-seconds and --wal-commits exclude each other: a method runs for a time or a count" },
		{ "--phases", "wal", "--direct", "--wal-records=2x512",
		  "invalid --wal-records '2x512' with --direct: O_DIRECT writes are whole 4k blocks" },
		{ "--phases", "wal", "--wal-writers", "0", "invalid --wal-writers '0': a writer count from 1 to 256" },
		{ "--phases", "wal", "--wal-writers", "257", "invalid --wal-writers '257': a writer count from 1 to 256" },
		{ "--phases", "wal", "--wal-commits", "0",
		  "invalid --wal-commits '0': a commit count from 1 to 1073741824" },
		/* oltp+wal times its commits by --oltp-seconds: these would be
		 * silently ignored. */
		{ "--phases", "oltp+wal", "--wal-seconds", "100",
		  "--wal-seconds does not apply to oltp+wal, whose commits run for --oltp-seconds beside the load "
		  "(it times --phases wal)" },
		{ "--phases", "oltp+wal", "--wal-commits", "5",
		  "--wal-commits does not apply to oltp+wal, whose commits run for --oltp-seconds beside the load "
		  "(it times --phases wal)" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		error = NULL;
		gboolean ok = parse_args(&cfg, &error, "-d", "/tmp", bad[i].a, bad[i].b, bad[i].c, bad[i].d, NULL);
		if (ok)
			ok = finish(&cfg, &error);
		assert_refused(ok, &error, bad[i].message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syncs),
		cmocka_unit_test(test_commits),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_method_table),
		cmocka_unit_test(test_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
