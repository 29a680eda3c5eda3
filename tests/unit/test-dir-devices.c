/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The devices under a directory's file system, from fake /proc and /sys
 * trees: a disk, md, dm over md, a partition of md, btrfs (and a subvolume
 * of it), tmpfs, a cycle and hostile names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../fs-setup/dir-devices.h"

static char *root;

static void put(const char *rel, const char *text)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(path, text, -1, NULL));
}

static void mkdirs(const char *rel)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	assert_int_equal(g_mkdir_with_parents(path, 0755), 0);
}

static void link_to(const char *target, const char *rel)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_int_equal(symlink(target, path), 0);
}

/* A block device in the fake sysfs: its uevent under /sys/dev/block and
 * its node under /sys/devices (PARENT's, for a partition), linked from
 * /sys/class/block. */
static void device(unsigned maj, unsigned min, const char *name, const char *parent)
{
	g_autofree char *node = parent ? g_strdup_printf("devices/virtual/block/%s/%s", parent, name)
				       : g_strdup_printf("devices/virtual/block/%s", name);
	g_autofree char *sys_node = g_strdup_printf("sys/%s", node);
	mkdirs(sys_node);
	g_autofree char *uevent = g_strdup_printf("sys/%s/uevent", node);
	g_autofree char *text = g_strdup_printf("MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=%s\n", maj, min, name,
						parent ? "partition" : "disk");
	put(uevent, text);
	if (parent) {
		g_autofree char *part = g_strdup_printf("sys/%s/partition", node);
		put(part, "1\n");
	}
	g_autofree char *dev_link = g_strdup_printf("sys/dev/block/%u:%u", maj, min);
	g_autofree char *dev_target = g_strdup_printf("../../%s", node);
	link_to(dev_target, dev_link);
	g_autofree char *class_link = g_strdup_printf("sys/class/block/%s", name);
	link_to(dev_target, class_link);
}

static void slave(const char *holder, const char *below)
{
	g_autofree char *rel = g_strdup_printf("sys/devices/virtual/block/%s/slaves/%s", holder, below);
	mkdirs(rel);
}

