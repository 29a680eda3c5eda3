/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RAWDEV_H
#define AB_RAWDEV_H

/* One raw-read or raw-write of one block device (workloads/raw.c's loop),
 * as a result of the model: what `arraybench raw` and run --raw-baseline
 * measure.  The caller has made the safety checks; this opens, checks the
 * device is still the one checked, measures and says what it measured. */

#include <glib.h>
#include <stdint.h>
#include <sys/types.h>

#include "../model/run.h"
#include "../base/units.h"

#define AB_RAW_DEFAULT_BLOCK (4 * AB_MIB)
#define AB_RAW_DEFAULT_BYTES ((uint64_t)1 << 30)
#define AB_RAW_DEFAULT_SECONDS 60
/* The limits of --block-size: O_DIRECT wants whole 4 KiB pages on any
 * disk; the buffer is held in memory. */
#define AB_RAW_MIN_BLOCK 4096u
#define AB_RAW_MAX_BLOCK (256 * AB_MIB)
#define AB_RAW_MAX_SECONDS (7 * 24 * 3600)

struct ab_raw_params {
	uint64_t bytes;   /* at most this many from byte 0 (the device's end stops it first) */
	uint32_t block;   /* bytes per transfer, a multiple of AB_RAW_MIN_BLOCK */
	uint64_t seconds; /* no new transfer after this long; 0: no cap */
	uint64_t seed;    /* of the written data */
};

/* A --block-size value: a multiple of 4 KiB from 4k to 256m (bytes without a
 * suffix), else AB_ERROR_USAGE naming it. */
gboolean ab_rawdev_parse_block(const char *text, uint32_t *out, GError **error);

/* Measures `device` (the path as given: the result's key.test) in one
 * direction and returns a fresh "raw-read" or "raw-write" result.  rdev is
 * the device number the checks saw: the device opened must still be it
 * (AB_ERROR_UNSAFE otherwise).  Writes open the device exclusively, so a
 * mount or mkfs cannot start during them.  Errors: AB_ERROR_USAGE (no
 * block device, a block size it cannot take, smaller than one block),
 * AB_ERROR_SKIPPED (no permission), AB_ERROR_UNSAFE, AB_ERROR_PHASE (an I/O
 * error), AB_ERROR_INTERRUPTED (a stop signal). */
struct ab_result *ab_rawdev_measure(const char *device, dev_t rdev, gboolean write,
				    const struct ab_raw_params *p, GError **error);

#endif
