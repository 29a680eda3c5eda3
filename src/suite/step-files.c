/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A step's files seen from the parent (src/suite/step-files.h): cold cache,
 * residency and room, for the suite and every phase family's driver. */
#include "step-files.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../runner/runner.h"
#include "../../fs-setup/target-build.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* What a step reads of the test file: per-char phases only their size. */
static uint64_t test_file_reads(const struct ab_step *step)
{
	return (step->phase->flags & AB_PHASE_PER_CHAR) ? step->per_char_bytes : step->file_size;
}

/* How much of the test file the page cache held just before the phase
 * started: what "cold" or "warm" really meant for it.  With -u the file's
 * directory is the user's: only a regular file is looked at. */
double ab_step_files_test_file_share(const struct ab_suite *s, const struct ab_step *step)
{
	int fd = openat(s->run_dir->dir_fd, s->run_dir->io_name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	/* A file many ranks share: this rank's segment. */
	double share = ab_file_resident_share_at(fd, s->run_dir->io_base, test_file_reads(step));
	if (fd >= 0)
		close(fd);
	return share;
}

gboolean ab_step_files_starts_cold(const struct ab_config *cfg, const struct ab_phase *ph)
{
	if (cfg->cache == AB_CACHE_NONE)
		return FALSE;
	return (ph->flags & AB_PHASE_READS) || ((ph->flags & AB_PHASE_METADATA) && cfg->cold_metadata);
}

/* Is phase ph made cold by remounting?  Under --cache remount, and for
 * --cold-metadata on a built target (a drop leaves ext4's fresh metadata
 * pinned by its journal; an unmount does not). */
static gboolean remounts(const struct ab_suite *s, const struct ab_phase *ph)
{
	if (!s->target || !ab_target_spec_builds(&s->cfg->target))
		return FALSE;
	return s->cfg->cache == AB_CACHE_REMOUNT || (ph->flags & AB_PHASE_METADATA);
}

/* With -u the test file's directory is the user's: whatever is there is
 * opened without blocking (a FIFO would hang us) and used only if it is a
 * regular file. */
gboolean ab_step_files_make_cold(struct ab_suite *s, struct ab_runner *r, const struct ab_phase *ph,
				 GError **error)
{
	if (remounts(s, ph)) {
		/* Our own hold on the directories would keep it busy. */
		ab_run_dir_release(s->run_dir);
		ab_progress_activity("unmounting and mounting the target again");
		gboolean ok = ab_target_remount(s->target, error);
		ok = ab_run_dir_reopen(s->run_dir, ok ? error : NULL) && ok;
		r->dir_fd = s->run_dir->dir_fd;
		r->run_fd = s->run_dir->fd;
		return ok;
	}
	gboolean io = (ph->flags & AB_PHASE_IO) != 0;
	int fd = io ? openat(s->run_dir->dir_fd, s->run_dir->io_name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
		    : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "cannot use '%s': not a regular file", s->run_dir->io_path);
		return FALSE;
	}
	gboolean ok = ab_cache_before_read(s->cache, fd, (ph->flags & AB_PHASE_METADATA) != 0, error);
	if (fd >= 0)
		close(fd);
	return ok;
}

gboolean ab_step_files_prepare_cache(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step,
				     gboolean *cold, double *resident, GError **error)
{
	*cold = ab_step_files_starts_cold(s->cfg, step->phase);
	if (*cold && !ab_step_files_make_cold(s, r, step->phase, error))
		return FALSE;
	*resident = ab_step_files_test_file_share(s, step);
	return TRUE;
}

