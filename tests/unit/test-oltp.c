/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The oltp phase: its offset, mix and sync arithmetic, its options and
 * their checks, and the steps they build. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/suite/oltp-run.h"
#include "../../src/options/run-options.h"
#include "run-args.h"
#include "../../workloads/oltp.h"
#include "../../workloads/phase.h"

static const uint64_t ram = 24ull << 30;

static void expect_error(GError *e, int status, const char *what)
{
	assert_non_null(e);
	assert_int_equal(ab_error_exit_status(e), status);
	if (!strstr(e->message, what))
		fail_msg("error '%s' does not say '%s'", e->message, what);
	/* One line: main() prints it as it is. */
	assert_null(strchr(e->message, '\n'));
}

/* Whole blocks only: a tail shorter than a block is never used. */
static void test_blocks(void **state)
{
	(void)state;
	assert_int_equal(ab_oltp_blocks(64ull << 20, 8192), 8192);
	assert_int_equal(ab_oltp_blocks(8192 * 3 + 4095, 8192), 3);
	assert_int_equal(ab_oltp_blocks(8191, 8192), 0);
	assert_int_equal(ab_oltp_blocks(1ull << 40, 512), 1ull << 31);
	assert_int_equal(ab_oltp_blocks(4096, 0), 0);
}

/* Offsets are block-aligned, inside the file's whole blocks, and uniform:
 * a chi-square test over sixteenths of the file. */
static void test_offsets(void **state)
{
	(void)state;
	const uint32_t block = 8192;
	const uint64_t blocks = 1600; /* not a power of two: no masking hides a bias */
	struct ab_rng rng;
	ab_rng_init(&rng, 42, 7);
	unsigned bins[16] = { 0 };
	const unsigned draws = 160000;
	gboolean first = FALSE, last = FALSE;
	for (unsigned i = 0; i < draws; i++) {
		uint64_t off = ab_oltp_offset(&rng, blocks, block);
		assert_int_equal(off % block, 0);
		assert_true(off + block <= blocks * block);
		first |= off == 0;
		last |= off == (blocks - 1) * block;
		bins[off / block / 100]++;
	}
	assert_true(first && last);
	/* Pearson's chi-square over the 16 bins against 15 degrees of
	 * freedom: 37.70 is its 0.999 quantile (37.697 in the tables); a
	 * fixed seed, so it cannot flicker. */
	double chi2 = 0;
	for (unsigned b = 0; b < 16; b++) {
		double d = (double)bins[b] - 10000.0;
		chi2 += d * d / 10000.0;
		if (bins[b] < 9500 || bins[b] > 10500)
			fail_msg("bin %u: %u draws, expected about 10000", b, bins[b]);
	}
	if (chi2 > 37.70)
		fail_msg("chi-square %.1f over 16 bins: not uniform", chi2);
}

/* The mix: 70 reads in 100 on average, exactly none at 0 and all at 100. */
static void test_mix(void **state)
{
	(void)state;
	struct ab_rng rng;
	ab_rng_init(&rng, 1, 2);
	static const uint32_t pcts[] = { 0, 1, 30, 50, 70, 99, 100 };
	for (size_t p = 0; p < G_N_ELEMENTS(pcts); p++) {
		unsigned reads = 0;
		const unsigned draws = 100000;
		for (unsigned i = 0; i < draws; i++)
			reads += ab_oltp_is_read(&rng, pcts[p]) != 0;
		double share = 100.0 * reads / draws;
		if (pcts[p] == 0 || pcts[p] == 100)
			assert_int_equal(reads, pcts[p] ? draws : 0);
		else if (share < pcts[p] - 0.6 || share > pcts[p] + 0.6)
			fail_msg("mix %u: %.2f %% reads", pcts[p], share);
	}
}

