/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MOUNT_H
#define AB_MOUNT_H

#include <glib.h>

/* Split "noatime,data=writeback" into MS_* flags and the file system's own
 * data string (libmount's table): mount(2) rejects generic options in data. */
gboolean ab_mount_split_options(const char *options, unsigned long *flags, char **data, GError **error);
/* mount(2) with split options on the directory `target_fd` holds (an O_PATH
 * descriptor of a mount point the caller made: a name swapped for a symlink
 * cannot redirect the mount); `target` names it in messages. */
gboolean ab_mount(const char *source, int target_fd, const char *target, const char *fstype, const char *options,
		  const char *extra_data, GError **error);
/* The options in effect, read back from /proc/self/mountinfo (root prefix
 * for tests): "rw,noatime" plus the super options. NULL if not mounted. */
char *ab_mount_effective_options(const char *root, const char *target);

#endif
