/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FSUTIL_H
#define AB_FSUTIL_H

#include <glib.h>
#include <stdint.h>

/* Check DIR exists, is a directory and takes a new file (AB_ERROR_USAGE). */
gboolean ab_dir_check_writable(const char *dir, GError **error);
/* Bytes an unprivileged user may still write in DIR, or 0 if unknown. */
uint64_t ab_dir_free_bytes(const char *dir);
/* rm -rf without following symlinks; missing is fine. */
void ab_remove_tree(const char *path);

#endif