/* One fdatasync after every K-th write, none without K. */
static void test_sync_every(void **state)
{
	(void)state;
	unsigned syncs = 0;
	for (uint64_t w = 1; w <= 100; w++)
		syncs += ab_oltp_syncs_after(w, 4) != 0;
	assert_int_equal(syncs, 25);
	assert_true(ab_oltp_syncs_after(4, 4));
	assert_false(ab_oltp_syncs_after(5, 4));
	assert_true(ab_oltp_syncs_after(1, 1));
	for (uint64_t w = 1; w <= 100; w++)
		assert_false(ab_oltp_syncs_after(w, 0));
	g_autofree char *none = ab_oltp_sync_mode(0);
	g_autofree char *some = ab_oltp_sync_mode(16);
	g_autofree char *one = ab_oltp_sync_mode(1);
	assert_string_equal(none, "none");
	assert_string_equal(some, "fdatasync every 16 writes per process, timed with that write");
	assert_string_equal(one, "fdatasync every 1 write per process, timed with that write");
}

/* Every write's block differs from the last in each of its 4 KiB pages,
 * and the random bytes between the stamps stay. */
static void test_stamp(void **state)
{
	(void)state;
	unsigned char a[16384], b[16384];
	memset(a, 0xa5, sizeof(a));
	memcpy(b, a, sizeof(b));
	ab_oltp_stamp(a, sizeof(a), 3, 1);
	ab_oltp_stamp(b, sizeof(b), 3, 2);
	for (unsigned at = 0; at < sizeof(a); at += 4096) {
		assert_memory_not_equal(a + at, b + at, 8);
		assert_memory_equal(a + at + 8, b + at + 8, 4096 - 8);
	}
	ab_oltp_stamp(b, sizeof(b), 4, 1); /* another process, the same count */
	assert_memory_not_equal(a, b, 8);
}

/* Two processes' samples made into the rows: reads and writes apart, all
 * their sum, over the one window. */
static void test_split(void **state)
{
	(void)state;
	const unsigned n = 3; /* two oltp processes, then one other worker */
	struct ab_sample *sm = g_new0(struct ab_sample, n);
	for (unsigned i = 0; i < n; i++) {
		ab_histogram_init(&sm[i].latency);
		for (unsigned k = 0; k < 2; k++)
			ab_histogram_init(&sm[i].kind[k].latency);
		sm[i].start_ns = 1000000000ull + i;
		sm[i].end_ns = 3000000000ull + i; /* about 2 s each */
	}
	for (unsigned i = 0; i < 2; i++) {
		for (unsigned j = 0; j < 700 * (i + 1); j++) {
			ab_histogram_record(&sm[i].kind[AB_OP_READ].latency, 100000);
			ab_histogram_record(&sm[i].latency, 100000);
		}
		for (unsigned j = 0; j < 300 * (i + 1); j++) {
			ab_histogram_record(&sm[i].kind[AB_OP_WRITE].latency, 400000);
			ab_histogram_record(&sm[i].latency, 400000);
		}
		sm[i].kind[AB_OP_READ].ops = 700 * (i + 1);
		sm[i].kind[AB_OP_WRITE].ops = 300 * (i + 1);
		sm[i].ops = 1000 * (i + 1);
	}
	sm[2].ops = 99999; /* not an oltp process: left out */
	struct ab_oltp_split sp = { .from = 0, .count = 2 };
	ab_oltp_split_samples(sm, n, 1, &sp);
	assert_int_equal(sp.merged[0]->ops, 2100);
	assert_int_equal(sp.merged[1]->ops, 900);
	assert_int_equal(sp.merged[2]->ops, 3000);
	assert_int_equal(sp.merged[2]->workers, 2);
	assert_true(fabs(sp.merged[0]->rate + sp.merged[1]->rate - sp.merged[2]->rate) < 1e-9 * sp.merged[2]->rate);
	assert_true(fabs(sp.merged[2]->rate - 3000 / 2.000000001) < 1e-6);
	/* Each row its own latency: reads 100 us, writes 400 us. */
	assert_true(sp.merged[0]->latency.max_ns == 100000 && sp.merged[1]->latency.min_ns == 400000);
	assert_int_equal(sp.merged[2]->latency.samples, 3000);
	ab_oltp_split_clear(&sp);
	assert_null(sp.merged[0]);
	/* A range past the samples makes nothing. */
	struct ab_oltp_split past = { .from = 2, .count = 2 };
	ab_oltp_split_samples(sm, n, 1, &past);
	assert_null(past.merged[2]);
	/* Two ranks of the same three: each rank's first two are picked,
	 * never rank 0's third. */
	struct ab_sample *two = g_new(struct ab_sample, 2 * n);
	memcpy(two, sm, sizeof(struct ab_sample) * n);
	memcpy(two + n, sm, sizeof(struct ab_sample) * n);
	struct ab_oltp_split both = { .from = 0, .count = 2 };
	ab_oltp_split_samples(two, n, 2, &both);
	assert_int_equal(both.merged[2]->ops, 6000);
	assert_int_equal(both.merged[2]->workers, 4);
	ab_oltp_split_clear(&both);
	g_free(two);
	g_free(sm);
}

