/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SAME_RUN_H
#define AB_SAME_RUN_H

/* Every rank must run the same binary with the same arguments: a rank
 * that differs would run other steps, and the ranks' meetings would not
 * pair up.  Checked once at start, before any command. */

#include "../base/cluster.h"

/* FALSE on every rank when any rank differs from rank 0, naming the rank
 * and the difference (the binary's SHA-256, or the first argument that
 * differs); AB_ERROR_USAGE. */
gboolean ab_same_run_check(struct ab_cluster *c, int argc, char **argv, GError **error);

#endif
