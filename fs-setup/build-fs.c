/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the backends whose file system goes on one block device share once
 * it exists: mkfs on it, mount(2) on a mount point of our own, and
 * --cache remount.  A backend that formats or mounts otherwise (a pool's
 * own tools) does not call these. */
#include "build.h"
#include "mount.h"
#include "../src/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean ab_build_mkfs(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	struct ab_plan plan;
	ab_plan_init(&plan);
	gboolean ok = ab_mkfs_plan(&plan, b->fs, t->source, &b->geo, spec->no_stripe_hint, spec->mkfs_opts, error);
	if (ok) {
		t->mkfs_command = ab_plan_step_command(g_ptr_array_index(plan.steps, 0));
		ok = ab_build_run_plan(b, &plan, "formatting", error);
	}
	ab_plan_clear(&plan);
	return ok;
}

/* A mount point of our own, named after the run, made exclusively in the
 * (trusted) TMPDIR, and held by an O_PATH descriptor from then on. */
static gboolean make_mount_point(struct ab_build *b, char **dir_out, GError **error)
{
	const char *parent = b->spec->mount_parent;
	g_autofree char *name = g_strdup_printf("arraybench-mnt.%s", b->run_id);
	g_autofree char *dir = g_build_filename(parent, name, NULL);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot open the temporary directory '%s'", parent);
		return FALSE;
	}
	struct ab_undo_step *step = ab_undo_intend(b->undo, AB_UNDO_RMDIR, dir, NULL, NULL, error);
	if (!step) {
		close(pfd);
		return FALSE;
	}
	if (mkdirat(pfd, name, 0700) != 0) {
		int e = errno;
		close(pfd);
		ab_undo_done(b->undo, step); /* what is there is not ours */
		ab_set_error_errno(error, e == EEXIST ? AB_ERROR_USAGE : AB_ERROR_SKIPPED, e,
				   "cannot make the mount point '%s'", dir);
		return FALSE;
	}
	struct stat st;
	b->t->mount_fd = openat(pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (b->t->mount_fd < 0 || fstat(b->t->mount_fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, errno, "cannot open the mount point '%s' just made", dir);
		return FALSE;
	}
	if (!ab_undo_identify(b->undo, step, &st, error))
		return FALSE;
	*dir_out = g_steal_pointer(&dir);
	return TRUE;
}

/* The mounted root, seen through the mount point's name: it must now lead
 * to the new file system, not to the directory below it. */
static gboolean open_mounted_root(struct ab_target *t, const char *dir, GError **error)
{
	struct stat root, below;
	t->root_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->root_fd >= 0 && fstat(t->root_fd, &root) == 0 && fstat(t->mount_fd, &below) == 0 &&
	    root.st_dev != below.st_dev)
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
		    "refusing mount point '%s': it does not lead to the file system just mounted", dir);
	return FALSE;
}

gboolean ab_build_mount(struct ab_build *b, char *extra_taken, GError **error)
{
	g_autofree char *extra = extra_taken;
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	if (b->mode != AB_BUILD_REAL) {
		if (b->out)
			fprintf(b->out, "  mkdir %s/arraybench-mnt.%s   # MOUNT_DIR\n      undo: rmdir MOUNT_DIR\n"
				"  mount -t %s -o %s%s%s %s MOUNT_DIR\n      undo: umount MOUNT_DIR\n", spec->mount_parent,
				b->run_id, t->fs, extra ? extra : "", extra && t->mount_options && *t->mount_options ? "," : "",
				t->mount_options ? t->mount_options : "", t->source);
		t->mount_dir = g_strdup("MOUNT_DIR");
		return TRUE;
	}
	g_autofree char *dir = NULL;
	if (ab_build_interrupted(b, error) || !make_mount_point(b, &dir, error))
		return FALSE;
	struct ab_undo_step *mounted = ab_undo_intend(b->undo, AB_UNDO_UMOUNT, dir, t->source, NULL, error);
	if (!mounted)
		return FALSE;
	ab_build_activity(b, "mounting %s", t->source);
	if (!ab_mount(t->source, t->mount_fd, dir, t->fs, spec->mount_opts, extra, error)) {
		ab_undo_done(b->undo, mounted);
		return FALSE;
	}
	if (!open_mounted_root(t, dir, error)) {
		/* Someone moved the mount point: the undo by name would miss it.
		 * Unmount it where it is, found from the descriptor. */
		char at[64], real[4096];
		snprintf(at, sizeof(at), "/proc/self/fd/%d", t->mount_fd);
		ssize_t n = readlink(at, real, sizeof(real) - 1);
		if (n > 0) {
			real[n] = '\0';
			if (umount2(real, UMOUNT_NOFOLLOW) == 0)
				ab_undo_done(b->undo, mounted);
		}
		return FALSE;
	}
	t->mount_dir = g_steal_pointer(&dir);
	t->mount_effective = ab_mount_effective_options("", t->mount_dir);
	t->mount_extra = g_steal_pointer(&extra);
	return TRUE;
}

gboolean ab_build_mount_source(struct ab_build *b, GError **error)
{
	char *extra = NULL;
	if (b->fs == AB_FS_EXT3 || b->fs == AB_FS_EXT4)
		extra = g_strdup("no_prefetch_block_bitmaps"); /* no ext4lazyinit thread during the phases */
	return ab_build_mount(b, extra, error);
}

gboolean ab_build_remount(const struct ab_target *t, GError **error)
{
	/* Writeback of the last phase can hold the file system briefly. */
	int rc = -1;
	for (int i = 0; i < 50 && (rc = umount2(t->mount_dir, 0)) != 0 && errno == EBUSY; i++)
		g_usleep(100000);
	if (rc != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "--cache remount: cannot unmount '%s'", t->mount_dir);
		return FALSE;
	}
	/* The undo still says umount: if this mount fails, that undo finds
	 * nothing mounted and succeeds. */
	return ab_mount(t->source, t->mount_fd, t->mount_dir, t->fs, t->mount_options, t->mount_extra, error);
}