void ab_step_files_describe_cache(const struct ab_suite *s, const struct ab_phase *ph, gboolean cold,
				  struct ab_result *res)
{
	const struct ab_config *cfg = s->cfg;
	g_autofree char *mode = ab_cache_describe(s->cache);
	const char *how;
	/* A one-pass writer outside the group says it wrote behind. */
	const char *behind = (ph->flags & AB_PHASE_ONE_PASS) && (ph->flags & AB_PHASE_WRITES) &&
					     ab_cache_write_behind(s->cache, ph, 1)
				     ? ", writing behind"
				     : "";
	const char *cold_why = (ph->flags & AB_PHASE_METADATA) ? "cold (--cold-metadata)" : "cold";
	if (cold && remounts(s, ph))
		how = "the target was unmounted and mounted again before the phase";
	else if (cold && (ph->flags & AB_PHASE_METADATA))
		how = "the machine's caches were dropped before the phase";
	else if (cold && cfg->cache == AB_CACHE_DROP)
		how = "the machine's caches were dropped before the phase";
	else if (cold && cfg->cache == AB_CACHE_CGROUP && (ph->flags & AB_PHASE_ONE_PASS))
		how = "the test file was evicted before the phase, which goes through it once, outside the group";
	else if (cold && cfg->cache == AB_CACHE_CGROUP)
		how = "the test file was evicted and the group's cache emptied before the phase";
	else if (cold)
		how = "the test file was written back and evicted before the phase";
	else if (cfg->cache == AB_CACHE_NONE)
		how = "warm: nothing is evicted";
	else if (ph->flags & AB_PHASE_METADATA)
		how = "warm: right after create, as bonnie++ measures it";
	else if (cfg->cache == AB_CACHE_CGROUP && (ph->flags & AB_PHASE_ONE_PASS))
		how = "warm: nothing evicted before a write phase; one pass outside the group";
	else if (cfg->cache == AB_CACHE_CGROUP && (ph->flags & AB_PHASE_IO))
		how = "warm: nothing evicted before a write phase; the page cache is capped by the group";
	else if (cfg->cache == AB_CACHE_CGROUP)
		how = "warm: file phases run outside the group";
	else
		how = "warm: nothing evicted before a write phase";
	g_free(res->cache_state);
	g_free(res->cache_mode);
	res->cache_state = g_strdup(cold ? "cold" : "warm");
	if (cold)
		res->cache_mode = g_strdup_printf("%s, %s: %s%s", mode, cold_why, how, behind);
	else
		res->cache_mode = g_strdup_printf("%s, %s%s", mode, how, behind);
}

int ab_step_files_open(int dir_fd, const char *name, const char *path, uid_t owner, int flags, GError **error)
{
	int fd = openat(dir_fd, name, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == owner)
		return fd;
	int e = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (e)
		ab_set_error_errno(error, AB_ERROR_PHASE, e, "cannot open '%s'", path);
	else
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE,
			    "cannot use '%s': not the regular file, with one link, the run made", path);
	return -1;
}

gboolean ab_step_files_evict(int dir_fd, const char *name, const char *path, uid_t owner, GError **error)
{
	int fd = ab_step_files_open(dir_fd, name, path, owner, O_RDONLY, error);
	if (fd < 0)
		return FALSE;
	gboolean ok = TRUE;
	if (fdatasync(fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "cannot write back '%s'", path);
		ok = FALSE;
	} else if ((errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "cannot evict '%s'", path);
		ok = FALSE;
	}
	close(fd);
	return ok;
}

gboolean ab_step_files_empty(int dir_fd, const char *name, const char *path, uid_t owner, GError **error)
{
	int fd = ab_step_files_open(dir_fd, name, path, owner, O_WRONLY, error);
	if (fd < 0)
		return FALSE;
	int e = ftruncate(fd, 0) == 0 ? 0 : errno;
	close(fd);
	if (e) {
		ab_set_error_errno(error, AB_ERROR_PHASE, e, "cannot empty '%s'", path);
		return FALSE;
	}
	return TRUE;
}

double ab_step_files_share(int dir_fd, const char *name, const char *path, uid_t owner, uint64_t cap,
			   double *weight)
{
	int fd = ab_step_files_open(dir_fd, name, path, owner, O_RDONLY, NULL);
	struct stat st;
	if (fd < 0)
		return NAN;
	/* Only what the step reads: the user of -u could have made the file
	 * a sparse exabyte, whose every window root would map. */
	double share = fstat(fd, &st) == 0 ? ab_file_resident_share(fd, cap) : NAN;
	close(fd);
	if (weight && !isnan(share))
		*weight = (double)MIN((uint64_t)st.st_size, cap);
	return share;
}

/* 256 MiB of file a mapping: 64 KiB of mincore vector at 4 KiB pages. */
#define WINDOW ((uint64_t)256 << 20)

double ab_file_resident_share(int fd, uint64_t cap)
{
	return ab_file_resident_share_at(fd, 0, cap);
}

double ab_file_resident_share_at(int fd, uint64_t from, uint64_t cap)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	if (fd < 0 || page <= 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size <= from ||
	    from % (uint64_t)page)
		return NAN;
	uint64_t size = from + MIN((uint64_t)st.st_size - from, cap), pages = 0, resident = 0;
	g_autofree unsigned char *vec = g_malloc(WINDOW / (uint64_t)page + 1);
	for (uint64_t off = from; off < size; off += WINDOW) {
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

gboolean ab_step_files_room(const struct ab_suite *s, gboolean test_file_freed, uint64_t *bytes)
{
	if (test_file_freed)
		return ab_run_dir_room(s->run_dir, bytes);
	struct statvfs vfs;
	if (fstatvfs(s->run_dir->fd, &vfs) != 0 || vfs.f_blocks == 0)
		return FALSE;
	*bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return TRUE;
}