static int setup(void **state)
{
	(void)state;
	root = g_dir_make_tmp("ab-dirdev-XXXXXX", NULL);
	assert_non_null(root);
	for (unsigned i = 0; i < 4; i++) {
		char name[8];
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		device(254, i * 16, name, NULL);
	}
	device(254, 1, "vda1", "vda");
	device(9, 127, "md127", NULL);
	slave("md127", "vda");
	slave("md127", "vdb");
	device(259, 0, "md127p1", "md127");
	device(253, 0, "dm-0", NULL);
	slave("dm-0", "md127");
	/* A broken tree: two devices each below the other. */
	device(253, 1, "dm-1", NULL);
	device(253, 2, "dm-2", NULL);
	slave("dm-1", "dm-2");
	slave("dm-2", "dm-1");
	/* Thirty devices each below all the others: walked once each, not
	 * down every path (30^8 of them). */
	for (unsigned i = 10; i < 40; i++) {
		g_autofree char *name = g_strdup_printf("dm-%u", i);
		device(253, i, name, NULL);
		for (unsigned j = 10; j < 40; j++) {
			g_autofree char *other = g_strdup_printf("dm-%u", j);
			if (i != j)
				slave(name, other);
		}
	}
	/* A DEVNAME that would climb out of /sys. */
	put("sys/dev/block/253:9/uevent", "MAJOR=253\nMINOR=9\nDEVNAME=../../etc\n");
	/* A btrfs of four members, mounted from vdc; another without it. */
	mkdirs("sys/fs/btrfs/features");
	for (const char *m = "abcd"; *m; m++) {
		g_autofree char *rel = g_strdup_printf("sys/fs/btrfs/1111-aaaa/devices/vd%c", *m);
		mkdirs(rel);
	}
	mkdirs("sys/fs/btrfs/2222-bbbb/devices/vda1");
	/* A btrfs of 40 devices, more than a run records. */
	for (unsigned i = 0; i < 40; i++) {
		g_autofree char *rel = g_strdup_printf("sys/fs/btrfs/3333-cccc/devices/sd%c%c", 'a' + i / 26, 'a' + i % 26);
		mkdirs(rel);
	}
	put("proc/self/mountinfo",
	    "22 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n"
	    "36 22 0:46 / /mnt/b rw,relatime shared:1 - btrfs /dev/vdc rw,space_cache=v2,subvolid=5,subvol=/\n"
	    "40 22 0:50 / /run/t rw,nosuid - tmpfs tmpfs rw,size=1024k\n"
	    "41 22 0:51 / /mnt/n rw - nfs4 server:/export rw\n"
	    "42 22 0:52 / /mnt/big rw - btrfs /dev/sdaa rw\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	g_clear_pointer(&root, g_free);
	return 0;
}

static char *joined(GPtrArray *names)
{
	g_ptr_array_add(names, NULL);
	char *s = g_strjoinv(" ", (char **)names->pdata);
	g_ptr_array_unref(names);
	return s;
}

/* The devices of MAJ:MIN (DIR the directory) are WANT, space-separated. */
static void expect(unsigned maj, unsigned min, const char *dir, const char *want)
{
	g_autofree char *got = joined(ab_dir_devices(root, makedev(maj, min), dir));
	assert_string_equal(got, want);
}

static void test_disk_and_partition(void **state)
{
	(void)state;
	expect(254, 0, NULL, "vda");
	/* A partition of a plain disk: itself only, its disk has nothing below. */
	expect(254, 1, NULL, "vda1");
}

static void test_md_and_stacks(void **state)
{
	(void)state;
	expect(9, 127, NULL, "md127 vda vdb");
	expect(253, 0, NULL, "dm-0 md127 vda vdb");
	/* A partition of an md array: the members of its disk. */
	expect(259, 0, NULL, "md127p1 vda vdb");
}

static void test_btrfs(void **state)
{
	(void)state;
	/* The mounted one's own number: the source first, then the rest. */
	expect(0, 46, "/mnt/b", "vdc vda vdb vdd");
	/* A subvolume's number is not in mountinfo: found by its path. */
	expect(0, 77, "/mnt/b/sub/dir", "vdc vda vdb vdd");
	expect(0, 77, NULL, "");
	/* More devices than a run records: none, not a part as the whole. */
	expect(0, 52, "/mnt/big", "");
}

static void test_no_block_device(void **state)
{
	(void)state;
	expect(0, 50, "/run/t", "");
	expect(0, 51, "/mnt/n", "");
	expect(8, 33, NULL, "");
	/* A root with no /proc or /sys at all. */
	g_autofree char *empty = g_dir_make_tmp("ab-dirdev-empty-XXXXXX", NULL);
	g_autofree char *nothing = joined(ab_dir_devices(empty, makedev(0, 46), "/mnt/b"));
	assert_string_equal(nothing, "");
	assert_int_equal(g_rmdir(empty), 0);
}

static void test_broken_trees(void **state)
{
	(void)state;
	/* A cycle ends, each device once. */
	expect(253, 1, NULL, "dm-1 dm-2");
	GPtrArray *web = ab_dir_devices(root, makedev(253, 10), NULL);
	assert_int_equal(web->len, 30);
	g_ptr_array_unref(web);
	/* A name with a slash is no kernel name: nothing is looked up by it. */
	expect(253, 9, NULL, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disk_and_partition),
		cmocka_unit_test(test_md_and_stacks),
		cmocka_unit_test(test_btrfs),
		cmocka_unit_test(test_no_block_device),
		cmocka_unit_test(test_broken_trees),
	};
	return cmocka_run_group_tests_name("dir-devices", tests, setup, teardown);
}
