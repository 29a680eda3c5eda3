/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OUTFILE_H
#define AB_OUTFILE_H

#include <glib.h>
#include <stdio.h>

/* Opens PATH for appending a result file (OPTION names it in errors):
 * another user's file, FIFO or symlink there is refused (AB_ERROR_UNSAFE)
 * and opening never blocks.  under_u: the run hands files to -u USER, so
 * the directory must be one no other user can change the way to, and the
 * file no symlink at all. */
FILE *ab_outfile_open_append(const char *option, const char *path, gboolean under_u, GError **error);

#endif
