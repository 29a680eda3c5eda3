/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/runner/progress.h"

#define S 1000000000ull /* ns per second */
#define MIB (1024.0 * 1024.0)

static uint64_t fake_now;
static uint64_t fake_clock(void)
{
	return fake_now;
}

/* The progress state writes into a memory stream read back by the test. */
static char *buf;
static size_t len;
static size_t seen; /* how much of buf the test has looked at */
static FILE *out;

static int setup(void **state)
{
	(void)state;
	fake_now = 1000 * S;
	seen = 0;
	out = open_memstream(&buf, &len);
	ab_progress_set_clock(fake_clock);
	ab_progress_set_width(80);
	return out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ab_progress_stop();
	fclose(out);
	free(buf);
	buf = NULL;
	len = 0;
	return 0;
}

/* What was written since the last call. */
static char *written(void)
{
	fflush(out);
	char *s = strndup(buf + seen, len - seen);
	seen = len;
	return s;
}

static void assert_text(char *got, const char *want)
{
	assert_string_equal(got, want);
	free(got);
}

static void test_duration(void **state)
{
	(void)state;
	assert_text(ab_progress_duration_text(0), "0:00");
	assert_text(ab_progress_duration_text(7.9), "0:07");
	assert_text(ab_progress_duration_text(761), "12:41");
	assert_text(ab_progress_duration_text(3723), "1:02:03");
	assert_text(ab_progress_duration_text(NAN), "0:00");
	assert_text(ab_progress_duration_text(-5), "0:00");
	assert_text(ab_progress_duration_text(INFINITY), "0:00");
}

static void test_rate_units(void **state)
{
	(void)state;
	assert_text(ab_progress_rate_text(812, NULL), "812 B/s");
	assert_text(ab_progress_rate_text(5.25, NULL), "5.2 B/s");
	assert_text(ab_progress_rate_text(3.7 * 1024, NULL), "3.7 KiB/s");
	assert_text(ab_progress_rate_text(312 * MIB, NULL), "312 MiB/s");
	assert_text(ab_progress_rate_text(1.5 * 1024 * MIB, NULL), "1.5 GiB/s");
	/* Just under the next unit rounds up to 1024 of this one, not "1024 KiB". */
	assert_text(ab_progress_rate_text(1023.9 * 1024, NULL), "1.0 MiB/s");
	assert_text(ab_progress_rate_text(4210.4, "seeks"), "4210 seeks/s");
	assert_text(ab_progress_rate_text(2.5, "files"), "2.5 files/s");
	assert_text(ab_progress_rate_text(NAN, NULL), "");
	assert_text(ab_progress_rate_text(-1, "files"), "");
}

static void test_format_phase(void **state)
{
	(void)state;
	struct ab_progress_view v = {
		.context = "cell 3/8 repeat 2/3", .what = "block-write", .measuring = TRUE,
		.done = 429, .total = 1000, .rate = 312 * MIB, .elapsed_s = 41.2, .eta_s = 57.9,
	};
	assert_text(ab_progress_format(&v, 100), "cell 3/8 repeat 2/3 | block-write 42% 312 MiB/s | 0:41 elapsed, ETA 0:57");
	/* run -x: the repeat of the run itself, after the context. */
	v.context = NULL;
	v.repeat = 2;
	v.repeats = 3;
	assert_text(ab_progress_format(&v, 100), "repeat 2/3 | block-write 42% 312 MiB/s | 0:41 elapsed, ETA 0:57");
	/* One repeat in all is not worth a word; nor unknown figures. */
	v.repeats = 1;
	v.rate = NAN;
	v.eta_s = NAN;
	assert_text(ab_progress_format(&v, 100), "block-write 42% | 0:41 elapsed");
	/* Percent rounds down, never past 100; no total, no percent. */
	v.done = 999;
	assert_text(ab_progress_format(&v, 100), "block-write 99% | 0:41 elapsed");
	v.done = 5000;
	assert_text(ab_progress_format(&v, 100), "block-write 100% | 0:41 elapsed");
	v.total = 0;
	v.noun = "seeks";
	v.rate = 4000;
	assert_text(ab_progress_format(&v, 100), "block-write 4000 seeks/s | 0:41 elapsed");
}

