/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Refusals, on fake trees.  In-use rules run on fake /proc+/sys trees
 * around device nodes made with mknod under major 60 (reserved for local
 * use, so no driver: the nodes are never opened).  Fake tree, under a temp
 * ROOT:
 *
 *   dev/NAME                       block node MAJ:MIN (not under ROOT/dev in
 *                                  real life; the code only stats it)
 *   sys/class/block/NAME/dev       "MAJ:MIN"
 *   sys/class/block/NAME/holders/H symlink ../../H
 *   sys/class/block/NAME/PART/{dev,partition}, sys/class/block/PART -> NAME/PART
 *   sys/dev/block/MAJ:MIN          symlink ../../class/block/NAME[/PART]
 *   sys/class/block/LOOP/loop/backing_file  the path backing loop device LOOP
 *   sys/fs/btrfs/FSID/devices/NAME
 *   proc/self/mountinfo
 *
 * Signatures and the kernel's own loop devices: test-safety-loop.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/loop.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../fs-setup/safety.h"
#include "../../src/base/error.h"
#include "safety-expect.h"

#define MAJ 60
#define PROC_LINE "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"

/* --- fake trees ------------------------------------------------------- */

static void put(const char *root, const char *rel, const char *text)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(path, text, -1, NULL));
}

static void link_to(const char *root, const char *rel, const char *target)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_int_equal(symlink(target, path), 0);
}

/* A block node ROOT/dev/NAME; the path for the caller to name. */
static char *node(const char *root, const char *name, unsigned min)
{
	char *path = g_build_filename(root, "dev", name, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_int_equal(mknod(path, S_IFBLK | 0600, makedev(MAJ, min)), 0);
	return path;
}

static void fake_disk(const char *root, const char *name, unsigned maj, unsigned min)
{
	g_autofree char *dev = g_strdup_printf("sys/class/block/%s/dev", name);
	g_autofree char *num = g_strdup_printf("%u:%u\n", maj, min);
	put(root, dev, num);
	g_autofree char *key = g_strdup_printf("sys/dev/block/%u:%u", maj, min);
	g_autofree char *target = g_strdup_printf("../../class/block/%s", name);
	link_to(root, key, target);
}

static void fake_part(const char *root, const char *disk, const char *part, unsigned maj, unsigned min)
{
	g_autofree char *base = g_strdup_printf("sys/class/block/%s/%s", disk, part);
	g_autofree char *dev = g_strconcat(base, "/dev", NULL);
	g_autofree char *mark = g_strconcat(base, "/partition", NULL);
	g_autofree char *num = g_strdup_printf("%u:%u\n", maj, min);
	put(root, dev, num);
	put(root, mark, "1\n");
	g_autofree char *key = g_strdup_printf("sys/dev/block/%u:%u", maj, min);
	g_autofree char *target = g_strdup_printf("../../class/block/%s/%s", disk, part);
	link_to(root, key, target);
	g_autofree char *cls = g_strdup_printf("sys/class/block/%s", part);
	g_autofree char *rel = g_strdup_printf("%s/%s", disk, part);
	link_to(root, cls, rel);
}

/* `dev` is "NAME" or "DISK/PART". */
static void fake_holder(const char *root, const char *dev, const char *holder)
{
	g_autofree char *rel = g_strdup_printf("sys/class/block/%s/holders/%s", dev, holder);
	g_autofree char *target = g_strdup_printf("../../%s", holder);
	link_to(root, rel, target);
}

/* Loop device NAME is now backed by `backing`. */
static void rebind(const char *root, const char *name, const char *backing)
{
	g_autofree char *rel = g_strdup_printf("sys/class/block/%s/loop/backing_file", name);
	g_autofree char *text = g_strconcat(backing, "\n", NULL);
	put(root, rel, text);
}

/* A bound loop device NAME (MAJ:min) whose backing file is `backing`. */
static void fake_loop(const char *root, const char *name, unsigned min, const char *backing)
{
	fake_disk(root, name, MAJ, min);
	rebind(root, name, backing);
}

static void mountinfo(const char *root, const char *text)
{
	g_autofree char *all = g_strconcat(PROC_LINE, text, NULL);
	put(root, "proc/self/mountinfo", all);
}

/* abx 60:1 with partitions abxp1 60:2 and abxp2 60:3. */
static void fake_abx(const char *root)
{
	fake_disk(root, "abx", MAJ, 1);
	fake_part(root, "abx", "abxp1", MAJ, 2);
	fake_part(root, "abx", "abxp2", MAJ, 3);
}

static int tree_setup(void **state)
{
	char *root = g_dir_make_tmp("ab-safety-XXXXXX", NULL);
	assert_non_null(root);
	*state = root;
	return 0;
}

static int tree_teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	g_free(*state);
	return 0;
}

