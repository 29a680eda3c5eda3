/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The write-behind that bounds a worker's dirty pages in a v1 memory cgroup:
 * its window arithmetic, the calls it makes, and the bound itself on a
 * device model that completes nothing until it is waited for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <unistd.h>

#include "../../workloads/write-behind.h"

#define MIB (1024u * 1024u)

/* The slowest device there is: pages handed to writeback stay in flight
 * until a WAIT_BEFORE; dirty pages stay dirty until a WRITE. */
struct device_model {
	uint64_t dirty, in_flight, worst;
	unsigned calls;
	unsigned flags[64];
	int fail_with;
};
static struct device_model dev;

static int model_sync_range(int fd, int64_t off, int64_t len, unsigned flags)
{
	(void)fd;
	assert_int_equal(off, 0); /* the whole file: random writers too */
	assert_int_equal(len, 0);
	if (dev.calls < G_N_ELEMENTS(dev.flags))
		dev.flags[dev.calls] = flags;
	dev.calls++;
	if (dev.fail_with) {
		errno = dev.fail_with;
		return -1;
	}
	if (flags & SYNC_FILE_RANGE_WAIT_BEFORE)
		dev.in_flight = 0;
	if (flags & SYNC_FILE_RANGE_WRITE) {
		dev.in_flight += dev.dirty;
		dev.dirty = 0;
	}
	return 0;
}

static void write_through(struct ab_write_behind *wb, uint64_t total, uint64_t each)
{
	for (uint64_t done = 0; done < total; done += each) {
		dev.dirty += each;
		if (dev.dirty + dev.in_flight > dev.worst)
			dev.worst = dev.dirty + dev.in_flight;
		assert_int_equal(ab_write_behind_note(wb, 7, each), 0);
	}
}

static void setup_wb(struct ab_write_behind *wb, uint64_t window)
{
	dev = (struct device_model){ 0 };
	ab_write_behind_init(wb, window);
	wb->sync_range = model_sync_range;
	wb->fd = 7; /* as if seen: the tests' writes go to descriptor 7 */
}

static void test_window(void **state)
{
	(void)state;
	/* Two windows a worker, all workers' together a quarter of the limit. */
	assert_int_equal(ab_write_behind_window(16 * MIB, 1), 2 * MIB);
	assert_int_equal(ab_write_behind_window(64 * MIB, 4), 2 * MIB);
	uint64_t w = ab_write_behind_window(16 * MIB, 5);
	assert_int_equal(w % 4096, 0);
	assert_true(5 * 2 * w <= 16 * MIB / 4);
	/* Never below 64 KiB, whatever the share. */
	assert_int_equal(ab_write_behind_window(16 * MIB, 1000), 64 * 1024);
	assert_int_equal(ab_write_behind_window(16 * MIB, 0), 2 * MIB);
}

static void test_bounded(void **state)
{
	(void)state;
	struct ab_write_behind wb;
	setup_wb(&wb, 2 * MIB);
	write_through(&wb, 64 * MIB, 8192);
	/* Never more than two windows dirty or in flight. */
	assert_true(dev.worst <= 2 * 2 * MIB);
	assert_int_equal(wb.waits, 32);
	assert_int_equal(dev.calls, 32);
	/* The first window only starts writeback; every later one first
	 * waits for the one before. */
	assert_int_equal(dev.flags[0], SYNC_FILE_RANGE_WRITE);
	for (unsigned i = 1; i < 32; i++)
		assert_int_equal(dev.flags[i], SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE);
}

static void test_off_is_unbounded(void **state)
{
	(void)state;
	/* What the write-behind prevents: with it off, everything written
	 * stays dirty on this device, so the bound above can fail. */
	struct ab_write_behind wb;
	setup_wb(&wb, 0);
	write_through(&wb, 64 * MIB, 8192);
	assert_int_equal(dev.calls, 0);
	assert_int_equal(dev.worst, 64 * MIB);
}

static void test_large_writes(void **state)
{
	(void)state;
	/* A record larger than the window (the sweep's 16m) closes a window
	 * with every write: in flight and dirty stay within two records. */
	struct ab_write_behind wb;
	setup_wb(&wb, 2 * MIB);
	write_through(&wb, 64 * MIB, 16 * MIB);
	assert_int_equal(dev.calls, 4);
	assert_true(dev.worst <= 2 * 16 * MIB);
}

static void test_new_fd(void **state)
{
	(void)state;
	struct ab_write_behind wb;
	setup_wb(&wb, 2 * MIB);
	assert_int_equal(ab_write_behind_note(&wb, 7, 3 * MIB), 0);
	assert_int_equal(dev.calls, 1);
	/* Another file (a regular file of the test's own): the count starts
	 * again, and its first window does not wait for the old file's. */
	char *path = NULL;
	int fd = g_file_open_tmp("ab-wb-XXXXXX", &path, NULL);
	assert_true(fd >= 0);
	/* Its O_DIRECT descriptor (below) opened now and the name gone at
	 * once: a failed assertion below leaves no file in TMPDIR. */
	int dfd = open(path, O_WRONLY | O_DIRECT);
	unlink(path);
	g_free(path);
	assert_int_equal(ab_write_behind_note(&wb, fd, 1 * MIB), 0);
	assert_int_equal(dev.calls, 1);
	assert_int_equal(ab_write_behind_note(&wb, fd, 1 * MIB), 0);
	assert_int_equal(dev.calls, 2);
	assert_int_equal(dev.flags[1], SYNC_FILE_RANGE_WRITE);
	/* Another file under the same descriptor number, the last one
	 * written back and closed (ab_write_behind_forget): afresh again, its
	 * first window starts writeback without waiting for the old file's. */
	ab_write_behind_forget(&wb);
	assert_int_equal(ab_write_behind_note(&wb, fd, 2 * MIB), 0);
	assert_int_equal(dev.calls, 3);
	assert_int_equal(dev.flags[2], SYNC_FILE_RANGE_WRITE);
	/* The same file going on: its next window waits for that one. */
	assert_int_equal(ab_write_behind_note(&wb, fd, 2 * MIB), 0);
	assert_int_equal(dev.calls, 4);
	assert_int_equal(dev.flags[3], SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_BEFORE);
	/* An O_DIRECT descriptor gets its windows too: a file system may
	 * serve O_DIRECT through the page cache (ext4 with data=journal). */
	if (dfd >= 0) {
		assert_int_equal(ab_write_behind_note(&wb, dfd, 2 * MIB), 0);
		assert_int_equal(dev.calls, 5);
		close(dfd);
	}
	close(fd);
}

static void test_error(void **state)
{
	(void)state;
	struct ab_write_behind wb;
	setup_wb(&wb, 1 * MIB);
	dev.fail_with = EIO;
	assert_int_equal(ab_write_behind_note(&wb, 7, 512 * 1024), 0);
	errno = 0;
	assert_int_equal(ab_write_behind_note(&wb, 7, 512 * 1024), -1);
	assert_int_equal(errno, EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_off_is_unbounded),
		cmocka_unit_test(test_large_writes),
		cmocka_unit_test(test_new_fd),
		cmocka_unit_test(test_error),
	};
	return cmocka_run_group_tests_name("write-behind", tests, NULL, NULL);
}