static void test_format_activity(void **state)
{
	(void)state;
	struct ab_progress_view v = { .context = "cell 1/4", .repeat = 1, .repeats = 2, .what = "dropping caches",
				      .elapsed_s = 12, .rate = 5, .eta_s = 3, .done = 1, .total = 2 };
	/* Not measuring: no figures, whatever the view holds. */
	assert_text(ab_progress_format(&v, 80), "cell 1/4 | repeat 1/2 | dropping caches");
	v.context = "";
	v.repeats = 0;
	assert_text(ab_progress_format(&v, 80), "dropping caches");
}

static void test_truncation(void **state)
{
	(void)state;
	struct ab_progress_view v = { .what = "block-write", .measuring = TRUE, .done = 1, .total = 2,
				      .rate = 100 * MIB, .elapsed_s = 1, .eta_s = 1 };
	/* One column short of the width: the last one makes some terminals wrap. */
	assert_text(ab_progress_format(&v, 20), "block-write 50% 100");
	assert_text(ab_progress_format(&v, 1), "");
	assert_text(ab_progress_format(&v, 0), "");
	/* Cut between characters, never inside one. */
	struct ab_progress_view u = { .context = "z\xc3\xbcrich", .what = "x" };
	assert_text(ab_progress_format(&u, 3), "z\xc3\xbc");
	assert_text(ab_progress_format(&u, 80), "z\xc3\xbcrich | x");
}

static void test_live_line(void **state)
{
	(void)state;
	ab_progress_start(out, AB_PROGRESS_LIVE);
	ab_progress_set_context("cell 1/2");
	ab_progress_activity("formatting");
	assert_text(written(), "\rcell 1/2 | formatting\033[K");
	ab_progress_phase_begin("block-write", NULL, NULL);
	assert_text(written(), "\rcell 1/2 | block-write | 0:00 elapsed\033[K");
	/* Updates come every 200 ms or so; the line is drawn every 0.5 s. */
	fake_now += S / 5;
	ab_progress_work(10 * 1048576, 100 * 1048576);
	assert_text(written(), "");
	fake_now += S / 5;
	ab_progress_work(20 * 1048576, 100 * 1048576);
	assert_text(written(), "");
	fake_now += S / 5;
	ab_progress_work(30 * 1048576, 100 * 1048576);
	/* 20 MiB in 0.4 s; 20 MiB in 0.4 s since the first work seen leaves
	 * 70 MiB: 1.4 s. */
	assert_text(written(), "\rcell 1/2 | block-write 30% 50 MiB/s | 0:00 elapsed, ETA 0:01\033[K");
	/* Anything else to print: the line goes first, once. */
	ab_progress_clear();
	assert_text(written(), "\r\033[K");
	ab_progress_clear();
	assert_text(written(), "");
	fake_now += 2 * S;
	ab_progress_work(100 * 1048576, 100 * 1048576);
	assert_text(written(), "\rcell 1/2 | block-write 100% 35 MiB/s | 0:02 elapsed, ETA 0:00\033[K");
	/* The end clears it; nothing stays behind on the terminal. */
	ab_progress_phase_end(TRUE, 40 * MIB);
	assert_text(written(), "\r\033[K");
	ab_progress_phase_end(TRUE, 40 * MIB);
	assert_text(written(), "");
	/* Control characters from a caller never reach the terminal. */
	ab_progress_set_context("a\033[2J\nb");
	ab_progress_activity("tearing\rdown");
	assert_text(written(), "\ra?[2J?b | tearing?down\033[K");
	ab_progress_activity(NULL);
	assert_text(written(), "\r\033[K");
	ab_progress_stop();
	assert_text(written(), "");
}

static void test_live_width(void **state)
{
	(void)state;
	ab_progress_start(out, AB_PROGRESS_LIVE);
	ab_progress_set_width(12);
	ab_progress_activity("dropping caches");
	assert_text(written(), "\rdropping ca\033[K");
	ab_progress_set_width(80);
}

