/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings over one run (src/model/finding-*.c): each rule on a run
 * built to trigger it, and on one just short of it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "findings-run.h"

static void set_state(struct ab_result *r, const char *state)
{
	g_free(r->cache_state);
	r->cache_state = g_strdup(state);
}

static void has(const struct ab_finding *f, const char *text)
{
	if (!f || !f->text || !strstr(f->text, text))
		fail_msg("finding text lacks '%s': %s", text, f && f->text ? f->text : "(none)");
}

/* raid1 on md over two members of 100000 KiB/s raw: reads may have 200000. */
static struct ab_run *baseline_run(double read_rate)
{
	struct ab_run *run = frun("md", 1);
	fmembers(run, "mdadm", "1", 2);
	for (int i = 0; i < 2; i++) {
		struct ab_result *raw = fres(run, "raw-read", 100000);
		raw->key.test = g_strdup_printf("/dev/loop%d", i + 1);
	}
	fres(run, "block-read", read_rate);
	return run;
}

static void test_rate_above_members(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) fast = baseline_run(500000);
	assert_int_equal(frun_count(fast, "rate-above-members", &f), 1);
	has(f, "250 % of the 200000 KiB/s its 2 members can deliver (mdadm raid1");
	has(f, "page cache");
	assert_int_equal(f->severity, AB_FINDING_CRITICAL);
	assert_string_equal(f->subject, "block-read");
	/* Within a tenth over the ceiling: the baseline's own noise. */
	g_autoptr(ab_run) near = baseline_run(215000);
	assert_int_equal(frun_count(near, "rate-above-members", NULL), 0);
	/* No raw baseline: no ceiling, no finding. */
	g_autoptr(ab_run) none = frun("md", 1);
	fmembers(none, "mdadm", "1", 2);
	fres(none, "block-read", 5e6);
	assert_int_equal(frun_count(none, "rate-above-members", NULL), 0);
}

/* The case: --cache none on a file smaller than RAM names the cache. */
static void test_cache_none_fits(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) run = frun("a", 1);
	g_free(run->cond.cache_mode);
	run->cond.cache_mode = g_strdup("none");
	fres(run, "block-write", 1e6);
	set_state(fres(run, "block-read", 6e6), "warm");
	fres(run, "seeks", 1e5);
	assert_int_equal(frun_count(run, "cache-none-fits", &f), 1);
	has(f, "block-read, seeks read a file of 64M");
	has(f, "page cache (RAM 1G) could hold all of it");
	assert_int_equal(f->severity, AB_FINDING_WARNING);
	/* A file over twice the RAM: the reads reach the disks. */
	g_autoptr(ab_run) big = frun("a", 1);
	g_free(big->cond.cache_mode);
	big->cond.cache_mode = g_strdup("none");
	fres(big, "block-read", 1e5)->key.file_size = 3ull << 30;
	assert_int_equal(frun_count(big, "cache-none-fits", NULL), 0);
	/* A cache mode that evicts. */
	g_autoptr(ab_run) drop = frun("a", 1);
	fres(drop, "block-read", 6e6);
	assert_int_equal(frun_count(drop, "cache-none-fits", NULL), 0);
	/* O_DIRECT reads bypass the cache. */
	g_autoptr(ab_run) direct = frun("a", 1);
	g_free(direct->cond.cache_mode);
	direct->cond.cache_mode = g_strdup("none");
	fres(direct, "block-read", 6e6)->direct = TRUE;
	assert_int_equal(frun_count(direct, "cache-none-fits", NULL), 0);
}

static void test_cached_at_start(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) run = frun("a", 1);
	fres(run, "block-read", 1e5)->resident_at_start = 0.4;
	assert_int_equal(frun_count(run, "cached-at-start", &f), 1);
	has(f, "block-read was to start cold, yet 40 % of its file was in the page cache");
	g_autoptr(ab_run) few = frun("a", 1);
	fres(few, "block-read", 1e5)->resident_at_start = 0.04;
	assert_int_equal(frun_count(few, "cached-at-start", NULL), 0);
	/* Said to run warm: being cached is what it should be. */
	g_autoptr(ab_run) warm = frun("a", 1);
	struct ab_result *r = fres(warm, "block-read", 1e5);
	r->resident_at_start = 0.9;
	set_state(r, "warm");
	assert_int_equal(frun_count(warm, "cached-at-start", NULL), 0);
}

