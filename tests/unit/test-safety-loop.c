/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Refusals on real loop devices (the fake /proc+/sys trees are
 * test-safety.c's).  Signatures need real data: three loop devices on
 * images made here (ext4, zeroed, a hand-written DOS MBR), checked against
 * the real /proc and /sys; so does the kernel's own answer to what backs a
 * loop device.  They are attached with LO_FLAGS_AUTOCLEAR and the images
 * unlinked at once, and the process has its own mount namespace, so even a
 * crash leaves no loop device, mount or image behind.  Skipped, not
 * failed, without root or /dev/loop-control.
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

enum { LOOP_EXT4, LOOP_ZERO, LOOP_DOS, LOOP_COUNT };

static struct {
	char *dir;                 /* images (unlinked at once) and mount point */
	char *dev[LOOP_COUNT];     /* NULL: not attached, tests skip */
	int fd[LOOP_COUNT];        /* held open: autoclear detaches on close */
	gboolean own_mount_ns;
} loops;

/* --- real loop devices ------------------------------------------------ */

static gboolean make_image(const char *path, int kind)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return FALSE;
	gboolean ok = ftruncate(fd, 16 << 20) == 0;
	if (ok && kind == LOOP_DOS) {
		/* One Linux partition from sector 2048 to the end, and 0x55AA. */
		unsigned char mbr[512] = { 0 };
		unsigned char *p = mbr + 446;
		uint32_t start = 2048, count = (16 << 11) - 2048;
		p[4] = 0x83;
		for (int i = 0; i < 4; i++) {
			p[8 + i] = (start >> (8 * i)) & 0xff;
			p[12 + i] = (count >> (8 * i)) & 0xff;
		}
		mbr[510] = 0x55;
		mbr[511] = 0xaa;
		ok = pwrite(fd, mbr, sizeof(mbr), 0) == (ssize_t)sizeof(mbr);
	}
	close(fd);
	if (!ok || kind != LOOP_EXT4)
		return ok;
	const char *argv[] = { "mkfs.ext4", "-q", "-F", path, NULL };
	int status = 0;
	return g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL, NULL,
			    NULL, NULL, NULL, &status, NULL) &&
	       g_spawn_check_wait_status(status, NULL);
}

/* Attach with autoclear and keep the device open (*fd): it detaches when
 * the last opener, at worst this process's exit, closes it.  The device's
 * path, or NULL. */
static char *attach_file(const char *image, int *fd)
{
	char *dev = NULL;
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int backing = open(image, O_RDWR | O_CLOEXEC);
	for (int tries = 0; ctl >= 0 && backing >= 0 && tries < 20 && !dev; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		char *path = g_strdup_printf("/dev/loop%d", n);
		int lfd = open(path, O_RDWR | O_CLOEXEC);
		struct loop_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (uint32_t)backing;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (lfd >= 0 && ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			dev = path;
			*fd = lfd;
			break;
		}
		int e = errno;
		if (lfd >= 0)
			close(lfd);
		g_free(path);
		if (e != EBUSY)
			break; /* another process raced us to it: try the next */
	}
	if (backing >= 0)
		close(backing);
	if (ctl >= 0)
		close(ctl);
	return dev;
}

static void attach(const char *image, int slot)
{
	loops.dev[slot] = attach_file(image, &loops.fd[slot]);
}

static int group_setup(void **state)
{
	loops.dir = g_dir_make_tmp("ab-safety-loops-XXXXXX", NULL);
	if (!loops.dir)
		return -1;
	if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0)
		return 0;
	/* Our mounts vanish with the process, whatever happens to it. */
	loops.own_mount_ns = unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
	for (int k = 0; k < LOOP_COUNT; k++) {
		g_autofree char *img = g_strdup_printf("%s/img%d", loops.dir, k);
		if (make_image(img, k))
			attach(img, k);
		unlink(img);
	}
	return 0;
}

static int group_teardown(void **state)
{
	for (int k = 0; k < LOOP_COUNT; k++) {
		if (!loops.dev[k])
			continue;
		ioctl(loops.fd[k], LOOP_CLR_FD, 0);
		close(loops.fd[k]);
		g_free(loops.dev[k]);
	}
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", loops.dir);
	int rc = system(cmd);
	g_free(loops.dir);
	return rc == 0 ? 0 : -1;
}

static const char *loop_or_skip(int k)
{
	if (!loops.dev[k])
		skip();
	return loops.dev[k];
}

static void test_ext4_refused_then_confirmed(void **state)
{
	const char *dev = loop_or_skip(LOOP_EXT4);
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device("", dev, NULL, &e));
	g_autofree char *want = g_strdup_printf("refusing '%s': it holds an ext4 file system; "
						"name it in --yes-destroy to overwrite", dev);
	expect_error(e, AB_ERROR_UNSAFE, want);
	/* Confirmed through another name for the same node. */
	g_autofree char *alias = g_build_filename(loops.dir, "alias", NULL);
	assert_int_equal(symlink(dev, alias), 0);
	g_auto(GStrv) confirmed = NULL;
	assert_true(ab_safety_parse_confirmed(alias, &confirmed, NULL));
	g_autoptr(GError) e2 = NULL;
	if (!ab_safety_check_device("", dev, (const char *const *)confirmed, &e2))
		fail_msg("confirmed '%s' refused: %s", dev, e2->message);
	unlink(alias);
}

