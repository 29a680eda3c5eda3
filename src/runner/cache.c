/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cache.h"
#include "../base/error.h"
#include "progress.h"

#include "../../workloads/phase.h"
#include "../../workloads/write-behind.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

static gboolean write_text(const char *path, const char *text, GError **error)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot open '%s'", path);
		return FALSE;
	}
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	if (n != (ssize_t)strlen(text)) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, n < 0 ? e : EIO, "cannot write '%s' to '%s'", text, path);
		return FALSE;
	}
	return TRUE;
}

char *ab_cache_find_cgroup(const char *root, int *version)
{
	g_autofree char *v1 = g_strdup_printf("%s/sys/fs/cgroup/memory", root);
	g_autofree char *v1_limit = g_strdup_printf("%s/memory.limit_in_bytes", v1);
	if (access(v1_limit, F_OK) == 0 && access(v1, W_OK) == 0) {
		*version = 1;
		return g_steal_pointer(&v1);
	}
	const char *v2_places[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	for (size_t i = 0; i < G_N_ELEMENTS(v2_places); i++) {
		g_autofree char *dir = g_strdup_printf("%s%s", root, v2_places[i]);
		g_autofree char *ctl = g_strdup_printf("%s/cgroup.subtree_control", dir);
		g_autofree char *text = NULL;
		if (!g_file_get_contents(ctl, &text, NULL, NULL) || access(dir, W_OK) != 0)
			continue;
		g_auto(GStrv) words = g_strsplit_set(g_strstrip(text), " ", 0);
		if (g_strv_contains((const char *const *)words, "memory")) {
			*version = 2;
			return g_steal_pointer(&dir);
		}
	}
	return NULL;
}

static gboolean can_drop_caches(void)
{
	return geteuid() == 0 && access("/proc/sys/vm/drop_caches", W_OK) == 0;
}

gboolean ab_cache_resolve(struct ab_config *cfg, GError **error)
{
	int version = 0;
	g_autofree char *cg = geteuid() == 0 ? ab_cache_find_cgroup("", &version) : NULL;
	cfg->cgroup_available = cg != NULL;
	switch (cfg->cache) {
	case AB_CACHE_AUTO:
		cfg->cache = cg ? AB_CACHE_CGROUP : can_drop_caches() ? AB_CACHE_DROP : AB_CACHE_FADVISE;
		break;
	case AB_CACHE_CGROUP:
		if (cg)
			break;
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "--cache cgroup: no writable memory cgroup here (needs root and cgroup v1 "
			    "memory or cgroup v2 with the memory controller)");
		return FALSE;
	case AB_CACHE_DROP:
		if (can_drop_caches())
			break;
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "--cache drop: cannot write /proc/sys/vm/drop_caches (needs root)");
		return FALSE;
	case AB_CACHE_NONE:
	case AB_CACHE_FADVISE:
	case AB_CACHE_REMOUNT: /* checked against the target in ab_config_finish */
		break;
	}
	return TRUE;
}

gboolean ab_cache_check_cold_metadata(const struct ab_config *cfg, GError **error)
{
	gboolean wanted = FALSE;
	for (guint i = 0; cfg->steps && i < cfg->steps->len; i++)
		if (g_array_index(cfg->steps, struct ab_step, i).phase->flags & AB_PHASE_METADATA)
			wanted = TRUE;
	/* A built target is remounted before stat and delete: that empties
	 * its caches whatever the file system. */
	if (!cfg->cold_metadata || !wanted || ab_target_spec_builds(&cfg->target))
		return TRUE;
	/* On -d only a machine-wide drop can empty the dentry and inode
	 * caches, and ext2/3/4 keep the metadata create just wrote pinned
	 * through it, in buffers its journal has not yet checkpointed. */
	struct statfs sfs;
	const char *why = NULL;
	if (cfg->dir && statfs(cfg->dir, &sfs) == 0) {
		if (sfs.f_type == EXT4_SUPER_MAGIC)
			why = "ext2/3/4 keeps the metadata create just wrote cached through a cache drop";
		else if (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC)
			why = "a RAM file system's metadata is never evicted";
	}
	if (why) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--cold-metadata cannot be honoured on '%s': %s; let arraybench build the target "
			    "(--device or --loop) so it can remount it",
			    cfg->dir, why);
		return FALSE;
	}
	if (!can_drop_caches()) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "--cold-metadata: cannot write /proc/sys/vm/drop_caches to empty the dentry and inode "
			    "caches (needs root)");
		return FALSE;
	}
	return TRUE;
}

