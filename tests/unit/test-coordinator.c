/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runner's coordinator (src/runner/coordinator.h) with real forked workers,
 * as runner.c drives it: every worker passes the start barrier only once
 * the parent releases it, the ticket queue hands each ticket out once in
 * all, the first end makes the stonewall fall, one schedule origin holds
 * for all, the progress counters add up; and the step is not started when
 * a worker, or (through the ops) another host, is not ready.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/runner/coordinator.h"
#include "../../src/base/error.h"
#include "../../src/base/timing.h"

enum { WORKERS = 3, TICKETS = 3000 };

static gboolean never_stopped(void)
{
	return FALSE;
}

/* Forks the workers, each running `body` on its own end; returns TRUE when
 * the coordinator found them all ready.  The pids go to `pids`. */
static gboolean start(struct ab_coordinator *c, void (*body)(struct ab_phase_ctx *), pid_t *pids,
		      GError **error)
{
	for (unsigned i = 0; i < c->workers; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			struct ab_phase_ctx ctx = {
				.worker = i, .workers = c->workers, .sample = &c->samples[i],
				.coord = ab_coordinator_worker_end(c, i),
			};
			body(&ctx);
			_exit(0);
		}
	}
	ab_coordinator_forked(c);
	sigset_t none;
	sigemptyset(&none);
	return ab_coordinator_wait_ready(c, TRUE, &none, never_stopped, error);
}

static void reap(pid_t *pids, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int st;
		assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
		assert_true(WIFEXITED(st));
	}
}

/* A worker of the shared queue: the tickets it took in ops, their sum in
 * bytes, the origin it was given in max_late_ns. */
static void take_tickets(struct ab_phase_ctx *ctx)
{
	ab_worker_progress_total(ctx, TICKETS / WORKERS);
	ab_worker_start(ctx);
	uint64_t t, ops = 0, sum = 0;
	while (ab_worker_take_ticket(ctx, TICKETS, &t)) {
		ops++;
		sum += t;
		ab_worker_progress(ctx, ops);
	}
	ctx->sample->ops = ops;
	ctx->sample->bytes = sum;
	ab_worker_stop(ctx);
	ctx->sample->max_late_ns = ab_worker_schedule_origin(ctx, 1000 + ctx->worker);
	ab_worker_stonewall_end(ctx, ops);
}

static void test_shared_words(void **state)
{
	(void)state;
	struct ab_coordinator c;
	g_autoptr(GError) error = NULL;
	assert_true(ab_coordinator_init(&c, NULL, NULL, WORKERS, &error));
	pid_t pids[WORKERS];
	assert_true(start(&c, take_tickets, pids, &error));
	/* Every worker is set up and waits: none has started its clock. */
	g_usleep(50 * 1000);
	uint64_t released = ab_now_ns();
	for (unsigned i = 0; i < WORKERS; i++)
		assert_int_equal(c.samples[i].start_ns, 0);
	ab_coordinator_go(&c);
	reap(pids, WORKERS);

	uint64_t ops = 0, sum = 0;
	for (unsigned i = 0; i < WORKERS; i++) {
		const struct ab_sample *s = &c.samples[i];
		assert_true(s->start_ns >= released);
		ops += s->ops;
		sum += s->bytes;
		assert_int_equal(s->max_late_ns, c.samples[0].max_late_ns); /* one origin */
		assert_true(s->stonewalled);
	}
	/* Each of 0 .. TICKETS-1 once. */
	assert_int_equal(ops, TICKETS);
	assert_int_equal(sum, (uint64_t)TICKETS * (TICKETS - 1) / 2);
	assert_in_range(c.samples[0].max_late_ns, 1000, 1000 + WORKERS - 1);
	uint64_t done, total;
	ab_coordinator_progress(&c, &done, &total);
	assert_int_equal(done, TICKETS);
	assert_int_equal(total, TICKETS / WORKERS * WORKERS);
	/* The end stamp of the first worker to get there. */
	gboolean one_of_them = FALSE;
	for (unsigned i = 0; i < WORKERS; i++)
		one_of_them |= c.shared->stonewall_ns == c.samples[i].end_ns;
	assert_true(one_of_them);
	ab_coordinator_clear(&c);
}

/* A worker whose set-up fails: it leaves without passing the barrier. */
static void fail_setup(struct ab_phase_ctx *ctx)
{
	if (ctx->worker == 1)
		_exit(1);
	ab_worker_start(ctx);
	ctx->sample->ops = 1; /* started: only if released */
}

static void test_worker_not_ready(void **state)
{
	(void)state;
	struct ab_coordinator c;
	g_autoptr(GError) error = NULL;
	assert_true(ab_coordinator_init(&c, NULL, NULL, WORKERS, &error));
	pid_t pids[WORKERS];
	assert_false(start(&c, fail_setup, pids, &error));
	assert_null(error); /* this host's fault: the workers' samples say it */
	for (unsigned i = 0; i < WORKERS; i++)
		kill(pids[i], SIGKILL); /* as the runner stops them before the release */
	ab_coordinator_go(&c);
	for (unsigned i = 0; i < WORKERS; i++)
		waitpid(pids[i], NULL, 0);
	for (unsigned i = 0; i < WORKERS; i++)
		assert_int_equal(c.samples[i].ops, 0);
	ab_coordinator_clear(&c);
}