static const struct ab_step *only_step(const struct ab_config *cfg)
{
	assert_int_equal(cfg->steps->len, 1);
	const struct ab_step *st = &g_array_index(cfg->steps, struct ab_step, 0);
	assert_string_equal(st->phase->name, "oltp");
	return st;
}

static void test_options(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "1g", "-r", "0", "--phases", "oltp",
			       "--oltp-procs", "8,32", "--oltp-block", "16k", "--oltp-mix", "90:10",
			       "--oltp-size", "256m", "--oltp-sync-every", "64", "--oltp-seconds", "30", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	const struct ab_step *st = only_step(&cfg);
	assert_int_equal(st->oltp_procs, 8);
	assert_int_equal(st->oltp_proc_counts->len, 2);
	assert_int_equal(g_array_index(st->oltp_proc_counts, uint32_t, 1), 32);
	assert_int_equal(st->oltp_block, 16384);
	assert_int_equal(st->oltp_read_pct, 90);
	assert_int_equal(st->oltp_size, 256ull << 20);
	assert_int_equal(st->oltp_sync_every, 64);
	assert_int_equal(st->oltp_seconds, 30);
	assert_int_equal(st->phase->worker_count(st), 8);
	ab_config_clear(&cfg);

	/* Defaults: 8 processes, 8k, 70:30, the -s size, no sync, 10 s. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "512m", "-r", "0", "--phases", "oltp", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	st = only_step(&cfg);
	assert_int_equal(st->oltp_procs, 8);
	assert_null(st->oltp_proc_counts);
	assert_int_equal(st->oltp_block, 8192);
	assert_int_equal(st->oltp_read_pct, 70);
	assert_int_equal(st->oltp_size, 512ull << 20);
	assert_int_equal(st->oltp_sync_every, 0);
	assert_int_equal(st->oltp_seconds, 10);
	ab_config_clear(&cfg);

	/* Under a memory cgroup, with neither --oltp-size nor -s, the data
	 * file is 4 times the limit, so a warm cache holds a quarter of it
	 * (the -s default, twice the limit, held half); never below the -s
	 * default.  A size given, or no cap, keeps the -s size. */
	const struct {
		const char *a, *b, *c, *d;
		uint64_t size;
	} sizes[] = {
		{ "--cache", "cgroup", NULL, NULL, 2048ull << 20 },
		{ "--cache", "cgroup", "-r", "256", 1024ull << 20 },
		{ "--cache", "cgroup", "-r", "64", 300ull << 20 },
		{ "--cache", "cgroup", "-s", "1g", 1024ull << 20 },
		{ "--cache", "cgroup", "--oltp-size", "700", 700ull << 20 },
		{ "--cache", "fadvise", "-r", "512", 1024ull << 20 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "oltp", sizes[i].a, sizes[i].b, sizes[i].c,
				       sizes[i].d, NULL));
		assert_true(ab_config_finish(&cfg, ram, NULL));
		st = only_step(&cfg);
		if (st->oltp_size != sizes[i].size)
			fail_msg("%s %s %s %s: %" G_GUINT64_FORMAT " MiB", sizes[i].a, sizes[i].b, sizes[i].c ? sizes[i].c : "",
				 sizes[i].d ? sizes[i].d : "", st->oltp_size >> 20);
		ab_config_clear(&cfg);
	}

	/* Its own size runs it even with -s 0; the extremes of the mix. */
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "0", "--phases", "oltp", "--oltp-size", "1",
			       "--oltp-mix", "0:100", "--oltp-block", "1m", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	st = only_step(&cfg);
	assert_int_equal(st->oltp_size, 1ull << 20);
	assert_int_equal(st->oltp_read_pct, 0);
	ab_config_clear(&cfg);

	/* Refused while parsing, the value named. */
	const char *bad[][3] = {
		{ "--oltp-procs", "0", "'0'" },
		{ "--oltp-procs", "257", "'257'" },
		{ "--oltp-procs", "8,8", "given twice" },
		{ "--oltp-procs", "8,,2", "empty count" },
		{ "--oltp-procs", "-1", "'-1'" },
		{ "--oltp-block", "3k", "'3k'" },
		{ "--oltp-block", "256", "'256'" },
		{ "--oltp-block", "2m", "'2m'" },
		{ "--oltp-mix", "70:20", "'70:20'" },
		{ "--oltp-mix", "70", "'70'" },
		{ "--oltp-mix", "a:b", "'a:b'" },
		{ "--oltp-mix", "70:", "'70:'" },
		{ "--oltp-mix", "101:-1", "'101:-1'" },
		{ "--oltp-mix", "70:30:0", "'70:30:0'" },
		{ "--oltp-mix", ":100", "':100'" },
		{ "--oltp-size", "0", "'0'" },
		{ "--oltp-size", "1536k", "'1536k'" },
		{ "--oltp-size", "2p", "'2p'" },
		{ "--oltp-sync-every", "0", "'0'" },
		{ "--oltp-sync-every", "x", "'x'" },
		{ "--oltp-seconds", "0", "'0'" },
		{ "--oltp-seconds", "3601", "'3601'" },
		{ "--oltp-seconds", "1.5", "'1.5'" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *e = NULL;
		ab_config_init(&cfg);
		assert_false(parse_args(&cfg, &e, "-d", "/tmp", "--phases", "oltp", bad[i][0], bad[i][1], NULL));
		expect_error(e, 1, bad[i][2]);
		g_error_free(e);
		ab_config_clear(&cfg);
	}

	/* Refused by the checks of the combination. */
	const char *combo[][8] = {
		{ "--phases", "seeks", "--oltp-procs", "4", NULL, NULL, "--phases oltp" },
		{ "--phases", "oltp", "--direct", "--oltp-block", "2k", NULL, "O_DIRECT" },
		{ "--phases", "oltp", "--oltp-mix", "100:0", "--oltp-sync-every", "8", "no writes" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(combo); i++) {
		GError *e = NULL;
		ab_config_init(&cfg);
		assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-r", "0", combo[i][0], combo[i][1],
				       combo[i][2], combo[i][3], combo[i][4], combo[i][5], NULL));
		assert_false(ab_config_finish(&cfg, ram, &e));
		expect_error(e, 1, combo[i][6]);
		g_error_free(e);
		ab_config_clear(&cfg);
	}
}

