/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Undo one journaled step for real, but only on the object the run made:
 * the identity (device and inode) the journal recorded, or, for an object
 * whose identity was not recorded yet (killed in between), one owned by the
 * run's user with the run id in its name.  Anything else is left alone.
 */
#include "loop.h"
#include "spawn.h"
#include "undo.h"
#include "../src/base/error.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define RETRIES 50 /* of 100 ms: writeback can keep a device busy briefly */

static enum ab_undo_outcome foreign(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static enum ab_undo_outcome foreign(GError **error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "%s", why);
	return AB_UNDO_FOREIGN;
}

static enum ab_undo_outcome failed(GError **error, int errnum, const char *what)
{
	ab_set_error_errno(error, AB_ERROR_SKIPPED, errnum, "%s", what);
	return AB_UNDO_FAILED;
}

/* A directory that something is mounted on. */
static gboolean is_mount_point(const char *path, const struct stat *st)
{
	g_autofree char *parent = g_path_get_dirname(path);
	struct stat pst;
	return stat(parent, &pst) == 0 && pst.st_dev != st->st_dev;
}

static enum ab_undo_outcome undo_unlink(const struct ab_undo_step *step, GError **error)
{
	struct stat st;
	if (lstat(step->path, &st) != 0)
		return errno == ENOENT ? ab_undo_not_there(step, error) : failed(error, errno, "lstat");
	if (!S_ISREG(st.st_mode))
		return foreign(error, "not a regular file");
	const char *why = ab_undo_step_mismatch(step, &st);
	if (why)
		return foreign(error, "%s", why);
	/* Not identified: killed between creating and journaling it.  It was
	 * empty then, or already sized. */
	guint64 planned = step->detail ? g_ascii_strtoull(step->detail, NULL, 10) : 0;
	if (!step->identified && (st.st_nlink != 1 || (st.st_size != 0 && (guint64)st.st_size != planned)))
		return foreign(error, "its links or size are not those of the image the run made");
	if (unlink(step->path) != 0)
		return errno == ENOENT ? AB_UNDO_ABSENT : failed(error, errno, "unlink");
	return AB_UNDO_UNDONE;
}

static gboolean is_rank_dir_name(const char *name)
{
	if (!g_str_has_prefix(name, "rank-") || strlen(name) != 10)
		return FALSE;
	for (const char *c = name + 5; *c; c++)
		if (!g_ascii_isdigit(*c))
			return FALSE;
	return TRUE;
}

/* Does the directory hold a rank-NNNNN directory, and besides them nothing
 * but the ranks' shared files/ (which waits for them too)? */
static gboolean ranks_still_in(const char *path)
{
	g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
	if (!d)
		return FALSE;
	gboolean ranks = FALSE;
	for (const char *name; (name = g_dir_read_name(d));) {
		if (is_rank_dir_name(name))
			ranks = TRUE;
		else if (!g_str_equal(name, "files"))
			return FALSE;
	}
	return ranks;
}

gboolean ab_undo_ranks_remain(int dir_fd)
{
	int fd = dup(dir_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	gboolean ranks = FALSE;
	for (struct dirent *e; !ranks && (e = readdir(d));)
		ranks = is_rank_dir_name(e->d_name);
	closedir(d);
	return ranks;
}

static enum ab_undo_outcome undo_rmdir(const struct ab_undo_step *step, GError **error)
{
	struct stat st;
	if (lstat(step->path, &st) != 0)
		return errno == ENOENT ? ab_undo_not_there(step, error) : failed(error, errno, "lstat");
	if (!S_ISDIR(st.st_mode))
		return foreign(error, "not a directory");
	/* Its umount failed (busy): keep it for the cleanup that retries both. */
	if (is_mount_point(step->path, &st))
		return failed(error, EBUSY, "it is still a mount point");
	const char *why = ab_undo_step_mismatch(step, &st);
	if (why)
		return foreign(error, "%s", why);
	if (rmdir(step->path) == 0 || errno == ENOENT)
		return AB_UNDO_UNDONE;
	/* The directory of a run on many ranks waits for its ranks' own. */
	if ((errno == ENOTEMPTY || errno == EEXIST) && g_strcmp0(step->detail, AB_UNDO_RANKS_DIR) == 0 &&
	    ranks_still_in(step->path))
		return failed(error, ENOTEMPTY, "its ranks' directories are still in it (their journals remove them)");
	if (errno == ENOTEMPTY || errno == EEXIST)
		return foreign(error, "it is not empty: something else put files there");
	return failed(error, errno, "rmdir");
}

/* The top mount on `path`, if it is the one the run made (the source it
 * mounted, by name or by device number). */
static enum ab_undo_outcome check_mount(const struct ab_undo_step *step, GError **error)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	if (!tb)
		return failed(error, EIO, "cannot read /proc/self/mountinfo");
	struct libmnt_fs *top = mnt_table_find_target(tb, step->path, MNT_ITER_BACKWARD);
	enum ab_undo_outcome outcome = AB_UNDO_UNDONE;
	if (!top) {
		outcome = AB_UNDO_ABSENT;
	} else if (step->detail) {
		const char *src = mnt_fs_get_source(top);
		struct stat st;
		gboolean same = g_strcmp0(src, step->detail) == 0 ||
				(stat(step->detail, &st) == 0 && S_ISBLK(st.st_mode) &&
				 st.st_rdev == mnt_fs_get_devno(top));
		if (!same)
			outcome = foreign(error, "'%s' is mounted there now, not '%s'", src ? src : "?", step->detail);
	}
	mnt_unref_table(tb);
	return outcome;
}

