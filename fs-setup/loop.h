/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_LOOP_H
#define AB_LOOP_H

#include <glib.h>
#include <stdint.h>

#include <sys/stat.h>

/* Make a sparse image file of `size` bytes, never over an existing one;
 * *st gets its identity. */
gboolean ab_loop_make_image(const char *path, uint64_t size, struct stat *st, GError **error);
/* Attach an image to a free loop device, with direct I/O so the image is
 * not cached a second time in the page cache of the file system holding it
 * (a cold read of the array would otherwise come from RAM one layer down).
 * The image must still be the file `id` describes (AB_ERROR_UNSAFE if another
 * took its name).  Returns the device path ("/dev/loop3"), or NULL. */
char *ab_loop_attach(const char *image, const struct stat *id, gboolean direct_io, GError **error);
/* The device's disk sequence number (a new one at every attach; Linux 5.15),
 * or 0 when the kernel has none.  `name` is "loop3". */
guint64 ab_loop_diskseq(const char *name);

#endif
