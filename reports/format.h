/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FORMAT_H
#define AB_FORMAT_H

/* How a figure is printed for people, one rule each, shared by every view
 * (the text table and its blocks, the sizing statement, the comparison,
 * the HTML page), so one figure reads the same wherever it appears.
 * Machine formats (bonnie++'s CSV, JSON, sweep CSV) keep their own. */

#include <glib.h>
#include <stdint.h>

/* A rate: one decimal below 1000, else its whole part, as bonnie++'s CSV
 * truncates it; "-" when unknown (NAN). */
void ab_format_rate(double rate, char *out, size_t len);
/* A latency: "870ns", "87us", "1.25ms", "3.40s"; "-" when AB_UNSET. */
void ab_format_latency(uint64_t ns, char *out, size_t len);
/* The same from a double (a mean of latencies); "-" when not finite or
 * negative. */
void ab_format_latency_mean(double ns, char *out, size_t len);
/* A size bonnie++-style ("512", "4k", "1m"); "?" when unknown. */
void ab_format_size(uint64_t bytes, char *out, size_t len);
/* A ratio of two figures, as "1.20" (the caller adds the times sign). */
void ab_format_ratio(double ratio, char *out, size_t len);
/* A figure in a chart's own unit (a mean in MiB/s): its whole part from
 * 1000, one decimal from 10, else three significant digits; "-" when not
 * finite. */
void ab_format_chart_figure(double v, char *out, size_t len);

#endif
