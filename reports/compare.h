/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

/*
 * Comparison views (`arraybench report --compare`): the runs of a set
 * grouped by their cell, and for every figure they share (a column) each
 * group's statistics, its ratio to a baseline group with an interval, and
 * whether its difference from the baseline is within the noise.  Built
 * from a struct ab_run_set alone, then written as text, CSV or JSON.
 */

#include <glib.h>
#include <stdbool.h>

#include "../src/model/run.h"
#include "../src/model/stats.h"

#define AB_COMPARE_CONFIDENCE 0.95
/* Welch's p at or above this: the difference is within the noise. */
#define AB_COMPARE_ALPHA 0.05
/* The bootstrap the CSV and JSON also give (the text prints the
 * delta-method interval): resamples and its fixed seed. */
#define AB_COMPARE_RESAMPLES 10000
#define AB_COMPARE_SEED 20261203u

/* The figure a column holds of a result. */
enum ab_compare_figure {
	AB_FIGURE_RATE,          /* the phase's unit; higher is better */
	AB_FIGURE_CPU,           /* CPU % of the workers; lower is better */
	AB_FIGURE_P99,           /* latency p99 in ns; lower is better */
};

/* One group's figures in one column. */
struct ab_compare_cell {
	guint group;             /* index into groups */
	GArray *values;          /* double: every known figure, in run order */
	GArray *repeats;         /* uint64_t: the repeat of each value (AB_UNSET unknown) */
	bool *outlier;           /* per value */
	size_t outliers;
	size_t unmeasurable;     /* results with no figure (bonnie++'s +++++) */
	size_t short_runs;       /* rates counted that lasted under the measurable time */
	struct ab_stats stats;
	struct ab_ratio ratio;   /* to the baseline: delta method (the text's) */
	struct ab_ratio boot;    /* the same by the percentile bootstrap of means (ab_compare_bootstrap) */
	struct ab_welch welch;   /* against the baseline */
	bool best;               /* the best mean, or tied with it */
};

struct ab_compare_column {
	char *phase;
	struct ab_cell_key key;  /* file and record size only for a sweep cell (key.test) */
	enum ab_compare_figure figure;
	/* A sweep cell's deadline (--stonewall-time; 0: none) and wear-out:
	 * another setting is another condition, so another column. */
	double stonewall_time_s;
	bool wearout;
	char *name;              /* "block-write", "sweep write 64m/4k", "block-write CPU" */
	const char *unit;        /* "KiB/s", "%", "ns", "?" */
	bool higher_better;
	GPtrArray *cells;        /* struct ab_compare_cell *, in group order */
	int best;                /* index into cells, -1 when none has a figure */
	int runner_up;           /* the next best, -1 when none */
	struct ab_welch best_vs_next;
	/* The group its ratios and tests are to: --baseline's, else the first
	 * group with the figure (a bonnie cell has no sweep figures, so the
	 * first mirror cell is the sweep columns' baseline). */
	guint baseline;
	guint slot;              /* ordering: the first column of its phase and cell */
};

struct ab_compare_group {
	char *label;
	guint runs;              /* runs with results */
	guint failed;
	/* The distinct file sizes its runs' I/O phases used (bytes), for the
	 * JSON (that groups ran different sizes, the finding
	 * conditions-differ says). */
	GArray *file_sizes;      /* uint64_t */
};

struct ab_compare_failure {
	char *group;
	char *run_id;
	uint64_t repeat;
	char *reason;
};

struct ab_compare {
	GPtrArray *groups;       /* struct ab_compare_group *, in order of first run */
	GPtrArray *columns;      /* struct ab_compare_column *, in order of first result */
	GPtrArray *failures;     /* struct ab_compare_failure * */
	guint baseline;          /* index into groups: --baseline's, else the first */
	bool baseline_given;     /* else each column's is its first group with the figure */
	guint runs;
	/* What the set shows, every rule's (src/model/findings.h): the text
	 * lists them after the tables, the JSON in `findings`. */
	GPtrArray *findings;     /* struct ab_finding * */
};

/* The group a run belongs to: its cell; else its target's label and its
 * workload; else its machine ("(unnamed)" when it has none).  To g_free. */
char *ab_compare_group_label(const struct ab_run *run);

/* Groups and columns of set; baseline: a group's label, NULL for the first
 * group.  NULL and an error (AB_ERROR_USAGE) when baseline names no group
 * or the set holds no run. */
struct ab_compare *ab_compare_build(const struct ab_run_set *set, const char *baseline, GError **error);
void ab_compare_free(struct ab_compare *c);
/* Fills each cell's boot (NAN until then): the CSV and JSON views give
 * it; the text does not, and skips the cost (most of a big comparison's). */
void ab_compare_bootstrap(struct ab_compare *c);

/* "within noise: Welch p=0.41", "beyond noise: Welch p=0.003", or why
 * there is no test; to g_free. */
char *ab_compare_noise_text(const struct ab_welch *w);
/* "within", "beyond" or NULL (no test). */
const char *ab_compare_noise_word(const struct ab_welch *w);
const char *ab_compare_figure_name(enum ab_compare_figure f);

/* The three views (reports/compare-text.c, reports/compare-out.c). */
char *ab_compare_text(const struct ab_compare *c);
char *ab_compare_csv(const struct ab_compare *c);
char *ab_compare_json(const struct ab_compare *c);

#endif
