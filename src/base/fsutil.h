/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FSUTIL_H
#define AB_FSUTIL_H

#include <glib.h>
#include <stdint.h>

/* Check DIR exists and is a directory (AB_ERROR_USAGE).  Whether it takes
 * new entries shows when the run makes its own directory in it. */
gboolean ab_dir_check(const char *dir, GError **error);
/* Bytes an unprivileged user may still write in DIR, or 0 if unknown. */
uint64_t ab_dir_free_bytes(const char *dir);

#endif
