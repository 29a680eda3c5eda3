/* SPDX-License-Identifier: GPL-2.0-or-later */
/* File-phase names: count, directories, name shapes, sizes, shuffles, ranks' ranges. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../src/options/config.h"
#include "../../src/options/steps.h"
#include "../../workloads/fileset.h"

#include <stdio.h>

static void test_names_and_sizes(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("2:4k:1k:3", &cfg, NULL));
	struct ab_file_set *seq = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, FALSE, 1);
	struct ab_file_set *rnd = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, TRUE, 1);
	assert_int_equal(seq->count, 2048);
	g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
	uint32_t per_dir[3] = { 0 };
	for (uint32_t i = 0; i < seq->count; i++) {
		const char *s = ab_file_set_path(seq, i), *r = ab_file_set_path(rnd, i);
		/* "0000N/" then, sequential: 10 hex digits of the index first;
		 * random: the same 10 digits last. */
		char hex[11];
		snprintf(hex, sizeof(hex), "%010x", i);
		assert_int_equal(s[5], '/');
		assert_memory_equal(s + 6, hex, 10);
		assert_true(g_str_has_suffix(r, hex));
		assert_true(strlen(s + 6) <= 22);
		uint32_t d = ab_file_set_dir_of(seq, i);
		char dn[8];
		ab_file_set_dir_name(d, dn);
		assert_memory_equal(s, dn, 5);
		per_dir[d]++;
		assert_true(g_hash_table_add(names, (gpointer)s));
		assert_in_range(seq->size[i], 1024, 4096);
	}
	for (int d = 0; d < 3; d++)
		assert_in_range(per_dir[d], 682, 683);
	ab_file_set_free(seq);
	ab_file_set_free(rnd);
	ab_config_clear(&cfg);
}

static void test_shuffle(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("1", &cfg, NULL));
	struct ab_file_set *set = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, TRUE, 9);
	ab_file_set_shuffle(set, 5);
	g_autofree uint8_t *seen = g_new0(uint8_t, set->count);
	uint32_t moved = 0;
	for (uint32_t k = 0; k < set->count; k++) {
		assert_true(set->order[k] < set->count);
		assert_int_equal(seen[set->order[k]]++, 0);
		assert_int_equal(set->order_offset[k], set->offset[set->order[k]]);
		moved += set->order[k] != k;
	}
	assert_true(moved > set->count / 2);
	ab_file_set_free(set);
	ab_config_clear(&cfg);
}

/* cleanup after a crash removes only names a file set could make: every
 * name it makes passes, other names do not. */
static void test_names_cleanup_may_remove(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("3:0:0:7", &cfg, NULL));
	for (int random_names = 0; random_names < 2; random_names++) {
		struct ab_file_set *set = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, random_names, 42);
		for (uint32_t i = 0; i < set->count; i++) {
			const char *p = ab_file_set_path(set, i);
			char dir[8];
			memcpy(dir, p, 5);
			dir[5] = '\0';
			assert_true(ab_file_set_dir_name_is_ours(dir));
			assert_true(ab_file_set_name_is_ours(p + 6));
		}
		ab_file_set_free(set);
	}
	const char *strangers[] = { "notes.txt", "", ".", "..", "0000000001", "0000000001.bak", "README",
				    "abcdefghijklmno", "0000000001ABCDEFGHIJKLM", "zzzzzzzzzz", "../0000000001" };
	for (size_t i = 0; i < G_N_ELEMENTS(strangers); i++)
		if (i == 4)
			assert_true(ab_file_set_name_is_ours(strangers[i])); /* an index alone is a valid name */
		else
			assert_false(ab_file_set_name_is_ours(strangers[i]));
	assert_false(ab_file_set_dir_name_is_ours("0001"));
	assert_false(ab_file_set_dir_name_is_ours("000012"));
	assert_false(ab_file_set_dir_name_is_ours("0a001"));
	ab_config_clear(&cfg);
}

/* --mpi-layout shared: rank r's set (base r x count) makes names no other
 * rank's makes, cleanup may remove them, and each set knows its own among
 * another rank's (stat and delete in a shared files/ pass the others by). */
static void test_ranks_ranges(void **state)
{
	(void)state;
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("1:0:0:4", &cfg, NULL));
	struct ab_step step = ab_step_from_config(&cfg, NULL);
	for (int random_names = 0; random_names < 2; random_names++) {
		g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		struct ab_file_set *set[4];
		for (unsigned r = 0; r < 4; r++) {
			set[r] = ab_file_set_new_at(&step, random_names, 7, (uint64_t)r * 1024, TRUE);
			assert_true(set[r]->shared);
		}
		for (unsigned r = 0; r < 4; r++)
			for (uint32_t i = 0; i < set[r]->count; i++) {
				const char *name = ab_file_set_path(set[r], i) + 6;
				assert_true(ab_file_set_name_is_ours(name));
				assert_true(g_hash_table_add(names, g_strdup(name)));
				for (unsigned o = 0; o < 4; o++)
					assert_int_equal(ab_file_set_holds_name(set[o], name), o == r);
			}
		assert_int_equal(g_hash_table_size(names), 4 * 1024);
		for (unsigned r = 0; r < 4; r++)
			ab_file_set_free(set[r]);
	}
	/* The last index ten hex digits hold. */
	struct ab_file_set *far = ab_file_set_new_at(&step, FALSE, 7, AB_FILE_SET_INDEX_LIMIT - 1024, TRUE);
	assert_true(ab_file_set_name_is_ours(ab_file_set_path(far, 1023) + 6));
	assert_memory_equal(ab_file_set_path(far, 1023) + 6, "ffffffffff", 10);
	assert_false(ab_file_set_holds_name(far, "0000000000"));
	ab_file_set_free(far);
	ab_config_clear(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_cleanup_may_remove),
		cmocka_unit_test(test_names_and_sizes),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_ranks_ranges),
	};
	return cmocka_run_group_tests_name("fileset", tests, NULL, NULL);
}
