/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live status line (progress.h): one state for the process, since only
 * the parent draws and the context comes from callers far apart (matrix,
 * pipeline, suite, runner, cache). */
#include "progress.h"
#include "../base/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The current rate is taken over about this long: long enough to smooth a
 * redraw's worth of jitter, short enough to follow a change. */
#define RATE_WINDOW_NS (2ull * AB_NS_PER_SEC)
#define RING 16

struct point {
	uint64_t t, done;
};

static struct {
	FILE *out;
	enum ab_progress_mode mode;
	uint64_t (*now)(void);
	unsigned width; /* 0: ask the terminal */
	char *context;
	unsigned repeat, repeats;
	char *activity;
	/* The phase under way (name NULL: none). */
	char *name, *detail, *noun;
	uint64_t begin_ns;
	uint64_t done, total;
	struct point ring[RING];
	unsigned ring_len, ring_next;
	struct point first; /* the first work seen, for the ETA's average */
	gboolean have_first;
	uint64_t last_draw_ns;
	gboolean drawn_once;
	gboolean shown;     /* a live line is on the terminal now */
	/* LINES: the phase's line as begun ("arraybench: phase 'x'..."), and
	 * whether it still waits on the terminal for its end; other output
	 * in between ends it early, and the end then repeats the beginning. */
	char *line_head;
	gboolean open_line;
} st = { .mode = AB_PROGRESS_OFF };

static uint64_t now_ns(void)
{
	return st.now ? st.now() : ab_now_ns();
}

void ab_progress_set_clock(uint64_t (*fn)(void))
{
	st.now = fn;
}

void ab_progress_set_width(unsigned columns)
{
	st.width = columns;
}

enum ab_progress_mode ab_progress_mode_for(FILE *out, gboolean quiet)
{
	if (quiet || !out)
		return AB_PROGRESS_OFF;
	/* TERM=dumb (Emacs' M-x shell, some CI consoles) shows escapes as
	 * text ("^[[K"): it gets the plain lines. */
	const char *term = getenv("TERM");
	if (term && g_str_equal(term, "dumb"))
		return AB_PROGRESS_LINES;
	return isatty(fileno(out)) ? AB_PROGRESS_LIVE : AB_PROGRESS_LINES;
}

static void forget_phase(void)
{
	g_clear_pointer(&st.name, g_free);
	g_clear_pointer(&st.detail, g_free);
	g_clear_pointer(&st.noun, g_free);
	g_clear_pointer(&st.line_head, g_free);
	st.open_line = FALSE;
	st.done = st.total = 0;
	st.ring_len = st.ring_next = 0;
	st.have_first = FALSE;
	st.drawn_once = FALSE;
}

void ab_progress_start(FILE *out, enum ab_progress_mode mode)
{
	ab_progress_stop();
	st.out = out;
	st.mode = out ? mode : AB_PROGRESS_OFF;
}

/* A write that failed (closed or full stderr) turns the line off: it is
 * never worth failing, or slowing, the run for. */
static void put(const char *text)
{
	if (st.mode == AB_PROGRESS_OFF)
		return;
	if (fputs(text, st.out) == EOF || fflush(st.out) != 0 || ferror(st.out)) {
		clearerr(st.out);
		st.mode = AB_PROGRESS_OFF;
		st.shown = st.open_line = FALSE;
	}
}

void ab_progress_clear(void)
{
	if (st.mode == AB_PROGRESS_LIVE && st.shown)
		put("\r\033[K");
	st.shown = FALSE;
	if (st.mode == AB_PROGRESS_LINES && st.open_line)
		put("\n");
	st.open_line = FALSE;
}

void ab_progress_stop(void)
{
	ab_progress_clear();
	forget_phase();
	g_clear_pointer(&st.context, g_free);
	g_clear_pointer(&st.activity, g_free);
	st.repeat = st.repeats = 0;
	st.mode = AB_PROGRESS_OFF;
	st.out = NULL;
}

/* Text from callers (a cell label, a device name) made safe for a
 * terminal: valid UTF-8, and no control character that could move the
 * cursor or start an escape sequence. */
static char *clean(const char *text)
{
	if (!text)
		return NULL;
	g_autofree char *valid = g_utf8_make_valid(text, -1);
	GString *s = g_string_sized_new(strlen(valid));
	for (const char *p = valid; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);
		if (c < 0x20 || (c >= 0x7f && c < 0xa0))
			g_string_append_c(s, '?');
		else
			g_string_append_unichar(s, c);
	}
	return g_string_free(s, FALSE);
}

