/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's drawing primitives: everything a chart needs that can be
 * checked without a browser (see svg.h). */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ab_html_escape(GString *s, const char *text)
{
	if (!text)
		return;
	/* Names come from result files: any bytes at all. */
	g_autofree char *valid = g_utf8_make_valid(text, -1);
	for (const char *p = valid; *p; p++) {
		unsigned char c = (unsigned char)*p;
		/* U+202A-202E and U+2066-2069 (bidi embeddings, overrides and
		 * isolates) are dropped: a name holding U+202E would reverse
		 * the rest of the sentence it is in ("Best: NAME, 1.20x ..."). */
		if (c == 0xe2 && ((p[1] == '\x80' && (unsigned char)p[2] >= 0xaa && (unsigned char)p[2] <= 0xae) ||
				  (p[1] == '\x81' && (unsigned char)p[2] >= 0xa6 && (unsigned char)p[2] <= 0xa9))) {
			p += 2;
			continue;
		}
		switch (c) {
		case '&': g_string_append(s, "&amp;"); break;
		case '<': g_string_append(s, "&lt;"); break;
		case '>': g_string_append(s, "&gt;"); break;
		case '"': g_string_append(s, "&quot;"); break;
		case '\'': g_string_append(s, "&#39;"); break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				break;
			g_string_append_c(s, (char)c);
		}
	}
}

double ab_svg_map(const struct ab_svg_scale *sc, double v)
{
	double lo = sc->lo, hi = sc->hi, t;
	if (isnan(v))
		return sc->px_lo;
	if (sc->log) {
		if (v <= 0 || lo <= 0 || hi <= lo)
			return sc->px_lo;
		t = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
	} else {
		t = hi > lo ? (v - lo) / (hi - lo) : 0;
	}
	t = CLAMP(t, 0.0, 1.0);
	return sc->px_lo + t * (sc->px_hi - sc->px_lo);
}

gboolean ab_svg_bar_geometry(const struct ab_svg_scale *sc, double y, double height, double value, double err_lo,
			     double err_hi, struct ab_svg_bar *out)
{
	memset(out, 0, sizeof(*out));
	if (!isfinite(value))
		return FALSE;
	double x0 = sc->px_lo, x1 = ab_svg_map(sc, value);
	out->x = MIN(x0, x1);
	out->w = fabs(x1 - x0);
	out->y = y;
	out->h = height;
	out->has_err = isfinite(err_lo) && isfinite(err_hi);
	if (out->has_err) {
		out->err_x1 = ab_svg_map(sc, MIN(err_lo, err_hi));
		out->err_x2 = ab_svg_map(sc, MAX(err_lo, err_hi));
		out->err_y = y + height / 2;
	}
	return TRUE;
}

gboolean ab_svg_hbar(GString *s, const struct ab_svg_scale *sc, double y, double height, double value,
		     double err_lo, double err_hi, const char *fill, const char *title)
{
	struct ab_svg_bar b;
	if (!ab_svg_bar_geometry(sc, y, height, value, err_lo, err_hi, &b))
		return FALSE;
	g_string_append_printf(s, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
			       b.x, b.y, b.w, b.h, fill);
	if (title) {
		g_string_append(s, "<title>");
		ab_html_escape(s, title);
		g_string_append(s, "</title>");
	}
	g_string_append(s, "</rect>\n");
	if (b.has_err) {
		double cap = height * 0.3;
		g_string_append_printf(s,
				       "<path class=\"err\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
				       "stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"/>\n",
				       b.err_x1, b.err_y, b.err_x2, b.err_x1, b.err_y - cap, b.err_y + cap, b.err_x2,
				       b.err_y - cap, b.err_y + cap);
	}
	return TRUE;
}