static struct ab_run *warm_run(double member_read_mib)
{
	struct ab_run *run = frun("a", 1);
	fmembers(run, "btrfs", "raid1", 2);
	struct ab_result *r = fres(run, "block-read", 1e6);
	set_state(r, "warm");
	fdevice(r, "loop1", member_read_mib, 0);
	fdevice(r, "loop2", member_read_mib, 0);
	return run;
}

static void test_warm_read_device(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) dropped = warm_run(30);
	assert_int_equal(frun_count(dropped, "warm-read-device", &f), 1);
	has(f, "its members read 60M of the 64M it read (94 %");
	g_autoptr(ab_run) cached = warm_run(1);
	assert_int_equal(frun_count(cached, "warm-read-device", NULL), 0);
}

static void test_too_short(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) run = frun("a", 1);
	fres(run, "block-write", 1e6);
	struct ab_result *r = fres(run, "rewrite", 1e6);
	r->measurable = FALSE;
	r->elapsed_s = 0.044;
	assert_int_equal(frun_count(run, "too-short", &f), 1);
	has(f, "1 phase lasted under 0.5 s (rewrite 0.044 s)");
	g_autoptr(ab_run) long_enough = frun("a", 1);
	fres(long_enough, "rewrite", 1e6);
	assert_int_equal(frun_count(long_enough, "too-short", NULL), 0);
}

static struct ab_run *spread_run(const char *backend, const char *level, double r1, double r2, double w1, double w2)
{
	struct ab_run *run = frun("a", 1);
	fmembers(run, backend, level, 2);
	struct ab_result *r = fres(run, "rewrite", 1e5);
	fdevice(r, "md0", r1 + r2, w1 + w2); /* the array's own device: not a member */
	fdevice(r, "loop1", r1, w1);
	fdevice(r, "loop2", r2, w2);
	return run;
}

static void test_members_unequal(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	/* raid0 spreads reads: one member read 15 times the other. */
	g_autoptr(ab_run) raid0 = spread_run("mdadm", "0", 60, 4, 32, 32);
	assert_int_equal(frun_count(raid0, "members-unequal", &f), 1);
	has(f, "rewrite: member 'loop1' read 60.0 MiB, 'loop2' 4.0 MiB (most over least 15.0, over 1.5)");
	g_autoptr(ab_run) even = spread_run("mdadm", "0", 32, 30, 32, 32);
	assert_int_equal(frun_count(even, "members-unequal", NULL), 0);
	/* md raid1 may read from one member, but writes every block to each. */
	g_autoptr(ab_run) mirror_reads = spread_run("mdadm", "raid1", 64, 0, 32, 32);
	assert_int_equal(frun_count(mirror_reads, "members-unequal", NULL), 0);
	g_autoptr(ab_run) mirror_writes = spread_run("mdadm", "raid1", 64, 0, 64, 0);
	assert_int_equal(frun_count(mirror_writes, "members-unequal", &f), 1);
	has(f, "member 'loop1' wrote 64.0 MiB, 'loop2' 0.0 MiB (most over least no bound: 'loop2' did none");
	/* raid10 reads one copy of each stripe: one reader may leave a
	 * member of each mirror idle (md and btrfs alike); its writes reach
	 * every member. */
	g_autoptr(ab_run) raid10_reads = spread_run("mdadm", "raid10", 64, 0, 32, 32);
	assert_int_equal(frun_count(raid10_reads, "members-unequal", NULL), 0);
	g_autoptr(ab_run) btrfs10_reads = spread_run("btrfs", "raid10", 64, 0, 32, 32);
	assert_int_equal(frun_count(btrfs10_reads, "members-unequal", NULL), 0);
	g_autoptr(ab_run) raid10_writes = spread_run("mdadm", "raid10", 0, 0, 64, 8);
	assert_int_equal(frun_count(raid10_writes, "members-unequal", &f), 1);
	has(f, "member 'loop1' wrote 64.0 MiB, 'loop2' 8.0 MiB (most over least 8.0, over 1.5), where raid10 spreads "
	       "writes over every member");
	/* Too little work to judge (a phase the cache served). */
	g_autoptr(ab_run) little = spread_run("mdadm", "0", 2, 0.1, 0, 0);
	assert_int_equal(frun_count(little, "members-unequal", NULL), 0);
}

