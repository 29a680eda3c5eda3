/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CACHE_H
#define AB_CACHE_H

#include <glib.h>
#include <stdint.h>

#include "../options/config.h"
#include "../../fs-setup/undo.h"

/*
 * Cache control.  cgroup: the workers of a phase that may touch a block of
 * the I/O file twice (seeks, oltp, the latency curve) run in a memory
 * cgroup (v1 memory.limit_in_bytes or v2 memory.max) limited to -r, so the
 * page cache they can build is capped and -r is enforced rather than
 * trusted.  A one-pass phase (AB_PHASE_ONE_PASS: block write and read,
 * rewrite, the per-char phases) runs outside the group: the file is evicted
 * before it, so the cache has nothing to serve it, and in the group its
 * writer paid for the group's reclaim in its own time (measured on members
 * with a known limit, busy loops beside: block write 0.924 and rewrite 0.980
 * of --cache none, the writer's system time 6.6 s against 5.5 s for 512 MiB,
 * bench/RESULTS.md).  Its writers write behind instead, so that the disks
 * work from the first window, as they do in the group, rather than idle
 * until the machine's dirty limits.  drop:
 * (root) write back and drop the whole machine's caches before each read
 * phase, outside the timing.  fadvise: (any user) write back and evict the
 * test file's own pages before each read phase, the default when neither
 * cgroup nor drop is possible.  none: bonnie++'s behaviour.  In every mode but
 * none (and remount, which does better) the I/O file is written back and
 * dropped from the cache before each read phase.
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
/* After ab_config_finish: can --cold-metadata be honoured for the stat and
 * delete phases that will run?  (Built targets: by remounting; -d: by a
 * machine-wide drop, which needs root and is not enough on ext2/3/4.) */
gboolean ab_cache_check_cold_metadata(const struct ab_config *cfg, GError **error);
/* Under cgroup, make the run's group (journaled in `undo`, which removes it). */
gboolean ab_cache_setup(struct ab_cache *cache, const struct ab_config *cfg, struct ab_undo *undo,
			const char *run_id, GError **error);
/* In a worker, right after fork: join the group.  Returns 0 or an errno. */
int ab_cache_join(const struct ab_cache *cache);
/* Parent, untimed, before a phase that starts cold; io_fd is the I/O file or
 * -1.  `metadata` (--cold-metadata before stat and delete) drops the
 * machine's dentry and inode caches whatever the mode. */
gboolean ab_cache_before_read(const struct ab_cache *cache, int io_fd, gboolean metadata, GError **error);
void ab_cache_clear(struct ab_cache *cache);
struct ab_phase;
/* Does this phase's worker join the group?  An I/O phase under cgroup mode
 * that is not one pass. */
gboolean ab_cache_phase_in_group(const struct ab_cache *cache, const struct ab_phase *phase);
/* The write-behind window of one of `workers` workers of `phase`
 * (workloads/write-behind.h), 0 for none.  In the group only a v1 group
 * needs one, its writeback knowing nothing of the group's limit; outside
 * it, under cgroup mode, a one-pass writer takes the window it would have
 * in the group, so its dirty pages stay as few and the disks start as
 * early.  (The test-only ARRAYBENCH_TEST_NO_WRITE_BEHIND=1 turns it off, to
 * show what it prevents.) */
uint64_t ab_cache_write_behind(const struct ab_cache *cache, const struct ab_phase *phase, unsigned workers);
/* How many times the group's OOM killer struck (0 outside cgroup mode). */
uint64_t ab_cache_oom_kills(const struct ab_cache *cache);
/* "cgroup-v1 limit 512M", "drop", "none": what the results ran under. */
char *ab_cache_describe(const struct ab_cache *cache);
/* What a mode cannot promise, for the table; NULL when it controls the cache. */
const char *ab_cache_limits(enum ab_cache_mode mode);

#endif
