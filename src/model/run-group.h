/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_GROUP_H
#define AB_RUN_GROUP_H

/* The group a run is the repeat of: the same label for the comparison
 * (reports/compare.c), the HTML page's cells and the findings' groups. */

#include "run.h"

/* The run's cell; else its target's label and its workload; else its
 * machine ("(unnamed)" when it has none).  To g_free. */
char *ab_run_group_label(const struct ab_run *run);

#endif
