/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The number rules of every view for people (format.h). */
#include "format.h"
#include "report.h"
#include "../src/base/rate-text.h"

#include <math.h>
#include <stdio.h>

/* The rule is src/base/rate-text.c's, which the findings' words use too. */
void ab_format_rate(double rate, char *out, size_t len)
{
	ab_rate_text(rate, out, len);
}

void ab_format_latency(uint64_t ns, char *out, size_t len)
{
	if (!ab_known(ns))
		snprintf(out, len, "-");
	else if (ns < 1000)
		snprintf(out, len, "%" G_GUINT64_FORMAT "ns", ns);
	else if (ns < 1000000)
		snprintf(out, len, "%.0fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(out, len, "%.2fms", ns / 1e6);
	else
		snprintf(out, len, "%.2fs", ns / 1e9);
}

void ab_format_latency_mean(double ns, char *out, size_t len)
{
	ab_format_latency(isfinite(ns) && ns >= 0 ? (uint64_t)llround(ns) : AB_UNSET, out, len);
}

void ab_format_size(uint64_t bytes, char *out, size_t len)
{
	if (ab_known(bytes))
		ab_csv_format_chunk(bytes, out, len);
	else
		snprintf(out, len, "?");
}

void ab_format_ratio(double ratio, char *out, size_t len)
{
	snprintf(out, len, "%.2f", ratio);
}

void ab_format_chart_figure(double v, char *out, size_t len)
{
	if (!isfinite(v))
		snprintf(out, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(out, len, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(out, len, "%.1f", v);
	else
		snprintf(out, len, "%.3g", v);
}
