/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Our JSON (one object per line, json.c) back to a run, through the same
 * member tables the writer uses, so that a run read back writes the same
 * bytes.  Also reads format_version 1, whose latency was in microseconds.
 * null and missing members stay unknown; a member of the wrong type is an
 * error naming it. */
#include "report.h"
#include "json-fields.h"
#include "read.h"
#include "../src/base/error.h"
#include "../workloads/sweep.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* Our objects nest 5 deep; json-glib 1.6 recurses once per level and a
 * line of a few million brackets overflows its stack. */
#define MAX_DEPTH 32
#define MAX_RESULTS AB_RUN_MAX_RESULTS /* src/model/run.h */

static gboolean fail(GError **error, const char *prefix, const char *key, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean fail(GError **error, const char *prefix, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "member '%s%s': %s", prefix, key, what);
	return FALSE;
}

/* What is wrong with the line's shape, before json-glib sees it: nested
 * too deep, or more after the value that opens it.  json-glib 1.6 takes
 * `{...}{...}` as valid, keeps one object, and leaks the other: two runs
 * whose newline was lost would silently read as one. */
static const char *shape_problem(const char *line)
{
	int depth = 0;
	gboolean in_string = FALSE, closed = FALSE;
	for (const char *p = line; *p; p++) {
		if (in_string) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_string = FALSE;
		} else if (closed) {
			if (!g_ascii_isspace(*p))
				return "text after the closing brace (two objects on one line?)";
		} else if (*p == '"') {
			in_string = TRUE;
		} else if (*p == '{' || *p == '[') {
			if (++depth > MAX_DEPTH)
				return "nested deeper than " G_STRINGIFY(MAX_DEPTH);
		} else if (*p == '}' || *p == ']') {
			closed = --depth == 0;
		}
	}
	return NULL;
}

static GType value_type(JsonNode *node)
{
	return JSON_NODE_HOLDS_VALUE(node) ? json_node_get_value_type(node) : G_TYPE_INVALID;
}

/* An integer member.  json-glib holds int64, and the writer puts a uint64
 * through it: values from 2^63 come back negative, and wrap back here. */
static gboolean get_int(JsonNode *node, const char *prefix, const char *key, int64_t *out, GError **error)
{
	GType t = value_type(node);
	if (t == G_TYPE_INT64) {
		*out = json_node_get_int(node);
		return TRUE;
	}
	if (t == G_TYPE_DOUBLE) {
		char buf[G_ASCII_DTOSTR_BUF_SIZE];
		g_ascii_dtostr(buf, sizeof(buf), json_node_get_double(node));
		return fail(error, prefix, key, "'%s' is not an integer", buf);
	}
	return fail(error, prefix, key, "not a number");
}

/* A figure; signed: a time offset, which may be below 0. */
static gboolean get_figure(JsonNode *node, const char *prefix, const char *key, gboolean is_signed, double *out,
			   GError **error)
{
	GType t = value_type(node);
	if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
		return fail(error, prefix, key, "not a number");
	*out = json_node_get_double(node);
	/* Every figure of ours is a count, a time, a rate or a percentage: none
	 * is negative (but an offset), and none near 1e15 (json-glib would
	 * write 1e17 back as "1e+17.0", which is no JSON, and the writers'
	 * integer casts overflow). */
	if (!isfinite(*out) || (*out < 0 && !is_signed) || fabs(*out) >= AB_READ_MAX_FIGURE)
		return fail(error, prefix, key, "out of range");
	return TRUE;
}

static gboolean get_double(JsonNode *node, const char *prefix, const char *key, double *out, GError **error)
{
	return get_figure(node, prefix, key, FALSE, out, error);
}

static gboolean get_string(JsonNode *node, const char *prefix, const char *key, char **out, GError **error)
{
	if (value_type(node) != G_TYPE_STRING)
		return fail(error, prefix, key, "not a string");
	g_free(*out);
	*out = g_strdup(json_node_get_string(node));
	return TRUE;
}

/* What each type holds when unknown (array elements start so). */
static void set_unknown(const struct ab_json_field *f, char *p)
{
	switch (f->type) {
	case AB_JSON_STR: g_clear_pointer((char **)p, g_free); break;
	case AB_JSON_U64: *(uint64_t *)p = AB_UNSET; break;
	case AB_JSON_I64: *(int64_t *)p = f->unknown; break;
	case AB_JSON_DBL:
	case AB_JSON_SDBL: *(double *)p = NAN; break;
	case AB_JSON_FLAG: *(ab_flag *)p = AB_FLAG_UNKNOWN; break;
	case AB_JSON_BOOL: break; /* never unknown: stays as made */
	case AB_JSON_STRV: g_clear_pointer((char ***)p, g_strfreev); break;
	}
}

