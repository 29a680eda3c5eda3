/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings' table and pass (findings.h); the rules are in
 * src/model/finding-*.c, one file per family. */
#include "findings.h"
#include "run-group.h"
#include "../base/error.h"
#include "../base/rate-text.h"
#include "../../workloads/phase.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define RUN AB_FINDING_SCOPE_RUN
#define GROUPS AB_FINDING_SCOPE_GROUPS

/* In the order a reader should meet them: what makes a figure wrong
 * first, then what makes it doubtful, then what makes it hard to use.
 * `meaning` is the man page's sentence (Findings in man/arraybench.1). */
const struct ab_finding_rule ab_finding_rules[] = {
	{ "rate-above-members", AB_FINDING_CRITICAL, RUN,
	  "an I/O phase's rate over 110 % of what the members' raw reads allow it (run --raw-baseline; the "
	  "level's ceiling, as the efficiency lines): the page cache delivered it, not the disks",
	  ab_finding_rate_above_members },
	{ "cache-none-fits", AB_FINDING_WARNING, RUN,
	  "read phases under --cache none, which evicts nothing, of a file under twice what the page cache "
	  "may hold (the RAM, or the cgroup's limit; bonnie++'s rule): their rates measure the cache, not "
	  "the disks",
	  ab_finding_cache_none_fits },
	{ "cached-at-start", AB_FINDING_WARNING, RUN,
	  "a read phase said to start cold began with over 5 % of its file in the page cache (mincore)",
	  ab_finding_cached_at_start },
	{ "warm-read-device", AB_FINDING_WARNING, RUN,
	  "a read phase said to run warm, on a file the cache could hold, whose members read over 10 % of its "
	  "bytes: the cache was dropped under it (another job's drop_caches, memory pressure)",
	  ab_finding_warm_read_device },
	{ "members-unequal", AB_FINDING_WARNING, RUN,
	  "members did unequal work where the level spreads it: the most over the least member's bytes above "
	  "1.5 (reads on raid0, 5, 6; writes on those, raid10 and raid1), the busiest member over 4 MiB; or, "
	  "with even bytes, one member busy over 1.5 times the others' median per byte (the slow member), "
	  "the busiest over 1 s",
	  ab_finding_members_unequal },
	{ "stream-straggler", AB_FINDING_WARNING, RUN,
	  "a cell of concurrent streams whose stonewall and end-to-end rates differ by over 20 %: a stream "
	  "(or rank) lagged; the slowest is named",
	  ab_finding_stream_straggler },
	{ "too-short", AB_FINDING_WARNING, RUN,
	  "phases that lasted under their measurable time (0.5 s, bonnie++'s +++++): their rates are "
	  "mostly start and stop",
	  ab_finding_too_short },
	{ "curve-coarse", AB_FINDING_INFO, RUN,
	  "a latency curve's answer lies between steps whose offered rates are over 20 % apart: the steps "
	  "place it only within their ratio",
	  ab_finding_curve_coarse },
	{ "conditions-differ", AB_FINDING_WARNING, GROUPS,
	  "groups ran under different conditions (file size, direct I/O, cache mode, sync rule, kernel): "
	  "their figures are not comparable; the condition that differs is named",
	  ab_finding_conditions_differ },
	{ "noisy-group", AB_FINDING_INFO, GROUPS,
	  "a group's repeats of one figure vary with a CV over 10 %; the repeats needed to tell a 5 % "
	  "difference apart at that CV (two-sample, alpha 0.05, power 0.8) are n = 2 (z_a/2 + z_b)^2 "
	  "CV^2 / d^2",
	  ab_finding_noisy_group },
};

const size_t ab_finding_rule_count = G_N_ELEMENTS(ab_finding_rules);

const char *ab_finding_severity_name(enum ab_finding_severity s)
{
	switch (s) {
	case AB_FINDING_INFO: return "info";
	case AB_FINDING_WARNING: return "warning";
	case AB_FINDING_CRITICAL: return "critical";
	}
	return "?";
}

static void figure_clear(gpointer p)
{
	struct ab_finding_figure *fig = p;
	g_free(fig->name);
	g_free(fig->unit);
}

void ab_finding_free(struct ab_finding *f)
{
	if (!f)
		return;
	g_free(f->group);
	g_free(f->run_id);
	g_free(f->subject);
	g_free(f->text);
	g_free(f->advice);
	g_array_unref(f->figures);
	g_free(f);
}

struct ab_finding *ab_finding_add(GPtrArray *out, const char *id, const struct ab_run *run, const char *group,
				  const char *subject)
{
	struct ab_finding *f = g_new0(struct ab_finding, 1);
	f->id = id;
	f->severity = AB_FINDING_WARNING;
	for (size_t i = 0; i < ab_finding_rule_count; i++)
		if (strcmp(ab_finding_rules[i].id, id) == 0) {
			f->id = ab_finding_rules[i].id;
			f->severity = ab_finding_rules[i].severity;
		}
	f->group = run ? ab_run_group_label(run) : g_strdup(group);
	f->run_id = run ? g_strdup(run->run_id) : NULL;
	f->repeat = run ? run->repeat : AB_UNSET;
	f->subject = g_strdup(subject);
	f->figures = g_array_new(FALSE, TRUE, sizeof(struct ab_finding_figure));
	g_array_set_clear_func(f->figures, figure_clear);
	g_ptr_array_add(out, f);
	return f;
}

