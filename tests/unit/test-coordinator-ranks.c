/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The coordinator's gather over ranks (src/runner/coordinator-ranks.c), on a
 * made-up cluster of two ranks (src/base/cluster.h) whose other rank is
 * this rank's samples again, as seen from a clock 5 s ahead: the stamps
 * come back in rank 0's timebase whatever the clocks say, each sample
 * carries its rank's fields, a failure names its rank, and the stonewall
 * of streams falls at the first end on any rank, each stream's work then
 * read off its rank's progress points.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../src/runner/coordinator.h"
#include "../../src/runner/coordinator-ranks.h"
#include "../../src/base/cluster.h"
#include "../../src/base/error.h"

/* Rank 1's clock runs this far ahead of rank 0's. */
#define AHEAD_NS 5000000000LL
#define BOUND_NS 1500u

/* Rank 1 ends this much later than rank 0, and how rank 0 saw it. */
static uint64_t rank1_delay_ns;
static gboolean rank1_fails;

static gboolean fake_allgather(struct ab_cluster *c, const void *buf, size_t len, gboolean ok_here,
			       const char *why_here, GByteArray *all, size_t *lens, GError **error)
{
	(void)c, (void)why_here;
	if (rank1_fails) {
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "rank 1: phase 'sweep': cannot write 'x': No space left");
		return FALSE;
	}
	g_byte_array_set_size(all, 0);
	g_byte_array_append(all, buf, (guint)len);
	/* Rank 1's message: the same samples on its own clock (its exit
	 * stamp AHEAD_NS on), ending rank1_delay_ns later. */
	g_autofree guint8 *theirs = g_memdup2(buf, len);
	uint64_t exit_ns;
	memcpy(&exit_ns, theirs, sizeof(exit_ns)); /* the head's first word */
	exit_ns += AHEAD_NS;
	memcpy(theirs, &exit_ns, sizeof(exit_ns));
	/* Its one sample sits before its progress points, at the end. */
	size_t at = len - sizeof(struct ab_sample) - sizeof(struct ab_progress_point) * AB_PROGRESS_POINTS;
	struct ab_sample sm;
	memcpy(&sm, theirs + at, sizeof(sm));
	sm.end_ns += rank1_delay_ns;
	memcpy(theirs + at, &sm, sizeof(sm));
	g_byte_array_append(all, theirs, (guint)len);
	lens[0] = lens[1] = len;
	return ok_here;
}

static gboolean fake_offsets(struct ab_cluster *c, int64_t *offset_ns, uint64_t *bound_ns, GError **error)
{
	(void)c, (void)error;
	offset_ns[0] = 0;
	bound_ns[0] = 0;
	offset_ns[1] = -AHEAD_NS; /* rank 0's clock minus rank 1's */
	bound_ns[1] = BOUND_NS;
	return TRUE;
}

static uint64_t fake_now(struct ab_cluster *c)
{
	(void)c;
	return 1000000000u;
}

static const struct ab_cluster_ops fake_ops = {
	.allgather = fake_allgather,
	.clock_offsets = fake_offsets,
	.now_ns = fake_now,
};

static struct ab_cluster fake = { .ops = &fake_ops, .rank = 0, .size = 2, .nodes = 1, .ranks_per_node = 2 };

static int setup(void **state)
{
	(void)state;
	if (!fake.hosts) {
		fake.hosts = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(fake.hosts, g_strdup("alpha"));
		g_ptr_array_add(fake.hosts, g_strdup("beta"));
	}
	ab_cluster_set(&fake);
	rank1_delay_ns = 0;
	rank1_fails = FALSE;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ab_cluster_set(NULL);
	return 0;
}

/* One worker that ran from exit + 1 ms to exit + 1.001 s, 100 MB. */
static void one_stream(struct ab_coordinator *c)
{
	assert_true(ab_coordinator_init(c, NULL, NULL, 1, NULL));
	c->barrier_exit_ns = 50000000000u;        /* the workers' clock */
	c->barrier_exit_cluster_ns = 70000000000u; /* the cluster's */
	c->barrier_wait_ns = 3000000;
	struct ab_sample *s = &c->samples[0];
	s->start_ns = c->barrier_exit_ns + 1000000;
	s->end_ns = s->start_ns + 1000000000u;
	s->bytes = 100000000;
	s->ops = 1000;
	s->stonewalled = 1;
	s->bytes_at_stonewall = s->bytes; /* it ended first on its own rank */
}

static void test_timebase_and_rank_fields(void **state)
{
	(void)state;
	struct ab_coordinator c;
	one_stream(&c);
	uint64_t start = c.samples[0].start_ns - c.barrier_exit_ns;
	assert_true(ab_coordinator_gather(&c, TRUE, NULL, NULL));
	assert_int_equal(c.ranks, 2);
	assert_int_equal(c.sample_count, 2);
	const struct ab_sample *a = &c.samples[0], *b = &c.samples[1];
	assert_int_equal(a->rank_plus_one, 1);
	assert_int_equal(b->rank_plus_one, 2);
	/* Rank 1's clock is 5 s ahead, its offset says so: in rank 0's
	 * timebase both left the barrier, and started, at the same moment. */
	assert_int_equal(a->barrier_exit_ns, 70000000000u);
	assert_int_equal(b->barrier_exit_ns, 70000000000u);
	assert_int_equal(a->start_ns, 70000000000u + start);
	assert_int_equal(b->start_ns, a->start_ns);
	assert_int_equal(b->clock_bound_ns, BOUND_NS);
	assert_int_equal(a->barrier_wait_ns, 3000000);
	assert_string_equal(a->rank_host, "alpha");
	ab_coordinator_clear(&c);
}

static void test_failure_names_the_rank(void **state)
{
	(void)state;
	struct ab_coordinator c;
	one_stream(&c);
	rank1_fails = TRUE;
	g_autoptr(GError) error = NULL;
	assert_false(ab_coordinator_gather(&c, TRUE, NULL, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "rank 1: phase 'sweep'"));
	assert_int_equal(c.ranks, 1); /* nothing merged */
	ab_coordinator_clear(&c);
}

/* Progress points every 100 ms, 10 MB each, on both ranks; rank 1's
 * stream ends 1 s after rank 0's.  The stonewall falls at rank 0's end:
 * rank 1's work then is read off its points (90 MB at 0.9 s, 100 MB at its
 * end 2 s in), not the 100 MB it had at its own end. */
static void test_stonewall_across_ranks(void **state)
{
	(void)state;
	struct ab_coordinator c;
	one_stream(&c);
	rank1_delay_ns = 1000000000u;
	struct ab_sample *s = &c.samples[0];
	for (int k = 0; k < 10; k++) {
		ab_coordinator_note_progress(&c); /* makes the series */
		c.series[k] = (struct ab_progress_point){ s->start_ns + (uint64_t)k * 100000000u,
							   (uint64_t)k * 10000000u };
	}
	assert_int_equal(c.series_len, 10);
	assert_true(ab_coordinator_gather(&c, TRUE, NULL, NULL));
	assert_int_equal(c.samples[0].bytes_at_stonewall, 100000000);
	/* 90 MB + (1.0 s - 0.9 s) / (2.0 s - 0.9 s) of the last 10 MB. */
	uint64_t want = 90000000u + (uint64_t)(10000000.0 * 0.1 / 1.1);
	uint64_t got = c.samples[1].bytes_at_stonewall;
	assert_true(got + 1000 > want && got < want + 1000);
	ab_coordinator_clear(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timebase_and_rank_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_names_the_rank, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stonewall_across_ranks, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