/* Skips the test where nodes cannot be made (not root).  skip() longjmps
 * past every g_autofree of the caller and this function, which ASan then
 * counts as leaks (exit 1 for an ordinary user): a test calls this before
 * it holds anything, and this frees its own first. */
static void need_mknod(const char *root)
{
	char *probe = g_build_filename(root, "probe", NULL);
	gboolean made = mknod(probe, S_IFBLK | 0600, makedev(MAJ, 0)) == 0;
	if (made)
		unlink(probe);
	g_free(probe);
	if (!made)
		skip();
}

/* --- fake-tree tests -------------------------------------------------- */

static void test_clean_device_passes(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	mountinfo(root, "23 1 254:1 / / rw - ext4 /dev/vdz1 rw\n");
	g_autofree char *dev = node(root, "abx", 1);
	expect_free(root, dev);
	/* Unconfirmed, the node is probed: no driver behind it. */
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device(root, dev, NULL, &e));
	g_autofree char *want = g_strdup_printf("cannot open '%s': %s", dev, g_strerror(ENXIO));
	expect_error(e, AB_ERROR_USAGE, want);
}

static void test_mounted(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	mountinfo(root, "23 1 254:1 / / rw - ext4 /dev/vdz1 rw\n"
			"40 23 60:1 / /mnt/with\\040space rw,relatime - ext4 /dev/whatever rw\n");
	g_autofree char *dev = node(root, "abx", 1);
	expect_refusal(root, dev, "it is mounted at '/mnt/with space'");
}

static void test_partition_mounted(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	mountinfo(root, "41 1 60:3 / /mnt/p rw - xfs /dev/abxp2 rw\n");
	g_autofree char *disk = node(root, "abx", 1);
	g_autofree char *p1 = node(root, "abxp1", 2);
	g_autofree char *p2 = node(root, "abxp2", 3);
	expect_refusal(root, disk, "its partition 'abxp2' is mounted at '/mnt/p'");
	expect_refusal(root, p2, "it is mounted at '/mnt/p'");
	expect_free(root, p1); /* a sibling is not in use */
}

static void test_btrfs(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	fake_disk(root, "aby", MAJ, 10);
	fake_disk(root, "abz", MAJ, 11);
	/* Mounted from aby: an anonymous device, the source names it. */
	mountinfo(root, "42 1 0:45 / /mnt/b rw - btrfs /dev/aby rw,subvol=/\n");
	put(root, "sys/fs/btrfs/features/raid1", "0\n");
	put(root, "sys/fs/btrfs/1f2e-btr/devices/aby", "");
	put(root, "sys/fs/btrfs/1f2e-btr/devices/abz", "");
	put(root, "sys/fs/btrfs/1f2e-btr/devices/abxp1", "");
	g_autofree char *aby = node(root, "aby", 10);
	g_autofree char *abz = node(root, "abz", 11);
	g_autofree char *abx = node(root, "abx", 1);
	expect_refusal(root, aby, "it is mounted at '/mnt/b'");
	expect_refusal(root, abz, "it is a member of the mounted btrfs file system '1f2e-btr'");
	expect_refusal(root, abx, "its partition 'abxp1' is a member of the mounted btrfs file system '1f2e-btr'");
	/* The source may also be another path to the node itself. */
	g_autofree char *line = g_strdup_printf("43 1 0:46 / /mnt/c rw - btrfs %s rw\n", abz);
	mountinfo(root, line);
	g_autofree char *fsids = g_build_filename(root, "sys/fs/btrfs/1f2e-btr", NULL);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", fsids);
	assert_int_equal(system(cmd), 0);
	expect_refusal(root, abz, "it is mounted at '/mnt/c'");
}

