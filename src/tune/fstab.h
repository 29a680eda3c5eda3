/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FSTAB_H
#define AB_FSTAB_H

/*
 * What a tuner hands the reader for its winner: a ready /etc/fstab line
 * and the exact mkfs command the winner's file system was made with.
 */

#include <glib.h>

#include "../../fs-setup/plan.h"
#include "candidates.h"

/* The source a caller without the new file system's UUID gets: a
 * placeholder to fill in from blkid. */
#define AB_FSTAB_SOURCE_PLACEHOLDER "UUID=<uuid>"

/* fstab(5)'s fs_passno for `fs`: 2 for ext3 and ext4 (fsck checks them
 * after the root file system), 0 for xfs and btrfs, whose fsck does
 * nothing at boot (fsck.xfs(8): "do nothing, successfully"; fsck.btrfs(8):
 * "You should set fs_passno to 0"). */
int ab_fstab_pass(enum ab_fs_type fs);

/* One fstab field as getmntent(3) reads it back: space, tab, newline and
 * backslash written \040, \011, \012 and \134. */
char *ab_fstab_escape(const char *field);

/* "SOURCE MOUNT_POINT FSTYPE OPTIONS 0 PASS\n": source NULL gives
 * AB_FSTAB_SOURCE_PLACEHOLDER (or a device, "LABEL=..."), options NULL or
 * empty "defaults", dump 0, pass ab_fstab_pass(fs).  NULL (AB_ERROR_USAGE)
 * for an empty source or a mount point that is not an absolute path.  A
 * multi-device btrfs mounts by its UUID once every member has been seen
 * by `btrfs device scan` (udev does it at boot). */
char *ab_fstab_line(const char *source, const char *mount_point, enum ab_fs_type fs, const char *options,
		    GError **error);

/* The mkfs command run made candidate `c`'s file system with, from
 * fs-setup's own plan (fs-setup/mkfs.c, btrfs.c): arraybench's own words
 * (-F or -f, -q, and for ext3/ext4 -E nodiscard with no lazy
 * initialisation, so that a visit measures a file system that is
 * ready), the stripe hint of `geo` unless c says --no-stripe-hint, then
 * c's mkfs words.  devices: the one device for ext3, ext4 and xfs; for
 * btrfs every member, with btrfs_profile its data and metadata profile
 * (NULL: single).  c NULL: the defaults. */
char *ab_fstab_mkfs_command(enum ab_fs_type fs, const struct ab_array_geometry *geo, const char *btrfs_profile,
			    const char *const *devices, const struct ab_candidate *c, GError **error);

#endif