gboolean ab_cache_setup(struct ab_cache *cache, const struct ab_config *cfg, struct ab_undo *undo,
			const char *run_id, GError **error)
{
	memset(cache, 0, sizeof(*cache));
	cache->mode = cfg->cache;
	if (cache->mode != AB_CACHE_CGROUP)
		return TRUE;
	cache->cgroup_root = ab_cache_find_cgroup("", &cache->cgroup_version);
	if (!cache->cgroup_root) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "--cache cgroup: no writable memory cgroup");
		return FALSE;
	}
	cache->limit_bytes = ab_config_effective_ram_mib(cfg, 0) * AB_MIB;
	g_autofree char *dir = g_strdup_printf("%s/arraybench.%s", cache->cgroup_root, run_id);
	struct ab_undo_step *step = ab_undo_intend(undo, AB_UNDO_CGROUP, dir, NULL, NULL, error);
	if (!step)
		return FALSE;
	if (mkdir(dir, 0755) != 0) {
		int e = errno;
		ab_undo_done(undo, step); /* an existing group is not ours */
		errno = e;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot create cgroup '%s'", dir);
		return FALSE;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !ab_undo_identify(undo, step, &st, error))
		return FALSE;
	cache->cgroup_dir = g_steal_pointer(&dir);
	g_autofree char *limit_file = g_strdup_printf("%s/%s", cache->cgroup_dir,
						      cache->cgroup_version == 1 ? "memory.limit_in_bytes"
										 : "memory.max");
	g_autofree char *limit = g_strdup_printf("%" G_GUINT64_FORMAT, cache->limit_bytes);
	if (!write_text(limit_file, limit, error))
		return FALSE; /* the undo removes the group */
	if (cache->cgroup_version == 2) {
		/* No swap either, or anonymous memory escapes the limit. */
		g_autofree char *swap = g_strdup_printf("%s/memory.swap.max", cache->cgroup_dir);
		if (access(swap, F_OK) == 0)
			write_text(swap, "0", NULL);
	}
	return TRUE;
}

int ab_cache_join(const struct ab_cache *cache)
{
	if (cache->mode != AB_CACHE_CGROUP || !cache->cgroup_dir)
		return 0;
	char path[4096];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cache->cgroup_dir);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* "0" means the writing process itself, in v1 and v2 alike. */
	ssize_t n = write(fd, "0", 1);
	int e = n == 1 ? 0 : errno;
	close(fd);
	return e;
}

gboolean ab_cache_before_read(const struct ab_cache *cache, int io_fd, gboolean metadata, GError **error)
{
	if (cache->mode == AB_CACHE_NONE || cache->mode == AB_CACHE_REMOUNT)
		return TRUE; /* remount: the suite unmounts and mounts the target again */
	if (io_fd >= 0) {
		ab_progress_activity("syncing the test file");
		fdatasync(io_fd);
		ab_progress_activity("evicting the test file from the cache");
		posix_fadvise(io_fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	if (cache->mode == AB_CACHE_DROP || metadata) {
		ab_progress_activity("syncing");
		sync();
		ab_progress_activity("dropping caches");
		return write_text("/proc/sys/vm/drop_caches", "3", error);
	}
	if (cache->cgroup_version == 1 && cache->cgroup_dir) {
		ab_progress_activity("emptying the memory group's cache");
		/* Empties the group's own page cache only, not the machine's. */
		g_autofree char *f = g_strdup_printf("%s/memory.force_empty", cache->cgroup_dir);
		write_text(f, "0", NULL);
	}
	return TRUE;
}

void ab_cache_clear(struct ab_cache *cache)
{
	g_clear_pointer(&cache->cgroup_dir, g_free);
	g_clear_pointer(&cache->cgroup_root, g_free);
}

gboolean ab_cache_phase_in_group(const struct ab_cache *cache, const struct ab_phase *phase)
{
	return cache->mode == AB_CACHE_CGROUP && ab_phase_in_memory_group(phase);
}

/* Whether this run's writers may write behind at all: under cgroup mode,
 * its group made, and not switched off for a test. */
static gboolean may_write_behind(const struct ab_cache *cache)
{
	return cache->mode == AB_CACHE_CGROUP && cache->cgroup_dir &&
	       g_strcmp0(g_getenv("ARRAYBENCH_TEST_NO_WRITE_BEHIND"), "1") != 0;
}

uint64_t ab_cache_write_behind(const struct ab_cache *cache, const struct ab_phase *phase, unsigned workers)
{
	if (!may_write_behind(cache) || !(phase->flags & AB_PHASE_IO))
		return 0;
	if (ab_cache_phase_in_group(cache, phase) && cache->cgroup_version != 1)
		return 0; /* a v2 group throttles its own dirtying */
	return ab_write_behind_window(cache->limit_bytes, workers);
}

uint64_t ab_cache_oom_kills(const struct ab_cache *cache)
{
	if (cache->mode != AB_CACHE_CGROUP || !cache->cgroup_dir)
		return 0;
	/* v1: memory.oom_control; v2: memory.events; both have "oom_kill N". */
	g_autofree char *path = g_strdup_printf("%s/%s", cache->cgroup_dir,
						cache->cgroup_version == 1 ? "memory.oom_control" : "memory.events");
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	const char *line = strstr(text, "oom_kill ");
	return line ? g_ascii_strtoull(line + strlen("oom_kill "), NULL, 10) : 0;
}

char *ab_cache_describe(const struct ab_cache *cache)
{
	/* A v1 group's writers write behind (ab_cache_write_behind()): said,
	 * since it is how their dirty pages were bounded.  (The one-pass
	 * phases, outside the group, say so in their own cache text.) */
	if (cache->mode == AB_CACHE_CGROUP)
		return g_strdup_printf("cgroup-v%d limit %" G_GUINT64_FORMAT "M%s", cache->cgroup_version,
				       cache->limit_bytes / AB_MIB,
				       cache->cgroup_version == 1 && may_write_behind(cache) ? " write-behind" : "");
	return g_strdup(ab_cache_mode_name(cache->mode));
}

const char *ab_cache_limits(enum ab_cache_mode mode)
{
	switch (mode) {
	case AB_CACHE_FADVISE:
		return "the test file's pages are written back and evicted before each read phase; what a phase "
		       "reads stays cached for the rest of it, and metadata is never evicted";
	case AB_CACHE_NONE:
		return "nothing is evicted: reads may come from the page cache";
	default:
		return NULL;
	}
}
