/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RATE_TEXT_H
#define AB_RATE_TEXT_H

/* A rate as people read it everywhere: one decimal below 1000, else the
 * whole part, truncated as bonnie++'s CSV truncates ("237355", never
 * "237356" beside a table that says 237355); "-" for NAN.  Here, below
 * both, so the text views (reports/format.c's ab_format_rate()) and the
 * findings' words (src/model/finding-*.c) print one figure alike. */

#include <stddef.h>

void ab_rate_text(double rate, char *out, size_t len);

#endif
