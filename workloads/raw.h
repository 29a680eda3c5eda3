/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RAW_H
#define AB_RAW_H

/* The raw baseline's timed loop: sequential O_DIRECT transfers of one
 * block size from byte 0 of a block device, as `dd if=DEV of=/dev/null
 * bs=4M iflag=direct` reads it.  src/suite/rawdev.c opens and checks the device
 * and turns the sample into a result; this file only moves the bytes. */

#include <signal.h>
#include <stdint.h>

#include "databuf.h"
#include "phase.h"

struct ab_raw_io {
	int fd;                  /* opened with O_DIRECT by the caller */
	const char *name;        /* the device, for messages */
	int write;               /* 0: read into buf; 1: write data's blocks */
	size_t block;            /* bytes per transfer, aligned as O_DIRECT needs */
	uint64_t blocks;         /* at most this many */
	uint64_t max_ns;         /* no new transfer once this long has passed; 0: none */
	const volatile sig_atomic_t *stop; /* set by a signal: stop at the next block */
	unsigned char *buf;      /* block bytes, aligned (reads) */
	struct ab_databuf *data; /* the incompressible blocks (writes) */
};

/* Runs the loop, filling sm (start and end stamps, CPU of the timed region,
 * bytes, ops, one latency sample per transfer).  A write ends with a timed
 * fdatasync, so the figure includes emptying the disk's own write cache.
 * Returns 0, or -1 with sm->error_code and sm->error set. */
int ab_raw_transfer(const struct ab_raw_io *io, struct ab_sample *sm);

extern const struct ab_phase ab_phase_raw_read;
extern const struct ab_phase ab_phase_raw_write;

#endif
