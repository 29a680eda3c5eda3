/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CACHE_H
#define AB_CACHE_H

#include <glib.h>
#include <stdint.h>

#include "config.h"

/*
 * Cache control.  cgroup: the workers run in a memory cgroup (v1
 * memory.limit_in_bytes or v2 memory.max) limited to -r, so the page cache
 * they can build is capped and -r is enforced rather than trusted.  drop:
 * (root) write back and drop the whole machine's caches before each read
 * phase, outside the timing.  none: bonnie++'s behaviour.  In the controlled
 * modes the I/O file is also written back and dropped from the cache before
 * each read phase.
 */
struct ab_cache {
	enum ab_cache_mode mode;
	int cgroup_version;   /* 1 or 2 under AB_CACHE_CGROUP */
	char *cgroup_root;    /* where our group is made */
	char *cgroup_dir;     /* our group, while it exists */
	uint64_t limit_bytes; /* cgroup limit */
};

/* Where a memory cgroup can be made, or NULL; version set to 1 or 2.
 * `root` is a prefix for tests ("" for the real system). */
char *ab_cache_find_cgroup(const char *root, int *version);
/* Turn --cache auto into the most honest mode this machine allows, and check
 * an explicit mode is possible (AB_ERROR_SKIPPED when it is not). */
gboolean ab_cache_resolve(struct ab_config *cfg, GError **error);
gboolean ab_cache_setup(struct ab_cache *cache, const struct ab_config *cfg, GError **error);
/* In a worker, right after fork: join the group.  Returns 0 or an errno. */
int ab_cache_join(const struct ab_cache *cache);
/* Parent, untimed, before a read phase. */
gboolean ab_cache_before_read(const struct ab_cache *cache, const char *io_path, GError **error);
void ab_cache_teardown(struct ab_cache *cache);
/* How many times the group's OOM killer struck (0 outside cgroup mode). */
uint64_t ab_cache_oom_kills(const struct ab_cache *cache);
/* "cgroup-v1 limit 512M", "drop", "none": what the results ran under. */
char *ab_cache_describe(const struct ab_cache *cache);

#endif