/* The 1-2-5 step that gives about `want` intervals over span. */
static double nice_step(double span, double want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void ab_svg_nice_range(double *lo, double *hi, gboolean log)
{
	if (log) {
		if (!(*lo > 0))
			*lo = *hi > 0 ? *hi / 10 : 1;
		if (!(*hi > *lo))
			*hi = *lo * 10;
		*lo = pow(10, floor(log10(*lo)));
		*hi = pow(10, ceil(log10(*hi) - 1e-9));
		if (*hi <= *lo)
			*hi = *lo * 10;
		return;
	}
	*lo = MIN(*lo, 0);
	if (!(*hi > *lo))
		*hi = *lo + 1;
	double step = nice_step(*hi - *lo, 5);
	*hi = ceil(*hi / step - 1e-9) * step;
}

guint ab_svg_ticks(double lo, double hi, gboolean log, double *out, guint max)
{
	guint n = 0;
	if (!(hi > lo) || !isfinite(lo) || !isfinite(hi) || max == 0)
		return 0;
	if (log) {
		if (lo <= 0)
			return 0;
		double decades = log10(hi) - log10(lo);
		static const double few[] = { 1, 2, 5 };
		guint per = decades <= 2 ? 3 : 1;
		guint every = decades / (max - 1) > 1 ? (guint)ceil(decades / (max - 1)) : 1;
		for (int e = (int)floor(log10(lo)); e <= (int)ceil(log10(hi)) && n < max; e++) {
			if (every > 1 && e % (int)every != 0)
				continue;
			for (guint k = 0; k < per && n < max; k++) {
				double v = few[k] * pow(10, e);
				if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
					out[n++] = v;
			}
		}
		return n;
	}
	double step = nice_step(hi - lo, 5);
	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

void ab_svg_heat_colour(double t, char out[8])
{
	/* viridis at five stops: monotone in lightness, so it reads in grey
	 * and for most colour-blind readers. */
	static const unsigned char stop[5][3] = {
		{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c }, { 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
	};
	if (isnan(t)) {
		snprintf(out, 8, "#dddddd");
		return;
	}
	t = CLAMP(t, 0.0, 1.0) * 4;
	int i = MIN((int)t, 3);
	double f = t - i;
	unsigned char c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned char)lround(stop[i][k] + f * (stop[i + 1][k] - stop[i][k]));
	snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

double ab_svg_log_fraction(double v, double lo, double hi)
{
	if (!(v > 0) || !(lo > 0) || !(hi > 0))
		return NAN;
	if (hi <= lo)
		return 0.5;
	return CLAMP((log10(v) - log10(lo)) / (log10(hi) - log10(lo)), 0.0, 1.0);
}

void ab_svg_format_si(double v, char *out, size_t len)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T", "P" };
	if (!isfinite(v)) {
		snprintf(out, len, "-");
		return;
	}
	unsigned k = 0;
	double a = fabs(v);
	while (a >= 999.5 && k + 1 < G_N_ELEMENTS(suffix)) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	snprintf(out, len, a >= 99.95 || (k == 0 && a == floor(a)) ? "%.0f%s" : a >= 9.995 ? "%.1f%s" : "%.2f%s", v,
		 suffix[k]);
}

void ab_svg_x_axis(GString *s, const struct ab_svg_scale *sc, double top, double axis_y, const char *title)
{
	double ticks[12];
	guint nt = ab_svg_ticks(sc->lo, sc->hi, sc->log, ticks, G_N_ELEMENTS(ticks));
	for (guint t = 0; t < nt; t++) {
		double x = ab_svg_map(sc, ticks[t]);
		char lab[32];
		ab_svg_format_si(ticks[t], lab, sizeof(lab));
		g_string_append_printf(s, "<line class=\"gridl\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, top,
				       x, axis_y);
		ab_svg_text(s, x, axis_y + 14, "middle", NULL, lab);
	}
	g_string_append_printf(s, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", sc->px_lo,
			       axis_y, sc->px_hi, axis_y);
	ab_svg_text(s, (sc->px_lo + sc->px_hi) / 2, axis_y + 31, "middle", "class=\"b\"", title);
}

void ab_svg_y_axis(GString *s, const struct ab_svg_scale *sc, double axis_x, double right,
		   void (*label)(double v, char *out, size_t len))
{
	double ticks[16];
	guint nt = ab_svg_ticks(sc->lo, sc->hi, sc->log, ticks, 8);
	for (guint t = 0; t < nt; t++) {
		double y = ab_svg_map(sc, ticks[t]);
		char lab[32];
		(label ? label : ab_svg_format_si)(ticks[t], lab, sizeof(lab));
		g_string_append_printf(s, "<line class=\"gridl\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", axis_x,
				       y, right, y);
		ab_svg_text(s, axis_x - 5, y + 4, "end", NULL, lab);
	}
	g_string_append_printf(s, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", axis_x,
			       sc->px_lo, axis_x, sc->px_hi);
}

void ab_svg_format_time(double ns, char *out, size_t len)
{
	static const struct {
		double div;
		const char *unit;
	} u[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xc2\xb5s" }, { 1, "ns" } };
	for (unsigned i = 0; i < G_N_ELEMENTS(u); i++)
		if (ns >= u[i].div || i + 1 == G_N_ELEMENTS(u)) {
			snprintf(out, len, "%g%s", ns / u[i].div, u[i].unit);
			return;
		}
}

void ab_svg_text(GString *s, double x, double y, const char *anchor, const char *extra, const char *text)
{
	g_string_append_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor, extra ? " " : "",
			       extra ? extra : "");
	ab_html_escape(s, text);
	g_string_append(s, "</text>\n");
}