/* Four members of `level` that moved `read` and `written` MiB each, busy
 * `busy` ms each but the third, busy `slow_busy`. */
static struct ab_run *busy_run(const char *backend, const char *level, double read, double written, uint64_t busy,
			       uint64_t slow_busy)
{
	struct ab_run *run = frun("a", 1);
	fmembers(run, backend, level, 4);
	struct ab_result *r = fres(run, written > 0 ? "block-write" : "block-read", 1e5);
	for (unsigned i = 1; i <= 4; i++) {
		g_autofree char *name = g_strdup_printf("loop%u", i);
		fdevice(r, name, read, written);
		g_array_index(r->devices, struct ab_device_io, i - 1).busy_ms = i == 3 ? slow_busy : busy;
	}
	return run;
}

static void test_members_slow(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	/* raid0 moves even bytes to a member at half speed: every stripe
	 * waits for it, and it is busy twice as long. */
	g_autoptr(ab_run) raid0 = busy_run("mdadm", "0", 0, 32, 3000, 6000);
	assert_int_equal(frun_count(raid0, "members-unequal", &f), 1);
	has(f, "block-write: member 'loop3' is the slow member: busy 2.0 times as long per MiB moved as the others' "
	       "median (187.5 ms/MiB against 93.8, over 1.5), for its even share of the bytes, where raid0 spreads them "
	       "over every member");
	assert_non_null(strstr(f->advice, "member 'loop3' is slower than the others"));
	/* Where else it is told, and where not: raid10's reads are served by
	 * one copy of each stripe, so no spread is promised; even busy times,
	 * a difference under 1.5, or too little busy time to judge say
	 * nothing; linear promises no spread. */
	const struct {
		const char *level;
		double read, written;
		uint64_t busy, slow_busy;
		guint want;
	} cases[] = {
		{ "raid5", 0, 32, 3000, 6000, 1 },  { "raid10", 0, 32, 3000, 6000, 1 }, { "raid10", 32, 0, 3000, 6000, 0 },
		{ "0", 32, 0, 3000, 6000, 1 },      { "0", 0, 32, 3000, 3100, 0 },      { "0", 0, 32, 3000, 4400, 0 },
		{ "0", 0, 32, 300, 900, 0 },        { "linear", 0, 32, 3000, 6000, 0 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ab_run) run = busy_run("mdadm", cases[i].level, cases[i].read, cases[i].written, cases[i].busy,
						 cases[i].slow_busy);
		if (frun_count(run, "members-unequal", NULL) != cases[i].want)
			fail_msg("%s, read %g written %g, busy %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
				 ": want %u findings", cases[i].level, cases[i].read, cases[i].written, cases[i].busy,
				 cases[i].slow_busy, cases[i].want);
	}
}

static struct ab_run *streams_run(double stonewall, double end_to_end)
{
	struct ab_run *run = frun("a", 1);
	struct ab_result *r = fres(run, "sweep", end_to_end);
	r->key.test = g_strdup("read");
	r->key.streams = 3;
	r->stonewall_rate = stonewall;
	r->end_to_end_rate = end_to_end;
	const double each[3] = { 150, 50, 200 };
	for (int i = 0; i < 3; i++) {
		struct ab_worker_stat w = { 100 + i, 1, 1, 1, 1, 1, each[i] };
		g_array_append_val(r->per_worker, w);
	}
	return run;
}