/* An array of strings, kept only when every element is one. */
static gboolean get_strv(JsonNode *node, const char *prefix, const char *key, char ***out, GError **error)
{
	if (!JSON_NODE_HOLDS_ARRAY(node))
		return fail(error, prefix, key, "not an array");
	JsonArray *a = json_node_get_array(node);
	guint n = json_array_get_length(a);
	g_auto(GStrv) v = g_new0(char *, n + 1);
	for (guint i = 0; i < n; i++) {
		JsonNode *e = json_array_get_element(a, i);
		if (value_type(e) != G_TYPE_STRING)
			return fail(error, prefix, key, "element %u is not a string", i);
		v[i] = g_strdup(json_node_get_string(e));
	}
	g_strfreev(*out);
	*out = g_steal_pointer(&v);
	return TRUE;
}

static gboolean read_field(const struct ab_json_field *f, JsonNode *node, char *p, const char *prefix,
			   GError **error)
{
	int64_t i;
	if (JSON_NODE_HOLDS_NULL(node)) {
		set_unknown(f, p);
		return TRUE;
	}
	switch (f->type) {
	case AB_JSON_STR:
		return get_string(node, prefix, f->key, (char **)p, error);
	case AB_JSON_U64:
		if (!get_int(node, prefix, f->key, &i, error))
			return FALSE;
		*(uint64_t *)p = (uint64_t)i;
		return TRUE;
	case AB_JSON_I64:
		return get_int(node, prefix, f->key, (int64_t *)p, error);
	case AB_JSON_STRV:
		return get_strv(node, prefix, f->key, (char ***)p, error);
	case AB_JSON_DBL:
		return get_double(node, prefix, f->key, (double *)p, error);
	case AB_JSON_SDBL:
		return get_figure(node, prefix, f->key, TRUE, (double *)p, error);
	case AB_JSON_FLAG:
	case AB_JSON_BOOL:
		if (value_type(node) != G_TYPE_BOOLEAN)
			return fail(error, prefix, f->key, "not a boolean");
		if (f->type == AB_JSON_FLAG)
			*(ab_flag *)p = json_node_get_boolean(node) ? 1 : 0;
		else
			*(gboolean *)p = json_node_get_boolean(node);
		return TRUE;
	}
	return TRUE;
}

/* The members of table fields that o has, into base. */
static gboolean read_fields(JsonObject *o, const struct ab_json_field *fields, void *base, const char *prefix,
			    GError **error)
{
	for (const struct ab_json_field *f = fields; f->key; f++) {
		JsonNode *node = json_object_get_member(o, f->key);
		if (node && !read_field(f, node, (char *)base + f->offset, prefix, error))
			return FALSE;
	}
	return TRUE;
}

/* Member key of o as a node of the given type, or NULL when it is missing
 * or null (then *error stays unset). */
static JsonNode *get_typed(JsonObject *o, const char *prefix, const char *key, JsonNodeType type,
			   GError **error)
{
	JsonNode *node = json_object_get_member(o, key);
	if (!node || JSON_NODE_HOLDS_NULL(node))
		return NULL;
	if (JSON_NODE_TYPE(node) != type) {
		fail(error, prefix, key, type == JSON_NODE_OBJECT ? "not an object" : "not an array");
		return NULL;
	}
	return node;
}

static JsonObject *get_object(JsonObject *o, const char *prefix, const char *key, GError **error)
{
	JsonNode *node = get_typed(o, prefix, key, JSON_NODE_OBJECT, error);
	return node ? json_node_get_object(node) : NULL;
}

static JsonArray *get_array(JsonObject *o, const char *prefix, const char *key, GError **error)
{
	JsonNode *node = get_typed(o, prefix, key, JSON_NODE_ARRAY, error);
	return node ? json_node_get_array(node) : NULL;
}

/* A member holding an array of objects of table fields, appended to out
 * (elements of elem bytes, each starting unknown). */
