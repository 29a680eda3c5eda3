/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_USERCHECK_H
#define AB_USERCHECK_H

#include <glib.h>

#include "config.h"

/* -u USER: only root can switch, and USER must be able to work where the
 * workers will: write in -d DIR (the directory dir_fd holds, the one the
 * run will use), or reach the (trusted) temporary directory that holds a
 * built target's mount point.  Checked up front, in a child process that
 * becomes USER, before anything is made. */
gboolean ab_user_check(const struct ab_config *cfg, int dir_fd, GError **error);

#endif
