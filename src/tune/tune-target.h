/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_TARGET_H
#define AB_TUNE_TARGET_H

/*
 * The target a tune's visits build, seen by the tune: what it must be
 * before the first visit (built at each visit, every device it formats
 * confirmed), and the devices the winner's mkfs command names.
 */

#include <glib.h>

#include "../../fs-setup/target.h"

/* Before run's own checks, on the options as given: a target the visits
 * build (--loop, --device, or --array with --members), and every device
 * named (--device, each member) in --yes-destroy, since each visit from
 * the second on finds the file system the one before made, which the
 * safety check refuses unless confirmed: the tune would stop there, half
 * way.  AB_ERROR_USAGE in one line naming what to give. */
gboolean ab_tune_target_check(const struct ab_target_spec *t, GError **error);

/* The devices the winner's mkfs command names: the --device or the
 * members as given (after the checks: their canonical paths), "/dev/mdX"
 * for an md array, "DEVICE1"... for loop images the visits made and
 * detached; every member for a btrfs array (btrfs_members), else one.
 * NULL-terminated, for g_strfreev. */
char **ab_tune_target_mkfs_devices(const struct ab_target_spec *t, gboolean striped, gboolean btrfs_members);

#endif
