/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mount option splitting (flags vs file system data) and reading back the
 * options in effect from mountinfo. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/mount.h>

#include "../../fs-setup/mount.h"

static void test_split(void **state)
{
	(void)state;
	unsigned long flags;
	char *data;
	assert_true(ab_mount_split_options("noatime,nodiratime,data=writeback,barrier=0,ro", &flags, &data, NULL));
	assert_int_equal(flags, MS_NOATIME | MS_NODIRATIME | MS_RDONLY);
	assert_string_equal(data, "data=writeback,barrier=0");
	g_free(data);
	assert_true(ab_mount_split_options("logbufs=8,logbsize=256k", &flags, &data, NULL));
	assert_int_equal(flags, 0);
	assert_string_equal(data, "logbufs=8,logbsize=256k");
	g_free(data);
	assert_true(ab_mount_split_options("noatime", &flags, &data, NULL));
	assert_int_equal(flags, MS_NOATIME);
	assert_null(data);
	assert_true(ab_mount_split_options(NULL, &flags, &data, NULL));
	assert_int_equal(flags, 0);
	assert_null(data);
	GError *e = NULL;
	assert_false(ab_mount_split_options("noatime,user", &flags, &data, &e));
	assert_non_null(strstr(e->message, "'noatime,user'"));
	g_error_free(e);
}

static void test_effective(void **state)
{
	(void)state;
	char *root = g_dir_make_tmp("ab-mnt-XXXXXX", NULL);
	g_autofree char *proc = g_build_filename(root, "proc/self", NULL);
	g_mkdir_with_parents(proc, 0755);
	g_autofree char *mi = g_build_filename(proc, "mountinfo", NULL);
	g_file_set_contents(mi,
			    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
			    "90 22 7:1 / /tmp/with\\040space rw,noatime shared:50 - xfs /dev/loop1 rw,attr2,inode64\n"
			    "91 22 7:2 / /mnt/b rw,noatime - ext4 /dev/loop2 rw,no_prefetch_block_bitmaps\n",
			    -1, NULL);
	g_autofree char *a = ab_mount_effective_options(root, "/tmp/with space");
	assert_string_equal(a, "rw,noatime,attr2,inode64");
	g_autofree char *b = ab_mount_effective_options(root, "/mnt/b");
	assert_string_equal(b, "rw,noatime,no_prefetch_block_bitmaps");
	assert_null(ab_mount_effective_options(root, "/nowhere"));
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	g_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_effective),
	};
	return cmocka_run_group_tests_name("mount", tests, NULL, NULL);
}
