/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve's options against each other and the run's
 * (src/options/curve-options.h). */
#include "curve-options.h"
#include "config.h"
#include "../base/error.h"
#include "run-option-parse.h"
#include "../../workloads/curve-math.h"
#include "../../workloads/phase.h"
#include "run-option-sets.h"

#include <math.h>
#include <string.h>

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

/* Its option rows (src/options/option-table.h) and the parsers no kind
 * covers. */
#define CFG(f) AB_OPTION_FIELD(struct ab_config, f)

/* A positive finite number, all of `value`. */
static gboolean parse_positive(const char *name, const char *value, double *out, GError **error)
{
	char *end = NULL;
	double v = g_ascii_strtod(value, &end);
	/* Decimal only: strtod would take hex ("0x10") and "infinity". */
	if (!*value || value[strspn(value, "0123456789.eE+-")] || !end || *end || !isfinite(v) || v <= 0)
		return ab_option_refuse(error, name, value, "not a positive number");
	*out = v;
	return TRUE;
}

static gboolean opt_curve_block(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	if (!ab_parse_chunk(value, &cfg->curve_block, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	return TRUE;
}

static gboolean opt_curve_mix(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) parts = g_strsplit(value, ":", 0);
	guint64 r, w;
	if (g_strv_length(parts) != 2 || !g_ascii_string_to_unsigned(parts[0], 10, 0, 100, &r, NULL) ||
	    !g_ascii_string_to_unsigned(parts[1], 10, 0, 100, &w, NULL))
		return ab_option_refuse(error, name, value, "expected READS:WRITES, two whole percentages (70:30)");
	if (r + w != 100)
		return ab_option_refuse(error, name, value, "the two shares must add up to 100");
	cfg->curve_read_pct = (uint32_t)r;
	return TRUE;
}

static gboolean opt_rate_start(const char *name, const char *value, void *data, GError **error)
{
	return parse_positive(name, value, &((struct ab_config *)data)->rate_start, error);
}

static gboolean opt_rate_factor(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	double f;
	if (!parse_positive(name, value, &f, error))
		return FALSE;
	/* Under 1.05 the steps would be closer than the 5 % a step may
	 * fall behind by. */
	if (f < 1.05 || f > 100)
		return ab_option_refuse(error, name, value, "must be from 1.05 to 100");
	cfg->rate_factor = f;
	return TRUE;
}

static gboolean opt_curve_seconds(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	double sec;
	if (!parse_positive(name, value, &sec, error))
		return FALSE;
	if (sec < 0.1 || sec > 86400)
		return ab_option_refuse(error, name, value, "must be from 0.1 to 86400 seconds");
	cfg->curve_seconds = sec;
	return TRUE;
}

static gboolean opt_p99_target(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	static const struct { const char *suffix; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end = NULL;
	double v = g_ascii_strtod(value, &end);
	double scale = 0;
	if (*value && strspn(value, "0123456789.") && end && end != value && !strpbrk(value, "xX")) {
		if (!*end)
			scale = 1e6; /* milliseconds when no unit is given */
		for (size_t i = 0; i < G_N_ELEMENTS(units) && !scale; i++)
			if (g_str_equal(end, units[i].suffix))
				scale = units[i].ns;
	}
	if (!scale || !isfinite(v) || v <= 0)
		return ab_option_refuse(error, name, value, "expected a positive time: ms without a unit, or ns, us, ms, s");
	double ns = v * scale;
	if (ns < 1000 || ns > 3600e9)
		return ab_option_refuse(error, name, value, "must be from 1us to 1 hour");
	cfg->p99_target_ns = (uint64_t)llround(ns);
	return TRUE;
}

#define CURVE .family = AB_OPTION_CURVE
#define STEP_KEY .profile = AB_OPTION_PROFILE_STEP
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)

static const struct ab_option_row ab_curve_option_rows[] = {
	{ "curve-procs", 0, .kind = AB_OPTION_COUNT, CFG(curve_procs), .min = 1, .max = AB_CURVE_MAX_PROCS,
	  .why = "must be at least 1", CURVE, STEP_KEY, .flags = AB_OPTION_OWN_ERROR,
	  .help = "Latency curve: processes that share each step's schedule, one I/O in flight each (4)", .arg = "N" },
	{ "curve-block", 0, CUSTOM(opt_curve_block), CURVE, STEP_KEY,
	  .help = "Latency curve: bytes per random I/O, a power of two (8k)", .arg = "SIZE" },
	{ "curve-mix", 0, CUSTOM(opt_curve_mix), CURVE, STEP_KEY,
	  .help = "Latency curve: percent reads and writes (100:0)", .arg = "R:W" },
	{ "rate-start", 0, CUSTOM(opt_rate_start), CURVE, STEP_KEY,
	  .help = "Latency curve: IOPS offered by the first step (100)", .arg = "IOPS" },
	{ "rate-factor", 0, CUSTOM(opt_rate_factor), CURVE, STEP_KEY,
	  .help = "Latency curve: each step offers this times the last (2)", .arg = "F" },
	{ "curve-seconds", 0, CUSTOM(opt_curve_seconds), CURVE, STEP_KEY,
	  .help = "Latency curve: length of each step (5)", .arg = "S" },
	{ "p99-target", 0, CUSTOM(opt_p99_target), CURVE, STEP_KEY,
	  .help = "Latency curve: the curve stops at the first step whose p99 is over this (10ms)", .arg = "TIME" },
	{ "curve-steps", 0, .kind = AB_OPTION_COUNT, CFG(curve_steps), .min = 1, .max = AB_CURVE_MAX_STEPS,
	  .why = "must be at least 1", CURVE, STEP_KEY, .flags = AB_OPTION_OWN_ERROR,
	  .help = "Latency curve: the most steps (10)", .arg = "N" },
};

const struct ab_option_set ab_curve_options = AB_OPTION_SET(ab_curve_option_rows);
