/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SVG_H
#define AB_SVG_H

/*
 * What the HTML report draws with (reports/svg.c): escaping, value-to-pixel
 * scales, bars with error bars, axis ticks and the heat maps' colour scale.
 * Plain functions on GStrings, so a test can check a bar's coordinates
 * without a browser.
 */

#include <glib.h>

/* Appends text for HTML or SVG, as text: & < > " ' escaped, bytes that are
 * no UTF-8 replaced, control characters (but tab and newline) and bidi
 * embeddings, overrides and isolates dropped.  NULL appends nothing. */
void ab_html_escape(GString *s, const char *text);

/* Values lo..hi onto pixels px_lo..px_hi, linear or (log) logarithmic. */
struct ab_svg_scale {
	double lo, hi;
	double px_lo, px_hi;
	gboolean log;
};

/* The pixel of v, kept inside the scale (a log scale puts v <= 0 at px_lo);
 * px_lo for NAN. */
double ab_svg_map(const struct ab_svg_scale *sc, double v);

/* A horizontal bar from the scale's start to value, y..y+height, and when
 * err_lo and err_hi are both finite an error bar between them across its
 * middle (with caps).  title becomes the bar's tooltip (escaped).  Writes
 * nothing and returns FALSE when value is not finite: a missing figure is
 * no bar of zero length. */
struct ab_svg_bar {
	double x, y, w, h;          /* the bar's rectangle */
	gboolean has_err;
	double err_x1, err_x2, err_y; /* the error bar's line */
};
gboolean ab_svg_bar_geometry(const struct ab_svg_scale *sc, double y, double height, double value, double err_lo,
			     double err_hi, struct ab_svg_bar *out);
gboolean ab_svg_hbar(GString *s, const struct ab_svg_scale *sc, double y, double height, double value,
		     double err_lo, double err_hi, const char *fill, const char *title);

/* Tick values for an axis lo..hi: 1-2-5 steps on a linear scale, powers of
 * ten on a log one (and 2, 5 between them when there are few decades); at
 * most max of them.  Returns how many. */
guint ab_svg_ticks(double lo, double hi, gboolean log, double *out, guint max);
/* The scale's range widened to whole ticks: lo to 0 (linear) or down to a
 * power of ten (log), hi up to the next tick. */
void ab_svg_nice_range(double *lo, double *hi, gboolean log);

/* A horizontal value axis (linear or log): a grid line from top down to
 * axis_y at each tick with its label (ab_svg_format_si) below, the axis
 * line along axis_y, and title centred under them. */
void ab_svg_x_axis(GString *s, const struct ab_svg_scale *sc, double top, double axis_y, const char *title);
/* A vertical value axis (linear or log) at axis_x: a grid line from it to
 * right at each tick, its label written by `label` (ab_svg_format_si when
 * NULL) left of the axis, and the axis line. */
void ab_svg_y_axis(GString *s, const struct ab_svg_scale *sc, double axis_x, double right,
		   void (*label)(double v, char *out, size_t len));
/* A time axis tick of ns nanoseconds (1, 2 or 5 times a power of ten) in
 * the largest unit it is a whole number of: "20ms", "500\xc2\xb5s", "1s". */
void ab_svg_format_time(double ns, char *out, size_t len);

/* A colour on the heat maps' scale for t in 0..1 (clamped; dark blue to
 * yellow, readable in grey), as "#rrggbb"; t NAN gives the no-data grey. */
void ab_svg_heat_colour(double t, char out[8]);
/* Where v lies between lo and hi on a log scale, 0..1 (NAN for v <= 0 or
 * NAN). */
double ab_svg_log_fraction(double v, double lo, double hi);

/* Three significant figures with k, M, G, T for thousands: "950", "1.23k",
 * "45.6M"; "-" for NAN. */
void ab_svg_format_si(double v, char *out, size_t len);

/* Text at x, y (anchor "start", "middle", "end"), escaped; extra: more
 * attributes, verbatim (class="..."), or NULL. */
void ab_svg_text(GString *s, double x, double y, const char *anchor, const char *extra, const char *text);

#endif