char *ab_progress_duration_text(double seconds)
{
	if (!isfinite(seconds) || seconds < 0)
		seconds = 0;
	if (seconds > 359999.0 * 10)
		seconds = 359999.0 * 10;
	uint64_t s = (uint64_t)seconds;
	if (s >= 3600)
		return g_strdup_printf("%" G_GUINT64_FORMAT ":%02u:%02u", s / 3600, (unsigned)(s / 60 % 60),
				       (unsigned)(s % 60));
	return g_strdup_printf("%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
}

/* Three significant figures at most: one decimal below 10. */
static char *number(double v, const char *unit)
{
	return v < 9.95 ? g_strdup_printf("%.1f %s", v, unit) : g_strdup_printf("%.0f %s", v, unit);
}

char *ab_progress_rate_text(double per_s, const char *noun)
{
	if (!isfinite(per_s) || per_s < 0)
		return g_strdup("");
	if (noun) {
		g_autofree char *unit = g_strdup_printf("%s/s", noun);
		return number(per_s, unit);
	}
	/* Binary units, as the table's KiB/s. */
	static const char *const units[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
	unsigned u = 0;
	while (per_s >= 1023.5 && u + 1 < G_N_ELEMENTS(units)) {
		per_s /= 1024;
		u++;
	}
	return number(per_s, units[u]);
}

/* At most `max` characters of s (UTF-8), cut at a character's boundary. */
static void cut(GString *s, unsigned max)
{
	if (g_utf8_strlen(s->str, -1) <= (glong)max)
		return;
	const char *end = g_utf8_offset_to_pointer(s->str, max);
	g_string_truncate(s, (gsize)(end - s->str));
}

char *ab_progress_format(const struct ab_progress_view *v, unsigned width)
{
	GString *s = g_string_new(NULL);
	const char *sep = " | ";
	if (v->context && *v->context)
		g_string_append(s, v->context);
	if (v->repeats > 1)
		g_string_append_printf(s, "%srepeat %u/%u", s->len ? sep : "", v->repeat, v->repeats);
	if (s->len)
		g_string_append(s, sep);
	g_string_append(s, v->what ? v->what : "");
	if (v->measuring) {
		if (v->total) {
			uint64_t d = MIN(v->done, v->total);
			/* Rounded down: 100% only when all of it is done. */
			unsigned pct = (unsigned)((double)d * 100.0 / (double)v->total);
			g_string_append_printf(s, " %u%%", pct);
		}
		g_autofree char *rate = ab_progress_rate_text(v->rate, v->noun);
		if (*rate)
			g_string_append_printf(s, " %s", rate);
		g_autofree char *el = ab_progress_duration_text(v->elapsed_s);
		g_string_append_printf(s, "%s%s elapsed", sep, el);
		if (isfinite(v->eta_s)) {
			g_autofree char *eta = ab_progress_duration_text(v->eta_s);
			g_string_append_printf(s, ", ETA %s", eta);
		}
	}
	cut(s, width > 0 ? width - 1 : 0);
	return g_string_free(s, FALSE);
}

static unsigned columns(void)
{
	if (st.width)
		return st.width;
	struct winsize ws;
	if (st.out && ioctl(fileno(st.out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* Rate over the last RATE_WINDOW_NS of points; NAN until they span 0.2 s. */
static double current_rate(uint64_t now)
{
	const struct point *latest = NULL, *oldest = NULL;
	for (unsigned i = 0; i < st.ring_len; i++) {
		const struct point *p = &st.ring[i];
		if (!latest || p->t > latest->t)
			latest = p;
		if (now - p->t <= RATE_WINDOW_NS && (!oldest || p->t < oldest->t))
			oldest = p;
	}
	if (!latest || !oldest || latest->t - oldest->t < AB_NS_PER_SEC / 5 || latest->done < oldest->done)
		return NAN;
	return (double)(latest->done - oldest->done) * AB_NS_PER_SEC / (double)(latest->t - oldest->t);
}

/* Time left at the average rate since work was first seen. */
static double eta(uint64_t now)
{
	if (!st.total || !st.have_first)
		return NAN;
	if (st.done >= st.total)
		return 0;
	if (st.done <= st.first.done || now <= st.first.t)
		return NAN;
	double rate = (double)(st.done - st.first.done) / ((double)(now - st.first.t) / AB_NS_PER_SEC);
	return (double)(st.total - st.done) / rate;
}

/* A run sent to the background (&, or Ctrl-Z then bg) keeps off the
 * terminal: its line would land on the shell's prompt. */
static gboolean in_foreground(void)
{
	pid_t fg = tcgetpgrp(fileno(st.out));
	return fg < 0 || fg == getpgrp();
}

static void draw(uint64_t now)
{
	if (st.mode != AB_PROGRESS_LIVE)
		return;
	if (!in_foreground()) {
		st.shown = FALSE;
		return;
	}
	g_autofree char *what = st.name && st.detail ? g_strdup_printf("%s %s", st.name, st.detail)
						      : g_strdup(st.name ? st.name : st.activity);
	if (!what) {
		ab_progress_clear();
		return;
	}
	struct ab_progress_view v = {
		.context = st.context, .repeat = st.repeat, .repeats = st.repeats, .what = what,
		.measuring = st.name != NULL, .noun = st.noun, .done = st.done, .total = st.total,
		.rate = current_rate(now), .elapsed_s = (double)(now - st.begin_ns) / AB_NS_PER_SEC,
		.eta_s = eta(now),
	};
	g_autofree char *text = ab_progress_format(&v, columns());
	g_autofree char *line = g_strdup_printf("\r%s\033[K", text);
	put(line);
	st.shown = st.mode == AB_PROGRESS_LIVE;
	st.last_draw_ns = now;
	st.drawn_once = TRUE;
}

void ab_progress_set_context(const char *text)
{
	g_free(st.context);
	st.context = clean(text);
}

void ab_progress_set_repeat(unsigned k, unsigned n)
{
	st.repeat = k;
	st.repeats = n;
}

void ab_progress_activity(const char *what)
{
	g_free(st.activity);
	st.activity = clean(what);
	if (!st.name)
		draw(now_ns());
}

void ab_progress_phase_begin(const char *name, const char *detail, const char *noun)
{
	if (st.line_head)
		ab_progress_phase_end(FALSE, NAN);
	forget_phase();
	/* An activity is what goes on between phases. */
	g_clear_pointer(&st.activity, g_free);
	st.name = clean(name ? name : "?");
	st.detail = clean(detail);
	st.noun = g_strdup(noun);
	st.begin_ns = now_ns();
	if (st.mode == AB_PROGRESS_LINES) {
		GString *s = g_string_new("arraybench: ");
		if (st.context)
			g_string_append_printf(s, "%s: ", st.context);
		if (st.repeats > 1)
			g_string_append_printf(s, "repeat %u/%u: ", st.repeat, st.repeats);
		g_string_append_printf(s, "phase '%s'%s%s...", st.name, st.detail ? " " : "", st.detail ? st.detail : "");
		st.line_head = g_string_free(s, FALSE);
		put(st.line_head);
		st.open_line = st.mode == AB_PROGRESS_LINES;
	}
	draw(st.begin_ns);
}

void ab_progress_work(uint64_t done, uint64_t total)
{
	if (st.mode != AB_PROGRESS_LIVE || !st.name)
		return;
	uint64_t now = now_ns();
	st.done = done;
	st.total = total;
	if (done && !st.have_first) {
		st.first = (struct point){ now, done };
		st.have_first = TRUE;
	}
	st.ring[st.ring_next] = (struct point){ now, done };
	st.ring_next = (st.ring_next + 1) % RING;
	st.ring_len = MIN(st.ring_len + 1, RING);
	if (!st.drawn_once || now - st.last_draw_ns >= AB_PROGRESS_INTERVAL_NS)
		draw(now);
}

void ab_progress_phase_end(gboolean ok, double rate)
{
	uint64_t now = now_ns();
	if (st.mode == AB_PROGRESS_LINES && st.line_head) {
		double el = st.name ? (double)(now - st.begin_ns) / AB_NS_PER_SEC : 0;
		g_autofree char *r = ok ? ab_progress_rate_text(rate, st.noun) : NULL;
		g_autofree char *t = el >= 60 ? ab_progress_duration_text(el) : g_strdup_printf("%.2f s", el);
		g_autofree char *line = !ok   ? g_strdup(" failed\n")
				       : *r ? g_strdup_printf(" done: %s, %s elapsed\n", r, t)
					    : g_strdup_printf(" done, %s elapsed\n", t);
		if (!st.open_line)
			put(st.line_head);
		st.open_line = FALSE;
		put(line);
	}
	forget_phase();
	/* Back to the activity, if one is still going on, else a blank. */
	if (st.activity)
		draw(now);
	else
		ab_progress_clear();
}
