/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OLTP_H
#define AB_OLTP_H

/*
 * The oltp phase: a buffer pool's random I/O.  N forked processes (one per
 * connection, as PostgreSQL forks them) each pread and pwrite one block at
 * a uniform block-aligned offset of one big data file, a read or a write
 * drawn per operation at the read:write mix, for a fixed time; each
 * process may fdatasync every K of its writes (the checkpointer's flush).
 * Reads and writes are timed apart (struct ab_sample's kind[]):
 * src/suite/oltp-run.c makes the rows "read", "write" and "all" of each process
 * count.  The arithmetic is here, plain, for the unit tests.
 */

#include <stdint.h>
#include <string.h>

#include "../src/base/rng.h"

struct ab_phase_ctx;

/* One connection's process, the whole of a worker's life (workloads/oltp.c):
 * also the oltp role of the combined oltp+wal phase. */
int ab_oltp_process(struct ab_phase_ctx *ctx);
/* The most processes a pass of the step runs (its --oltp-procs list's
 * largest), and the buffers each holds (a read and a write block). */
uint32_t ab_oltp_most_procs(const struct ab_step *step);
static inline uint64_t ab_oltp_process_bytes(const struct ab_step *step)
{
	return 2 * (uint64_t)step->oltp_block;
}

#define AB_OLTP_DEFAULT_PROCS 8u
#define AB_OLTP_MAX_PROCS 256u
#define AB_OLTP_DEFAULT_BLOCK 8192u
#define AB_OLTP_MIN_BLOCK 512u
#define AB_OLTP_MAX_BLOCK (1024u * 1024u)
#define AB_OLTP_DEFAULT_READ_PCT 70u
#define AB_OLTP_DEFAULT_SECONDS 10u
#define AB_OLTP_MAX_SECONDS 3600u
#define AB_OLTP_MAX_SYNC_EVERY 1000000000ull

/* Whole blocks of the data file: the offsets a process may use. */
static inline uint64_t ab_oltp_blocks(uint64_t file_size, uint32_t block)
{
	return block ? file_size / block : 0;
}

/* The next operation's offset: a uniform whole block, never past the
 * last whole one. */
static inline uint64_t ab_oltp_offset(struct ab_rng *rng, uint64_t blocks, uint32_t block)
{
	return ab_rng_below(rng, blocks) * block;
}

/* Is the next operation a read?  One draw in [0, 100) against the read
 * percentage: 70 reads 70 of each 100 on average, 0 never, 100 always. */
static inline int ab_oltp_is_read(struct ab_rng *rng, uint32_t read_pct)
{
	return ab_rng_below(rng, 100) < read_pct;
}

/* Does the write numbered `writes` (1-based, this process's) end with an
 * fdatasync?  Every `every`-th one; none when `every` is 0. */
static inline int ab_oltp_syncs_after(uint64_t writes, uint64_t every)
{
	return every && writes % every == 0;
}

/* Before each write: the process and its write number in the first 8
 * bytes of every 4 KiB page of the block, so no two blocks written are
 * alike (nothing to deduplicate) while the rest stays the random bytes
 * drawn once. */
static inline void ab_oltp_stamp(unsigned char *buf, uint32_t block, uint32_t worker, uint64_t writes)
{
	uint64_t stamp = ((uint64_t)worker << 48) ^ writes;
	for (uint32_t at = 0; at < block; at += 4096) {
		uint64_t v = stamp ^ ((uint64_t)at << 32);
		memcpy(buf + at, &v, sizeof(v));
	}
}

#endif
