/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RESIDENCY_H
#define AB_RESIDENCY_H

#include <glib.h>
#include <stdint.h>

/* The share (0..1) of the pages of a regular file's first `size` bytes
 * (what the phase reads; all of a shorter file) that sit in the page cache
 * now, by mincore() over a mapping of it, a window at a time so memory
 * stays flat however big the file; NAN if it cannot be told (not a regular
 * file, empty, cannot be mapped).  The cap bounds the time too: with -u the
 * user may put a sparse file of an exabyte in the test file's place, whose
 * windows root's parent would map for hours.  fd is not moved or changed. */
double ab_file_resident_share(int fd, uint64_t size);

#endif
