/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PROGRESS_H
#define AB_PROGRESS_H

/*
 * The live status line.  On a terminal, one line on stderr rewritten in
 * place: the matrix context, the repeat, the phase with its percent, rate,
 * elapsed time and ETA, or what the run is doing between phases.  Off a
 * terminal, one plain line per finished phase.  -q: nothing.
 *
 * Only the parent draws it: the runner passes the workers' shared counters
 * while it waits for them (runner.c); nothing is written from inside a
 * timed loop.  A failed write (closed or full stderr) turns it off and never
 * fails the run.  Whatever else goes to stderr, or the table to a terminal,
 * calls ab_progress_clear() first so that nothing interleaves with it.
 */

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

enum ab_progress_mode {
	AB_PROGRESS_OFF,   /* -q */
	AB_PROGRESS_LINES, /* not a terminal: a line per finished phase */
	AB_PROGRESS_LIVE,  /* a terminal: one line rewritten in place */
};

/* LIVE when `out` is a terminal, LINES when not, OFF when quiet. */
enum ab_progress_mode ab_progress_mode_for(FILE *out, gboolean quiet);
/* Starts drawing on `out` (stderr) in `mode`; forgets the context. */
void ab_progress_start(FILE *out, enum ab_progress_mode mode);
/* Clears the line and stops drawing. */
void ab_progress_stop(void);

/* What the run belongs to, shown first ("cell 3/8 repeat 2/3"); NULL clears. */
void ab_progress_set_context(const char *text);
/* Repeat k of n (1-based), shown when n > 1; n = 0 hides it. */
void ab_progress_set_repeat(unsigned k, unsigned n);
/* What the run does when it is not measuring ("formatting", "dropping
 * caches", "syncing"); drawn at once on a terminal.  NULL: nothing. */
void ab_progress_activity(const char *what);
/* A phase starts: its name, an optional detail ("file 64k, records 4k"),
 * and what its work counts: NULL for bytes, else a noun ("seeks",
 * "files").  Off a terminal it starts the phase's line. */
void ab_progress_phase_begin(const char *name, const char *detail, const char *noun);
/* The phase's work so far, summed over its workers (total 0: unknown).
 * Redraws at most every AB_PROGRESS_INTERVAL_NS. */
void ab_progress_work(uint64_t done, uint64_t total);
/* The phase ended: off a terminal its line ends with the rate (per
 * second, in the unit of ab_progress_phase_begin's noun; NAN for none) and
 * the elapsed time, or "failed". */
void ab_progress_phase_end(gboolean ok, double rate);
/* Erases the live line (if one shows) before other output; the next
 * update draws it again. */
void ab_progress_clear(void);

#define AB_PROGRESS_INTERVAL_NS (500u * 1000u * 1000u)

/* For tests: the clock (NULL: CLOCK_MONOTONIC) and the terminal width
 * (0: ask the terminal, 80 when it will not say). */
void ab_progress_set_clock(uint64_t (*now_ns)(void));
void ab_progress_set_width(unsigned columns);

/* One status line, as drawn (no \r, no escape), at most width - 1
 * characters (the last column would make some terminals wrap). */
struct ab_progress_view {
	const char *context;    /* NULL: none */
	unsigned repeat, repeats;
	const char *what;       /* the phase (and detail), or the activity */
	gboolean measuring;     /* a phase: the figures below are shown */
	const char *noun;       /* NULL: bytes */
	uint64_t done, total;   /* total 0: no percent */
	double rate;            /* per second now; NAN: not known yet */
	double elapsed_s;
	double eta_s;           /* NAN: not known yet */
};
char *ab_progress_format(const struct ab_progress_view *v, unsigned width);
/* "312 MiB/s", "1.5 GiB/s", "812 B/s"; with a noun "4210 seeks/s". */
char *ab_progress_rate_text(double per_s, const char *noun);
/* "0:07", "12:41", "1:02:03". */
char *ab_progress_duration_text(double seconds);

#endif