static void test_holders(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	fake_disk(root, "md9", 9, 9);
	fake_disk(root, "aby", MAJ, 10);
	fake_disk(root, "dm-3", 253, 3);
	fake_holder(root, "abx/abxp1", "md9");
	fake_holder(root, "aby", "md9");
	fake_holder(root, "aby", "dm-3");
	mountinfo(root, "");
	g_autofree char *abx = node(root, "abx", 1);
	g_autofree char *p1 = node(root, "abxp1", 2);
	g_autofree char *aby = node(root, "aby", 10);
	const char *why = " (in use by an array or device mapper)";
	g_autofree char *w1 = g_strconcat("its partition 'abxp1' is held by 'md9'", why, NULL);
	g_autofree char *w2 = g_strconcat("it is held by 'md9'", why, NULL);
	g_autofree char *w3 = g_strconcat("it is held by 'dm-3', 'md9'", why, NULL);
	expect_refusal(root, abx, w1);
	expect_refusal(root, p1, w2);
	expect_refusal(root, aby, w3);
	/* A mounted holder is named first: it says more. */
	mountinfo(root, "44 1 9:9 / /srv rw - ext4 /dev/md9 rw\n");
	expect_refusal(root, aby, "'md9' (built on it) is mounted at '/srv'");
}

/* A loop device is no holder: only its backing_file tells. */
static void test_loop_backing(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	mountinfo(root, "");
	g_autofree char *abx = node(root, "abx", 1);
	g_autofree char *p1 = node(root, "abxp1", 2);
	g_autofree char *p2 = node(root, "abxp2", 3);
	g_autofree char *image = g_build_filename(root, "disk.img", NULL);
	assert_true(g_file_set_contents(image, "", 0, NULL));
	/* Loops on a regular file, unbound (no loop/) or on a removed node:
	 * not on abx. */
	fake_loop(root, "loop5", 50, image);
	fake_disk(root, "loop6", MAJ, 60);
	g_autofree char *deleted = g_strconcat(abx, "x (deleted)", NULL);
	fake_loop(root, "loop9", 90, deleted);
	expect_free(root, abx);

	/* loop7 on abx, loop8 on loop7. */
	fake_loop(root, "loop7", 70, abx);
	g_autofree char *l7 = node(root, "loop7", 70);
	fake_loop(root, "loop8", 80, l7);
	expect_refusal(root, abx, "it backs the loop device 'loop7'");
	expect_refusal(root, p2, "its disk 'abx' backs the loop device 'loop7'");
	g_autofree char *why = NULL;
	assert_true(ab_safety_device_in_use(root, abx, &why, NULL));
	assert_string_equal(why, "it backs the loop device 'loop7'");
	/* What is mounted from a loop up the chain is named first. */
	mountinfo(root, "45 1 60:80 / /mnt/l rw - ext4 /dev/loop8 rw\n");
	expect_refusal(root, abx, "the loop device 'loop8' (built on it) is mounted at '/mnt/l'");
	mountinfo(root, "23 1 60:70 / / rw - ext4 /dev/loop7 rw\n");
	expect_refusal(root, abx, "it backs the root file system through the loop device 'loop7' (built on it)");
	mountinfo(root, "");
	put(root, "sys/fs/btrfs/2a3b-btr/devices/loop8", "");
	expect_refusal(root, abx, "the loop device 'loop8' (built on it) is a member of the mounted btrfs file system '2a3b-btr'");

	/* On a partition: its disk is in use, its sibling is not. */
	g_autofree char *btrfs = g_build_filename(root, "sys/fs/btrfs", NULL);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", btrfs);
	assert_int_equal(system(cmd), 0);
	rebind(root, "loop7", p2);
	expect_refusal(root, abx, "its partition 'abxp2' backs the loop device 'loop7'");
	expect_refusal(root, p2, "it backs the loop device 'loop7'");
	expect_free(root, p1);
}

