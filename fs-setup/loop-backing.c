/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which block device backs each loop device: the relation holders/ does
 * not show, read for the safety checks (fs-setup/safety.c). */
#include "loop-backing.h"
#include "../src/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void backing_free(gpointer p)
{
	struct ab_loop_backing *b = p;
	g_free(b->name);
	g_free(b);
}

static int compare_names(gconstpointer a, gconstpointer b)
{
	const struct ab_loop_backing *x = *(struct ab_loop_backing *const *)a;
	const struct ab_loop_backing *y = *(struct ab_loop_backing *const *)b;
	return strcmp(x->name, y->name);
}

/* The kernel's answer: it keeps the backing file open, so its device
 * number holds whatever has become of the path since.  FALSE when it
 * cannot be asked; *gone when the device was detached meanwhile. */
static gboolean ask_kernel(const char *sysdir, const char *name, dev_t *out, gboolean *gone)
{
	g_autofree char *devfile = g_build_filename(sysdir, "dev", NULL);
	g_autofree char *text = NULL;
	unsigned maj, min;
	if (!g_file_get_contents(devfile, &text, NULL, NULL) || sscanf(text, "%u:%u", &maj, &min) != 2)
		return FALSE;
	g_autofree char *node = g_strconcat("/dev/", name, NULL);
	int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return FALSE;
	struct stat st;
	struct loop_info64 info;
	gboolean ok = FALSE;
	/* /dev/NAME must be this very device, not a stale node of another. */
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == makedev(maj, min)) {
		if (ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
			*out = (dev_t)info.lo_rdevice;
			ok = TRUE;
		} else if (errno == ENXIO) {
			*gone = TRUE;
		}
	}
	close(fd);
	return ok;
}

/* The path sysfs shows, looked at where it is.  A removed node reads
 * "PATH (deleted)" and names nothing: unknown, as a regular file. */
static dev_t from_path(const char *sysdir)
{
	g_autofree char *file = g_build_filename(sysdir, "loop", "backing_file", NULL);
	g_autofree char *path = NULL;
	if (!g_file_get_contents(file, &path, NULL, NULL))
		return 0;
	g_strchomp(path);
	struct stat st;
	if (path[0] != '/' || stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

GPtrArray *ab_loop_backings(const char *root, GError **error)
{
	if (!root)
		root = "";
	g_autofree char *cls = g_strconcat(root, "/sys/class/block", NULL);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(backing_free);
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) dir = g_dir_open(cls, 0, &local);
	if (!dir) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return g_steal_pointer(&out); /* a fake tree without it */
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "cannot list '%s': %s", cls, local->message);
		return NULL;
	}
	const char *name;
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *sysdir = g_build_filename(cls, name, NULL);
		/* loop/ exists while a loop device is bound, and only then. */
		g_autofree char *attrs = g_build_filename(sysdir, "loop", NULL);
		if (!g_file_test(attrs, G_FILE_TEST_IS_DIR))
			continue;
		dev_t backing = 0;
		gboolean gone = FALSE;
		gboolean asked = root[0] == '\0' && ask_kernel(sysdir, name, &backing, &gone);
		if (gone)
			continue;
		if (!asked)
			backing = from_path(sysdir);
		struct ab_loop_backing *b = g_new0(struct ab_loop_backing, 1);
		b->name = g_strdup(name);
		b->backing = backing;
		g_ptr_array_add(out, b);
	}
	g_ptr_array_sort(out, compare_names);
	return g_steal_pointer(&out);
}
