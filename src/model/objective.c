/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --objective SPEC of `arraybench tune`: parsed, and its figure read off a
 * run (objective.h). */
#include "objective.h"
#include "../base/error.h"
#include "../base/parse.h"

#include <math.h>
#include <string.h>

#define COMMITS_SYNC "fdatasync" /* PostgreSQL's wal_sync_method on Linux */
#define COMMITS_RECORD "8k"      /* its page */

static const char usage_words[] =
	"commits[:SYNC[:RECORD]], iops, p99, curve, PHASE or PHASE:p99, with an optional min: or max: prefix";

static gboolean refuse(GError **error, const char *spec, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --objective '%s': %s (%s)", spec, why, usage_words);
	return FALSE;
}

/* A sync method's word: lowercase letters and '_' (the wal phase checks
 * the name itself when the visit's options are parsed). */
static gboolean sync_word(const char *s)
{
	if (!*s)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_islower(*s) && *s != '_')
			return FALSE;
	return TRUE;
}

/* "8k" or "2x8k": the writes of a commit and its bytes in all. */
static gboolean parse_record(const char *text, uint64_t *writes, uint64_t *bytes)
{
	const char *x = strchr(text, 'x');
	uint64_t n = 1, size;
	if (x) {
		g_autofree char *count = g_strndup(text, (gsize)(x - text));
		if (!ab_parse_all_digits(count) || !g_ascii_string_to_unsigned(count, 10, 1, 1024, &n, NULL))
			return FALSE;
		text = x + 1;
	}
	if (!*text || !g_ascii_isdigit(*text) || !ab_parse_size(text, 1, &size, NULL) || size == 0)
		return FALSE;
	*writes = n;
	*bytes = n * size;
	return TRUE;
}

static gboolean known_phase(const char *name, const char *const *phases)
{
	for (; phases && *phases; phases++)
		if (strcmp(*phases, name) == 0)
			return TRUE;
	return FALSE;
}

/* The result a plain phase name reads: oltp's and oltp+wal's "all" row
 * (read and write together), the latency curve's answer; else the first. */
static const char *phase_test(const char *phase)
{
	if (strcmp(phase, "oltp") == 0 || strcmp(phase, "oltp+wal") == 0)
		return "all";
	if (strcmp(phase, "latency-curve") == 0)
		return "sizing";
	return NULL;
}

static gboolean parse_commits(const char *spec, char **parts, struct ab_objective *out, GError **error)
{
	guint n = g_strv_length(parts);
	if (n > 3)
		return refuse(error, spec, "commits takes at most a sync method and a record size");
	const char *sync = n > 1 ? parts[1] : COMMITS_SYNC;
	const char *record = n > 2 ? parts[2] : COMMITS_RECORD;
	if (!sync_word(sync))
		return refuse(error, spec, "not a sync method (fdatasync, fsync, open_datasync, open_sync)");
	if (!parse_record(record, &out->wal_writes, &out->wal_bytes))
		return refuse(error, spec, "not a commit size (8k, or writes x size: 2x8k)");
	out->phase = g_strdup("wal");
	out->wal_sync = g_strdup(sync);
	out->wal_record = g_strdup(record);
	out->test = out->wal_writes == 1 ? g_strdup(sync) : g_strdup_printf("%s %s", sync, record);
	out->figure = AB_OBJECTIVE_RATE;
	return TRUE;
}

gboolean ab_objective_parse(const char *spec, const char *const *phases, struct ab_objective *out, GError **error)
{
	*out = (struct ab_objective){ .spec = g_strdup(spec) };
	const char *body = spec;
	int prefix = 0; /* 1: max:, -1: min: */
	if (g_str_has_prefix(body, "max:"))
		prefix = 1, body += 4;
	else if (g_str_has_prefix(body, "min:"))
		prefix = -1, body += 4;
	g_auto(GStrv) parts = g_strsplit(body, ":", -1);
	gboolean ok = TRUE;
	if (!*body || !parts[0][0])
		ok = refuse(error, spec, "no figure named");
	else if (strcmp(parts[0], "commits") == 0)
		ok = parse_commits(spec, parts, out, error);
	else if (parts[1] && (strcmp(parts[0], "iops") == 0 || strcmp(parts[0], "p99") == 0 ||
			      strcmp(parts[0], "curve") == 0))
		ok = refuse(error, spec, "takes no ':'");
	else if (strcmp(parts[0], "iops") == 0 || strcmp(parts[0], "p99") == 0) {
		out->phase = g_strdup("oltp");
		out->test = g_strdup("all");
		out->figure = parts[0][0] == 'p' ? AB_OBJECTIVE_P99 : AB_OBJECTIVE_RATE;
	} else if (strcmp(parts[0], "curve") == 0) {
		out->phase = g_strdup("latency-curve");
		out->test = g_strdup("sizing");
		out->figure = AB_OBJECTIVE_RATE;
	} else if (!known_phase(parts[0], phases))
		ok = refuse(error, spec, "no such figure or phase");
	else if (parts[1] && (strcmp(parts[1], "p99") != 0 || parts[2]))
		ok = refuse(error, spec, "a phase takes only ':p99'");
	else {
		out->phase = g_strdup(parts[0]);
		out->test = g_strdup(phase_test(parts[0]));
		out->figure = parts[1] ? AB_OBJECTIVE_P99 : AB_OBJECTIVE_RATE;
	}
	if (!ok) {
		ab_objective_clear(out);
		return FALSE;
	}
	out->higher_is_better = prefix ? prefix > 0 : out->figure == AB_OBJECTIVE_RATE;
	g_autofree char *what = NULL;
	if (out->wal_sync)
		what = g_strdup_printf("commits:%s:%s", out->wal_sync, out->wal_record);
	else
		what = g_strdup(body);
	out->name = g_strdup_printf("%s:%s", out->higher_is_better ? "max" : "min", what);
	return TRUE;
}

void ab_objective_clear(struct ab_objective *obj)
{
	g_free(obj->spec);
	g_free(obj->name);
	g_free(obj->phase);
	g_free(obj->test);
	g_free(obj->wal_sync);
	g_free(obj->wal_record);
	*obj = (struct ab_objective){ 0 };
}

/* The wal result of the objective's cell: its sync method and commit, not
 * the rewrite pattern. */
static gboolean wal_match(const struct ab_objective *obj, const struct ab_result *res)
{
	return res->key.test && strcmp(res->key.test, obj->test) == 0 && res->key.record_size == obj->wal_bytes;
}

static const struct ab_result *find(const struct ab_objective *obj, const struct ab_run *run)
{
	for (guint i = 0; run->results && i < run->results->len; i++) {
		const struct ab_result *res = g_ptr_array_index(run->results, i);
		if (!res->phase || strcmp(res->phase, obj->phase) != 0)
			continue;
		if (obj->wal_sync ? wal_match(obj, res)
				  : !obj->test || (res->key.test && strcmp(res->key.test, obj->test) == 0))
			return res;
	}
	return NULL;
}

double ab_objective_extract(const struct ab_objective *obj, const struct ab_run *run)
{
	if (!run || run->failure)
		return NAN;
	const struct ab_result *res = find(obj, run);
	if (!res)
		return NAN;
	if (obj->figure == AB_OBJECTIVE_RATE)
		return isfinite(res->rate) && res->rate >= 0 ? res->rate : NAN;
	if (!ab_known(res->latency.p99_ns) || res->latency.samples == 0)
		return NAN;
	return (double)res->latency.p99_ns / 1e6;
}

const char *ab_objective_direction_word(const struct ab_objective *obj)
{
	return obj->higher_is_better ? "higher is better" : "lower is better";
}
