/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TRUST_H
#define AB_TRUST_H

#include <glib.h>

/*
 * May root make a mount point in DIR and count on it staying where it is?
 * Only if no other user can rename anything on the way there: every
 * component of the canonical path belongs to root or to the user who runs
 * arraybench, and one that group or others may write to is sticky (as /tmp
 * is, where nobody may rename another's entry).  FALSE with *why otherwise.
 */
gboolean ab_path_trusted(const char *dir, char **why);

#endif
