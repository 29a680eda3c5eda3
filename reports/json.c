/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One versioned JSON object per run: conditions, environment, target, and
 * every result with its cell, rate, CPU, latency, cache state and sync rule.
 * The members come from json-fields.c, which the reader shares. */
#include "report.h"
#include "json-fields.h"
#include "../workloads/phase.h"

#include <json-glib/json-glib.h>

/* JSON text is UTF-8: a name that is not (a directory in Latin-1, a CSV
 * line's machine) has its bad bytes replaced by U+FFFD, so the file always
 * reads back. */
void ab_json_add_string(JsonBuilder *b, const char *value)
{
	if (!value) {
		json_builder_add_null_value(b);
	} else if (g_utf8_validate(value, -1, NULL)) {
		json_builder_add_string_value(b, value);
	} else {
		g_autofree char *valid = g_utf8_make_valid(value, -1);
		json_builder_add_string_value(b, valid);
	}
}

static void member_str(JsonBuilder *b, const char *key, const char *value)
{
	json_builder_set_member_name(b, key);
	ab_json_add_string(b, value);
}

static void add_fields(JsonBuilder *b, const struct ab_json_field *fields, const void *base)
{
	for (const struct ab_json_field *f = fields; f->key; f++) {
		const char *p = (const char *)base + f->offset;
		json_builder_set_member_name(b, f->key);
		switch (f->type) {
		case AB_JSON_STR:
			ab_json_add_string(b, *(char *const *)p);
			break;
		case AB_JSON_U64: {
			uint64_t v = *(const uint64_t *)p;
			if (ab_known(v))
				json_builder_add_int_value(b, (int64_t)v);
			else
				json_builder_add_null_value(b);
			break;
		}
		case AB_JSON_I64: {
			int64_t v = *(const int64_t *)p;
			if (v != f->unknown)
				json_builder_add_int_value(b, v);
			else
				json_builder_add_null_value(b);
			break;
		}
		case AB_JSON_DBL:
		case AB_JSON_SDBL: {
			double v = *(const double *)p;
			if (isfinite(v))
				json_builder_add_double_value(b, v);
			else
				json_builder_add_null_value(b);
			break;
		}
		case AB_JSON_FLAG: {
			ab_flag v = *(const ab_flag *)p;
			if (v == AB_FLAG_UNKNOWN)
				json_builder_add_null_value(b);
			else
				json_builder_add_boolean_value(b, v != 0);
			break;
		}
		case AB_JSON_BOOL:
			json_builder_add_boolean_value(b, *(const gboolean *)p != 0);
			break;
		case AB_JSON_STRV: {
			char *const *v = *(char *const *const *)p;
			if (!v) {
				json_builder_add_null_value(b);
				break;
			}
			json_builder_begin_array(b);
			for (; *v; v++)
				ab_json_add_string(b, *v);
			json_builder_end_array(b);
			break;
		}
		}
	}
}

static void add_object(JsonBuilder *b, const char *key, const struct ab_json_field *fields, const void *base)
{
	if (key)
		json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	add_fields(b, fields, base);
	json_builder_end_object(b);
}

static void add_array(JsonBuilder *b, const char *key, const struct ab_json_field *fields, const GArray *a,
		      size_t elem)
{
	json_builder_set_member_name(b, key);
	json_builder_begin_array(b);
	for (guint i = 0; i < a->len; i++)
		add_object(b, NULL, fields, a->data + i * elem);
	json_builder_end_array(b);
}

static void add_result(JsonBuilder *b, const struct ab_result *r)
{
	const struct ab_phase *ph = ab_phase_by_name(r->phase);
	json_builder_begin_object(b);
	member_str(b, "name", r->phase);
	/* Facts of the phase, for readers of the file; derived, not read back. */
	member_str(b, "csv_name", ph ? ph->csv_name : NULL);
	member_str(b, "unit", ph ? ab_rate_unit_name(ph->unit) : NULL);
	add_object(b, "key", ab_json_key_fields, &r->key);
	add_fields(b, ab_json_result_fields, r);
	/* Only a result measured on many ranks has these. */
	if (r->per_rank->len || isfinite(r->clock_bound_s) || isfinite(r->start_spread_s))
		add_fields(b, ab_json_result_rank_fields, r);
	if (r->per_rank->len)
		add_array(b, "per_rank", ab_json_rank_fields, r->per_rank, sizeof(struct ab_rank_stat));
	add_array(b, "per_worker", ab_json_worker_fields, r->per_worker, sizeof(struct ab_worker_stat));
	add_array(b, "devices", ab_json_device_fields, r->devices, sizeof(struct ab_device_io));
	add_object(b, "latency_ns", ab_json_latency_fields, &r->latency);
	json_builder_end_object(b);
}

