/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CURVE_MATH_H
#define AB_CURVE_MATH_H

/*
 * The latency curve's arithmetic, with no I/O and no clock of its own, so
 * each rule is unit-tested alone (tests/unit/test-curve.c): when each I/O is
 * due, the loop that issues them at those times, whether a step passed, and
 * the sizing answer read off between two steps.
 *
 * Open loop: the schedule, not the device, sets when an I/O is sent, and
 * its latency runs from the time it was DUE.  A device that stalls makes
 * the I/Os due during the stall wait, and each counts that wait; a process
 * that is behind sends its late I/Os at once, never skips one, so the rate
 * it was asked for is what it tries to do (no coordinated omission).
 */

#include <glib.h>
#include <stdint.h>

#include "../src/base/histogram.h"

/* Default parameters, and the bound on steps of one curve. */
#define AB_CURVE_DEFAULT_PROCS 4u
#define AB_CURVE_DEFAULT_BLOCK 8192u
#define AB_CURVE_DEFAULT_READ_PCT 100u
#define AB_CURVE_DEFAULT_RATE_START 100.0
#define AB_CURVE_DEFAULT_RATE_FACTOR 2.0
#define AB_CURVE_DEFAULT_SECONDS 5.0
#define AB_CURVE_DEFAULT_P99_TARGET_NS 10000000u /* 10 ms */
#define AB_CURVE_DEFAULT_STEPS 10u
#define AB_CURVE_MAX_STEPS 40u
#define AB_CURVE_MAX_PROCS 256u
/* A step falls behind when it achieved less than this share of its rate. */
#define AB_CURVE_BEHIND_SHARE 0.95

/* The n-th I/O of the whole schedule (0-based, all processes together) is
 * due at t0 + n / rate: n * 1e9 / rate nanoseconds after t0. */
uint64_t ab_curve_due_ns(uint64_t t0_ns, uint64_t n, double rate);
/* Process k of `procs` takes every procs-th I/O: its i-th is the schedule's
 * i * procs + k.  How many of `total` are its. */
uint64_t ab_curve_share(uint64_t total, unsigned k, unsigned procs);
/* I/Os of one step: rate x seconds, rounded, at least one per process. */
uint64_t ab_curve_step_ios(double rate, double seconds, unsigned procs);
/* The offered rate of step `step` (1-based): start x factor^(step - 1). */
double ab_curve_step_rate(double start, double factor, unsigned step);

/* What the issuing loop needs from the world: a clock, a wait until an
 * absolute time on that clock, and the I/O itself (the i-th of this
 * process; 0, or -1 to stop).  The worker passes CLOCK_MONOTONIC and pread;
 * the unit test a clock it moves itself. */
struct ab_curve_world {
	uint64_t (*now)(void *arg);
	void (*sleep_until)(void *arg, uint64_t t_ns);
	int (*io)(void *arg, uint64_t i);
	/* Optional: each I/O's latency as the histogram gets it (the tests). */
	void (*record)(void *arg, uint64_t i, uint64_t latency_ns);
	void *arg;
};

/* How far behind its schedule a process was. */
struct ab_curve_lateness {
	uint64_t done;         /* I/Os completed */
	uint64_t late;         /* sent after their due time (later than AB_CURVE_LATE_NS) */
	uint64_t max_late_ns;  /* the most any was sent after its due time */
	uint64_t sum_late_ns;
};
/* Sent this long after its due time, an I/O counts as late: sleeping to a
 * time wakes a little after it, which is not falling behind. */
#define AB_CURVE_LATE_NS 1000000u /* 1 ms */

/* Process k of `procs` issues its share of `total` I/Os at their due times
 * from t0 at the aggregate `rate`, each latency (completion - due time) into
 * `h`.  Returns 0, or the first non-zero return of world->io. */
int ab_curve_issue(const struct ab_curve_world *w, uint64_t t0_ns, double rate, unsigned k, unsigned procs,
		   uint64_t total, struct ab_histogram *h, struct ab_curve_lateness *late);

/* Why a step ended the curve, or not. */
enum ab_curve_verdict {
	AB_CURVE_PASS,
	AB_CURVE_OVER_TARGET,  /* p99 above the target */
	AB_CURVE_BEHIND,       /* achieved under AB_CURVE_BEHIND_SHARE of the offered rate */
	AB_CURVE_OVER_AND_BEHIND,
};
enum ab_curve_verdict ab_curve_judge(double offered, double achieved, uint64_t p99_ns, uint64_t target_ns);
const char *ab_curve_verdict_name(enum ab_curve_verdict v);

/* The sizing answer: the highest offered rate whose p99 meets the target.
 * Between the last passing step (r1, p1) and the first failing one (r2, p2)
 * with p1 <= target < p2, read off linearly in p99 against log(rate) (the
 * steps grow by a factor, so their rates are even on a log scale):
 * r1 x (r2 / r1)^((target - p1) / (p2 - p1)); *interpolated is TRUE.
 * Otherwise the last passing rate (a step failed by falling behind with its
 * p99 in target; or no step failed: a lower bound), not interpolated; NAN
 * when the first step already failed. */
double ab_curve_sizing(gboolean have_pass, double r1, uint64_t p1_ns, gboolean have_fail, double r2,
		       uint64_t p2_ns, uint64_t target_ns, gboolean *interpolated);

#endif
