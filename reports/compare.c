/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison model (compare.h): runs grouped by cell, figures by column,
 * the statistics of each, all from the run set alone. */
#include "compare.h"
#include "../src/base/error.h"
#include "../src/model/run-group.h"
#include "../src/model/findings.h"
#include "../workloads/phase.h"

#include <math.h>
#include <string.h>

/* One rule for the comparison, the HTML page and the findings. */
char *ab_compare_group_label(const struct ab_run *run)
{
	return ab_run_group_label(run);
}

const char *ab_compare_figure_name(enum ab_compare_figure f)
{
	switch (f) {
	case AB_FIGURE_RATE: return "rate";
	case AB_FIGURE_CPU: return "cpu_percent";
	case AB_FIGURE_P99: return "latency_p99";
	}
	return "?";
}

const char *ab_compare_noise_word(const struct ab_welch *w)
{
	if (isnan(w->p))
		return NULL;
	return w->p >= AB_COMPARE_ALPHA ? "within" : "beyond";
}

char *ab_compare_noise_text(const struct ab_welch *w)
{
	const char *word = ab_compare_noise_word(w);
	if (!word)
		return g_strdup("no test: fewer than 2 figures on a side");
	/* Enough digits to tell p=0.049 from 0.05, and a tiny p as such. */
	if (w->p < 0.001)
		return g_strdup_printf("%s noise: Welch p<0.001", word);
	return g_strdup_printf("%s noise: Welch p=%.2g", word, w->p);
}

static void cell_free(gpointer p)
{
	struct ab_compare_cell *c = p;
	g_array_unref(c->values);
	g_array_unref(c->repeats);
	g_free(c->outlier);
	g_free(c);
}

static void column_free(gpointer p)
{
	struct ab_compare_column *col = p;
	g_free(col->phase);
	g_free(col->key.test);
	g_free(col->name);
	g_ptr_array_unref(col->cells);
	g_free(col);
}

static void group_free(gpointer p)
{
	struct ab_compare_group *g = p;
	g_free(g->label);
	g_array_unref(g->file_sizes);
	g_free(g);
}

static void failure_free(gpointer p)
{
	struct ab_compare_failure *f = p;
	g_free(f->group);
	g_free(f->run_id);
	g_free(f->reason);
	g_free(f);
}

void ab_compare_free(struct ab_compare *c)
{
	if (!c)
		return;
	g_ptr_array_unref(c->groups);
	g_ptr_array_unref(c->columns);
	g_ptr_array_unref(c->failures);
	if (c->findings)
		g_ptr_array_unref(c->findings);
	g_free(c);
}

/* A sweep cell is its own figure at each file and record size; bonnie++'s
 * phases are one figure whatever the file size and chunk (conditions of
 * the group, which the text names), so seed 003's 8000M and 32473M lines
 * and a run of ours share the block-write column. */
static gboolean sized(const struct ab_result *r)
{
	return r->key.test != NULL;
}

/* A result's deadline: none (0) when it had none or it is not known (a
 * run from before the option), so that those compare alike. */
static double deadline_of(const struct ab_result *r)
{
	return r->stonewall_time_s > 0 ? r->stonewall_time_s : 0;
}

static bool wearout_of(const struct ab_result *r)
{
	return deadline_of(r) > 0 && r->wearout == TRUE;
}

static gboolean same_column(const struct ab_compare_column *col, const struct ab_result *r,
			    enum ab_compare_figure figure)
{
	if (col->figure != figure || strcmp(col->phase, r->phase) != 0 || g_strcmp0(col->key.test, r->key.test) != 0 ||
	    col->key.streams != r->key.streams || col->key.pass != r->key.pass)
		return FALSE;
	if (col->stonewall_time_s != deadline_of(r) || col->wearout != wearout_of(r))
		return FALSE;
	return !sized(r) || (col->key.file_size == r->key.file_size && col->key.record_size == r->key.record_size);
}

