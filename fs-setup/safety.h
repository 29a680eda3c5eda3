/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SAFETY_H
#define AB_SAFETY_H

#include <glib.h>

/*
 * May we overwrite a device the user named?  Always refused (AB_ERROR_UNSAFE),
 * whatever --yes-destroy says: the device is mounted, directly, through one of
 * its partitions, through a device stacked on it (md, dm, loop devices, and
 * their partitions) or as a member of a mounted btrfs; it has holders; it
 * backs "/"; it, a partition or its disk backs a loop device (at any offset,
 * through any chain of loops); the kernel refuses to open it exclusively
 * (swap, any exclusive user); for a loop device, any of these holds for the
 * device behind it (down any chain), which its writes reach.
 * man/arraybench.1's DEVICES IN USE lists them.
 * Refused unless its canonical path is in `confirmed`: libblkid finds a file
 * system, RAID member or partition table signature on it.
 *
 * `root` prefixes /proc and /sys ("" or NULL for the real system; tests pass a
 * fake tree).  The device node itself (stat, libblkid) and the mount sources
 * named in mountinfo are looked at where they are.  A missing path or one
 * that is not a block device is AB_ERROR_USAGE.
 */
gboolean ab_safety_check_device(const char *root, const char *device, const char *const *confirmed,
				GError **error);

/* The always-refused cases alone, for a reader (arraybench raw): TRUE with
 * *why saying how the device is in use ("it is mounted at '/mnt'") or
 * NULL; FALSE (AB_ERROR_USAGE) for a missing path or one that is no block
 * device. */
gboolean ab_safety_device_in_use(const char *root, const char *device, char **why, GError **error);

/* Split --yes-destroy's "DEV[,DEV...]" into canonical paths (realpath), a
 * NULL-terminated array for g_strfreev; a name that does not exist, or an
 * empty one, is AB_ERROR_USAGE. */
gboolean ab_safety_parse_confirmed(const char *list, char ***out, GError **error);
/* The same for an option given again: *confirmed (freed) becomes the new
 * list; errors start with the option's name. */
gboolean ab_safety_replace_confirmed(const char *option, const char *list, char ***confirmed, GError **error);

#endif