static void test_lines(void **state)
{
	(void)state;
	ab_progress_start(out, AB_PROGRESS_LINES);
	ab_progress_activity("formatting");
	ab_progress_phase_begin("block-write", NULL, NULL);
	fake_now += S;
	ab_progress_work(1, 2); /* never drawn off a terminal */
	fake_now += S;
	ab_progress_phase_end(TRUE, 100 * MIB);
	assert_text(written(), "arraybench: phase 'block-write'... done: 100 MiB/s, 2.00 s elapsed\n");
	ab_progress_set_context("cell 2/4");
	ab_progress_set_repeat(1, 3);
	ab_progress_phase_begin("seeks", "again with 16384 seeks", "seeks");
	/* Other output on the way: the line is ended, then begun again. */
	ab_progress_clear();
	fake_now += 75 * S;
	ab_progress_phase_end(TRUE, 4210);
	assert_text(written(), "arraybench: cell 2/4: repeat 1/3: phase 'seeks' again with 16384 seeks...\n"
			       "arraybench: cell 2/4: repeat 1/3: phase 'seeks' again with 16384 seeks... done: "
			       "4210 seeks/s, 1:15 elapsed\n");
	ab_progress_set_context(NULL);
	ab_progress_set_repeat(0, 0);
	ab_progress_phase_begin("sweep", NULL, NULL);
	ab_progress_phase_end(TRUE, NAN);
	ab_progress_phase_begin("seq-create", NULL, "files");
	ab_progress_phase_end(FALSE, 5);
	assert_text(written(), "arraybench: phase 'sweep'... done, 0.00 s elapsed\n"
			       "arraybench: phase 'seq-create'... failed\n");
	assert_null(strchr(buf, '\r'));
	/* A phase begun and never ended (an interrupted run) ends its line. */
	ab_progress_phase_begin("rewrite", NULL, NULL);
	ab_progress_stop();
	assert_text(written(), "arraybench: phase 'rewrite'...\n");
}

static void test_quiet(void **state)
{
	(void)state;
	ab_progress_start(out, AB_PROGRESS_OFF);
	ab_progress_activity("formatting");
	ab_progress_phase_begin("block-write", NULL, NULL);
	fake_now += S;
	ab_progress_work(1, 2);
	ab_progress_clear();
	ab_progress_phase_end(TRUE, 1);
	ab_progress_stop();
	assert_text(written(), "");
}

/* A full stderr turns the line off; the run goes on. */
static void test_full_output(void **state)
{
	(void)state;
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		skip();
	ab_progress_start(full, AB_PROGRESS_LIVE);
	ab_progress_activity("formatting");
	ab_progress_phase_begin("block-write", NULL, NULL);
	for (int i = 0; i < 5; i++) {
		fake_now += S;
		ab_progress_work((uint64_t)i, 10);
	}
	ab_progress_clear();
	ab_progress_phase_end(TRUE, 1);
	ab_progress_stop();
	fclose(full);
	ab_progress_start(out, AB_PROGRESS_LINES);
	ab_progress_phase_begin("rewrite", NULL, NULL);
	ab_progress_phase_end(TRUE, NAN);
	assert_text(written(), "arraybench: phase 'rewrite'... done, 0.00 s elapsed\n");
}

static void test_mode_for(void **state)
{
	(void)state;
	assert_int_equal(ab_progress_mode_for(out, TRUE), AB_PROGRESS_OFF);
	assert_int_equal(ab_progress_mode_for(NULL, FALSE), AB_PROGRESS_OFF);
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(ab_progress_mode_for(f, FALSE), AB_PROGRESS_LINES);
	fclose(f);
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0)
		skip();
	int s = open(ptsname(m), O_RDWR | O_NOCTTY);
	assert_true(s >= 0);
	FILE *tty = fdopen(s, "w");
	assert_int_equal(ab_progress_mode_for(tty, FALSE), AB_PROGRESS_LIVE);
	assert_int_equal(ab_progress_mode_for(tty, TRUE), AB_PROGRESS_OFF);
	fclose(tty);
	close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_rate_units),
		cmocka_unit_test(test_format_phase),
		cmocka_unit_test(test_format_activity),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test_setup_teardown(test_live_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_width, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_for, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
