/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "residency.h"

#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* 256 MiB of file a mapping: 64 KiB of mincore vector at 4 KiB pages. */
#define WINDOW ((uint64_t)256 << 20)

double ab_file_resident_share(int fd, uint64_t cap)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	if (fd < 0 || page <= 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return NAN;
	uint64_t size = MIN((uint64_t)st.st_size, cap), pages = 0, resident = 0;
	if (!size)
		return NAN;
	g_autofree unsigned char *vec = g_malloc(WINDOW / (uint64_t)page + 1);
	for (uint64_t off = 0; off < size; off += WINDOW) {
		size_t len = (size_t)MIN(WINDOW, size - off);
		/* PROT_READ of a file opened read-only; nothing is touched,
		 * so mapping it faults nothing in. */
		void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (map == MAP_FAILED)
			return NAN;
		size_t n = (len + (size_t)page - 1) / (size_t)page;
		int rc = mincore(map, len, vec);
		munmap(map, len);
		if (rc != 0)
			return NAN;
		for (size_t i = 0; i < n; i++)
			resident += vec[i] & 1;
		pages += n;
	}
	return pages ? (double)resident / (double)pages : NAN;
}