/* The other way: a write to a loop device is one to what backs it. */
static void test_loop_under(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	fake_disk(root, "md9", 9, 9);
	g_autofree char *abx = node(root, "abx", 1);
	g_autofree char *p2 = node(root, "abxp2", 3);
	fake_loop(root, "loop7", 70, abx);
	g_autofree char *l7 = node(root, "loop7", 70);
	mountinfo(root, "");
	expect_free(root, l7);
	mountinfo(root, "46 1 60:1 / /mnt/x rw - ext4 /dev/abx rw\n");
	expect_refusal(root, l7, "its backing device 'abx' is mounted at '/mnt/x'");
	mountinfo(root, "46 1 60:2 / /mnt/p rw - ext4 /dev/abxp1 rw\n");
	expect_refusal(root, l7, "'abxp1' (on its backing device) is mounted at '/mnt/p'");
	mountinfo(root, "23 1 60:2 / / rw - ext4 /dev/abxp1 rw\n");
	expect_refusal(root, l7, "'abxp1' (on its backing device) backs the root file system");
	mountinfo(root, "");
	put(root, "sys/fs/btrfs/4c5d-btr/devices/abx", "");
	expect_refusal(root, l7, "its backing device 'abx' is a member of the mounted btrfs file system '4c5d-btr'");
	g_autofree char *btrfs = g_build_filename(root, "sys/fs/btrfs", NULL);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", btrfs);
	assert_int_equal(system(cmd), 0);

	/* On a partition: the sibling does not matter, the partition's
	 * holders do; a chain reaches the bottom. */
	rebind(root, "loop7", p2);
	mountinfo(root, "46 1 60:2 / /mnt/p rw - ext4 /dev/abxp1 rw\n");
	expect_free(root, l7);
	fake_loop(root, "loop8", 80, l7);
	g_autofree char *l8 = node(root, "loop8", 80);
	expect_free(root, l8);
	mountinfo(root, "46 1 60:3 / /mnt/q rw - ext4 /dev/abxp2 rw\n");
	expect_refusal(root, l8, "its backing device 'abxp2' is mounted at '/mnt/q'");
	mountinfo(root, "");
	fake_holder(root, "abx/abxp2", "md9");
	expect_refusal(root, l7, "its backing device 'abxp2' is held by 'md9' (in use by an array or device mapper)");
	expect_refusal(root, l8, "its backing device 'abxp2' is held by 'md9' (in use by an array or device mapper)");

	/* Another loop device on the same backing sees the writes. */
	g_autofree char *holder = g_build_filename(root, "sys/class/block/abx/abxp2/holders/md9", NULL);
	assert_int_equal(unlink(holder), 0);
	fake_loop(root, "loop6", 60, l7);
	expect_refusal(root, l8, "its backing device 'loop7' backs the loop device 'loop6'");

	/* What backs it, unknown to sysfs: cannot be checked, refused. */
	g_autofree char *stray = node(root, "stray", 99);
	rebind(root, "loop6", abx);
	rebind(root, "loop8", stray);
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device(root, l8, NULL, &e));
	expect_error(e, AB_ERROR_UNSAFE, "cannot tell what 'loop8' is written to: its backing device 60:99 is not in sysfs");
}

static void test_root_device(void **state)
{
	const char *root = *state;
	need_mknod(root);
	fake_abx(root);
	fake_disk(root, "md9", 9, 9);
	fake_part(root, "md9", "md9p1", 259, 7);
	fake_disk(root, "aby", MAJ, 10);
	fake_holder(root, "aby", "md9");
	g_autofree char *abx = node(root, "abx", 1);
	g_autofree char *p1 = node(root, "abxp1", 2);
	g_autofree char *p2 = node(root, "abxp2", 3);
	g_autofree char *aby = node(root, "aby", 10);

	mountinfo(root, "23 1 60:1 / / rw - ext4 /dev/root rw\n");
	expect_refusal(root, abx, "it backs the root file system");
	/* Root on a partition: the disk and that partition, not its sibling. */
	mountinfo(root, "23 1 60:2 / / rw - ext4 /dev/abxp1 rw\n");
	expect_refusal(root, abx, "it backs the root file system through its partition 'abxp1'");
	expect_refusal(root, p1, "it backs the root file system");
	expect_free(root, p2);
	/* Root on the whole disk, a partition named. */
	mountinfo(root, "23 1 60:1 / / rw - ext4 /dev/abx rw\n");
	expect_refusal(root, p2, "it backs the root file system through its disk 'abx'");
	/* Root on an md (or its partition) built on the device. */
	mountinfo(root, "23 1 9:9 / / rw - ext4 /dev/md9 rw\n");
	expect_refusal(root, aby, "it backs the root file system through 'md9' (built on it)");
	mountinfo(root, "23 1 259:7 / / rw - ext4 /dev/md9p1 rw\n");
	expect_refusal(root, aby, "it backs the root file system through 'md9p1' (built on it)");
	/* btrfs root: anonymous device, the source names the disk. */
	mountinfo(root, "23 1 0:31 / / rw - btrfs /dev/abx rw\n");
	expect_refusal(root, abx, "it backs the root file system");
}

