/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_LOOP_BACKING_H
#define AB_LOOP_BACKING_H

#include <glib.h>
#include <sys/types.h>

/* A bound loop device and the block device behind it.  A loop device is
 * no holder of its backing device (nothing shows in holders/), yet every
 * write to that device changes what the loop device, and whatever is
 * mounted from it, reads. */
struct ab_loop_backing {
	char *name;      /* kernel name: "loop4" */
	dev_t backing;   /* the backing block device; 0 when a regular file (or unknown) backs it */
};

/* Every bound loop device under ROOT/sys/class/block ("" or NULL for the
 * real system; tests pass a fake tree), in name order, as a GPtrArray of
 * struct ab_loop_backing * that frees them.  On the real system the kernel
 * says what backs each (LOOP_GET_STATUS64 on /dev/NAME, right even when the
 * backing node was since removed or lives in another mount namespace);
 * otherwise, or when that device cannot be opened (no permission), the
 * path in loop/backing_file is looked at where it is.  An unreadable
 * /sys/class/block is AB_ERROR_UNSAFE: what cannot be checked is refused. */
GPtrArray *ab_loop_backings(const char *root, GError **error);

#endif
