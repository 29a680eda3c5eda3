/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raw-read and raw-write: a block device's own sequential throughput, the
 * baseline a file system on it is measured against (`arraybench raw`). */
#include "raw.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static uint64_t cpu_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

static int fail(struct ab_sample *sm, int errnum, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int fail(struct ab_sample *sm, int errnum, const char *fmt, ...)
{
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sm->error_code = errnum ? errnum : EIO;
	if (errnum)
		snprintf(sm->error, sizeof(sm->error), "%s: %s", what, strerror(errnum));
	else
		snprintf(sm->error, sizeof(sm->error), "%s", what);
	return -1;
}

int ab_raw_transfer(const struct ab_raw_io *io, struct ab_sample *sm)
{
	struct rusage ru;
	int rc = 0;
	getrusage(RUSAGE_SELF, &ru);
	sm->pid = (int32_t)getpid();
	uint64_t user = cpu_ns(&ru.ru_utime), sys = cpu_ns(&ru.ru_stime);
	sm->start_ns = ab_now_ns();
	uint64_t prev = sm->start_ns, i;
	for (i = 0; i < io->blocks; i++) {
		/* Checked between transfers: a stop costs at most one block, and
		 * a time cap leaves whole blocks only. */
		if ((io->stop && *io->stop) || (io->max_ns && prev - sm->start_ns >= io->max_ns))
			break;
		uint64_t off = i * io->block;
		if (io->write) {
			if (ab_pwrite_all(io->fd, ab_databuf_block(io->data, i), io->block, off) != 0) {
				rc = fail(sm, errno, "cannot write '%s' at byte %" PRIu64, io->name, off);
				break;
			}
		} else {
			ssize_t n = ab_pread_full(io->fd, io->buf, io->block, off);
			if (n != (ssize_t)io->block) {
				rc = fail(sm, n < 0 ? errno : 0, "cannot read '%s' at byte %" PRIu64 "%s", io->name, off,
					  n < 0 ? "" : ": the device ended there");
				break;
			}
		}
		uint64_t now = ab_now_ns();
		ab_histogram_record(&sm->latency, now - prev);
		prev = now;
	}
	/* A block device's fdatasync flushes the disk's volatile write cache:
	 * without it the last writes could still be in that cache. */
	if (rc == 0 && io->write && i > 0) {
		if (fdatasync(io->fd) != 0)
			rc = fail(sm, errno, "cannot flush '%s' (fdatasync after byte %" PRIu64 ")", io->name,
				  i * io->block);
		prev = ab_now_ns();
	}
	/* The last transfer's end (or the flush's): the latencies add up to
	 * the elapsed time of a read. */
	sm->end_ns = prev;
	getrusage(RUSAGE_SELF, &ru);
	sm->user_ns = cpu_ns(&ru.ru_utime) - user;
	sm->sys_ns = cpu_ns(&ru.ru_stime) - sys;
	sm->ops = i;
	sm->bytes = i * io->block;
	return rc;
}

/* Never a step of `run` (AB_PHASE_DEVICE): the loop above is driven by
 * src/suite/rawdev.c on a device, not by the runner on the test file. */
static int not_a_step(struct ab_phase_ctx *ctx)
{
	return ab_worker_fail(ctx, 0, "phase '%s' measures a device: use 'arraybench raw'", ctx->phase->name);
}

const struct ab_phase ab_phase_raw_read = {
	.id = AB_PHASE_RAW_READ,
	.name = "raw-read",
	.csv_name = NULL,
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	.sync_plain = "none",
	.sync_each = "none",
	.summary = "read a block device from byte 0 in O_DIRECT blocks (arraybench raw)",
	.flags = AB_PHASE_DEVICE | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = not_a_step,
};

const struct ab_phase ab_phase_raw_write = {
	.id = AB_PHASE_RAW_WRITE,
	.name = "raw-write",
	.csv_name = NULL,
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	.sync_plain = "fdatasync-timed",
	.sync_each = "fdatasync-timed",
	.summary = "write random data over a block device from byte 0 in O_DIRECT blocks (arraybench raw --write)",
	.flags = AB_PHASE_DEVICE | AB_PHASE_DIRECT_OK | AB_PHASE_WRITES,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = not_a_step,
};
