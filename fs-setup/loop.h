/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_LOOP_H
#define AB_LOOP_H

#include <glib.h>
#include <stdint.h>

/* Make a sparse image file of `size` bytes; refuses to overwrite one. */
gboolean ab_loop_make_image(const char *path, uint64_t size, GError **error);
/* Attach an image to a free loop device, with direct I/O so the image is
 * not cached a second time in the page cache of the file system holding it
 * (a cold read of the array would otherwise come from RAM one layer down).
 * Returns the device path ("/dev/loop3"), or NULL. */
char *ab_loop_attach(const char *image, gboolean direct_io, GError **error);

#endif
