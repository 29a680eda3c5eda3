/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve's steps, each a timed run of the latency-curve phase at
 * one offered rate, and the sizing answer after them. */
#include "curve-run.h"
#include "../options/curve-options.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "step-files.h"
#include "../../workloads/curve-math.h"
#include "../../workloads/phase.h"

#include <math.h>

/* The calls of the timed region, with the mix's shares. */
static char **timed_calls(const struct ab_step *st)
{
	GPtrArray *calls = g_ptr_array_new();
	if (st->curve_read_pct == 100)
		g_ptr_array_add(calls, g_strdup("pread"));
	else if (st->curve_read_pct == 0)
		g_ptr_array_add(calls, g_strdup("pwrite"));
	else {
		g_ptr_array_add(calls, g_strdup_printf("pread %u%%", st->curve_read_pct));
		g_ptr_array_add(calls, g_strdup_printf("pwrite %u%%", 100 - st->curve_read_pct));
	}
	if (st->curve_read_pct < 100 && st->sync_each_write)
		g_ptr_array_add(calls, g_strdup("fdatasync"));
	g_ptr_array_add(calls, NULL);
	return (char **)g_ptr_array_free(calls, FALSE);
}

static void key_result(struct ab_result *res, const struct ab_step *st, const char *test, gboolean laid_out)
{
	g_strfreev(res->timed);
	res->timed = timed_calls(st);
	res->key.file_size = st->file_size;
	res->key.record_size = st->curve_block;
	res->key.streams = st->curve_procs;
	g_free(res->key.test);
	res->key.test = g_strdup(test);
	res->laid_out_untimed = laid_out;
}

gboolean ab_curve_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		      struct ab_run *run, GError **error)
{
	gboolean laid_out = s->io_from_layout;
	const struct ab_phase *ph = step->phase;
	gboolean have_pass = FALSE, have_fail = FALSE;
	double pass_rate = NAN, fail_rate = NAN;
	uint64_t pass_p99 = AB_UNSET, fail_p99 = AB_UNSET;
	g_autoptr(ab_result) last = NULL; /* the last step, for the sizing row's conditions */
	for (unsigned n = 1; n <= step->curve_steps && !have_fail; n++) {
		struct ab_step st = *step;
		st.curve_rate = ab_curve_step_rate(step->rate_start, step->rate_factor, n);
		st.curve_ios = ab_curve_step_ios(st.curve_rate, step->curve_seconds, step->curve_procs);
		g_autoptr(ab_result) res = ab_result_new(ph->name);
		gboolean cold;
		if (!ab_step_files_prepare_cache(s, r, &st, &cold, &res->resident_at_start, error))
			return FALSE;
		g_autofree char *detail = g_strdup_printf("step %u: %.6g IOPS offered", n, st.curve_rate);
		ab_progress_phase_begin(ph->name, detail, "I/Os");
		uint64_t st_seed = seed ^ ((uint64_t)n << 32);
		gboolean ok = ab_runner_run_step(r, &st, ab_rng_splitmix(&st_seed), res, error);
		ab_progress_phase_end(ok, ok ? res->rate : NAN);
		if (!ok) {
			g_prefix_error(error, "latency curve step %u (%.6g IOPS): ", n, st.curve_rate);
			return FALSE;
		}
		ab_step_files_describe_cache(s, ph, cold, res);
		g_autofree char *test = g_strdup_printf("step %u", n);
		key_result(res, &st, test, laid_out);
		/* On many ranks every rank offers the step's rate: the load
		 * offered is their sum, which the rate achieved (theirs too) is
		 * judged against. */
		double offered = st.curve_rate * MAX(1u, res->per_rank->len);
		res->offered_rate = offered;
		enum ab_curve_verdict v = ab_curve_judge(offered, res->rate, res->latency.p99_ns, st.p99_target_ns);
		if (v == AB_CURVE_PASS) {
			have_pass = TRUE;
			pass_rate = offered;
			pass_p99 = res->latency.p99_ns;
		} else {
			have_fail = TRUE;
			fail_rate = offered;
			fail_p99 = res->latency.p99_ns;
		}
		g_clear_pointer(&last, ab_result_free);
		last = ab_result_dup(res);
		ab_run_add_result(run, g_steal_pointer(&res));
	}
	/* The answer, with the conditions of the steps it was read from. */
	g_autoptr(ab_result) sz = ab_result_new(ph->name);
	key_result(sz, step, "sizing", laid_out);
	gboolean interpolated;
	sz->rate = ab_curve_sizing(have_pass, pass_rate, pass_p99, have_fail, fail_rate, fail_p99,
				   step->p99_target_ns, &interpolated);
	sz->interpolated = interpolated;
	sz->measurable = TRUE; /* read off, not timed: never "too short" */
	/* The point of the curve it answers: the rate at p99 = the target. */
	sz->latency.p99_ns = step->p99_target_ns;
	if (last) {
		sz->direct = last->direct;
		sz->sync_mode = g_strdup(last->sync_mode);
		sz->cache_state = g_strdup(last->cache_state);
		sz->cache_mode = g_strdup(last->cache_mode);
		sz->workers = last->workers;
	}
	ab_run_add_result(run, g_steal_pointer(&sz));
	return TRUE;
}

const struct ab_phase_driver ab_curve_driver = {
	.phase_id = AB_PHASE_LATENCY_CURVE,
	.run = ab_curve_run,
};
