/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a memory cgroup on fake /sys trees (v1, v2, none); which phases
 * run in the group and which write behind. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "../../src/runner/cache.h"
#include "../../workloads/phase.h"

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

/* The one-pass phases run outside the group and write behind in either
 * version; the others that do I/O run in it, writing behind in v1 only; the
 * file phases never join it; no mode but cgroup has either. */
static void test_group_and_write_behind(void **state)
{
	(void)state;
	struct ab_cache c = { .mode = AB_CACHE_CGROUP, .cgroup_version = 2, .limit_bytes = 64 * AB_MIB,
			      .cgroup_dir = (char *)"/sys/fs/cgroup/arraybench.test" };
	const struct ab_phase *bw = ab_phase_by_name("block-write"), *rw = ab_phase_by_name("rewrite"),
			      *br = ab_phase_by_name("block-read"), *pc = ab_phase_by_name("per-char-write"),
			      *sk = ab_phase_by_name("seeks"), *ol = ab_phase_by_name("oltp"),
			      *cr = ab_phase_by_name("seq-create");
	assert_non_null(bw);
	assert_non_null(rw);
	assert_non_null(br);
	assert_non_null(pc);
	assert_non_null(sk);
	assert_non_null(ol);
	assert_non_null(cr);
	const struct ab_phase *one_pass[] = { bw, rw, br, pc };
	for (size_t i = 0; i < G_N_ELEMENTS(one_pass); i++) {
		assert_false(ab_cache_phase_in_group(&c, one_pass[i]));
		/* -r 64, one worker: an eighth of the limit. */
		assert_int_equal(ab_cache_write_behind(&c, one_pass[i], 1), 8 * AB_MIB);
	}
	assert_true(ab_cache_phase_in_group(&c, sk));
	assert_true(ab_cache_phase_in_group(&c, ol));
	assert_int_equal(ab_cache_write_behind(&c, sk, 5), 0); /* v2 throttles its own */
	assert_false(ab_cache_phase_in_group(&c, cr));
	assert_int_equal(ab_cache_write_behind(&c, cr, 1), 0);
	c.cgroup_version = 1;
	assert_int_equal(ab_cache_write_behind(&c, sk, 4), 2 * AB_MIB);
	assert_int_equal(ab_cache_write_behind(&c, bw, 1), 8 * AB_MIB);
	c.mode = AB_CACHE_NONE;
	assert_false(ab_cache_phase_in_group(&c, sk));
	assert_int_equal(ab_cache_write_behind(&c, bw, 1), 0);
	assert_int_equal(ab_cache_write_behind(&c, sk, 1), 0);
	c.mode = AB_CACHE_DROP;
	assert_int_equal(ab_cache_write_behind(&c, bw, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v2_without_memory),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_group_and_write_behind),
	};
	return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
