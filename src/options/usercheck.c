/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "usercheck.h"
#include "../base/error.h"

#include <errno.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

/* errno of access(mode) as uid:gid, the way a worker becomes them, of the
 * directory dir_fd holds (or of `path` when dir_fd < 0). */
static int access_as(uid_t uid, gid_t gid, int dir_fd, const char *path, int mode)
{
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
			_exit(255);
		if (dir_fd >= 0 && fchdir(dir_fd) != 0)
			_exit(errno & 0xff);
		_exit(access(dir_fd >= 0 ? "." : path, mode) == 0 ? 0 : errno & 0xff);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (!WIFEXITED(st))
		return EIO;
	return WEXITSTATUS(st) == 255 ? EPERM : WEXITSTATUS(st);
}

gboolean ab_user_check(const struct ab_config *cfg, int dir_fd, GError **error)
{
	if (!cfg->user_given)
		return TRUE;
	if (geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "-u: switching to user %u needs root", (unsigned)cfg->uid);
		return FALSE;
	}
	gboolean built = ab_target_spec_builds(&cfg->target);
	const char *path = built ? cfg->target.mount_parent : cfg->dir;
	int mode = built ? X_OK : W_OK | X_OK;
	int e = access_as(cfg->uid, cfg->gid, built ? -1 : dir_fd, path, mode);
	if (e) {
		ab_set_error_errno(error, AB_ERROR_USAGE, e, "-u: user %u (group %u) cannot %s '%s'", (unsigned)cfg->uid,
				   (unsigned)cfg->gid, built ? "reach" : "write in", path);
		return FALSE;
	}
	return TRUE;
}
