/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The room a run's steps take (src/options/step-space.c): each family states what
 * its step lays out, and the check counts only what the chosen steps
 * write, the test file carried from step to step (issue 20: oltp with a
 * 100m data file was refused for the 300M -s default it never writes). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/options/step-space.h"
#include "../../src/options/run-options.h"

#define M AB_MIB

/* The steps of a run command line (no RAM rule: the machine's RAM is 0). */
static void build(struct ab_config *cfg, ...)
{
	char *argv[48] = { "run", "-d", "/tmp" };
	int argc = 3;
	va_list ap;
	va_start(ap, cfg);
	for (char *a; argc < 47 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	ab_config_init(cfg);
	GError *e = NULL;
	if (!ab_run_options_parse(argc, argv, cfg, &e) || !ab_config_finish(cfg, 0, &e))
		fail_msg("%s", e->message);
}

/* The bytes the steps need at most, and the check's message for `free`. */
static uint64_t need_of(const struct ab_config *cfg, uint64_t free_bytes, char **message)
{
	struct ab_space_need need;
	ab_steps_space_need(cfg->steps, cfg->repeats, &need);
	GError *e = NULL;
	gboolean ok = ab_steps_check_space(cfg->steps, cfg->repeats, cfg->dir, free_bytes, &e);
	assert_true(ok == (!free_bytes || need.bytes <= free_bytes)); /* 0: unknown */
	*message = NULL;
	if (!ok) {
		assert_int_equal(e->code, AB_ERROR_SKIPPED);
		*message = g_strdup(e->message);
		g_error_free(e);
	}
	return need.bytes;
}

static void test_oltp_own_size(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	/* No -s given: the 300M default is for phases this run has not. */
	build(&cfg, "--phases", "oltp", "--oltp-size", "100m", NULL);
	assert_int_equal(cfg.file_size, 300 * M);
	g_autofree char *msg = NULL;
	assert_int_equal(need_of(&cfg, 213 * M, &msg), 100 * M);
	assert_null(msg);

	g_auto(ab_config_auto) big;
	build(&big, "--phases", "oltp", "--oltp-size", "300m", NULL);
	g_autofree char *m2 = NULL;
	assert_int_equal(need_of(&big, 213 * M, &m2), 300 * M);
	assert_string_equal(m2, "not enough space in '/tmp': phase 'oltp' needs 300M (the 300M test file), 213M is free");
}

/* The file phases need their small files, not the -s file. */
static void test_files(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	build(&cfg, "-s", "1g", "-n", "2:64k", "--phases", "seq-create,seq-stat,seq-delete", NULL);
	g_autofree char *msg = NULL;
	assert_int_equal(need_of(&cfg, 100 * M, &msg), 128 * M);
	assert_string_equal(msg, "not enough space in '/tmp': phase 'seq-create' needs 128M (2048 files of up to 64k), "
				 "100M is free");
	/* Beside a test file written before them, both at once. */
	g_auto(ab_config_auto) both;
	build(&both, "-s", "100m", "-n", "1:64k", "--phases", "block-write,seq-create", NULL);
	g_autofree char *m2 = NULL;
	assert_int_equal(need_of(&both, 150 * M, &m2), 164 * M);
	assert_string_equal(m2, "not enough space in '/tmp': phase 'seq-create' needs 164M (the 100M test file and "
				"1024 files of up to 64k), 150M is free");
	/* Links take no data. */
	g_auto(ab_config_auto) links;
	build(&links, "-s", "0", "-n", "4:-1", "--phases", "seq-create", NULL);
	g_autofree char *m3 = NULL;
	assert_int_equal(need_of(&links, 1, &m3), 0);
}

/* bonnie++'s defaults: the -s file, which a write makes anew. */
static void test_bonnie(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	build(&cfg, "-s", "64m", "-n", "0", NULL);
	g_autofree char *msg = NULL;
	assert_int_equal(need_of(&cfg, 24 * M, &msg), 64 * M);
	assert_string_equal(msg, "not enough space in '/tmp': phase 'block-write' needs 64M (the 64M test file), "
				 "24M is free");
	/* A read alone lays the file out at -s. */
	g_auto(ab_config_auto) rd;
	build(&rd, "-s", "64m", "--phases", "block-read", NULL);
	g_autofree char *m2 = NULL;
	assert_int_equal(need_of(&rd, 0, &m2), 64 * M);
}

/* The wal logs sit beside what the test file holds then. */
static void test_wal(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	build(&cfg, "--phases", "oltp,wal", "--oltp-size", "40m", NULL);
	g_autofree char *msg = NULL;
	assert_int_equal(need_of(&cfg, 50 * M, &msg), 56 * M);
	assert_string_equal(msg, "not enough space in '/tmp': phase 'wal' needs 56M (the 40M test file and 1 wal log "
				 "of 16M), 50M is free");
	/* oltp+wal: its data file and its logs. */
	g_auto(ab_config_auto) ow;
	build(&ow, "--phases", "oltp+wal", "--oltp-size", "40m", "--wal-writers", "2", NULL);
	g_autofree char *m2 = NULL;
	assert_int_equal(need_of(&ow, 50 * M, &m2), 72 * M);
	assert_non_null(strstr(m2, "phase 'oltp+wal' needs 72M (the 40M test file and 2 wal logs of 16M)"));
	/* wal alone: its logs only (the -s default is not written). */
	g_auto(ab_config_auto) w;
	build(&w, "--phases", "wal", NULL);
	g_autofree char *m3 = NULL;
	assert_int_equal(need_of(&w, 100 * M, &m3), 16 * M);
	/* The test file stays between repeats: a wal step before oltp has
	 * the data file beside its logs from the second repeat on. */
	g_auto(ab_config_auto) rep;
	build(&rep, "--phases", "wal,oltp", "--oltp-size", "40m", "-x", "2", NULL);
	g_autofree char *m4 = NULL;
	assert_int_equal(need_of(&rep, 50 * M, &m4), 56 * M);
	assert_non_null(strstr(m4, "phase 'wal' needs 56M"));
	g_auto(ab_config_auto) once;
	build(&once, "--phases", "wal,oltp", "--oltp-size", "40m", NULL);
	g_autofree char *m5 = NULL;
	assert_int_equal(need_of(&once, 50 * M, &m5), 40 * M);
}

/* The sweep: every stream's file of the largest cell, the test file
 * made anew (what block-write left is freed first), then emptied. */
static void test_sweep(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	build(&cfg, "-s", "8m", "-n", "0", "--phases", "block-write,sweep", "--sweep-file-sizes", "12m",
	      "--sweep-records", "1m", "--sweep-tests", "write", NULL);
	g_autofree char *msg = NULL;
	assert_int_equal(need_of(&cfg, 16 * M, &msg), 12 * M);
	g_auto(ab_config_auto) streams;
	build(&streams, "--phases", "sweep", "--sweep-file-sizes", "32m", "--sweep-records", "1m", "--streams", "1,4",
	      NULL);
	g_autofree char *m2 = NULL;
	assert_int_equal(need_of(&streams, 100 * M, &m2), 128 * M);
	assert_string_equal(m2, "not enough space in '/tmp': phase 'sweep' needs 128M (the 32M test file and 3 stream "
				"files of 32M), 100M is free");
	/* Emptied after: the wal logs then sit beside nothing. */
	g_auto(ab_config_auto) after;
	build(&after, "--phases", "sweep,wal", "--sweep-file-sizes", "32m", "--sweep-records", "1m", NULL);
	g_autofree char *m3 = NULL;
	assert_int_equal(need_of(&after, 0, &m3), 32 * M);
}

/* Unknown free space (a file system that counts no blocks) passes. */
static void test_unknown_free(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	build(&cfg, "-s", "64m", NULL);
	assert_true(ab_steps_check_space(cfg.steps, cfg.repeats, cfg.dir, 0, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oltp_own_size), cmocka_unit_test(test_files), cmocka_unit_test(test_bonnie),
		cmocka_unit_test(test_wal),           cmocka_unit_test(test_sweep), cmocka_unit_test(test_unknown_free),
	};
	return cmocka_run_group_tests_name("space", tests, NULL, NULL);
}