static void test_usage_errors(void **state)
{
	const char *root = *state;
	mountinfo(root, "");
	{ /* a block: what it holds is freed before need_mknod() may skip */
		g_autoptr(GError) e1 = NULL, e2 = NULL;
		g_autofree char *missing = g_build_filename(root, "no-such-disk", NULL);
		assert_false(ab_safety_check_device(root, missing, NULL, &e1));
		g_autofree char *w1 = g_strdup_printf("cannot use device '%s': %s", missing, g_strerror(ENOENT));
		expect_error(e1, AB_ERROR_USAGE, w1);
		g_autofree char *file = g_build_filename(root, "disk.img", NULL);
		assert_true(g_file_set_contents(file, "x", 1, NULL));
		assert_false(ab_safety_check_device(root, file, NULL, &e2));
		g_autofree char *w2 = g_strdup_printf("cannot use device '%s': not a block device", file);
		expect_error(e2, AB_ERROR_USAGE, w2);
	}
	need_mknod(root);
	g_autoptr(GError) e3 = NULL;
	g_autofree char *ghost = node(root, "ghost", 77);
	assert_false(ab_safety_check_device(root, ghost, NULL, &e3));
	g_autofree char *w3 = g_strdup_printf("cannot use device '%s': no block device '60:77' in sysfs", ghost);
	expect_error(e3, AB_ERROR_USAGE, w3);
}

static void test_parse_confirmed(void **state)
{
	const char *root = *state;
	g_autofree char *a = g_build_filename(root, "a", NULL);
	g_autofree char *b = g_build_filename(root, "b", NULL);
	g_autofree char *via = g_build_filename(root, "via", NULL);
	assert_true(g_file_set_contents(a, "", 0, NULL));
	assert_true(g_file_set_contents(b, "", 0, NULL));
	assert_int_equal(symlink("b", via), 0);
	g_autofree char *ra = realpath(a, NULL), *rb = realpath(b, NULL);

	g_autofree char *list = g_strdup_printf("%s,%s", a, via);
	g_auto(GStrv) out = NULL;
	assert_true(ab_safety_parse_confirmed(list, &out, NULL));
	assert_int_equal(g_strv_length(out), 2);
	assert_string_equal(out[0], ra);
	assert_string_equal(out[1], rb);

	g_autofree char *missing = g_build_filename(root, "gone", NULL);
	g_autofree char *bad = g_strdup_printf("%s,%s", a, missing);
	g_auto(GStrv) none = NULL;
	g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
	assert_false(ab_safety_parse_confirmed(bad, &none, &e1));
	assert_null(none);
	g_autofree char *w1 = g_strdup_printf("cannot confirm device '%s': %s", missing, g_strerror(ENOENT));
	expect_error(e1, AB_ERROR_USAGE, w1);
	g_autofree char *empty = g_strdup_printf("%s,,%s", a, b);
	assert_false(ab_safety_parse_confirmed(empty, &none, &e2));
	g_autofree char *w2 = g_strdup_printf("empty device name in --yes-destroy '%s'", empty);
	expect_error(e2, AB_ERROR_USAGE, w2);
	assert_false(ab_safety_parse_confirmed("", &none, &e3));
	expect_error(e3, AB_ERROR_USAGE, "no device named in --yes-destroy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_device_passes, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_mounted, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_partition_mounted, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_btrfs, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_holders, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_loop_backing, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_loop_under, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_root_device, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_usage_errors, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_parse_confirmed, tree_setup, tree_teardown),
	};
	return cmocka_run_group_tests_name("safety", tests, NULL, NULL);
}
