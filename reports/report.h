/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_REPORT_H
#define AB_REPORT_H

#include <glib.h>
#include <stdint.h>

#include "../src/result.h"

#define AB_CSV_FORMAT_VERSION "1.98"
#define AB_CSV_FIELDS 50

/* bonnie++ 1.98 CSV line, newline included: 50 fields, the documented column
 * layout (chunk in 6, dirs in 24, file chunk in 25), `+++++`/`+++` for phases
 * under 0.5 s, empty fields for phases not run. */
char *ab_csv_format_line(const struct ab_run *run);
/* Latency field: "24us", "1560ms", "120s", or "" for zero. */
void ab_csv_format_latency(uint64_t ns, char *out, size_t len);
/* Sizes bonnie++-style: "512", "4k", "1m". */
void ab_csv_format_chunk(uint64_t bytes, char *out, size_t len);

/* Human table: header with the conditions, one row per phase. */
char *ab_text_format(const struct ab_run *run);
/* Latency for people: "87us", "1.25ms", "3.40s". */
void ab_text_format_latency(uint64_t ns, char *out, size_t len);

/* One JSON object (one line, no newline) describing the run. */
char *ab_json_format(const struct ab_run *run);

#endif