void ab_json_add_findings(JsonBuilder *b, const GPtrArray *findings)
{
	json_builder_set_member_name(b, "findings");
	json_builder_begin_array(b);
	for (guint i = 0; i < findings->len; i++) {
		const struct ab_finding *f = g_ptr_array_index(findings, i);
		json_builder_begin_object(b);
		add_fields(b, ab_json_finding_fields, f);
		member_str(b, "severity", ab_finding_severity_name(f->severity));
		add_array(b, "figures", ab_json_finding_figure_fields, f->figures, sizeof(struct ab_finding_figure));
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

char *ab_json_format(const struct ab_run *run)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	member_str(b, "format", "arraybench-run");
	json_builder_set_member_name(b, "format_version");
	json_builder_add_int_value(b, AB_JSON_FORMAT_VERSION);
	add_fields(b, ab_json_run_fields, run);
	g_autoptr(GDateTime) t = run->start_unix != INT64_MIN ? g_date_time_new_from_unix_utc(run->start_unix) : NULL;
	g_autofree char *when = t ? g_date_time_format_iso8601(t) : NULL;
	member_str(b, "start_time", when);
	add_object(b, "config", ab_json_config_fields, &run->cond);
	json_builder_set_member_name(b, "environment");
	json_builder_begin_object(b);
	add_fields(b, ab_json_environment_fields, run);
	member_str(b, "dir", run->cond.dir);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	add_fields(b, ab_json_target_fields, &run->target);
	json_builder_set_member_name(b, "members");
	json_builder_begin_array(b);
	for (guint i = 0; i < run->target.members->len; i++)
		ab_json_add_string(b, g_ptr_array_index(run->target.members, i));
	json_builder_end_array(b);
	add_array(b, "queues", ab_json_queue_fields, run->target.queues, sizeof(struct ab_queue_desc));
	json_builder_end_object(b);
	json_builder_set_member_name(b, "cache");
	json_builder_begin_object(b);
	member_str(b, "mode", run->cond.cache_mode);
	add_fields(b, ab_json_cache_fields, run);
	json_builder_end_object(b);
	/* Only a run on many ranks has an mpi block. */
	if (ab_known(run->mpi.ranks)) {
		json_builder_set_member_name(b, "mpi");
		json_builder_begin_object(b);
		add_fields(b, ab_json_mpi_fields, &run->mpi);
		json_builder_set_member_name(b, "hosts");
		json_builder_begin_array(b);
		for (guint i = 0; i < run->mpi.hosts->len; i++)
			ab_json_add_string(b, g_ptr_array_index(run->mpi.hosts, i));
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	/* Only a tune's visit has a tune block. */
	if (run->tune.stage) {
		json_builder_set_member_name(b, "tune");
		json_builder_begin_object(b);
		add_fields(b, ab_json_tune_fields, &run->tune);
		json_builder_end_object(b);
	}
	json_builder_set_member_name(b, "phases");
	json_builder_begin_array(b);
	for (guint i = 0; i < run->results->len; i++)
		add_result(b, g_ptr_array_index(run->results, i));
	json_builder_end_array(b);
	/* What the run shows (its own rules; a set's are --compare's): derived,
	 * so a run read back writes the same; only when there is one, so a run
	 * that shows nothing writes the bytes it wrote before. */
	g_autoptr(GPtrArray) findings = ab_findings_of_run(run);
	if (findings->len)
		ab_json_add_findings(b, findings);
	json_builder_end_object(b);
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	return json_generator_to_data(gen, NULL);
}

static gboolean json_write_run(const struct ab_run *run, GString *out, GError **error)
{
	(void)error;
	g_autofree char *text = ab_json_format(run);
	g_string_append(out, text);
	g_string_append_c(out, '\n');
	return TRUE;
}

const struct ab_writer ab_writer_json = {
	.name = "json",
	.extension = "json",
	.run_option = "--json",
	.write_run = json_write_run,
};