/* Commits under load: one step of oltp processes and committers, the wal
 * options taken with it, the oltp options refused with the wal alone. */
static void test_oltp_wal(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-r", "0", "--phases", "oltp+wal",
			       "--oltp-procs", "8,32", "--wal-sync", "all", "--wal-writers", "2", NULL));
	assert_true(ab_config_finish(&cfg, ram, NULL));
	assert_int_equal(cfg.steps->len, 1);
	const struct ab_step *st = &g_array_index(cfg.steps, struct ab_step, 0);
	assert_string_equal(st->phase->name, "oltp+wal");
	/* The oltp processes first, then the committers, by worker index. */
	assert_int_equal(st->phase->worker_count(st), 8 + 2);
	struct ab_step zero = *st;
	zero.oltp_procs = 0;
	assert_int_equal(st->phase->worker_count(&zero), 2);
	assert_int_equal(st->wal_syncs->len, 4);
	assert_int_equal(st->oltp_proc_counts->len, 2);
	ab_config_clear(&cfg);

	/* The oltp options without either oltp phase are refused. */
	GError *e = NULL;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "-s", "64m", "-r", "0", "--phases", "wal",
			       "--oltp-mix", "50:50", NULL));
	assert_false(ab_config_finish(&cfg, ram, &e));
	expect_error(e, 1, "oltp+wal");
	g_error_free(e);
	ab_config_clear(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_sync_every),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_oltp_wal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
