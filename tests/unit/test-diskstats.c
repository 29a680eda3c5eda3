/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-member counters from a fake /proc/diskstats, and their deltas. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdlib.h>

#include "../../fs-setup/diskstats.h"

static char *fake_root(const char *diskstats)
{
	char *root = g_dir_make_tmp("ab-disk-XXXXXX", NULL);
	g_autofree char *proc = g_build_filename(root, "proc", NULL);
	g_mkdir(proc, 0755);
	g_autofree char *f = g_build_filename(proc, "diskstats", NULL);
	g_file_set_contents(f, diskstats, -1, NULL);
	return root;
}

static void rm_root(char *root)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	g_free(root);
}

static void test_read_and_delta(void **state)
{
	(void)state;
	/* Kernel 6.x lines: 20 fields; an old 14-field line too. */
	char *r1 = fake_root("   7       1 loop1 100 0 800 10 200 0 1600 20 0 30 40 0 0 0 0 5 6\n"
			     "   7       2 loop2 10 0 80 1 20 0 160 2 0 3 4 0 0 0 0 0 0\n"
			     "   9     127 md127 50 0 400 5 60 0 480 6 0 7 8\n"
			     "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11 0 0 0 0 0 0\n");
	char *r2 = fake_root("   7       1 loop1 150 0 1800 10 260 0 2600 20 0 130 40 0 0 0 0 5 6\n"
			     "   7       2 loop2 10 0 80 1 520 0 4160 2 0 503 4 0 0 0 0 0 0\n"
			     "   9     127 md127 90 0 1200 5 90 0 960 6 0 57 8\n");
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_ptr_array_add(names, "loop1");
	g_ptr_array_add(names, "loop2");
	g_ptr_array_add(names, "md127");
	g_ptr_array_add(names, "nvme9n1"); /* not there: left out */
	struct ab_disk_set a, b, d;
	ab_diskstats_read(r1, names, &a);
	ab_diskstats_read(r2, names, &b);
	assert_int_equal(a.count, 3);
	assert_string_equal(a.disk[2].name, "md127");
	assert_int_equal(a.disk[0].read_sectors, 800);
	assert_int_equal(a.disk[0].busy_ms, 30);
	ab_diskstats_delta(&a, &b, &d);
	assert_int_equal(d.count, 3);
	assert_string_equal(d.disk[0].name, "loop1");
	assert_int_equal(d.disk[0].read_ios, 50);
	assert_int_equal(d.disk[0].read_sectors, 1000);
	assert_int_equal(d.disk[0].write_sectors, 1000);
	assert_int_equal(d.disk[0].busy_ms, 100);
	assert_int_equal(d.disk[1].write_ios, 500);
	assert_int_equal(d.disk[1].read_sectors, 0);
	assert_int_equal(d.disk[2].busy_ms, 50);
	rm_root(r1);
	rm_root(r2);
}

static void test_names(void **state)
{
	(void)state;
	/* /dev/null is a real /dev path with no disk name worth keeping; the
	 * point is that it resolves and duplicates collapse. */
	const char *paths[] = { "/dev/null", "/dev/null", "/nonexistent", NULL };
	g_autoptr(GPtrArray) n = ab_diskstats_names(paths);
	assert_int_equal(n->len, 1);
	assert_string_equal(g_ptr_array_index(n, 0), "null");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_delta),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests_name("diskstats", tests, NULL, NULL);
}
