/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's per-member I/O: how evenly each phase's bytes fell on
 * an array's members (a mirror that reads from one side, a stripe that
 * writes one member twice), from the members' own counters. */
#include "html-sections.h"
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 560.0
#define LABEL_W 170.0
#define RIGHT 70.0
#define PAIR 30.0  /* a member's two bars */
#define BAR 12.0

/* A member's mean bytes over a cell's runs that hold it. */
struct member {
	char *name;
	double read, written;
	guint n;
};

static void member_free(gpointer p)
{
	g_free(((struct member *)p)->name);
}

static GArray *members(const struct ab_html_cell *c, const struct ab_html_series *se)
{
	GArray *m = g_array_new(FALSE, TRUE, sizeof(struct member));
	g_array_set_clear_func(m, member_free);
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_result *r = ab_html_find(g_ptr_array_index(c->runs, k), se);
		for (guint d = 0; r && d < r->devices->len; d++) {
			const struct ab_device_io *io = &g_array_index(r->devices, struct ab_device_io, d);
			const char *name = io->name ? io->name : "?";
			struct member *mb = NULL;
			for (guint i = 0; i < m->len && !mb; i++)
				if (g_str_equal(g_array_index(m, struct member, i).name, name))
					mb = &g_array_index(m, struct member, i);
			if (!mb) {
				struct member z = { g_strdup(name), 0, 0, 0 };
				g_array_append_val(m, z);
				mb = &g_array_index(m, struct member, m->len - 1);
			}
			/* A counter the source did not hold adds nothing (unknown, not 0). */
			mb->read += ab_known(io->read_bytes) ? (double)io->read_bytes : 0;
			mb->written += ab_known(io->written_bytes) ? (double)io->written_bytes : 0;
			mb->n++;
		}
	}
	for (guint i = 0; i < m->len; i++) {
		struct member *mb = &g_array_index(m, struct member, i);
		mb->read /= mb->n;
		mb->written /= mb->n;
	}
	return m;
}

/* "most / least" of the members' written (or read) bytes: 1.00 is even. */
static double spread(GArray *m, gboolean written)
{
	double lo = INFINITY, hi = 0;
	for (guint i = 0; i < m->len; i++) {
		const struct member *mb = &g_array_index(m, struct member, i);
		double v = written ? mb->written : mb->read;
		lo = MIN(lo, v);
		hi = MAX(hi, v);
	}
	return m->len > 1 && lo > 0 ? hi / lo : NAN;
}

