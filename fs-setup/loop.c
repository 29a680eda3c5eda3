/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "loop.h"
#include "../src/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

gboolean ab_loop_make_image(const char *path, uint64_t size, struct stat *st, GError **error)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot create image '%s'", path);
		return FALSE;
	}
	if (ftruncate(fd, (off_t)size) != 0 || fstat(fd, st) != 0) {
		int e = errno;
		close(fd);
		unlink(path);
		ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot size image '%s'", path);
		return FALSE;
	}
	close(fd);
	return TRUE;
}

char *ab_loop_attach(const char *image, const struct stat *id, gboolean direct_io, GError **error)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot open '/dev/loop-control'");
		return NULL;
	}
	int backing = open(image, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (direct_io ? O_DIRECT : 0));
	if (backing < 0) {
		int e = errno;
		close(ctl);
		ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot open image '%s'", image);
		return NULL;
	}
	struct stat st;
	if (fstat(backing, &st) != 0 || st.st_dev != id->st_dev || st.st_ino != id->st_ino) {
		close(backing);
		close(ctl);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing image '%s': it is not the file arraybench made",
			    image);
		return NULL;
	}
	char *dev = NULL;
	int err = EBUSY;
	/* Another process may take the free device between the two calls. */
	for (int tries = 0; tries < 20 && err == EBUSY; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			err = errno;
			break;
		}
		g_autofree char *path = g_strdup_printf("/dev/loop%d", n);
		int lfd = open(path, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			err = errno;
			continue;
		}
		struct loop_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (uint32_t)backing;
		cfg.info.lo_flags = direct_io ? LO_FLAGS_DIRECT_IO : 0;
		g_strlcpy((char *)cfg.info.lo_file_name, image, LO_NAME_SIZE);
		int rc = ioctl(lfd, LOOP_CONFIGURE, &cfg);
		err = rc == 0 ? 0 : errno;
		close(lfd);
		if (rc == 0)
			dev = g_steal_pointer(&path);
	}
	close(backing);
	close(ctl);
	if (!dev)
		ab_set_error_errno(error, AB_ERROR_SKIPPED, err, "cannot attach '%s' to a loop device", image);
	return dev;
}

guint64 ab_loop_diskseq(const char *name)
{
	g_autofree char *path = g_strdup_printf("/sys/block/%s/diskseq", name);
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	return g_ascii_strtoull(text, NULL, 10);
}
