/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "raid-level.h"

#include <stddef.h>
#include <string.h>

const char *ab_raid_level_canonical(const char *word)
{
	/* Each row is "raid" and the bare word, so the bare word is the
	 * row past its prefix. */
	static const char *const canonical[] = { "raid0", "raid1",  "raid4",   "raid5",
						 "raid6", "raid10", "raid1+0" };
	static const size_t prefix = sizeof("raid") - 1;
	if (!word)
		return NULL;
	const char *bare = strncmp(word, "raid", prefix) == 0 ? word + prefix : word;
	for (size_t i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++)
		if (strcmp(bare, canonical[i] + prefix) == 0)
			return canonical[i];
	return NULL;
}
