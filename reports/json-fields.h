/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_JSON_FIELDS_H
#define AB_JSON_FIELDS_H

/* The members of our JSON, one table per object, read by both the writer
 * (json.c) and the reader (json-read.c): what one writes the other reads
 * back, so a run read back writes the same bytes. */

#include <json-glib/json-glib.h>
#include <stddef.h>

#include "../src/model/run.h"
#include "../src/model/findings.h"

enum ab_json_type {
	AB_JSON_STR,   /* char *, NULL -> null */
	AB_JSON_U64,   /* uint64_t, AB_UNSET -> null */
	AB_JSON_I64,   /* int64_t, its `unknown` value -> null */
	AB_JSON_DBL,   /* double, NAN -> null */
	AB_JSON_SDBL,  /* double that may be below 0 (a time offset), NAN -> null */
	AB_JSON_FLAG,  /* ab_flag, AB_FLAG_UNKNOWN -> null */
	AB_JSON_BOOL,  /* gboolean, never null */
	AB_JSON_STRV,  /* char ** (NULL-terminated), NULL -> null; an array of strings */
};

struct ab_json_field {
	const char *key;
	enum ab_json_type type;
	size_t offset;
	int64_t unknown; /* AB_JSON_I64 only */
};

#define AB_JF(key, type, st, member) { key, AB_JSON_##type, offsetof(st, member), 0 }
#define AB_JF_I64(key, st, member, unknown) { key, AB_JSON_I64, offsetof(st, member), unknown }

extern const struct ab_json_field ab_json_run_fields[];
extern const struct ab_json_field ab_json_config_fields[];
extern const struct ab_json_field ab_json_environment_fields[];
extern const struct ab_json_field ab_json_target_fields[];
extern const struct ab_json_field ab_json_cache_fields[];
extern const struct ab_json_field ab_json_queue_fields[];
extern const struct ab_json_field ab_json_key_fields[];
extern const struct ab_json_field ab_json_result_fields[];
extern const struct ab_json_field ab_json_worker_fields[];
extern const struct ab_json_field ab_json_device_fields[];
extern const struct ab_json_field ab_json_latency_fields[];
/* Runs on many ranks: the run's `mpi` object (its `hosts` apart), a
 * result's two timebase figures and its `per_rank` rows. */
extern const struct ab_json_field ab_json_mpi_fields[];
extern const struct ab_json_field ab_json_result_rank_fields[];
extern const struct ab_json_field ab_json_rank_fields[];
/* A tune's visit: the run's `tune` object (struct ab_tune_stamp). */
extern const struct ab_json_field ab_json_tune_fields[];

/* Findings (src/model/findings.h): each one's members, its `severity` by
 * name and its `figures` array of these.  Derived, so written only: the
 * reader passes a run's `findings` by and the same run finds them again. */
extern const struct ab_json_field ab_json_finding_fields[];
extern const struct ab_json_field ab_json_finding_figure_fields[];
/* The member `findings`: an array of the findings (struct ab_finding *),
 * each its fields, severity and figures (reports/json.c). */
void ab_json_add_findings(JsonBuilder *b, const GPtrArray *findings);

/* A string value, or null for NULL; bytes that are no UTF-8 become U+FFFD,
 * so the JSON always reads back (reports/json.c). */
void ab_json_add_string(JsonBuilder *b, const char *value);

#endif