static void chart(GString *s, const struct ab_html_page *page, GArray **per_cell)
{
	guint rows = 0;
	double max = 0;
	for (guint i = 0; i < page->cells->len; i++)
		for (guint k = 0; k < per_cell[i]->len; k++, rows++) {
			const struct member *mb = &g_array_index(per_cell[i], struct member, k);
			max = MAX(max, MAX(mb->read, mb->written));
		}
	double lo = 0, hi = max / 1048576;
	ab_svg_nice_range(&lo, &hi, FALSE);
	struct ab_svg_scale sc = { lo, hi, LABEL_W, W - RIGHT, FALSE };
	double top = 22, axis_y = top + rows * PAIR + 2, h = axis_y + 38;
	g_string_append_printf(s, "<svg class=\"io\" width=\"%.0f\" height=\"%.0f\" "
				  "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
			       W, h, W, h);
	/* The legend: read light, written dark, in the cell's colour. */
	g_string_append_printf(s, "<rect x=\"%.0f\" y=\"4\" width=\"12\" height=\"10\" fill=\"#999\" fill-opacity=\"0.45\" "
				  "stroke=\"#555\"/>",
			       LABEL_W);
	ab_svg_text(s, LABEL_W + 16, 13, "start", NULL, "read (light)");
	g_string_append_printf(s, "<rect x=\"%.0f\" y=\"4\" width=\"12\" height=\"10\" fill=\"#555\"/>", LABEL_W + 110);
	ab_svg_text(s, LABEL_W + 126, 13, "start", NULL, "written (solid)");
	ab_svg_x_axis(s, &sc, top, axis_y, "MiB per member (mean of a cell's runs)");
	guint row = 0;
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < per_cell[i]->len; k++, row++) {
			const struct member *mb = &g_array_index(per_cell[i], struct member, k);
			double y = top + row * PAIR + 2;
			g_autofree char *cut = ab_html_short_label(c, 14);
			g_autofree char *lab = g_strdup_printf("%s %s", cut, mb->name);
			g_autofree char *full = g_strdup_printf("%s: %s", c->label, mb->name);
			g_string_append_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6, y + BAR + 3);
			ab_html_escape(s, lab);
			g_string_append(s, "<title>");
			ab_html_escape(s, full);
			g_string_append(s, "</title></text>\n");
			char r[32], w[32];
			ab_svg_format_si(mb->read / 1048576, r, sizeof(r));
			ab_svg_format_si(mb->written / 1048576, w, sizeof(w));
			g_autofree char *tr = g_strdup_printf("%s read %s MiB", full, r);
			g_autofree char *tw = g_strdup_printf("%s written %s MiB", full, w);
			g_string_append_printf(s, "<g fill-opacity=\"0.45\">");
			ab_svg_hbar(s, &sc, y, BAR, mb->read / 1048576, NAN, NAN, c->colour, tr);
			g_string_append(s, "</g>");
			ab_svg_hbar(s, &sc, y + BAR, BAR, mb->written / 1048576, NAN, NAN, c->colour, tw);
			g_autofree char *both = g_strdup_printf("r %s / w %s", r, w);
			ab_svg_text(s, ab_svg_map(&sc, MAX(mb->read, mb->written) / 1048576) + 5, y + BAR + 4, "start", NULL,
				    both);
		}
	}
	g_string_append(s, "</svg>\n");
}

void ab_html_devices(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"members\">I/O per member device</h2>\n");
	gboolean any = FALSE;
	for (guint i = 0; i < page->series->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(page->series, i);
		guint n = page->cells->len, with = 0;
		GArray **per_cell = g_new0(GArray *, n);
		for (guint k = 0; k < n; k++) {
			per_cell[k] = members(g_ptr_array_index(page->cells, k), se);
			with += per_cell[k]->len > 0;
		}
		if (with) {
			if (!any)
				g_string_append(s, "<div class=\"grid\">\n");
			any = TRUE;
			g_string_append(s, "<div class=\"chart\"><h3>");
			ab_html_escape(s, se->title);
			g_string_append(s, "</h3>\n");
			chart(s, page, per_cell);
			g_string_append(s, "<p class=\"note\">Most / least member:");
			for (guint k = 0; k < n; k++) {
				if (per_cell[k]->len < 2)
					continue;
				double wr = spread(per_cell[k], TRUE), rd = spread(per_cell[k], FALSE);
				g_string_append(s, " ");
				ab_html_escape(s, ((struct ab_html_cell *)g_ptr_array_index(page->cells, k))->label);
				g_string_append(s, ": ");
				char wt[32], rt[32];
				ab_format_ratio(wr, wt, sizeof(wt));
				ab_format_ratio(rd, rt, sizeof(rt));
				if (isfinite(wr))
					g_string_append_printf(s, "written %s&#215;", wt);
				if (isfinite(rd))
					g_string_append_printf(s, "%sread %s&#215;", isfinite(wr) ? ", " : "", rt);
				if (!isfinite(wr) && !isfinite(rd))
					g_string_append(s, "a member moved nothing");
				g_string_append(s, ";");
			}
			g_string_append(s, " (1.00&#215; is even).</p></div>\n");
		}
		for (guint k = 0; k < n; k++)
			g_array_unref(per_cell[k]);
		g_free(per_cell);
	}
	if (any)
		g_string_append(s, "</div>\n");
	else
		ab_html_none(s, "No member charts: no run holds per-device counters (a run records those of the devices "
				"under its directory or of the target it built; bonnie++'s CSV, and a run on tmpfs or NFS, "
				"has none).");
}