static enum ab_undo_outcome undo_umount(const struct ab_undo_step *step, GError **error)
{
	enum ab_undo_outcome seen = check_mount(step, error);
	if (seen != AB_UNDO_UNDONE)
		return seen;
	/* EINVAL too is a failure: the mount is listed there, yet the path
	 * does not lead to it (a symlink put in its place). */
	for (int i = 0; i < RETRIES; i++) {
		if (umount2(step->path, UMOUNT_NOFOLLOW) == 0)
			return AB_UNDO_UNDONE;
		if (errno != EBUSY)
			break;
		g_usleep(100000);
	}
	return failed(error, errno, "umount");
}

/* Is the loop device `name` (open as fd) the run's attach of its image?
 * Backed by the image's device and inode, and, as an inode number may
 * belong to another file once the image is gone: the very attach the
 * journal recorded (device and disk sequence number), or, for a run killed
 * before recording it, the file name the run gave the attach. */
static gboolean loop_is_ours(const struct ab_undo_step *step, int fd, const char *name)
{
	struct loop_info64 info;
	if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0 || info.lo_inode != (guint64)step->ino ||
	    major(info.lo_device) != major(step->dev) || minor(info.lo_device) != minor(step->dev))
		return FALSE;
	char recorded[64];
	guint64 seq;
	if (step->detail && sscanf(step->detail, "/dev/%63s %" G_GUINT64_FORMAT, recorded, &seq) == 2)
		return g_str_equal(recorded, name) && seq == ab_loop_diskseq(name);
	char given[LO_NAME_SIZE];
	g_strlcpy(given, step->path, sizeof(given));
	return strncmp((const char *)info.lo_file_name, given, sizeof(given)) == 0;
}

/* Detach the loop device of the run's image (see loop_is_ours: a loop
 * number alone may since belong to another attach). */
static enum ab_undo_outcome undo_loop(const struct ab_undo_step *step, GError **error)
{
	if (!step->identified)
		return AB_UNDO_ABSENT; /* the image was never identified, so never attached */
	g_autoptr(GDir) sys = g_dir_open("/sys/block", 0, NULL);
	if (!sys)
		return failed(error, errno, "cannot list /sys/block");
	const char *name;
	int detached = 0, busy = 0;
	while ((name = g_dir_read_name(sys))) {
		if (!g_str_has_prefix(name, "loop"))
			continue;
		g_autofree char *dev = g_strdup_printf("/dev/%s", name);
		int fd = open(dev, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!loop_is_ours(step, fd, name)) {
			close(fd);
			continue;
		}
		/* A device still open elsewhere is only marked to detach itself
		 * on its last close (LOOP_CLR_FD returns 0, or EBUSY on older
		 * kernels): wait a little for that, then call it what it is. */
		int rc = ioctl(fd, LOOP_CLR_FD, 0);
		struct loop_info64 info;
		for (int i = 0; i < RETRIES && (rc == 0 || errno == EBUSY); i++) {
			if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0)
				break; /* unbound: detached */
			g_usleep(100000);
			if (rc != 0)
				rc = ioctl(fd, LOOP_CLR_FD, 0);
		}
		if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0 && errno == ENXIO)
			detached++;
		else
			busy = EBUSY;
		close(fd);
	}
	if (busy)
		return failed(error, busy, "still open elsewhere (it detaches itself once closed)");
	return detached ? AB_UNDO_UNDONE : AB_UNDO_ABSENT;
}

