/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a memory cgroup on fake /sys trees (v1, v2, none). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "../../src/runner/cache.h"

static char *make_tree(const char *const *files, const char *const *contents)
{
	char *root = g_dir_make_tmp("ab-cache-XXXXXX", NULL);
	for (size_t i = 0; files[i]; i++) {
		g_autofree char *path = g_build_filename(root, files[i], NULL);
		g_autofree char *dir = g_path_get_dirname(path);
		g_mkdir_with_parents(dir, 0755);
		g_file_set_contents(path, contents[i], -1, NULL);
	}
	return root;
}

static void remove_tree(const char *root)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_v1(void **state)
{
	(void)state;
	const char *files[] = { "sys/fs/cgroup/memory/memory.limit_in_bytes", NULL };
	const char *text[] = { "9223372036854771712\n" };
	g_autofree char *root = make_tree(files, text);
	int version = 0;
	g_autofree char *where = ab_cache_find_cgroup(root, &version);
	assert_non_null(where);
	assert_int_equal(version, 1);
	assert_true(g_str_has_suffix(where, "/sys/fs/cgroup/memory"));
	remove_tree(root);
}

static void test_v2(void **state)
{
	(void)state;
	const char *files[] = { "sys/fs/cgroup/cgroup.subtree_control", NULL };
	const char *text[] = { "cpuset cpu io memory pids\n" };
	g_autofree char *root = make_tree(files, text);
	int version = 0;
	g_autofree char *where = ab_cache_find_cgroup(root, &version);
	assert_non_null(where);
	assert_int_equal(version, 2);
	remove_tree(root);
}

static void test_v2_without_memory(void **state)
{
	(void)state;
	/* This machine's layout: a unified hierarchy with hugetlb only. */
	const char *files[] = { "sys/fs/cgroup/unified/cgroup.subtree_control", "sys/fs/cgroup/cpu/tasks", NULL };
	const char *text[] = { "hugetlb\n", "" };
	g_autofree char *root = make_tree(files, text);
	int version = 0;
	assert_null(ab_cache_find_cgroup(root, &version));
	remove_tree(root);
}

static void test_describe(void **state)
{
	(void)state;
	struct ab_cache c = { .mode = AB_CACHE_CGROUP, .cgroup_version = 2, .limit_bytes = 512 * AB_MIB };
	g_autofree char *d = ab_cache_describe(&c);
	assert_string_equal(d, "cgroup-v2 limit 512M");
	c.mode = AB_CACHE_DROP;
	g_autofree char *d2 = ab_cache_describe(&c);
	assert_string_equal(d2, "drop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v2_without_memory),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