static void size_text(GString *s, uint64_t bytes)
{
	static const char suffix[] = "kmgt";
	if (!ab_known(bytes)) {
		g_string_append(s, "?");
		return;
	}
	int i = -1;
	while (i < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	g_string_append_printf(s, "%" G_GUINT64_FORMAT, bytes);
	if (i >= 0)
		g_string_append_c(s, suffix[i]);
}

static char *column_name(const struct ab_result *r, enum ab_compare_figure figure)
{
	GString *s = g_string_new(NULL);
	g_autofree char *phase = ab_one_line(r->phase);
	g_string_append(s, phase);
	if (ab_known(r->key.pass) && r->key.pass > 1)
		g_string_append_printf(s, "#%" G_GUINT64_FORMAT, r->key.pass);
	if (r->key.test) {
		g_autofree char *test = ab_one_line(r->key.test);
		g_string_append_printf(s, " %s ", test);
		size_text(s, r->key.file_size);
		g_string_append_c(s, '/');
		size_text(s, r->key.record_size);
	}
	if (ab_known(r->key.streams) && r->key.streams > 1)
		g_string_append_printf(s, " x%" G_GUINT64_FORMAT, r->key.streams);
	if (deadline_of(r) > 0)
		g_string_append_printf(s, " deadline %gs%s", deadline_of(r), wearout_of(r) ? " wearout" : "");
	if (figure == AB_FIGURE_CPU)
		g_string_append(s, " CPU");
	else if (figure == AB_FIGURE_P99)
		g_string_append(s, " p99 latency");
	return g_string_free(s, FALSE);
}

static struct ab_compare_column *column_for(struct ab_compare *c, const struct ab_result *r,
					    enum ab_compare_figure figure)
{
	for (guint i = 0; i < c->columns->len; i++) {
		struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		if (same_column(col, r, figure))
			return col;
	}
	struct ab_compare_column *col = g_new0(struct ab_compare_column, 1);
	col->phase = g_strdup(r->phase);
	col->key = r->key;
	col->key.test = g_strdup(r->key.test);
	if (!sized(r))
		col->key.file_size = col->key.record_size = AB_UNSET;
	col->figure = figure;
	col->stonewall_time_s = deadline_of(r);
	col->wearout = wearout_of(r);
	col->name = column_name(r, figure);
	const struct ab_phase *ph = ab_phase_by_name(r->phase);
	col->unit = figure == AB_FIGURE_CPU ? "%" : figure == AB_FIGURE_P99 ? "ns"
		: ph ? ab_rate_unit_name(ph->unit) : "?";
	col->higher_better = figure == AB_FIGURE_RATE;
	col->cells = g_ptr_array_new_with_free_func(cell_free);
	col->best = col->runner_up = -1;
	g_ptr_array_add(c->columns, col);
	return col;
}

static struct ab_compare_cell *cell_for(struct ab_compare_column *col, guint group)
{
	for (guint i = 0; i < col->cells->len; i++) {
		struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
		if (cell->group == group)
			return cell;
	}
	struct ab_compare_cell *cell = g_new0(struct ab_compare_cell, 1);
	cell->group = group;
	cell->values = g_array_new(FALSE, FALSE, sizeof(double));
	cell->repeats = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	/* Kept in group order, whatever order the columns met them in. */
	guint at = 0;
	while (at < col->cells->len && ((struct ab_compare_cell *)g_ptr_array_index(col->cells, at))->group < group)
		at++;
	g_ptr_array_insert(col->cells, (gint)at, cell);
	return cell;
}

/* The figure of a result; NAN when unknown.  has: was the figure there at
 * all (a CPU or latency column is made only where one was measured). */
static double figure_of(const struct ab_result *r, enum ab_compare_figure f)
{
	switch (f) {
	case AB_FIGURE_RATE: return r->rate;
	case AB_FIGURE_CPU: return r->cpu_percent;
	case AB_FIGURE_P99: return ab_known(r->latency.p99_ns) ? (double)r->latency.p99_ns : NAN;
	}
	return NAN;
}

static void add_result(struct ab_compare *c, guint group, const struct ab_run *run, const struct ab_result *r)
{
	for (enum ab_compare_figure f = AB_FIGURE_RATE; f <= AB_FIGURE_P99; f++) {
		double v = figure_of(r, f);
		/* A rate is always a column (an unmeasurable one is shown as
		 * such); CPU and latency only where they were measured. */
		if (f != AB_FIGURE_RATE && !isfinite(v))
			continue;
		struct ab_compare_cell *cell = cell_for(column_for(c, r, f), group);
		if (!isfinite(v)) {
			cell->unmeasurable++;
			continue;
		}
		if (f == AB_FIGURE_RATE && !r->measurable)
			cell->short_runs++;
		g_array_append_val(cell->values, v);
		g_array_append_val(cell->repeats, run->repeat);
	}
}

static guint group_of(struct ab_compare *c, const char *label)
{
	for (guint i = 0; i < c->groups->len; i++)
		if (strcmp(((struct ab_compare_group *)g_ptr_array_index(c->groups, i))->label, label) == 0)
			return i;
	struct ab_compare_group *g = g_new0(struct ab_compare_group, 1);
	g->label = g_strdup(label);
	g->file_sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_ptr_array_add(c->groups, g);
	return c->groups->len - 1;
}

static void note_size(struct ab_compare_group *g, uint64_t size)
{
	if (!ab_known(size) || size == 0)
		return;
	for (guint i = 0; i < g->file_sizes->len; i++)
		if (g_array_index(g->file_sizes, uint64_t, i) == size)
			return;
	g_array_append_val(g->file_sizes, size);
}

/* Statistics of one column: each cell's summary and outliers, the best,
 * and each cell against the baseline's cell. */
/* Is cell's mean better than that of the column's cell `other` (-1: none)? */
static gboolean better(const struct ab_compare_column *col, const struct ab_compare_cell *cell, int other)
{
	if (other < 0)
		return TRUE;
	double them = ((const struct ab_compare_cell *)g_ptr_array_index(col->cells, other))->stats.mean;
	return col->higher_better ? cell->stats.mean > them : cell->stats.mean < them;
}

static void column_stats(struct ab_compare_column *col, guint baseline, bool given)
{
	const struct ab_compare_cell *base = NULL;
	col->baseline = baseline;
	for (guint i = 0; i < col->cells->len; i++) {
		struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
		/* Every figure here (a rate, CPU %, a latency) is never negative:
		 * an interval passing below 0 is replaced (ci_method says how). */
		ab_stats_describe_positive((double *)cell->values->data, cell->values->len, AB_COMPARE_CONFIDENCE,
					   &cell->stats);
		cell->outlier = g_new0(bool, cell->values->len + 1);
		cell->outliers = ab_stats_outliers((double *)cell->values->data, cell->values->len, cell->outlier);
		if (!base && (given ? cell->group == baseline : cell->stats.n > 0)) {
			base = cell;
			col->baseline = cell->group;
		}
		/* Best by the mean (what the interval is of); ties keep the first. */
		if (cell->stats.n == 0)
			continue;
		if (better(col, cell, col->best)) {
			col->runner_up = col->best;
			col->best = (int)i;
		} else if (better(col, cell, col->runner_up)) {
			col->runner_up = (int)i;
		}
	}
	col->best_vs_next = (struct ab_welch){ NAN, NAN, NAN };
	/* A group alone in its column is no best of anything. */
	if (col->runner_up < 0)
		col->best = -1;
	if (col->best >= 0) {
		struct ab_compare_cell *best = g_ptr_array_index(col->cells, col->best);
		/* Groups tied with the best are marked best too. */
		for (guint i = 0; i < col->cells->len; i++) {
			struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
			cell->best = cell->stats.n > 0 && cell->stats.mean == best->stats.mean;
		}
		if (col->runner_up >= 0) {
			const struct ab_compare_cell *next = g_ptr_array_index(col->cells, col->runner_up);
			ab_stats_welch((double *)best->values->data, best->values->len, (double *)next->values->data,
				       next->values->len, &col->best_vs_next);
		}
	}
	for (guint i = 0; i < col->cells->len; i++) {
		struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
		cell->ratio = cell->boot = (struct ab_ratio){ NAN, NAN, NAN };
		cell->welch = (struct ab_welch){ NAN, NAN, NAN };
		if (cell == base && cell->stats.n > 0)
			cell->ratio.ratio = 1;
		if (!base || cell == base)
			continue;
		const double *x = (double *)cell->values->data, *b = (double *)base->values->data;
		ab_stats_ratio_ci(x, cell->values->len, b, base->values->len, AB_COMPARE_CONFIDENCE, &cell->ratio);
		ab_stats_welch(x, cell->values->len, b, base->values->len, &cell->welch);
	}
}

void ab_compare_bootstrap(struct ab_compare *c)
{
	for (guint i = 0; i < c->columns->len; i++) {
		struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		const struct ab_compare_cell *base = NULL;
		for (guint k = 0; k < col->cells->len && !base; k++) {
			const struct ab_compare_cell *cell = g_ptr_array_index(col->cells, k);
			if (cell->group == col->baseline && cell->stats.n > 0)
				base = cell;
		}
		for (guint k = 0; base && k < col->cells->len; k++) {
			struct ab_compare_cell *cell = g_ptr_array_index(col->cells, k);
			if (cell == base)
				continue;
			const double *x = (double *)cell->values->data, *b = (double *)base->values->data;
			/* Some 4 million draws at most, so a group of thousands of
			 * runs does not take minutes; still seeded, so still
			 * deterministic. */
			size_t draws = cell->values->len + base->values->len;
			unsigned resamples = (unsigned)MIN((size_t)AB_COMPARE_RESAMPLES, 4000000 / MAX(draws, (size_t)1));
			ab_stats_bootstrap_ratio(x, cell->values->len, b, base->values->len, AB_CENTRE_MEAN,
						 AB_COMPARE_CONFIDENCE, MAX(resamples, 100u), AB_COMPARE_SEED, &cell->boot);
		}
	}
}

/* A phase's CPU and latency columns follow its rate's, in the order the
 * figures first came: each column takes the place of the first column of
 * its phase and cell. */
static gint by_slot(gconstpointer a, gconstpointer b)
{
	const struct ab_compare_column *x = *(struct ab_compare_column *const *)a;
	const struct ab_compare_column *y = *(struct ab_compare_column *const *)b;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return (int)x->figure - (int)y->figure;
}

static void order_columns(struct ab_compare *c)
{
	for (guint i = 0; i < c->columns->len; i++) {
		struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		col->slot = i;
		for (guint k = 0; k < i; k++) {
			const struct ab_compare_column *o = g_ptr_array_index(c->columns, k);
			if (strcmp(o->phase, col->phase) == 0 && g_strcmp0(o->key.test, col->key.test) == 0 &&
			    o->key.streams == col->key.streams && o->key.pass == col->key.pass &&
			    o->key.file_size == col->key.file_size && o->key.record_size == col->key.record_size) {
				col->slot = o->slot;
				break;
			}
		}
	}
	/* (slot, figure) is unique: the order needs no stable sort (though
	 * g_ptr_array_sort is one since glib 2.32). */
	g_ptr_array_sort(c->columns, by_slot);
}

struct ab_compare *ab_compare_build(const struct ab_run_set *set, const char *baseline, GError **error)
{
	if (!set->runs->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "no run to compare");
		return NULL;
	}
	struct ab_compare *c = g_new0(struct ab_compare, 1);
	c->groups = g_ptr_array_new_with_free_func(group_free);
	c->columns = g_ptr_array_new_with_free_func(column_free);
	c->failures = g_ptr_array_new_with_free_func(failure_free);
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		g_autofree char *label = ab_compare_group_label(run);
		guint gi = group_of(c, label);
		struct ab_compare_group *g = g_ptr_array_index(c->groups, gi);
		c->runs++;
		/* A failed visit is listed, never averaged, even if it holds
		 * results from before it failed. */
		if (run->failure) {
			struct ab_compare_failure *f = g_new0(struct ab_compare_failure, 1);
			f->group = g_strdup(label);
			f->run_id = g_strdup(run->run_id);
			f->repeat = run->repeat;
			f->reason = g_strdup(run->failure);
			g_ptr_array_add(c->failures, f);
			g->failed++;
			continue;
		}
		g->runs++;
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			if (!r->phase)
				continue;
			if (!sized(r)) {
				const struct ab_phase *ph = ab_phase_by_name(r->phase);
				if (ph && (ph->flags & AB_PHASE_IO) && !(ph->flags & AB_PHASE_PER_CHAR))
					note_size(g, r->key.file_size);
			}
			add_result(c, gi, run, r);
		}
	}
	c->baseline = 0;
	if (baseline) {
		guint k;
		for (k = 0; k < c->groups->len; k++)
			if (strcmp(((struct ab_compare_group *)g_ptr_array_index(c->groups, k))->label, baseline) == 0)
				break;
		if (k == c->groups->len) {
			g_autofree char *shown = ab_one_line(baseline);
			GString *names = g_string_new(NULL);
			for (guint i = 0; i < c->groups->len && i < 10; i++) {
				g_autofree char *name = ab_one_line(((struct ab_compare_group *)g_ptr_array_index(c->groups, i))->label);
				g_string_append_printf(names, "%s'%s'", i ? ", " : "", name);
			}
			if (c->groups->len > 10)
				g_string_append_printf(names, " and %u more", c->groups->len - 10);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --baseline '%s': no group has that label (groups: %s)",
				    shown, names->str);
			g_string_free(names, TRUE);
			ab_compare_free(c);
			return NULL;
		}
		c->baseline = k;
		c->baseline_given = true;
	}
	order_columns(c);
	for (guint i = 0; i < c->columns->len; i++)
		column_stats(g_ptr_array_index(c->columns, i), c->baseline, c->baseline_given);
	c->findings = ab_findings_find(set, AB_FINDING_SCOPE_ALL);
	return c;
}
