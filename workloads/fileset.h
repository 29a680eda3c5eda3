/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_FILESET_H
#define AB_FILESET_H

#include "phase.h"

/* Names and sizes for -n: count = NUM x 1024 files over DIRS directories.
 * Sequential names put a 10-hex-digit index first, random names put 0-12
 * random characters first, so creation order looks random to the directory
 * index.  Built in the parent, untimed; workers inherit it through fork. */
struct ab_file_set *ab_file_set_new(const struct ab_step *step, gboolean random_names, uint64_t seed);
/* The same set with its indexes from `base` on (a rank's own range in a
 * files/ tree the ranks share, `shared` saying so); base + count must stay
 * within AB_FILE_SET_INDEX_LIMIT, the ten hex digits of a name. */
struct ab_file_set *ab_file_set_new_at(const struct ab_step *step, gboolean random_names, uint64_t seed,
				       uint64_t base, gboolean shared);
#define AB_FILE_SET_INDEX_LIMIT ((uint64_t)1 << 40) /* 10 hex digits */
void ab_file_set_free(struct ab_file_set *set);
/* A fresh random permutation in set->order (identity before the first). */
void ab_file_set_shuffle(struct ab_file_set *set, uint64_t seed);

static inline const char *ab_file_set_path(const struct ab_file_set *set, uint32_t i)
{
	return set->blob + set->offset[i];
}
/* Subdirectory name ("00003") of directory d, when there is more than one. */
void ab_file_set_dir_name(uint32_t d, char out[8]);
uint32_t ab_file_set_dir_of(const struct ab_file_set *set, uint32_t i);
/* Could a file set have made this name?  `cleanup` removes only such names
 * from the tree of a run that died: a file (10 hex digits of the index with
 * up to 12 name characters before or after) or a subdirectory ("00003"). */
gboolean ab_file_set_name_is_ours(const char *name);
gboolean ab_file_set_dir_name_is_ours(const char *name);
/* Is `name` (an entry of files/ or of one of its subdirectories) one of the
 * set's own, by the index it carries? */
gboolean ab_file_set_holds_name(const struct ab_file_set *set, const char *name);

#endif