/* Another host that is not ready, as a coordinator over MPI would learn
 * at its meeting: every worker here is, and still the step does not start. */
static unsigned meetings;
static gboolean other_host_fails(void *data, struct ab_coordinator *c, gboolean ready_here, GError **error)
{
	(void)c;
	meetings++;
	assert_true(ready_here);
	g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "host %s could not start", (const char *)data);
	return FALSE;
}

static void test_other_host_not_ready(void **state)
{
	(void)state;
	const struct ab_coordinator_ops ops = { .name = "test", .meet = other_host_fails };
	struct ab_coordinator c;
	g_autoptr(GError) error = NULL;
	assert_true(ab_coordinator_init(&c, &ops, "b", WORKERS, &error));
	pid_t pids[WORKERS];
	meetings = 0;
	assert_false(start(&c, take_tickets, pids, &error));
	assert_int_equal(meetings, 1);
	assert_non_null(error);
	assert_string_equal(error->message, "host b could not start");
	for (unsigned i = 0; i < WORKERS; i++)
		kill(pids[i], SIGKILL);
	ab_coordinator_go(&c);
	for (unsigned i = 0; i < WORKERS; i++)
		waitpid(pids[i], NULL, 0);
	for (unsigned i = 0; i < WORKERS; i++)
		assert_int_equal(c.samples[i].ops, 0);
	ab_coordinator_clear(&c);
}

/* Wear-out's wall: workers 0 and 1 reach their deadline having done 100
 * and 200 bytes and wait; worker 2 ends its work first, at 50, and does
 * not.  Each keeps what ab_worker_deadline() told it in `ops`. */
static void reach_wall(struct ab_phase_ctx *ctx)
{
	ab_worker_start(ctx);
	gboolean finished = ctx->worker == 2;
	uint64_t done = finished ? 50 : 100 * (ctx->worker + 1);
	ctx->sample->ops = ab_worker_deadline(ctx, done, finished);
	ab_worker_stop(ctx);
}

/* Another rank whose largest count was larger than this one's. */
static gboolean meet_ok(void *data, struct ab_coordinator *c, gboolean ready_here, GError **error)
{
	(void)data, (void)c, (void)error;
	return ready_here;
}

static gboolean other_rank_did_more(void *data, struct ab_coordinator *c, gboolean ok_here, const char *why_here,
				    uint64_t mine, uint64_t *target, GError **error)
{
	(void)data, (void)c, (void)why_here, (void)error;
	assert_int_equal(mine, 200);
	*target = 700;
	return ok_here;
}

static void wall_case(const struct ab_coordinator_ops *ops, uint64_t want_target)
{
	struct ab_coordinator c;
	g_autoptr(GError) error = NULL;
	assert_true(ab_coordinator_init(&c, ops, NULL, WORKERS, &error));
	assert_true(ab_coordinator_init_wall(&c, &error));
	pid_t pids[WORKERS];
	assert_true(start(&c, reach_wall, pids, &error));
	gboolean gone[WORKERS] = { FALSE };
	uint64_t mine = 0;
	assert_false(ab_coordinator_wall_reached(&c, gone, &mine)); /* not released yet */
	ab_coordinator_go(&c);
	/* The parent's reaping wait: until every worker is there or done. */
	uint64_t until = ab_now_ns() + 10 * (uint64_t)AB_NS_PER_SEC;
	while (!ab_coordinator_wall_reached(&c, gone, &mine) && ab_now_ns() < until)
		g_usleep(1000);
	assert_int_equal(mine, 200);
	/* The one that ended first left; the two at the wall wait. */
	int st;
	assert_int_equal(waitpid(pids[2], &st, 0), pids[2]);
	g_usleep(20 * 1000);
	assert_int_equal(waitpid(pids[0], &st, WNOHANG), 0);
	assert_int_equal(waitpid(pids[1], &st, WNOHANG), 0);
	uint64_t target = 0;
	assert_true(ab_coordinator_wall(&c, TRUE, NULL, mine, &target, &error));
	assert_int_equal(target, want_target);
	ab_coordinator_wall_release(&c, target);
	reap(pids, 2);
	assert_int_equal(c.samples[0].ops, want_target);
	assert_int_equal(c.samples[1].ops, want_target);
	assert_int_equal(c.samples[2].ops, 50); /* its own count: it does not wait */
	assert_int_equal(c.samples[0].bytes_at_deadline, 100);
	assert_int_equal(c.samples[1].bytes_at_deadline, 200);
	assert_int_equal(c.samples[2].bytes_at_deadline, 50);
	assert_int_equal(c.samples[0].deadline_state, AB_DEADLINE_CUT);
	assert_int_equal(c.samples[2].deadline_state, AB_DEADLINE_FINISHED);
	ab_coordinator_clear(&c);
}

static void test_wearout_wall(void **state)
{
	(void)state;
	/* One rank (arraybench's cluster): the largest here. */
	wall_case(NULL, 200);
	/* Many: the largest any rank had, as the ops' wall says. */
	const struct ab_coordinator_ops ops = { .name = "test", .meet = meet_ok, .wall = other_rank_did_more };
	wall_case(&ops, 700);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_words),
		cmocka_unit_test(test_worker_not_ready),
		cmocka_unit_test(test_other_host_not_ready),
		cmocka_unit_test(test_wearout_wall),
	};
	return cmocka_run_group_tests_name("coordinator", tests, NULL, NULL);
}
