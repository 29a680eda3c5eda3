/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TRUST_H
#define AB_TRUST_H

#include <glib.h>

/*
 * May root make something in DIR (a mount point, images, an output file)
 * and count on the path leading there still?  Only if no other user can
 * change anything on the way: walking DIR as given (absolute), every
 * directory and every symlink followed belongs to root or to the user who
 * runs arraybench, and a directory group or others may write to is sticky
 * (as /tmp is, where nobody may rename another's entry).  FALSE with *why
 * otherwise.
 */
gboolean ab_path_trusted(const char *dir, char **why);

#endif