/* Names from files may hold control characters: a finding is one line. */
static char *one_line_printf(const char *fmt, va_list ap) G_GNUC_PRINTF(1, 0);
static char *one_line_printf(const char *fmt, va_list ap)
{
	g_autofree char *text = g_strdup_vprintf(fmt, ap);
	return ab_one_line(text);
}

void ab_finding_say(struct ab_finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_free(f->text);
	f->text = one_line_printf(fmt, ap);
	va_end(ap);
}

void ab_finding_advise(struct ab_finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_free(f->advice);
	f->advice = one_line_printf(fmt, ap);
	va_end(ap);
}

void ab_finding_figure(struct ab_finding *f, const char *name, double value, const char *unit)
{
	struct ab_finding_figure fig = { g_strdup(name), value, g_strdup(unit) };
	g_array_append_val(f->figures, fig);
}

void ab_finding_value_text(const struct ab_finding_figure *fig, char *out, size_t len)
{
	gboolean rate = fig->unit && (g_str_has_suffix(fig->unit, "/s") || g_str_equal(fig->unit, "IOPS"));
	if (!isfinite(fig->value))
		snprintf(out, len, "?");
	else if (rate)
		ab_rate_text(fig->value, out, len);
	else if (fig->value == floor(fig->value) && fabs(fig->value) < 1e15)
		snprintf(out, len, "%.0f", fig->value);
	else
		snprintf(out, len, "%.4g", fig->value);
}

void ab_finding_size_text(uint64_t bytes, char *out, size_t len)
{
	static const char suffix[] = "KMGT";
	if (!ab_known(bytes)) {
		snprintf(out, len, "?");
		return;
	}
	double v = (double)bytes;
	int i = -1;
	while (i < 3 && v >= 1024) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(out, len, "%" G_GUINT64_FORMAT, bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(out, len, "%.0f%c", v, suffix[i]);
	else
		snprintf(out, len, "%.1f%c", v, suffix[i]);
}

char *ab_finding_result_name(const struct ab_result *r)
{
	GString *s = g_string_new(NULL);
	g_autofree char *phase = ab_one_line(r->phase ? r->phase : "?");
	g_string_append(s, phase);
	if (ab_known(r->key.pass) && r->key.pass > 1)
		g_string_append_printf(s, "#%" G_GUINT64_FORMAT, r->key.pass);
	if (r->key.test) {
		g_autofree char *test = ab_one_line(r->key.test);
		char fsz[32], rsz[32];
		ab_finding_size_text(r->key.file_size, fsz, sizeof(fsz));
		ab_finding_size_text(r->key.record_size, rsz, sizeof(rsz));
		/* A sweep cell is its sizes; a raw row or a curve step its test. */
		if (g_strcmp0(r->phase, "sweep") == 0)
			g_string_append_printf(s, " %s %s/%s", test, fsz, rsz);
		else
			g_string_append_printf(s, " %s", test);
	}
	if (ab_known(r->key.streams) && r->key.streams > 1)
		g_string_append_printf(s, " x%" G_GUINT64_FORMAT, r->key.streams);
	return g_string_free(s, FALSE);
}

GPtrArray *ab_finding_member_io(const struct ab_run *run, const struct ab_result *r)
{
	GPtrArray *out = g_ptr_array_new();
	for (guint k = 0; k < r->devices->len; k++) {
		const struct ab_device_io *d = &g_array_index(r->devices, struct ab_device_io, k);
		for (guint m = 0; d->name && m < run->target.members->len; m++) {
			g_autofree char *base = g_path_get_basename(g_ptr_array_index(run->target.members, m));
			if (strcmp(base, d->name) == 0) {
				g_ptr_array_add(out, (gpointer)d);
				break;
			}
		}
	}
	return out;
}

gboolean ab_finding_reads_file(const struct ab_result *r)
{
	const struct ab_phase *ph = r->phase ? ab_phase_by_name(r->phase) : NULL;
	/* A raw device row reads no file; the curve's sizing row is read off
	 * its steps, not measured. */
	if ((ph && (ph->flags & AB_PHASE_DEVICE)) ||
	    (g_strcmp0(r->phase, "latency-curve") == 0 && g_strcmp0(r->key.test, "sizing") == 0))
		return FALSE;
	return (ph && (ph->flags & AB_PHASE_READS)) || isfinite(r->resident_at_start);
}

const char *ab_finding_unit(const struct ab_result *r)
{
	const struct ab_phase *ph = r->phase ? ab_phase_by_name(r->phase) : NULL;
	return ph ? ab_rate_unit_name(ph->unit) : NULL;
}

uint64_t ab_finding_cache_room(const struct ab_run *run)
{
	if (ab_known(run->cache_limit_bytes) && run->cache_limit_bytes)
		return run->cache_limit_bytes;
	return ab_known(run->ram_bytes) && run->ram_bytes ? run->ram_bytes : AB_UNSET;
}

static void finding_destroy(gpointer p)
{
	ab_finding_free(p);
}

GPtrArray *ab_findings_find(const struct ab_run_set *set, unsigned scopes)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(finding_destroy);
	for (size_t i = 0; i < ab_finding_rule_count; i++)
		if (ab_finding_rules[i].scope & scopes)
			ab_finding_rules[i].find(set, out);
	return out;
}

GPtrArray *ab_findings_of_run(const struct ab_run *run)
{
	/* A set that holds the run without owning it. */
	struct ab_run_set one = { .runs = g_ptr_array_new() };
	g_ptr_array_add(one.runs, (gpointer)run);
	GPtrArray *out = ab_findings_find(&one, AB_FINDING_SCOPE_RUN);
	g_ptr_array_unref(one.runs);
	return out;
}