static gboolean read_array(JsonObject *o, const char *prefix, const char *key, const struct ab_json_field *fields,
			   GArray *out, size_t elem, GError **error)
{
	GError *err = NULL;
	JsonArray *a = get_array(o, prefix, key, &err);
	if (!a) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	for (guint i = 0; i < json_array_get_length(a); i++) {
		g_autofree char *at = g_strdup_printf("%s%s[%u]", prefix, key, i);
		JsonNode *node = json_array_get_element(a, i);
		if (!JSON_NODE_HOLDS_OBJECT(node))
			return fail(error, at, "", "not an object");
		g_array_set_size(out, out->len + 1);
		char *p = out->data + (out->len - 1) * elem;
		for (const struct ab_json_field *f = fields; f->key; f++)
			set_unknown(f, p + f->offset);
		g_autofree char *inner = g_strconcat(at, ".", NULL);
		if (!read_fields(json_node_get_object(node), fields, p, inner, error))
			return FALSE;
	}
	return TRUE;
}

/* A nested object's members by table; missing or null leaves base as is. */
static gboolean read_object(JsonObject *o, const char *prefix, const char *key, const struct ab_json_field *fields,
			    void *base, GError **error)
{
	GError *err = NULL;
	JsonObject *in = get_object(o, prefix, key, &err);
	if (!in) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	g_autofree char *inner = g_strconcat(prefix, key, ".", NULL);
	return read_fields(in, fields, base, inner, error);
}

/* Version 1 wrote latency_us: microsecond doubles, zeros when there were
 * no samples (which we keep unknown). */
static gboolean read_latency_v1(JsonObject *o, const char *prefix, struct ab_latency *lat, GError **error)
{
	GError *err = NULL;
	JsonObject *in = get_object(o, prefix, "latency_us", &err);
	if (!in) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	g_autofree char *inner = g_strconcat(prefix, "latency_us.", NULL);
	struct ab_latency l = *lat;
	for (const struct ab_json_field *f = ab_json_latency_fields; f->key; f++) {
		JsonNode *node = json_object_get_member(in, f->key);
		char *p = (char *)&l + f->offset;
		double us = 0;
		if (!node || JSON_NODE_HOLDS_NULL(node))
			continue;
		if (strcmp(f->key, "samples") == 0) {
			if (!read_field(f, node, p, inner, error))
				return FALSE;
			continue;
		}
		if (!get_double(node, inner, f->key, &us, error))
			return FALSE;
		if (us * 1000.0 >= AB_READ_MAX_FIGURE)
			return fail(error, inner, f->key, "out of range");
		if (f->type == AB_JSON_DBL)
			*(double *)p = us * 1000.0;
		else if (us >= 0 && us * 1000.0 < 1.8e19)
			*(uint64_t *)p = (uint64_t)llround(us * 1000.0);
		else
			return fail(error, inner, f->key, "'%g' is not a latency", us);
	}
	if (l.samples != 0)
		*lat = l;
	else
		lat->samples = 0;
	return TRUE;
}

/* A sweep cell is a test of a file size and a record, as the sweep makes
 * them: one that is not would vanish from the grid while its sweep-csv
 * row stood for a test no sweep runs. */
static gboolean check_sweep_key(const struct ab_cell_key *k, const char *prefix, GError **error)
{
	enum ab_sweep_test t;
	if (!k->test)
		return fail(error, prefix, "key.test", "missing: a sweep result names its test");
	if (!ab_sweep_test_by_name(k->test, &t)) {
		g_autofree char *q = ab_read_quote(k->test);
		return fail(error, prefix, "key.test", "unknown sweep test %s", q);
	}
	if (!ab_known(k->file_size) || k->file_size == 0)
		return fail(error, prefix, "key.file_size_bytes", "missing or zero in a sweep result");
	if (!ab_known(k->record_size) || k->record_size == 0 || k->file_size % k->record_size)
		return fail(error, prefix, "key.record_size_bytes",
			    "missing, zero or not dividing the file size in a sweep result");
	return TRUE;
}

