/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve's schedule, lateness, step verdict and sizing answer:
 * arithmetic only (workloads/curve-math.h says why). */
#include "curve-math.h"

#include <math.h>

uint64_t ab_curve_due_ns(uint64_t t0_ns, uint64_t n, double rate)
{
	/* From n each time, never by adding up intervals: rounding errors
	 * would pile up over a long step. */
	return t0_ns + (uint64_t)llround((double)n * 1e9 / rate);
}

uint64_t ab_curve_share(uint64_t total, unsigned k, unsigned procs)
{
	return total / procs + (k < total % procs);
}

uint64_t ab_curve_step_ios(double rate, double seconds, unsigned procs)
{
	double n = llround(rate * seconds);
	return n < procs ? procs : (uint64_t)n;
}

double ab_curve_step_rate(double start, double factor, unsigned step)
{
	return start * pow(factor, (double)(step ? step - 1 : 0));
}

int ab_curve_issue(const struct ab_curve_world *w, uint64_t t0_ns, double rate, unsigned k, unsigned procs,
		   uint64_t total, struct ab_histogram *h, struct ab_curve_lateness *late)
{
	uint64_t mine = ab_curve_share(total, k, procs);
	for (uint64_t i = 0; i < mine; i++) {
		uint64_t due = ab_curve_due_ns(t0_ns, i * procs + k, rate);
		uint64_t now = w->now(w->arg);
		if (now < due) {
			w->sleep_until(w->arg, due);
		} else {
			/* Behind: send it now, and say by how much. */
			uint64_t by = now - due;
			if (by > AB_CURVE_LATE_NS)
				late->late++;
			late->sum_late_ns += by;
			if (by > late->max_late_ns)
				late->max_late_ns = by;
		}
		int rc = w->io(w->arg, i);
		if (rc != 0)
			return rc;
		uint64_t end = w->now(w->arg);
		/* From the due time: a wait for the device to catch up is
		 * latency the application would have seen. */
		uint64_t lat = end > due ? end - due : 0;
		ab_histogram_record(h, lat);
		if (w->record)
			w->record(w->arg, i, lat);
		late->done++;
	}
	return 0;
}

enum ab_curve_verdict ab_curve_judge(double offered, double achieved, uint64_t p99_ns, uint64_t target_ns)
{
	gboolean over = p99_ns > target_ns;
	gboolean behind = !(achieved >= AB_CURVE_BEHIND_SHARE * offered); /* NAN is behind */
	if (over && behind)
		return AB_CURVE_OVER_AND_BEHIND;
	return over ? AB_CURVE_OVER_TARGET : behind ? AB_CURVE_BEHIND : AB_CURVE_PASS;
}

const char *ab_curve_verdict_name(enum ab_curve_verdict v)
{
	switch (v) {
	case AB_CURVE_PASS: return "pass";
	case AB_CURVE_OVER_TARGET: return "p99 over target";
	case AB_CURVE_BEHIND: return "fell behind";
	case AB_CURVE_OVER_AND_BEHIND: return "p99 over target, fell behind";
	}
	return "?";
}

double ab_curve_sizing(gboolean have_pass, double r1, uint64_t p1_ns, gboolean have_fail, double r2,
		       uint64_t p2_ns, uint64_t target_ns, gboolean *interpolated)
{
	*interpolated = FALSE;
	if (!have_pass)
		return NAN;
	if (!have_fail || p2_ns <= target_ns || p1_ns > target_ns || p2_ns <= p1_ns || !(r2 > r1))
		return r1;
	double f = ((double)target_ns - (double)p1_ns) / ((double)p2_ns - (double)p1_ns);
	*interpolated = TRUE;
	return r1 * pow(r2 / r1, f);
}
