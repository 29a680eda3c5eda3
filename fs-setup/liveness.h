/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_LIVENESS_H
#define AB_LIVENESS_H

#include <glib.h>
#include <sys/types.h>

/*
 * Who wrote a journal, told apart from a later process that got the same pid:
 * the pid, its start time in clock ticks after boot (field 22 of
 * /proc/PID/stat), and the boot it ran in.
 */
struct ab_process_id {
	int pid;
	guint64 start_ticks;
	char boot_id[40];
};

/* `root` prefixes /proc ("" for the real one; tests pass a fake tree). */
gboolean ab_process_id_of(const char *root, int pid, struct ab_process_id *out);
/* Is that very process still running?  A missing pid, a zombie, another
 * start time or another boot all mean it is gone. */
gboolean ab_process_id_alive(const char *root, const struct ab_process_id *id);

#endif