static gboolean read_result(struct ab_run *run, JsonNode *node, guint index, int64_t version, GError **error)
{
	g_autofree char *at = g_strdup_printf("phases[%u]", index);
	g_autofree char *prefix = g_strconcat(at, ".", NULL);
	if (!JSON_NODE_HOLDS_OBJECT(node))
		return fail(error, "", at, "not an object");
	JsonObject *o = json_node_get_object(node);
	JsonNode *name = json_object_get_member(o, "name");
	if (!name || value_type(name) != G_TYPE_STRING)
		return fail(error, prefix, "name", name ? "not a string" : "missing");
	if (!ab_phase_by_name(json_node_get_string(name))) {
		g_autofree char *q = ab_read_quote(json_node_get_string(name));
		return fail(error, prefix, "name", "unknown phase %s", q);
	}
	/* csv_name and unit are the phase's facts, derived when written. */
	g_autoptr(ab_result) r = ab_result_new(json_node_get_string(name));
	r->key.pass = AB_UNSET;
	if (!read_object(o, prefix, "key", ab_json_key_fields, &r->key, error) ||
	    !read_fields(o, ab_json_result_fields, r, prefix, error) ||
	    !read_array(o, prefix, "per_worker", ab_json_worker_fields, r->per_worker, sizeof(struct ab_worker_stat),
			error) ||
	    !read_array(o, prefix, "devices", ab_json_device_fields, r->devices, sizeof(struct ab_device_io), error) ||
	    !read_fields(o, ab_json_result_rank_fields, r, prefix, error) ||
	    !read_array(o, prefix, "per_rank", ab_json_rank_fields, r->per_rank, sizeof(struct ab_rank_stat), error))
		return FALSE;
	if (version == 1 ? !read_latency_v1(o, prefix, &r->latency, error)
			 : !read_object(o, prefix, "latency_ns", ab_json_latency_fields, &r->latency, error))
		return FALSE;
	if (g_str_equal(r->phase, "sweep") && !check_sweep_key(&r->key, prefix, error))
		return FALSE;
	uint64_t pass = r->key.pass;
	struct ab_result *added = g_steal_pointer(&r);
	ab_run_add_result(run, added);
	if (ab_known(pass) && pass != added->key.pass)
		return fail(error, prefix, "key.pass",
			    "'%" G_GUINT64_FORMAT "', but it is result %" G_GUINT64_FORMAT " of its phase and cell",
			    pass, added->key.pass);
	return TRUE;
}

/* A member holding an array of strings, appended to out. */
static gboolean read_strings(JsonObject *o, const char *prefix, const char *key, GPtrArray *out, GError **error)
{
	GError *err = NULL;
	JsonArray *a = get_array(o, prefix, key, &err);
	if (err) {
		g_propagate_error(error, err);
		return FALSE;
	}
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		JsonNode *m = json_array_get_element(a, i);
		if (value_type(m) != G_TYPE_STRING) {
			g_autofree char *at = g_strdup_printf("%s[%u]", key, i);
			return fail(error, prefix, at, "not a string");
		}
		g_ptr_array_add(out, g_strdup(json_node_get_string(m)));
	}
	return TRUE;
}

static gboolean read_target(struct ab_run *run, JsonObject *root, GError **error)
{
	GError *err = NULL;
	JsonObject *o = get_object(root, "", "target", &err);
	if (!o) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	struct ab_target_desc *t = &run->target;
	if (!read_fields(o, ab_json_target_fields, t, "target.", error))
		return FALSE;
	if (!read_strings(o, "target.", "members", t->members, error))
		return FALSE;
	return read_array(o, "target.", "queues", ab_json_queue_fields, t->queues, sizeof(struct ab_queue_desc),
			  error);
}

/* A run on many ranks: its mpi block, with the ranks' hosts. */
static gboolean read_mpi(struct ab_run *run, JsonObject *root, GError **error)
{
	GError *err = NULL;
	JsonObject *o = get_object(root, "", "mpi", &err);
	if (!o) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	return read_fields(o, ab_json_mpi_fields, &run->mpi, "mpi.", error) &&
	       read_strings(o, "mpi.", "hosts", run->mpi.hosts, error);
}

/* A tune's visit: its tune block. */
static gboolean read_tune(struct ab_run *run, JsonObject *root, GError **error)
{
	GError *err = NULL;
	JsonObject *o = get_object(root, "", "tune", &err);
	if (!o) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	return read_fields(o, ab_json_tune_fields, &run->tune, "tune.", error);
}

/* cache.mode repeats config.cache_mode: both are cond.cache_mode. */
static gboolean read_cache(struct ab_run *run, JsonObject *root, GError **error)
{
	GError *err = NULL;
	JsonObject *o = get_object(root, "", "cache", &err);
	if (!o) {
		if (err)
			g_propagate_error(error, err);
		return !err;
	}
	if (!read_fields(o, ab_json_cache_fields, run, "cache.", error))
		return FALSE;
	JsonNode *mode = json_object_get_member(o, "mode");
	if (!mode || JSON_NODE_HOLDS_NULL(mode))
		return TRUE;
	if (value_type(mode) != G_TYPE_STRING)
		return fail(error, "cache.", "mode", "not a string");
	const char *m = json_node_get_string(mode);
	if (!run->cond.cache_mode) {
		run->cond.cache_mode = g_strdup(m);
	} else if (strcmp(m, run->cond.cache_mode) != 0) {
		g_autofree char *q = ab_read_quote(m);
		g_autofree char *q2 = ab_read_quote(run->cond.cache_mode);
		return fail(error, "cache.", "mode", "%s, but config.cache_mode is %s", q, q2);
	}
	return TRUE;
}

