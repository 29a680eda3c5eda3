/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Written data: random blocks never repeat a 4 KiB page, look random, and
 * are aligned for O_DIRECT; zeros mode is nearly all zero. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "../../workloads/databuf.h"

static void test_random_pages_distinct(void **state)
{
	(void)state;
	struct ab_databuf db;
	const size_t chunk = 8192;
	assert_int_equal(ab_databuf_init(&db, AB_DATA_RANDOM, chunk, 7), 0);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
							   (GDestroyNotify)g_bytes_unref, NULL);
	unsigned counts[256] = { 0 };
	/* 4000 blocks: well past the pool's 257 windows. */
	for (uint64_t i = 0; i < 4000; i++) {
		unsigned char *p = ab_databuf_block(&db, i);
		assert_int_equal((uintptr_t)p % 4096, 0);
		for (size_t off = 0; off < chunk; off += 4096) {
			GBytes *page = g_bytes_new(p + off, 4096);
			if (!g_hash_table_add(seen, page))
				fail_msg("block %llu page %zu repeats an earlier page", (unsigned long long)i, off);
		}
		for (size_t k = 0; k < chunk; k++)
			counts[p[k]]++;
	}
	/* Every byte value about equally often: 4000*8192/256 = 128000 each. */
	for (int v = 0; v < 256; v++)
		assert_in_range(counts[v], 108800, 147200); /* within 15% */
	ab_databuf_clear(&db);
}

static void test_zeros(void **state)
{
	(void)state;
	struct ab_databuf db;
	assert_int_equal(ab_databuf_init(&db, AB_DATA_ZEROS, 4096, 7), 0);
	unsigned char *p = ab_databuf_block(&db, 5);
	size_t nonzero = 0;
	for (size_t k = 0; k < 4096; k++)
		nonzero += p[k] != 0;
	assert_int_equal(nonzero, 1);
	ab_databuf_clear(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_pages_distinct),
		cmocka_unit_test(test_zeros),
	};
	return cmocka_run_group_tests_name("databuf", tests, NULL, NULL);
}