static enum ab_undo_outcome run_mdadm(const char *action, const char *arg, GError **error)
{
	const char *argv[] = { "mdadm", action, arg, NULL };
	g_autofree char *err = NULL;
	int status;
	if (!ab_spawn_tool((char **)argv, NULL, &err, &status, error))
		return AB_UNDO_FAILED;
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "mdadm %s failed: %s", action, g_strstrip(err));
		return AB_UNDO_FAILED;
	}
	return AB_UNDO_UNDONE;
}

static enum ab_undo_outcome undo_md_stop(const struct ab_undo_step *step, GError **error)
{
	/* /dev/md/NAME exists only while the array does; NAME has our run id,
	 * and once the array was made its device node was journaled. */
	struct stat st;
	if (stat(step->path, &st) != 0)
		return errno == ENOENT ? AB_UNDO_ABSENT : failed(error, errno, "stat");
	if (step->identified && (st.st_dev != step->dev || st.st_ino != step->ino))
		return foreign(error, "another array has taken its name");
	return run_mdadm("--stop", step->path, error);
}

/* Zero a member's superblock only if it is that of the array we made. */
static enum ab_undo_outcome undo_md_zero(const struct ab_undo_step *step, GError **error)
{
	blkid_probe pr = blkid_new_probe_from_filename(step->path);
	if (!pr)
		return errno == ENOENT ? AB_UNDO_ABSENT : failed(error, errno ? errno : EIO, "cannot probe it");
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	const char *type = NULL, *label = NULL;
	g_autofree char *name = NULL;
	if (blkid_do_safeprobe(pr) == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 &&
	    g_str_equal(type, "linux_raid_member")) {
		blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		name = g_strdup(label ? label : "");
	}
	blkid_free_probe(pr);
	if (!name)
		return AB_UNDO_ABSENT;
	/* mdadm stores "HOMEHOST:NAME". */
	const char *bare = strrchr(name, ':') ? strrchr(name, ':') + 1 : name;
	if (!step->detail || !g_str_equal(bare, step->detail))
		return foreign(error, "its md superblock belongs to array '%s', not '%s'", name,
			       step->detail ? step->detail : "?");
	return run_mdadm("--zero-superblock", step->path, error);
}

static enum ab_undo_outcome undo_cgroup(const struct ab_undo_step *step, GError **error)
{
	struct statfs sfs;
	if (statfs(step->path, &sfs) != 0)
		return errno == ENOENT ? AB_UNDO_ABSENT : failed(error, errno, "statfs");
	if (sfs.f_type != CGROUP_SUPER_MAGIC && sfs.f_type != CGROUP2_SUPER_MAGIC)
		return foreign(error, "not a cgroup");
	struct stat st;
	const char *why = stat(step->path, &st) == 0 && step->identified ? ab_undo_step_mismatch(step, &st) : NULL;
	if (why)
		return foreign(error, "%s", why);
	/* The workers are reaped, but the kernel may take a moment to let go. */
	for (int i = 0; i < RETRIES; i++) {
		if (rmdir(step->path) == 0 || errno == ENOENT)
			return AB_UNDO_UNDONE;
		if (errno != EBUSY)
			break;
		g_usleep(20000);
	}
	return failed(error, errno, "rmdir");
}

/* The run's own directory and test file are the run's business (src/runner/rundir.c
 * knows which names in them are ours); fs-setup only journals them. */
static ab_undo_exec_fn run_files_undo;

void ab_undo_exec_set_run_files(ab_undo_exec_fn undo)
{
	run_files_undo = undo;
}

enum ab_undo_outcome ab_undo_exec_real(const struct ab_undo_step *step, GError **error)
{
	switch (step->kind) {
	case AB_UNDO_UMOUNT:
		return undo_umount(step, error);
	case AB_UNDO_LOOP_DETACH:
		return undo_loop(step, error);
	case AB_UNDO_UNLINK:
		return undo_unlink(step, error);
	case AB_UNDO_RMDIR:
		return undo_rmdir(step, error);
	case AB_UNDO_MDADM_STOP:
		return undo_md_stop(step, error);
	case AB_UNDO_MDADM_ZERO:
		return undo_md_zero(step, error);
	case AB_UNDO_CGROUP:
		return undo_cgroup(step, error);
	case AB_UNDO_RUN_DIR:
	case AB_UNDO_IO_FILE:
	case AB_UNDO_SHARED_FILES:
		if (run_files_undo)
			return run_files_undo(step, error);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "no undo registered for '%s'", ab_undo_kind_name(step->kind));
		return AB_UNDO_FAILED;
	case AB_UNDO_KIND_COUNT:
		break;
	}
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unknown undo step");
	return AB_UNDO_FAILED;
}
