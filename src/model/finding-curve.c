/* SPDX-License-Identifier: GPL-2.0-or-later */
/* curve-coarse: the latency curve's sizing answer lies between the last
 * step that met the target and the first that did not; the steps' offered
 * rates grow by --rate-factor, so the answer is placed only within their
 * ratio.  A ratio over 1.2 cannot place it within 20 %.  Each step is
 * judged as the curve's block judges it (workloads/curve-math.h), against
 * the target its sizing row carries. */
#include "findings.h"
#include "../base/rate-text.h"
#include "../../workloads/curve-math.h"

#include <math.h>

#define CURVE_PHASE "latency-curve"
#define SIZING_TEST "sizing"

static void judge(const struct ab_run *run, GPtrArray *steps, const struct ab_result *sizing, GPtrArray *out)
{
	uint64_t target = sizing->latency.p99_ns;
	if (!ab_known(target) || !isfinite(sizing->rate))
		return;
	const struct ab_result *pass = NULL, *fail = NULL;
	for (guint i = 0; i < steps->len; i++) {
		const struct ab_result *r = g_ptr_array_index(steps, i);
		if (!isfinite(r->offered_rate))
			continue;
		if (ab_curve_judge(r->offered_rate, r->rate, r->latency.p99_ns, target) == AB_CURVE_PASS)
			pass = r;
		else if (!fail)
			fail = r;
	}
	if (!pass || !fail || !(pass->offered_rate > 0))
		return;
	double ratio = fail->offered_rate / pass->offered_rate;
	if (!(ratio - 1 > AB_FINDING_CURVE_STEP))
		return;
	char answer[32], below[32], above[32];
	ab_rate_text(sizing->rate, answer, sizeof(answer));
	ab_rate_text(pass->offered_rate, below, sizeof(below));
	ab_rate_text(fail->offered_rate, above, sizeof(above));
	struct ab_finding *f = ab_finding_add(out, "curve-coarse", run, NULL, "latency-curve sizing");
	ab_finding_say(f,
		       "the latency curve's answer, %s IOPS at p99 <= %.3g ms, lies between steps offering %s and %s "
		       "IOPS: a ratio of %.2f (over %.2f), so the steps place it only within %.0f %%",
		       answer, target / 1e6, below, above, ratio, 1 + AB_FINDING_CURVE_STEP, 100 * (ratio - 1));
	ab_finding_advise(f, "run the curve again from --rate-start %g with a --rate-factor of 1.1 (and enough "
			     "--curve-steps to pass %s IOPS)",
			  pass->offered_rate, above);
	ab_finding_figure(f, "answer", sizing->rate, "IOPS");
	ab_finding_figure(f, "step_below", pass->offered_rate, "IOPS");
	ab_finding_figure(f, "step_above", fail->offered_rate, "IOPS");
	ab_finding_figure(f, "step_ratio", ratio, NULL);
}

void ab_finding_curve_coarse(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		g_autoptr(GPtrArray) steps = g_ptr_array_new();
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			if (g_strcmp0(r->phase, CURVE_PHASE) != 0)
				continue;
			if (g_strcmp0(r->key.test, SIZING_TEST) == 0) {
				judge(run, steps, r, out);
				g_ptr_array_set_size(steps, 0);
			} else {
				g_ptr_array_add(steps, (gpointer)r);
			}
		}
	}
}
