/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RESIDENCY_H
#define AB_RESIDENCY_H

#include <glib.h>

/* The share (0..1) of a regular file's pages that sit in the page cache
 * now, by mincore() over a mapping of it, a window at a time so memory
 * stays flat however big the file; NAN if it cannot be told (not a regular
 * file, empty, cannot be mapped).  fd is not moved or changed. */
double ab_file_resident_share(int fd);

#endif