static gboolean read_start_time(struct ab_run *run, JsonObject *root, GError **error)
{
	JsonNode *node = json_object_get_member(root, "start_time");
	if (!node || JSON_NODE_HOLDS_NULL(node))
		return TRUE;
	if (value_type(node) != G_TYPE_STRING)
		return fail(error, "", "start_time", "not a string");
	g_autoptr(GTimeZone) utc = g_time_zone_new_utc();
	g_autoptr(GDateTime) t = g_date_time_new_from_iso8601(json_node_get_string(node), utc);
	if (!t) {
		g_autofree char *q = ab_read_quote(json_node_get_string(node));
		return fail(error, "", "start_time", "%s is not an ISO 8601 time", q);
	}
	run->start_unix = g_date_time_to_unix(t);
	return TRUE;
}

/* format "arraybench-run", format_version 1 or 2. */
static gboolean read_format(JsonObject *root, int64_t *version, GError **error)
{
	JsonNode *format = json_object_get_member(root, "format");
	if (!format)
		return fail(error, "", "format", "missing: not an arraybench run");
	if (value_type(format) != G_TYPE_STRING)
		return fail(error, "", "format", "not a string");
	if (strcmp(json_node_get_string(format), "arraybench-run") != 0) {
		g_autofree char *q = ab_read_quote(json_node_get_string(format));
		return fail(error, "", "format", "%s is not 'arraybench-run'", q);
	}
	JsonNode *v = json_object_get_member(root, "format_version");
	if (!v)
		return fail(error, "", "format_version", "missing");
	if (!get_int(v, "", "format_version", version, error))
		return FALSE;
	if (*version != 1 && *version != AB_JSON_FORMAT_VERSION)
		return fail(error, "", "format_version", "'%" G_GINT64_FORMAT "' is not supported: 1 and %d are",
			    *version, AB_JSON_FORMAT_VERSION);
	return TRUE;
}

static struct ab_run *json_read_line(const char *line, GError **error)
{
	const char *shape = shape_problem(line);
	if (shape) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "not arraybench JSON: %s", shape);
		return NULL;
	}
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	if (!json_parser_load_from_data(parser, line, -1, &err)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "not valid JSON: %s", err->message);
		return NULL;
	}
	JsonNode *root_node = json_parser_get_root(parser);
	if (!root_node || !JSON_NODE_HOLDS_OBJECT(root_node)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "not a JSON object");
		return NULL;
	}
	JsonObject *root = json_node_get_object(root_node);
	int64_t version;
	if (!read_format(root, &version, error))
		return NULL;
	g_autoptr(ab_run) run = ab_run_new();
	/* environment.dir and config.file_count (version 1) are derived: the
	 * directory is config.dir, the count num_files_k * 1024; and so are
	 * `findings` (src/model/findings.h), which the run read back finds again. */
	if (!read_fields(root, ab_json_run_fields, run, "", error) || !read_start_time(run, root, error) ||
	    !read_object(root, "", "config", ab_json_config_fields, &run->cond, error) ||
	    !read_object(root, "", "environment", ab_json_environment_fields, run, error) ||
	    !read_target(run, root, error) || !read_cache(run, root, error) || !read_mpi(run, root, error) ||
	    !read_tune(run, root, error))
		return NULL;
	if (version == 1 && !run->tool)
		run->tool = g_strdup("arraybench"); /* version 1 had no member for what only we wrote */
	GError *aerr = NULL;
	JsonArray *phases = get_array(root, "", "phases", &aerr);
	if (aerr) {
		g_propagate_error(error, aerr);
		return NULL;
	}
	if (phases && json_array_get_length(phases) > MAX_RESULTS) {
		fail(error, "", "phases", "%u results, more than %d", json_array_get_length(phases), MAX_RESULTS);
		return NULL;
	}
	for (guint i = 0; phases && i < json_array_get_length(phases); i++)
		if (!read_result(run, json_array_get_element(phases, i), i, version, error))
			return NULL;
	return g_steal_pointer(&run);
}

/* The first character that is not blank opens an object. */
static gboolean json_claims(const char *line)
{
	return line[strspn(line, " \t")] == '{';
}

const struct ab_reader ab_reader_json = {
	.name = "json",
	.claims = json_claims,
	.read_line = json_read_line,
};
