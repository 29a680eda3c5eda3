/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "databuf.h"
#include "../src/base/rng.h"

#include <stdlib.h>
#include <string.h>

#define POOL_EXTRA (1024 * 1024)
#define SLOT_ALIGN 4096

void *ab_aligned_alloc(size_t len)
{
	void *p = NULL;
	if (posix_memalign(&p, SLOT_ALIGN, len ? len : SLOT_ALIGN) != 0)
		return NULL;
	memset(p, 0, len);
	return p;
}

int ab_databuf_init(struct ab_databuf *db, enum ab_data_mode mode, size_t chunk, uint64_t seed)
{
	memset(db, 0, sizeof(*db));
	db->mode = mode;
	db->chunk = chunk;
	db->pool_len = mode == AB_DATA_ZEROS ? chunk : chunk + POOL_EXTRA;
	db->pool = ab_aligned_alloc(db->pool_len);
	if (!db->pool)
		return -1;
	db->slots = (db->pool_len - chunk) / SLOT_ALIGN + 1;
	db->stamp = seed * 0x9e3779b97f4a7c15ull;
	if (mode == AB_DATA_RANDOM) {
		struct ab_rng rng;
		ab_rng_init(&rng, seed, 0xda7a);
		ab_rng_fill(&rng, db->pool, db->pool_len);
	}
	return 0;
}

uint64_t ab_databuf_bytes(size_t chunk)
{
	return (uint64_t)chunk + POOL_EXTRA; /* random mode's, the larger */
}

void ab_databuf_clear(struct ab_databuf *db)
{
	free(db->pool);
	memset(db, 0, sizeof(*db));
}

unsigned char *ab_databuf_block(struct ab_databuf *db, uint64_t index)
{
	if (db->mode == AB_DATA_ZEROS) {
		db->pool[index % db->chunk]++;
		return db->pool;
	}
	/* 4099 is prime, so consecutive blocks start at scattered windows. */
	unsigned char *p = db->pool + ((index * 4099u) % db->slots) * SLOT_ALIGN;
	/* A stamp in every 4 KiB page, so no page of one block equals a page of
	 * another: nothing for a deduplicating file system to fold. */
	uint64_t stamp = db->stamp ^ (index << 12);
	for (size_t off = 0; off < db->chunk; off += SLOT_ALIGN) {
		uint64_t v = stamp ^ off;
		memcpy(p + off, &v, sizeof(v));
	}
	return p;
}
