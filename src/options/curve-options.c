/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve's options against each other and the run's
 * (src/options/curve-options.h). */
#include "curve-options.h"
#include "config.h"
#include "../base/error.h"
#include "run-option-parse.h"
#include "../../workloads/curve-math.h"
#include "../../workloads/phase.h"

const char *ab_curve_option_given(const struct ab_config *cfg)
{
	return ab_run_option_given(cfg, AB_OPTION_CURVE);
}

uint64_t ab_curve_results(const struct ab_config *cfg)
{
	return (uint64_t)cfg->curve_steps + 1; /* its steps at most, and the sizing row */
}

/* The latency curve's parameters, once it is asked for; each curve adds
 * up to a result per step and the sizing row to `results`. */
gboolean ab_curve_finish(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results, GError **error)
{
	if (!ab_config_asks_for(cfg, 0, AB_PHASE_LATENCY_CURVE)) {
		if (ab_curve_option_given(cfg) && !ab_config_another_step_asks_for(cfg, AB_PHASE_LATENCY_CURVE, AB_PHASE_LATENCY_CURVE)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s applies to the latency curve, which is not asked for (--phases latency-curve)",
				    ab_curve_option_given(cfg));
			return FALSE;
		}
		return TRUE;
	}
	if (cfg->file_size < cfg->curve_block) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid -s size '%" G_GUINT64_FORMAT "k': the latency curve needs at least one %u-byte block",
			    cfg->file_size / 1024, cfg->curve_block);
		return FALSE;
	}
	if (cfg->direct && cfg->curve_block % 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --curve-block '%u' with --direct: O_DIRECT needs a multiple of 4k", cfg->curve_block);
		return FALSE;
	}
	/* Each process needs an I/O of the first step, or the step would
	 * last far longer than asked (4 I/Os at 0.001 IOPS: 4000 s). */
	if (cfg->rate_start * cfg->curve_seconds < cfg->curve_procs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --rate-start '%g': a step of %g s at that rate sends fewer I/Os than the %u "
			    "--curve-procs processes", cfg->rate_start, cfg->curve_seconds, cfg->curve_procs);
		return FALSE;
	}
	/* The last step's I/Os must be countable, and its schedule in nanoseconds. */
	double last = ab_curve_step_rate(cfg->rate_start, cfg->rate_factor, cfg->curve_steps);
	if (!(last * cfg->curve_seconds < 1e12)) {
		/* Any of the three may be the one to change (--curve-steps 40
		 * alone does it at the defaults): name them all. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "the latency curve's step %u would offer %g IOPS for %g s (--rate-start %g, --rate-factor %g a "
			    "step), more I/Os than a step can count: give fewer --curve-steps or a lower --rate-start "
			    "or --rate-factor", cfg->curve_steps, last, cfg->curve_seconds, cfg->rate_start,
			    cfg->rate_factor);
		return FALSE;
	}
	*results += ab_phase_family_more_results(ab_phase_family_of(AB_PHASE_LATENCY_CURVE), cfg);
	return TRUE;
}

const struct ab_phase_family ab_curve_family = {
	.phase_id = AB_PHASE_LATENCY_CURVE,
	.results = ab_curve_results,
	.finish = ab_curve_finish,
	.option_given = ab_curve_option_given,
};
