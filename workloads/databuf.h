/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_DATABUF_H
#define AB_DATABUF_H

#include <stddef.h>
#include <stdint.h>

#include "step.h"


/*
 * Source of the bytes written.  Random mode keeps a pool of random bytes
 * generated once, untimed, and hands out aligned windows of it with a unique
 * 8-byte stamp in every 4 KiB page, so every block is incompressible and no
 * page repeats (nothing to dedupe), without paying for a random generator
 * inside the timed loop.  Zeros mode is bonnie++'s nearly-zero buffer with
 * one changing byte per chunk.  Memory is chunk + 1 MiB whatever the file
 * size.
 */
struct ab_databuf {
	unsigned char *pool;
	size_t pool_len;
	size_t chunk;
	size_t slots;   /* window start positions, 4 KiB apart */
	enum ab_data_mode mode;
	uint64_t stamp;
};

int ab_databuf_init(struct ab_databuf *db, enum ab_data_mode mode, size_t chunk, uint64_t seed);
void ab_databuf_clear(struct ab_databuf *db);
/* What ab_databuf_init() allocates for `chunk`: the memory a writer holds. */
uint64_t ab_databuf_bytes(size_t chunk);
/* The chunk to write as block number `index`; valid until the next call. */
unsigned char *ab_databuf_block(struct ab_databuf *db, uint64_t index);
/* Scratch buffer of `chunk` bytes, aligned for O_DIRECT, for reads. */
void *ab_aligned_alloc(size_t len);

#endif
