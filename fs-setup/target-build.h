/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TARGET_BUILD_H
#define AB_TARGET_BUILD_H

#include <glib.h>
#include <stdio.h>

#include "target.h"
#include "undo.h"

/* Checking, building and remounting a target (target-build.c), apart from
 * the target's record (target.h) that the backends' build steps (build.h)
 * fill in. */
/*
 * Everything the build needs, checked before anything is made: options
 * that exclude each other, the file system, the level for the backend, md
 * in the kernel, the member count, duplicate members, the --loop directory,
 * option words that would name a device, and the safety of every named
 * device.  Makes the spec's paths absolute (members, device, loop
 * directory), so journals and cleanup do not depend on the working
 * directory.  With `out`, also prints the plan with each undo (--dry-run).
 * Touches nothing.
 */
gboolean ab_target_check(struct ab_target_spec *spec, const char *run_id, FILE *out, GError **error);
void ab_target_set_activity_fn(ab_target_activity_fn fn);
/* Build, format and mount a checked spec; every step is journaled in `undo`
 * before it is taken.  before_mkfs may be NULL.  On failure the caller
 * unwinds `undo`. */
gboolean ab_target_build(const struct ab_target_spec *spec, struct ab_target *target, struct ab_undo *undo,
			 const char *run_id, ab_stop_check_fn stop_requested, ab_target_hook_fn before_mkfs,
			 void *hook_data, GError **error);
/* --cache remount: unmount and mount again, which drops the file system's
 * page cache, dentries and inodes (iozone -U).  Only for targets we built. */
gboolean ab_target_remount(const struct ab_target *target, GError **error);
#endif