static void test_confirmation_is_per_device(void **state)
{
	const char *ext4 = loop_or_skip(LOOP_EXT4);
	const char *zero = loop_or_skip(LOOP_ZERO);
	g_autofree char *list = g_strdup_printf("%s,%s", zero, "/dev/null");
	g_auto(GStrv) confirmed = NULL;
	assert_true(ab_safety_parse_confirmed(list, &confirmed, NULL));
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device("", ext4, (const char *const *)confirmed, &e));
	assert_true(g_error_matches(e, AB_ERROR, AB_ERROR_UNSAFE));
	assert_non_null(strstr(e->message, "ext4 file system"));
}

static void test_zeroed_passes(void **state)
{
	const char *dev = loop_or_skip(LOOP_ZERO);
	g_autoptr(GError) e = NULL;
	if (!ab_safety_check_device("", dev, NULL, &e))
		fail_msg("'%s' refused: %s", dev, e->message);
}

static void test_partition_table(void **state)
{
	const char *dev = loop_or_skip(LOOP_DOS);
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device("", dev, NULL, &e));
	g_autofree char *want = g_strdup_printf("refusing '%s': it carries a partition table (dos); "
						"name it in --yes-destroy to overwrite", dev);
	expect_error(e, AB_ERROR_UNSAFE, want);
	const char *confirmed[] = { dev, NULL };
	assert_true(ab_safety_check_device("", dev, confirmed, NULL));
}

static void test_really_mounted(void **state)
{
	const char *dev = loop_or_skip(LOOP_EXT4);
	if (!loops.own_mount_ns)
		skip();
	g_autofree char *mnt = g_build_filename(loops.dir, "mnt", NULL);
	assert_int_equal(g_mkdir(mnt, 0700), 0);
	if (mount(dev, mnt, "ext4", MS_NOATIME, NULL) != 0)
		skip();
	g_autofree char *why = g_strdup_printf("it is mounted at '%s'", mnt);
	expect_refusal("", dev, why);
	assert_int_equal(umount2(mnt, 0), 0);
	g_rmdir(mnt);
}

/* A loop device cleared while open is torn down as its last opener closes
 * it, and by kernels 5.18 to 6.9 in a work item after close returns: wait
 * (10 s at most, which only a failure takes) until sysfs no longer shows
 * what backs it. */
static void wait_detached(const char *dev)
{
	g_autofree char *backing = g_strdup_printf("/sys/block/%s/loop/backing_file", dev + strlen("/dev/"));
	for (int i = 0; i < 1000 && access(backing, F_OK) == 0; i++)
		g_usleep(10000);
}

/* The kernel says what backs a loop device, even once the node it was
 * attached through is gone ("NODE (deleted)" in backing_file). */
static void test_really_backs_a_loop(void **state)
{
	const char *zero = loop_or_skip(LOOP_ZERO);
	struct stat st;
	assert_int_equal(stat(zero, &st), 0);
	g_autofree char *alias = g_build_filename(loops.dir, "alias-node", NULL);
	assert_int_equal(mknod(alias, S_IFBLK | 0600, st.st_rdev), 0);
	int fd = -1;
	g_autofree char *upper = attach_file(alias, &fd);
	unlink(alias);
	if (!upper)
		skip();
	g_autofree char *want = g_strdup_printf("it backs the loop device '%s'", upper + strlen("/dev/"));
	expect_refusal("", zero, want);
	g_autofree char *why = NULL;
	assert_true(ab_safety_device_in_use("", zero, &why, NULL));
	assert_string_equal(why, want);
	/* The loop device itself is free, until the device behind it is
	 * held exclusively (as swap would be). */
	expect_free("", upper);
	int held = open(zero, O_RDONLY | O_EXCL | O_CLOEXEC);
	assert_true(held >= 0);
	g_autofree char *held_why = g_strdup_printf("its backing device '%s' is in use: opened exclusively by another "
						    "program (an active swap area, a mounted file system, an array)",
						    zero + strlen("/dev/"));
	expect_refusal("", upper, held_why);
	close(held);
	ioctl(fd, LOOP_CLR_FD, 0);
	close(fd);
	wait_detached(upper);
	g_autoptr(GError) e = NULL;
	if (!ab_safety_check_device("", zero, NULL, &e))
		fail_msg("'%s' refused once the loop on it is gone: %s", zero, e->message);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4_refused_then_confirmed),
		cmocka_unit_test(test_confirmation_is_per_device),
		cmocka_unit_test(test_zeroed_passes),
		cmocka_unit_test(test_partition_table),
		cmocka_unit_test(test_really_mounted),
		cmocka_unit_test(test_really_backs_a_loop),
	};
	return cmocka_run_group_tests_name("safety-loop", tests, group_setup, group_teardown);
}
