/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The backend table (fs-setup/backends.c): one row per line of
 * src/model/backend-list.h, the --backend words and their message, the backend a
 * spec builds with, the md steps the plan executor must not run over
 * someone else's array, and what the efficiency lines of reports/ learn of
 * a backend from its row. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "../../fs-setup/backend.h"
#include "../../fs-setup/plan.h"
#include "../../reports/report.h"

static const char *const list_names[] = {
#define AB_TEST_NAME(name, raid1_writes, own_device) #name,
	AB_BACKEND_LIST(AB_TEST_NAME)
#undef AB_TEST_NAME
};

/* The table follows the list, row for row, and each ops says the name
 * its row gives it (the name runs record and --backend takes). */
static void test_table_follows_list(void **state)
{
	(void)state;
	size_t n = 0;
	for (; ab_backends[n]; n++) {
		assert_true(n < G_N_ELEMENTS(list_names));
		assert_string_equal(ab_backends[n]->name, list_names[n]);
		assert_ptr_equal(ab_backend_by_name(list_names[n]), ab_backends[n]);
		/* What target-build.c runs unasked: every backend mounts, every
		 * one that builds formats. */
		assert_non_null(ab_backends[n]->mount);
		if (ab_backends[n]->shape != AB_BACKEND_DIRECTORY)
			assert_non_null(ab_backends[n]->format);
	}
	assert_int_equal(n, G_N_ELEMENTS(list_names));
	assert_null(ab_backend_by_name("zfs"));
	assert_null(ab_backend_by_name(NULL));
}

/* Only --array backends are words of --backend and of matrix levels, and
 * the message lists them as it always has. */
static void test_words(void **state)
{
	(void)state;
	g_autofree char *words = ab_backend_words();
	assert_string_equal(words, "'mdadm' or 'btrfs'");
	assert_string_equal(ab_backend_by_word("mdadm")->name, "mdadm");
	assert_string_equal(ab_backend_by_word("btrfs")->name, "btrfs");
	assert_null(ab_backend_by_word("device"));
	assert_null(ab_backend_by_word("dir"));
	assert_null(ab_backend_by_word("BTRFS"));
	assert_null(ab_backend_by_word(""));
}

static const char *picked(const char *dir, const char *device, const char *level, uint32_t loops,
			  const char *backend, enum ab_fs_type fs)
{
	struct ab_target_spec spec = { .dir = (char *)dir, .device = (char *)device, .array_level = (char *)level,
				       .loop_count = loops, .backend = ab_backend_by_word(backend) };
	return ab_backend_pick(&spec, fs)->name;
}

static void test_pick(void **state)
{
	(void)state;
	assert_string_equal(picked("/mnt/x", NULL, NULL, 0, NULL, AB_FS_COUNT), "dir");
	assert_string_equal(picked(NULL, "/dev/sdx", NULL, 0, NULL, AB_FS_XFS), "device");
	assert_string_equal(picked(NULL, NULL, NULL, 1, NULL, AB_FS_EXT4), "device");
	/* --backend without --array: the device, as ever. */
	assert_string_equal(picked(NULL, NULL, NULL, 1, "btrfs", AB_FS_BTRFS), "device");
	assert_string_equal(picked(NULL, NULL, "raid1", 4, "btrfs", AB_FS_XFS), "btrfs");
	assert_string_equal(picked(NULL, NULL, "raid1", 4, "mdadm", AB_FS_BTRFS), "mdadm");
	/* The default: md where the kernel has it; else btrfs makes a
	 * btrfs array; else md, which then says why it cannot. */
	gboolean md = access("/proc/mdstat", F_OK) == 0;
	assert_string_equal(picked(NULL, NULL, "raid10", 4, NULL, AB_FS_BTRFS), md ? "mdadm" : "btrfs");
	assert_string_equal(picked(NULL, NULL, "raid10", 4, NULL, AB_FS_XFS), "mdadm");
}

/* The md array's create step makes its node (the executor refuses one
 * there already and identifies the new one); no other step does. */
static void test_md_steps_make_nodes(void **state)
{
	(void)state;
	const char *members[] = { "/dev/loop1", "/dev/loop2", "/dev/loop3", "/dev/loop4", NULL };
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mdadm_plan(&plan, "1+0", members, 0, NULL, "/dev/md/ab1-", NULL, NULL, NULL));
	guint nodes = 0;
	for (guint i = 0; i < plan.steps->len; i++) {
		const struct ab_plan_step *s = g_ptr_array_index(plan.steps, i);
		assert_int_equal(s->makes_node, s->undo == AB_UNDO_MDADM_STOP);
		nodes += s->makes_node;
	}
	assert_int_equal(nodes, 3); /* two mirrors and the stripe over them */
	ab_plan_clear(&plan);
	ab_plan_init(&plan);
	assert_true(ab_btrfs_plan(&plan, "raid1", members, NULL, NULL));
	assert_false(((const struct ab_plan_step *)g_ptr_array_index(plan.steps, 0))->makes_node);
	ab_plan_clear(&plan);
}

/* A raid1 of two members read raw at 1000 and 600 KiB/s, the file system's
 * source at 1500, and its block phases: the efficiency lines a run of
 * that backend gets. */
static char *raid1_efficiency(const char *backend)
{
	g_autoptr(ab_run) run = ab_run_new();
	run->target.backend = g_strdup(backend);
	run->target.level = g_strdup("raid1");
	run->target.source = g_strdup("/dev/md/ab1-0");
	const char *raw[] = { "/dev/loop7", "/dev/loop8", "/dev/md/ab1-0" };
	for (int i = 0; i < 3; i++) {
		if (i < 2)
			g_ptr_array_add(run->target.members, g_strdup(raw[i]));
		struct ab_result *r = ab_result_new("raw-read");
		r->key.test = g_strdup(raw[i]);
		r->rate = i == 0 ? 1000 : i == 1 ? 600 : 1500;
		ab_run_add_result(run, r);
	}
	struct ab_result *bw = ab_result_new("block-write"), *br = ab_result_new("block-read");
	bw->rate = 500;
	br->rate = 1200;
	ab_run_add_result(run, bw);
	ab_run_add_result(run, br);
	GString *s = g_string_new(NULL);
	ab_text_efficiency(s, run);
	return g_string_free(s, FALSE);
}

/* md's mirror writes every block on each member, and its array is a
 * device of its own, read raw too; btrfs's keeps two copies on its
 * members and has no such device. */
static void test_efficiency_facts(void **state)
{
	(void)state;
	g_autofree char *md = raid1_efficiency("mdadm");
	assert_non_null(strstr(md, "writes vs the slowest member (each member writes every block)"));
	assert_non_null(strstr(md, "block-write          500.0 of      600.0 KiB/s   83.3%"));
	assert_non_null(strstr(md, "(80.0% of the array's own raw read)"));
	g_autofree char *btrfs = raid1_efficiency("btrfs");
	assert_non_null(strstr(btrfs, "writes vs half of it (two copies)"));
	assert_non_null(strstr(btrfs, "block-write          500.0 of      800.0 KiB/s   62.5%"));
	assert_null(strstr(btrfs, "array's own"));
	/* A name no row has is taken as btrfs's rule. */
	g_autofree char *other = raid1_efficiency("zfs");
	assert_non_null(strstr(other, "block-write          500.0 of      800.0 KiB/s   62.5%"));
	assert_null(strstr(other, "array's own"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_follows_list),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_md_steps_make_nodes),
		cmocka_unit_test(test_efficiency_facts),
	};
	return cmocka_run_group_tests_name("backend", tests, NULL, NULL);
}
