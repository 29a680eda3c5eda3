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
#include "../../fs-setup/target.h"

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

static void test_queue_info(void **state)
{
	(void)state;
	char *root = fake_root("");
	const char *files[][2] = {
		{ "scheduler", "mq-deadline [bfq] none\n" }, { "read_ahead_kb", "4096\n" },
		{ "rotational", "0\n" }, { "logical_block_size", "512\n" }, { "physical_block_size", "4096\n" },
	};
	g_autofree char *q = g_build_filename(root, "sys/class/block/sdz/queue", NULL);
	g_mkdir_with_parents(q, 0755);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *f = g_build_filename(q, files[i][0], NULL);
		g_file_set_contents(f, files[i][1], -1, NULL);
	}
	struct ab_queue_info info;
	assert_true(ab_queue_info_read(root, "sdz", &info));
	assert_string_equal(info.name, "sdz");
	assert_string_equal(info.scheduler, "bfq");
	assert_int_equal(info.read_ahead_kb, 4096);
	assert_int_equal(info.rotational, 0);
	assert_int_equal(info.logical_block_size, 512);
	assert_int_equal(info.physical_block_size, 4096);
	assert_false(ab_queue_info_read(root, "sdy", &info));
	rm_root(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_delta),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_queue_info),
	};
	return cmocka_run_group_tests_name("diskstats", tests, NULL, NULL);
}
