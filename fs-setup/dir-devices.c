/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The block devices under a directory's file system, read from sysfs and
 * mountinfo (dir-devices.h). */
#include "dir-devices.h"
#include "diskstats.h"

#include <libmount.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

/* Deep enough for dm over md over partitions; a cycle in a broken (or
 * fake) tree ends here instead of running away. */
#define AB_STACK_DEPTH 8

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted entries of a directory; a missing one is empty. */
static GPtrArray *entries(const char *path)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *n;
	while (dir && (n = g_dir_read_name(dir)))
		g_ptr_array_add(out, g_strdup(n));
	g_ptr_array_sort(out, compare_names);
	return out;
}

/* A kernel name goes into a path under /sys: none with a slash or a
 * leading dot comes from the kernel. */
static gboolean plain_name(const char *name)
{
	return name && *name && name[0] != '.' && !strchr(name, '/') && strlen(name) < 32;
}

static gboolean has_name(GPtrArray *names, const char *name)
{
	for (guint i = 0; i < names->len; i++)
		if (g_str_equal(g_ptr_array_index(names, i), name))
			return TRUE;
	return FALSE;
}

static void add_name(GPtrArray *names, const char *name)
{
	/* One past the most is kept, to tell a set too large to record
	 * (ab_dir_devices() then records none) from a full one. */
	if (!plain_name(name) || names->len > AB_MAX_DISKS || has_name(names, name))
		return;
	g_ptr_array_add(names, g_strdup(name));
}

/* The devices below NAME, depth first: its slaves, or for a partition its
 * disk's (a partition of an md array has none of its own). */
static void add_below(const char *root, GPtrArray *names, const char *name, unsigned depth)
{
	if (depth >= AB_STACK_DEPTH || !plain_name(name))
		return;
	g_autofree char *node = g_strdup_printf("%s/sys/class/block/%s", root, name);
	g_autofree char *partition = g_build_filename(node, "partition", NULL);
	if (g_file_test(partition, G_FILE_TEST_EXISTS)) {
		/* sysfs puts a partition's directory inside its disk's. */
		g_autofree char *real = realpath(node, NULL);
		g_autofree char *disk = real ? g_path_get_dirname(real) : NULL;
		g_autofree char *disk_name = disk ? g_path_get_basename(disk) : NULL;
		if (disk_name && !g_str_equal(disk_name, name))
			add_below(root, names, disk_name, depth + 1);
		return;
	}
	g_autofree char *slaves_dir = g_build_filename(node, "slaves", NULL);
	g_autoptr(GPtrArray) slaves = entries(slaves_dir);
	for (guint i = 0; i < slaves->len; i++) {
		/* One seen already had what is below it walked (or is being
		 * walked: a cycle in a broken tree). */
		if (has_name(names, g_ptr_array_index(slaves, i)))
			continue;
		add_name(names, g_ptr_array_index(slaves, i));
		add_below(root, names, g_ptr_array_index(slaves, i), depth + 1);
	}
}

/* The kernel name of block device `dev`: DEVNAME in its uevent. */
static char *name_of_devno(const char *root, dev_t dev)
{
	g_autofree char *path =
		g_strdup_printf("%s/sys/dev/block/%u:%u/uevent", root, major(dev), minor(dev));
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "DEVNAME="))
			return plain_name(*l + 8) ? g_strdup(*l + 8) : NULL;
	return NULL;
}

/* The mount DIR lies on, by the path alone (libmount's own lookup stats
 * it, which a fake root cannot answer): DIR, then each parent up to /. */
static struct libmnt_fs *mount_of_path(struct libmnt_table *tb, const char *dir)
{
	g_autofree char *p = g_strdup(dir);
	for (;;) {
		struct libmnt_fs *fs = mnt_table_find_target(tb, p, MNT_ITER_BACKWARD);
		if (fs || g_str_equal(p, "/"))
			return fs;
		char *slash = strrchr(p, '/');
		if (!slash)
			return NULL;
		slash[slash == p ? 1 : 0] = '\0';
	}
}

/* The kernel name of what the file system with `dev` was mounted from, and
 * its type, from mountinfo; NULL when it is not a device path. */
static char *mount_source_name(const char *root, dev_t dev, const char *dir, char **fstype)
{
	g_autofree char *path = g_strconcat(root, "/proc/self/mountinfo", NULL);
	struct libmnt_table *tb = mnt_new_table();
	if (!tb)
		return NULL;
	char *name = NULL;
	if (mnt_table_parse_file(tb, path) == 0) {
		struct libmnt_fs *fs = mnt_table_find_devno(tb, dev, MNT_ITER_BACKWARD);
		/* A btrfs subvolume other than the one mounted has a device
		 * number of its own that mountinfo does not show: then the
		 * mount DIR lies on, by its path. */
		if (!fs && dir && dir[0] == '/')
			fs = mount_of_path(tb, dir);
		const char *src = fs ? mnt_fs_get_srcpath(fs) : NULL;
		if (src && g_str_has_prefix(src, "/dev/")) {
			/* /dev/mapper/NAME and /dev/disk/by-*: the kernel's
			 * name is the link's end; a fake root names its
			 * sources plainly. */
			g_autofree char *real = *root ? NULL : realpath(src, NULL);
			name = g_path_get_basename(real ? real : src);
			*fstype = g_strdup(mnt_fs_get_fstype(fs));
		}
	}
	mnt_unref_table(tb);
	return name;
}

/* Every device of the mounted btrfs that has `member` among its devices. */
static void add_btrfs_devices(const char *root, GPtrArray *names, const char *member)
{
	if (!plain_name(member))
		return;
	g_autofree char *top = g_strconcat(root, "/sys/fs/btrfs", NULL);
	g_autoptr(GPtrArray) fsids = entries(top);
	for (guint i = 0; i < fsids->len; i++) {
		g_autofree char *devices = g_build_filename(top, fsids->pdata[i], "devices", NULL);
		g_autofree char *mine = g_build_filename(devices, member, NULL);
		if (!g_file_test(mine, G_FILE_TEST_EXISTS))
			continue;
		g_autoptr(GPtrArray) all = entries(devices);
		add_name(names, member); /* the one it was mounted from first */
		for (guint j = 0; j < all->len; j++)
			add_name(names, all->pdata[j]);
		for (guint j = 0; j < all->len; j++)
			add_below(root, names, all->pdata[j], 1);
		return;
	}
	add_name(names, member);
	add_below(root, names, member, 1);
}

GPtrArray *ab_dir_devices(const char *root, dev_t dev, const char *dir)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	if (major(dev) != 0) {
		g_autofree char *name = name_of_devno(root, dev);
		if (name) {
			add_name(names, name);
			add_below(root, names, name, 0);
		}
	} else {
		/* An anonymous device: btrfs (each subvolume its own), or no
		 * block device at all (tmpfs, NFS, overlay). */
		g_autofree char *fstype = NULL;
		g_autofree char *source = mount_source_name(root, dev, dir, &fstype);
		if (source && g_strcmp0(fstype, "btrfs") == 0)
			add_btrfs_devices(root, names, source);
	}
	/* Some of the devices shown as if they were all would mislead more
	 * than none. */
	if (names->len > AB_MAX_DISKS)
		g_ptr_array_set_size(names, 0);
	return names;
}
