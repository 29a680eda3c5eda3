/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_DIR_DEVICES_H
#define AB_DIR_DEVICES_H

#include <glib.h>
#include <sys/types.h>

/*
 * The block devices under a file system that arraybench did not build (-d
 * DIR on an array made by hand), so each phase's per-device I/O is
 * recorded as it is for a built one: the device the file system is on
 * and, when that is an md, dm or other stacked device, every device below
 * it down to the disks (their sysfs `slaves`); for btrfs every device of
 * the file system (/sys/fs/btrfs/FSID/devices), each with what lies below
 * it.  Only read: nothing here opens a device.
 *
 * ROOT prefixes /proc and /sys ("" for the real ones; tests pass a fake
 * tree).  `dev` is the st_dev of DIR, an absolute path (NULL: only `dev`
 * is looked up; a btrfs subvolume's own device number is not in
 * mountinfo, its mount is then found by DIR).  Kernel names
 * ("md127", "vda"), the file system's own device first.  Empty when
 * there are more than AB_MAX_DISKS (a part would pass for the whole), when the file system has no block device (tmpfs,
 * NFS, overlay) or its mount is not found: a run then records none, as
 * before.
 */
GPtrArray *ab_dir_devices(const char *root, dev_t dev, const char *dir);

#endif