static void test_stream_straggler(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) run = streams_run(400, 250);
	assert_int_equal(frun_count(run, "stream-straggler", &f), 1);
	has(f, "sweep read 64M/8K x3: stonewall rate 400.0 KiB/s and end-to-end rate 250.0 KiB/s differ by 38 %");
	has(f, "the slowest, stream 2 (pid 101), at 50.0 KiB/s");
	g_autoptr(ab_run) close = streams_run(400, 380);
	assert_int_equal(frun_count(close, "stream-straggler", NULL), 0);
}

/* Under MPI the slowest rank is named, by its own rate and host. */
static void test_stream_straggler_rank(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) run = streams_run(400, 250);
	struct ab_result *r = g_ptr_array_index(run->results, 0);
	const double rates[3] = { 140, 90, 150 };
	for (int i = 0; i < 3; i++) {
		struct ab_rank_stat rs = { .rank = i, .host = g_strdup(i < 2 ? "node-a" : "node-b"), .rate = rates[i],
					   .start_s = NAN, .stop_s = NAN, .cpu_s = NAN, .barrier_wait_s = NAN };
		g_array_append_val(r->per_rank, rs);
	}
	assert_int_equal(frun_count(run, "stream-straggler", &f), 1);
	has(f, "a straggler; the slowest, rank 1 (node-a), at 90.0 KiB/s");
}

static void curve_step(struct ab_run *run, unsigned n, double offered, double achieved, double p99_ms)
{
	struct ab_result *r = fres(run, "latency-curve", achieved);
	r->key.test = g_strdup_printf("step %u", n);
	r->offered_rate = offered;
	r->latency.p99_ns = (uint64_t)(p99_ms * 1e6);
}

static struct ab_run *curve_run(double factor)
{
	struct ab_run *run = frun("a", 1);
	curve_step(run, 1, 100, 100, 1);
	curve_step(run, 2, 100 * factor, 100 * factor, 2);
	curve_step(run, 3, 100 * factor * factor, 100 * factor * factor, 30);
	struct ab_result *sizing = fres(run, "latency-curve", 100 * factor * 1.05);
	sizing->key.test = g_strdup("sizing");
	sizing->latency.p99_ns = 10000000; /* the target: 10 ms */
	sizing->interpolated = TRUE;
	sizing->measurable = FALSE; /* read off, not timed: no too-short either */
	return run;
}

static void test_curve_coarse(void **state)
{
	(void)state;
	const struct ab_finding *f = NULL;
	g_autoptr(ab_run) coarse = curve_run(2);
	assert_int_equal(frun_count(coarse, "curve-coarse", &f), 1);
	has(f, "lies between steps offering 200.0 and 400.0 IOPS: a ratio of 2.00 (over 1.20)");
	assert_int_equal(frun_count(coarse, "too-short", NULL), 0);
	g_autoptr(ab_run) fine = curve_run(1.1);
	assert_int_equal(frun_count(fine, "curve-coarse", NULL), 0);
}

/* Every rule is in the table once, with its meaning for the man page. */
static void test_table(void **state)
{
	(void)state;
	assert_int_equal(ab_finding_rule_count, 10);
	for (size_t i = 0; i < ab_finding_rule_count; i++) {
		assert_non_null(ab_finding_rules[i].meaning);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(ab_finding_rules[i].id, ab_finding_rules[k].id);
	}
	/* A run that shows nothing has no finding. */
	g_autoptr(ab_run) plain = frun("a", 1);
	fres(plain, "block-read", 1e5);
	g_autoptr(GPtrArray) none = ab_findings_of_run(plain);
	assert_int_equal(none->len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_above_members), cmocka_unit_test(test_cache_none_fits),
		cmocka_unit_test(test_cached_at_start),    cmocka_unit_test(test_warm_read_device),
		cmocka_unit_test(test_members_slow),
		cmocka_unit_test(test_too_short),          cmocka_unit_test(test_members_unequal),
		cmocka_unit_test(test_stream_straggler),   cmocka_unit_test(test_stream_straggler_rank),
		cmocka_unit_test(test_curve_coarse),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests_name("findings", tests, NULL, NULL);
}
