/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mincore() residency of a file: evicted is near 0, read back near 1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/suite/step-files.h"

#define SIZE (8u << 20)

/* The machine is shared: another job's drop_caches (its --cache drop) can
 * evict pages between a read and the look at them, or during the read,
 * which then reads ahead further.  So a share out of bounds is read back
 * and looked at again, a few times: a wrong count fails every time. */
#define TRIES 5

/* DONTNEED, then read back LEN bytes from the start: the resident share. */
static double read_back(int fd, char *buf, size_t len)
{
	/* DONTNEED drains only this CPU's list of pages not yet on the LRU:
	 * pages another CPU read in may stay, whole, on a loaded machine.  So
	 * evict until the file is cold (the share after the read means
	 * nothing otherwise), a few tries apart. */
	double before = 1;
	for (int i = 0; i < 50 && !(before < 0.05); i++) {
		if (i)
			g_usleep(20000);
		assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		before = ab_file_resident_share(fd, UINT64_MAX);
	}
	if (!(before < 0.05))
		fail_msg("the file would not go cold: %.2f resident after 50 DONTNEEDs", before);
	assert_int_equal(pread(fd, buf, len, 0), (ssize_t)len);
	return ab_file_resident_share(fd, UINT64_MAX);
}

static void test_evicted_then_read(void **state)
{
	(void)state;
	/* /var/tmp, not /tmp: a tmpfs page cache cannot be evicted. */
	char path[] = "/var/tmp/ab-residency.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	/* No readahead: what is resident is what was read. */
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	g_autofree char *buf = g_malloc(SIZE);
	for (size_t i = 0; i < SIZE; i++)
		buf[i] = (char)(i * 7);
	assert_int_equal(write(fd, buf, SIZE), SIZE);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	double cold = ab_file_resident_share(fd, UINT64_MAX);
	if (!(cold < 0.1))
		fail_msg("after fsync and DONTNEED %.2f of the file is resident, want near 0", cold);
	double warm = 0;
	for (int i = 0; i < TRIES && !(warm > 0.9); i++)
		warm = read_back(fd, buf, SIZE);
	if (!(warm > 0.9))
		fail_msg("after reading it all %.2f of the file is resident, want near 1", warm);
	/* Half read back: about half. */
	double half = 0;
	for (int i = 0; i < TRIES && !(half > 0.4 && half < 0.75); i++)
		half = read_back(fd, buf, SIZE / 2);
	if (!(half > 0.4 && half < 0.75)) /* readahead may bring a little more */
		fail_msg("after reading half %.2f of the file is resident", half);
	/* A segment of the file (a rank's, of a file many ranks share): the
	 * first half is in the cache, the second mostly not. */
	double first = ab_file_resident_share_at(fd, 0, SIZE / 2);
	double second = ab_file_resident_share_at(fd, SIZE / 2, SIZE / 2);
	if (!(first > 0.8 && second < 0.5))
		fail_msg("halves resident %.2f and %.2f, want the first near 1, the second under half", first, second);
	assert_true(isnan(ab_file_resident_share_at(fd, 1, SIZE))); /* not on a page */
	assert_true(isnan(ab_file_resident_share_at(fd, SIZE, SIZE))); /* past the end */
	close(fd);
}

static void test_unknown(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_true(isnan(ab_file_resident_share(p[0], UINT64_MAX))); /* not a regular file */
	close(p[0]);
	close(p[1]);
	assert_true(isnan(ab_file_resident_share(-1, UINT64_MAX)));
	char path[] = "/var/tmp/ab-residency.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_true(isnan(ab_file_resident_share(fd, UINT64_MAX))); /* empty: no share to tell */
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evicted_then_read),
		cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests_name("residency", tests, NULL, NULL);
}
