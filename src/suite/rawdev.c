/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rawdev.h"
#include "../base/error.h"
#include "../base/parse.h"
#include "../model/result.h"
#include "../runner/runner.h"
#include "../base/sysinfo.h"
#include "../base/timing.h"
#include "../../fs-setup/diskstats.h"
#include "../../workloads/raw.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean ab_rawdev_parse_block(const char *text, uint32_t *out, GError **error)
{
	uint64_t v;
	if (!ab_parse_size(text, 1, &v, error)) {
		g_prefix_error(error, "--block-size: ");
		return FALSE;
	}
	if (v < AB_RAW_MIN_BLOCK || v > AB_RAW_MAX_BLOCK || v % AB_RAW_MIN_BLOCK) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --block-size '%s': must be a multiple of 4k from 4k to 256m", text);
		return FALSE;
	}
	*out = (uint32_t)v;
	return TRUE;
}

static void fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

/* The device opened for the direction, checked to be the one checked. */
static int open_device(const char *device, dev_t rdev, gboolean write, GError **error)
{
	int fd = open(device, (write ? O_WRONLY | O_EXCL : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot open '%s' for %s (root or the disk group "
					   "may)", device, write ? "writing" : "reading");
		else if (e == EBUSY)
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing '%s': it is in use (opened exclusively by another program)", device);
		else if (e == EINVAL)
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot open '%s' with O_DIRECT", device);
		else
			ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot open '%s'", device);
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || st.st_rdev != rdev) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing '%s': it is no longer the block device that was checked", device);
		return -1;
	}
	return fd;
}

/* The share of the cell: whole blocks, at most p->bytes, within the device. */
static gboolean plan_blocks(const char *device, int fd, const struct ab_raw_params *p, uint64_t *blocks,
			    GError **error)
{
	uint64_t size = 0;
	int lbs = 0;
	if (ioctl(fd, BLKGETSIZE64, &size) != 0 || ioctl(fd, BLKSSZGET, &lbs) != 0 || lbs <= 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot read the size of '%s'", device);
		return FALSE;
	}
	if (p->block % (uint32_t)lbs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--block-size %u is no multiple of the logical block size of '%s' (%d bytes)", p->block,
			    device, lbs);
		return FALSE;
	}
	*blocks = MIN(size, p->bytes) / p->block;
	if (*blocks == 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "cannot measure '%s': %" G_GUINT64_FORMAT " bytes%s, less than one block of %u bytes",
			    device, MIN(size, p->bytes), p->bytes < size ? " asked for" : " in all", p->block);
		return FALSE;
	}
	return TRUE;
}

/* The result's facts beyond what the sample holds. */
static void describe(struct ab_result *res, const char *device, uint64_t blocks, const struct ab_raw_params *p,
		     const struct ab_phase *ph)
{
	res->key.file_size = blocks * p->block;
	res->key.record_size = p->block;
	res->key.streams = 1;
	res->key.test = g_strdup(device);
	res->direct = TRUE;
	res->sync_mode = g_strdup(ph->sync_plain);
	res->cache_mode = g_strdup("direct");
	res->cache_state = g_strdup("bypassed (O_DIRECT)");
}

struct ab_result *ab_rawdev_measure(const char *device, dev_t rdev, gboolean write,
				    const struct ab_raw_params *p, GError **error)
{
	const struct ab_phase *ph = write ? &ab_phase_raw_write : &ab_phase_raw_read;
	__attribute__((cleanup(fd_close))) int fd = open_device(device, rdev, write, error);
	uint64_t blocks;
	if (fd < 0 || !plan_blocks(device, fd, p, &blocks, error))
		return NULL;
	g_autofree unsigned char *buf = NULL;
	struct ab_databuf data = { 0 };
	if (write ? ab_databuf_init(&data, AB_DATA_RANDOM, p->block, p->seed) != 0
		  : !(buf = ab_aligned_alloc(p->block))) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "cannot allocate a block of %u bytes", p->block);
		return NULL;
	}
	struct ab_raw_io io = {
		.fd = fd, .name = device, .write = write, .block = p->block, .blocks = blocks,
		.max_ns = p->seconds * 1000000000u, .stop = &ab_stop_requested, .buf = buf, .data = &data,
	};
	g_autofree struct ab_sample *sm = g_new0(struct ab_sample, 1);
	ab_histogram_init(&sm->latency);
	const char *paths[] = { device, NULL };
	g_autoptr(GPtrArray) names = ab_diskstats_names(paths);
	g_autofree struct ab_disk_set *disks = g_new0(struct ab_disk_set, 3);
	struct ab_cpu_snapshot cpu0, cpu1;
	ab_diskstats_read("", names, &disks[0]);
	ab_sysinfo_cpu(&cpu0);
	int rc = ab_raw_transfer(&io, sm);
	ab_sysinfo_cpu(&cpu1);
	ab_diskstats_read("", names, &disks[1]);
	ab_databuf_clear(&data);
	if (rc != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%s: %s", ph->name, sm->error);
		return NULL;
	}
	if (ab_stop_requested) {
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted during %s of '%s'", ph->name, device);
		return NULL;
	}
	struct ab_result *res = ab_result_new(ph->name);
	ab_result_merge(ph, sm, 1, res);
	describe(res, device, blocks, p, ph);
	res->sys_busy_percent = ab_sysinfo_busy_percent(&cpu0, &cpu1);
	res->iowait_percent = ab_sysinfo_iowait_percent(&cpu0, &cpu1);
	ab_diskstats_delta(&disks[0], &disks[1], &disks[2]);
	ab_result_add_devices(res, &disks[2]);
	return res;
}
