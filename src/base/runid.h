/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUNID_H
#define AB_RUNID_H

#include <glib.h>

/* Longest run id: "YYMMDDhhmmss-" + a 7-digit pid + "-" + 6 hex digits.
 * md array names ("ab" + id + "-NN") must fit mdadm's 32 characters. */
#define AB_RUN_ID_MAX 27

/*
 * A run's unique name, carried by everything it creates (journal, images,
 * md arrays, cgroup, mount point, test directory), so that nothing of one
 * run can be mistaken for another's, even when the kernel reuses a pid:
 * local time to the second, pid, and 24 random bits.
 * $ARRAYBENCH_RUN_ID overrides it (tests use it to provoke name clashes);
 * it must match [A-Za-z0-9-]{1,27}.
 */
char *ab_run_id_new(GError **error);
gboolean ab_run_id_valid(const char *id);

#endif
