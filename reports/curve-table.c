/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve in the text table: its own block under the main table,
 * a line per step (offered and achieved IOPS, latency from the due times,
 * late I/Os, whether the step met the target) and the sizing answer with
 * how it was found. */
#include "report.h"
#include "text-block.h"
#include "format.h"
#include "../workloads/curve-math.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CURVE_PHASE "latency-curve"
#define SIZING_TEST "sizing"

gboolean ab_text_is_curve_result(const struct ab_result *r)
{
	return g_strcmp0(r->phase, CURVE_PHASE) == 0;
}

/* A label from a file, on one line and short. */
static char *label(const char *text)
{
	if (!text)
		return g_strdup("?");
	char *l = g_strndup(text, 40);
	for (char *p = l; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return l;
}

static void heading(GString *s, const struct ab_result *r)
{
	g_autofree char *timed = r->timed ? g_strjoinv(", ", r->timed) : g_strdup("random I/O");
	g_autofree char *what = label(timed);
	g_string_append(s, "\nlatency curve: latency from each I/O's due time (open loop), ");
	if (ab_known(r->key.streams))
		g_string_append_printf(s, "%" G_GUINT64_FORMAT " processes, ", r->key.streams);
	if (ab_known(r->key.record_size))
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "k blocks ", r->key.record_size / 1024);
	g_string_append_printf(s, "(%s)%s\n", what, r->direct == TRUE ? ", O_DIRECT" : "");
	g_string_append_printf(s, "%-10s %13s %13s %9s %9s %9s %7s  %s\n", "step", "offered IOPS", "achieved IOPS",
			       "p50", "p99", "p99.9", "late", "verdict");
}

/* The answer line: the target is the sizing row's p99. */
static void sizing(GString *s, const struct ab_result *r, const struct ab_result *pass,
		   const struct ab_result *fail)
{
	char rate[32], target[16];
	ab_format_rate(r->rate, rate, sizeof(rate));
	ab_format_latency(r->latency.p99_ns, target, sizeof(target));
	if (isnan(r->rate)) {
		g_string_append_printf(s, "sizing: no step met p99 <= %s: the device needs a lower --rate-start\n",
				       target);
		return;
	}
	g_string_append_printf(s, "sizing: %s IOPS at p99 <= %s", rate, target);
	if (r->interpolated == TRUE && pass && fail) {
		char a[32], b[32];
		ab_format_rate(pass->offered_rate, a, sizeof(a));
		ab_format_rate(fail->offered_rate, b, sizeof(b));
		g_string_append_printf(s, ", interpolated (p99 linear in log rate) between %s and %s IOPS\n", a, b);
	} else if (fail)
		g_string_append(s, ", the last step that passed (the next fell behind with its p99 in target)\n");
	else if (pass)
		g_string_append(s, ", at least: every step passed (more --curve-steps would go further)\n");
	else /* no step shown, or none could be judged: nothing to say how */
		g_string_append_c(s, '\n');
}

void ab_text_curve(GString *s, const struct ab_run *run)
{
	gboolean open = FALSE;
	const struct ab_result *pass = NULL, *fail = NULL;
	/* The target, to judge each step by, is on the sizing row that
	 * closes its curve: found walking back once (a file may hold
	 * thousands of rows). */
	g_autofree uint64_t *targets = g_new(uint64_t, run->results->len + 1);
	uint64_t next = AB_UNSET;
	for (guint i = run->results->len; i-- > 0;) {
		const struct ab_result *z = g_ptr_array_index(run->results, i);
		if (ab_text_is_curve_result(z) && g_strcmp0(z->key.test, SIZING_TEST) == 0)
			next = z->latency.p99_ns;
		targets[i] = next;
	}
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (!ab_text_is_curve_result(r))
			continue;
		if (!open) {
			heading(s, r);
			open = TRUE;
			pass = fail = NULL;
		}
		if (g_strcmp0(r->key.test, SIZING_TEST) == 0) {
			sizing(s, r, pass, fail);
			open = FALSE;
			continue;
		}
		uint64_t target = targets[i];
		char off[32], got[32], lat[3][16], late[24];
		ab_format_rate(r->offered_rate, off, sizeof(off));
		ab_format_rate(r->rate, got, sizeof(got));
		ab_format_latency(r->latency.p50_ns, lat[0], sizeof(lat[0]));
		ab_format_latency(r->latency.p99_ns, lat[1], sizeof(lat[1]));
		ab_format_latency(r->latency.p99_9_ns, lat[2], sizeof(lat[2]));
		if (ab_known(r->late_ops))
			snprintf(late, sizeof(late), "%" G_GUINT64_FORMAT, r->late_ops);
		else
			snprintf(late, sizeof(late), "-");
		const char *verdict = "-";
		if (ab_known(target) && !isnan(r->offered_rate)) {
			enum ab_curve_verdict v = ab_curve_judge(r->offered_rate, r->rate, r->latency.p99_ns, target);
			verdict = ab_curve_verdict_name(v);
			if (v == AB_CURVE_PASS)
				pass = r;
			else if (!fail)
				fail = r;
		}
		g_autofree char *name = label(r->key.test);
		g_string_append_printf(s, "%-10s %13s %13s %9s %9s %9s %7s  %s\n", name, off, got, lat[0], lat[1], lat[2],
				       late, verdict);
	}
}

static gboolean has_curve(const struct ab_run *run)
{
	return ab_text_run_has(run, ab_text_is_curve_result);
}

const struct ab_text_block ab_text_block_curve = {
	.name = "latency curve",
	.applies = has_curve,
	.append = ab_text_curve,
};
