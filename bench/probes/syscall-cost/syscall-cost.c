/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one system call costs on this machine: a million lseek(fd, 0,
 * SEEK_CUR) calls (no I/O at all) and a million 1-byte preads of a cached
 * page, timed with CLOCK_MONOTONIC.  bonnie++'s rewrite makes an lseek per
 * chunk that arraybench's does not (pread + pwrite against read + lseek +
 * write): this says what that call is worth.
 *   cc -O2 -o syscall-cost syscall-cost.c && ./syscall-cost [FILE]
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double ns_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e9 + (double)(b.tv_nsec - a->tv_nsec);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : argv[0];
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	enum { N = 1000000 };
	char c;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (int i = 0; i < N; i++)
		lseek(fd, 0, SEEK_CUR);
	printf("lseek: %.0f ns a call\n", ns_since(&t) / N);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (int i = 0; i < N; i++)
		if (pread(fd, &c, 1, 0) != 1)
			return 1;
	printf("pread of 1 cached byte: %.0f ns a call\n", ns_since(&t) / N);
	close(fd);
	return 0;
}
