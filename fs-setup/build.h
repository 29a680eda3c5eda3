/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_BUILD_H
#define AB_BUILD_H

#include <glib.h>
#include <stdio.h>

#include "plan.h"
#include "target.h"

/*
 * One build of a target, as target-build.c runs it and the backends' ops
 * (backend.h) see it.  One code path checks (touching nothing), prints the
 * plan (--dry-run) and builds, so the three cannot disagree: an op looks
 * at `mode` only where it makes something itself, and otherwise goes
 * through the helpers below, which know the three.
 */
enum ab_build_mode {
	AB_BUILD_CHECK, /* validate only */
	AB_BUILD_PRINT, /* validate and print the plan to `out` */
	AB_BUILD_REAL,  /* do it, journaling every step in `undo` first */
};

struct ab_build {
	const struct ab_target_spec *spec;
	struct ab_target *t;
	struct ab_undo *undo;            /* AB_BUILD_REAL only */
	const char *run_id;
	enum ab_build_mode mode;
	FILE *out;                       /* AB_BUILD_PRINT only */
	ab_stop_check_fn stop_requested; /* AB_BUILD_REAL only; NULL: never asked to stop */
	ab_target_hook_fn before_mkfs;   /* AB_BUILD_REAL only; may be NULL */
	void *hook_data;
	ab_target_activity_fn activity;  /* NULL: nobody is told */
	enum ab_fs_type fs;              /* --fs, parsed; set before any op runs */
	struct ab_array_geometry geo;    /* the array's stripes for mkfs hints, when an
					  * op assembled one; zero: none */
};

/* Says what the build does next ("mounting /dev/loop3"), when building
 * for real and someone listens. */
void ab_build_activity(const struct ab_build *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Has the user asked to stop?  Then FALSE no more: TRUE with the error. */
gboolean ab_build_interrupted(const struct ab_build *b, GError **error);
/* Run a plan (plan.h) the way the mode says: check it, print each command
 * with its undo, or journal each step's undo and then run its command.
 * `doing` heads each command's activity ("formatting"). */
gboolean ab_build_run_plan(struct ab_build *b, const struct ab_plan *plan, const char *doing, GError **error);

/* The steps a backend whose file system goes on one block device shares
 * (build-fs.c).  mkfs of --fs on t->source with b->geo's stripe hints and
 * the user's --mkfs-opts; sets t->mkfs_command. */
gboolean ab_build_mkfs(struct ab_build *b, GError **error);
/* mount(2) of t->source on a mount point of our own, made and journaled
 * here (TMPDIR/arraybench-mnt.RUNID, held by t->mount_fd), with the data
 * options `extra` (taken: freed, or kept as t->mount_extra; may be NULL)
 * before the user's --mount-opts; sets t->mount_dir, t->root_fd and
 * t->mount_effective. */
gboolean ab_build_mount(struct ab_build *b, char *extra, GError **error);
/* ab_build_mount() with the data options this kind of file system gets
 * from us, whatever it is on (ext3, ext4: no lazy-init thread). */
gboolean ab_build_mount_source(struct ab_build *b, GError **error);
/* --cache remount of what ab_build_mount() mounted: umount2, mount(2) again. */
gboolean ab_build_remount(const struct ab_target *t, GError **error);

#endif
