/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fields of bonnie++'s CSV back to numbers: sizes, latencies, rates, and a
 * phase's three fields to a result.  Shared by the 1.98 and 1.03 readers. */
#include "report.h"
#include "read.h"
#include "../src/base/error.h"

#include <string.h>

guint ab_csv_count_fields(const char *line)
{
	guint n = 1;
	for (const char *p = line; *p; p++)
		n += *p == ',';
	return n;
}

char **ab_csv_split(const char *line)
{
	GPtrArray *f = g_ptr_array_new();
	const char *start = line;
	for (const char *p = line;; p++) {
		if (*p == ',' || !*p) {
			g_ptr_array_add(f, g_strndup(start, (gsize)(p - start)));
			start = p + 1;
		}
		if (!*p)
			break;
	}
	g_ptr_array_add(f, NULL);
	return (char **)g_ptr_array_free(f, FALSE);
}

static gboolean all_digits(const char *p, const char *end)
{
	if (p == end)
		return FALSE;
	for (; p < end; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	return TRUE;
}

/* Digits [p, end) to a number below AB_UNSET (which means unknown). */
static gboolean digits_to_u64(const char *p, const char *end, uint64_t *out)
{
	if (!all_digits(p, end) || end - p > 20)
		return FALSE;
	g_autofree char *s = g_strndup(p, (gsize)(end - p));
	return g_ascii_string_to_unsigned(s, 10, 0, AB_UNSET - 1, out, NULL);
}

gboolean ab_csv_parse_count(const char *text, uint64_t *out)
{
	return digits_to_u64(text, text + strlen(text), out);
}

gboolean ab_csv_parse_number(const char *text, double *out)
{
	const char *dot = strchr(text, '.');
	const char *end = text + strlen(text);
	if (!all_digits(text, dot ? dot : end) || (dot && !all_digits(dot + 1, end)))
		return FALSE;
	*out = g_ascii_strtod(text, NULL);
	return isfinite(*out) && *out < AB_READ_MAX_FIGURE;
}

/* n * unit, FALSE when it would not fit below AB_UNSET. */
static gboolean scale(uint64_t n, uint64_t unit, uint64_t *out)
{
	if (n > (AB_UNSET - 1) / unit)
		return FALSE;
	*out = n * unit;
	return TRUE;
}

gboolean ab_csv_parse_file_size(const char *text, uint64_t *bytes)
{
	size_t len = strlen(text);
	uint64_t n;
	if (len < 2 || !digits_to_u64(text, text + len - 1, &n))
		return FALSE;
	if (text[len - 1] == 'M')
		return scale(n, (uint64_t)1 << 20, bytes);
	if (text[len - 1] == 'G')
		return scale(n, (uint64_t)1 << 30, bytes);
	return FALSE;
}

gboolean ab_csv_parse_chunk(const char *text, uint64_t *out)
{
	size_t len = strlen(text);
	if (!len)
		return FALSE;
	uint64_t unit = 1;
	switch (g_ascii_tolower(text[len - 1])) {
	case 'k': unit = (uint64_t)1 << 10; break;
	case 'm': unit = (uint64_t)1 << 20; break;
	case 'g': unit = (uint64_t)1 << 30; break;
	}
	uint64_t n, v;
	if (!digits_to_u64(text, text + len - (unit > 1), &n) || !n || !scale(n, unit, &v))
		return FALSE;
	*out = v;
	return TRUE;
}

/* The lowest values ab_csv_format_latency writes in ms and in s. */
#define MS_FROM (99999000ull + 1)
#define S_FROM (99999999000ull + 1)

gboolean ab_csv_parse_latency(const char *text, uint64_t *ns)
{
	size_t len = strlen(text);
	uint64_t unit, from, n, v;
	size_t suffix;
	if (g_str_has_suffix(text, "us"))
		unit = 1000, from = 0, suffix = 2;
	else if (g_str_has_suffix(text, "ms"))
		unit = 1000000, from = MS_FROM, suffix = 2;
	else if (g_str_has_suffix(text, "s"))
		unit = 1000000000, from = S_FROM, suffix = 1;
	else
		return FALSE;
	if (!digits_to_u64(text, text + len - suffix, &n) || !scale(n, unit, &v))
		return FALSE;
	/* Truncation makes "99ms" stand for (99.999 ms, 100 ms) and "99s" for
	 * (99.999999 s, 100 s): take the lowest value of the range that is still
	 * written in that unit, so the field writes back as it was read. */
	if (v < from && from - v < unit)
		v = from;
	*ns = v;
	return TRUE;
}

gboolean ab_csv_field_error(GError **error, int col, const char *name, const char *value, const char *what)
{
	g_autofree char *q = ab_read_quote(value);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "field %d (%s): %s is not %s", col + 1, name, q, what);
	return FALSE;
}

gboolean ab_csv_read_phase(struct ab_run *run, const struct ab_phase *ph, char *const *f, int rate_col,
			   int latency_col, GError **error)
{
	const char *rate = f[rate_col], *cpu = f[rate_col + 1], *lat = latency_col >= 0 ? f[latency_col] : "";
	if (!*rate && !*cpu && !*lat)
		return TRUE; /* not run */
	g_autoptr(ab_result) r = ab_result_new(ph->name);
	r->min_measurable_s = AB_CSV_MIN_TIME_S;
	/* `+++++`: too fast, no rate written.  An empty rate beside a CPU or
	 * latency is a measured phase whose rate is not known. */
	r->measurable = strcmp(rate, "+++++") != 0;
	if (r->measurable && *rate && !ab_csv_parse_number(rate, &r->rate))
		return ab_csv_field_error(error, rate_col, ph->csv_name, rate, "a number");
	if (*cpu && strcmp(cpu, "+++") != 0 && !ab_csv_parse_number(cpu, &r->cpu_percent)) {
		g_autofree char *name = g_strdup_printf("%s_cpu", ph->csv_name);
		return ab_csv_field_error(error, rate_col + 1, name, cpu, "a number");
	}
	if (*lat && !ab_csv_parse_latency(lat, &r->latency.max_ns)) {
		g_autofree char *name = g_strdup_printf("%s_latency", ph->csv_name);
		return ab_csv_field_error(error, latency_col, name, lat, "a latency");
	}
	/* The cell a live run gives it (src/suite/suite.c). */
	const struct ab_conditions *c = &run->cond;
	gboolean io = (ph->flags & AB_PHASE_IO) != 0;
	r->key.file_size = !io ? AB_UNSET : (ph->flags & AB_PHASE_PER_CHAR) ? c->per_char_bytes : c->file_size;
	r->key.record_size = io ? c->io_chunk : c->file_chunk;
	r->key.streams = 1;
	ab_run_add_result(run, g_steal_pointer(&r));
	return TRUE;
}
