/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every worker does around its timed region: barrier, stamps, errors;
 * and the I/O helpers the phases share. */
#include "phase.h"
#include "worker-coord.h"
#include "write-behind.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * AB_NS_PER_SEC + (uint64_t)tv->tv_usec * 1000u;
}

int ab_worker_start(struct ab_phase_ctx *ctx)
{
	ab_worker_coord_wait_go(ctx->coord);
	struct ab_sample *sm = ctx->sample;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	sm->pid = (int32_t)getpid();
	sm->user_ns = timeval_ns(&ru.ru_utime);
	sm->sys_ns = timeval_ns(&ru.ru_stime);
	sm->start_ns = ab_now_ns();
	return 0;
}

void ab_worker_stop(struct ab_phase_ctx *ctx)
{
	struct ab_sample *sm = ctx->sample;
	sm->end_ns = ab_now_ns();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	sm->user_ns = timeval_ns(&ru.ru_utime) - sm->user_ns;
	sm->sys_ns = timeval_ns(&ru.ru_stime) - sm->sys_ns;
}

int ab_worker_fail(struct ab_phase_ctx *ctx, int errnum, const char *fmt, ...)
{
	va_list ap;
	char what[200];
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ctx->sample->error_code = errnum ? errnum : EIO;
	if (errnum)
		snprintf(ctx->sample->error, sizeof(ctx->sample->error), "%s: %s", what, strerror(errnum));
	else
		snprintf(ctx->sample->error, sizeof(ctx->sample->error), "%s", what);
	return -1;
}

int ab_worker_refuse(struct ab_phase_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->sample->error, sizeof(ctx->sample->error), fmt, ap);
	va_end(ap);
	ctx->sample->error_code = AB_SAMPLE_UNSAFE;
	return -1;
}

void ab_worker_tick(struct ab_phase_ctx *ctx, uint64_t *prev)
{
	uint64_t now = ab_now_ns();
	ab_histogram_record(&ctx->sample->latency, now - *prev);
	*prev = now;
}

int ab_worker_finish_fd(struct ab_phase_ctx *ctx, int fd, int rc, gboolean do_fsync)
{
	if (rc == 0 && do_fsync && fsync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", ctx->io_path);
	if (close(fd) != 0 && rc == 0)
		rc = ab_worker_fail(ctx, errno, "cannot close '%s'", ctx->io_path);
	ab_worker_stop(ctx);
	return rc;
}

int ab_worker_pread_chunk(struct ab_phase_ctx *ctx, int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = ab_pread_full(fd, buf, len, off);
	if (n == (ssize_t)len)
		return 0;
	return ab_worker_fail(ctx, n < 0 ? errno : 0, "cannot read '%s'%s", ctx->io_path,
			      n >= 0 ? ": it is shorter than the file size" : "");
}

int ab_worker_wrote_file(struct ab_phase_ctx *ctx, int fd, size_t len, const char *path)
{
	if (!ctx->write_behind || ab_write_behind_note(ctx->write_behind, fd, len) == 0)
		return 0;
	return ab_worker_fail(ctx, errno, "cannot write '%s' back", path);
}

int ab_worker_wrote(struct ab_phase_ctx *ctx, int fd, size_t len)
{
	return ab_worker_wrote_file(ctx, fd, len, ctx->io_path);
}

void ab_worker_wrote_end(struct ab_phase_ctx *ctx)
{
	if (ctx->write_behind)
		ab_write_behind_forget(ctx->write_behind);
}

int ab_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ab_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t ab_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

ssize_t ab_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, p + got, len - got, (off_t)(off + got));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int ab_open_io(struct ab_phase_ctx *ctx, int flags, gboolean direct)
{
	if (!ctx->io_shared)
		return ab_open_io_at(ctx, ctx->dir_fd, ctx->io_name, ctx->io_path, flags, direct);
	/* The other ranks' segments are in it: never truncated. */
	int fd = ab_open_io_at(ctx, ctx->dir_fd, ctx->io_name, ctx->io_path, flags & ~O_TRUNC, direct);
	if (fd >= 0 && lseek(fd, (off_t)ctx->io_base, SEEK_SET) < 0) {
		int e = errno;
		close(fd);
		return ab_worker_fail(ctx, e, "cannot reach its segment of '%s'", ctx->io_path);
	}
	return fd;
}

int ab_open_io_at(struct ab_phase_ctx *ctx, int dir_fd, const char *name, const char *path, int flags,
		  gboolean direct)
{
	/* O_NONBLOCK until it is known to be a regular file: a FIFO that the
	 * -u user put in its place would otherwise block the open forever. */
	int fd = openat(dir_fd, name, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600);
	if (fd < 0) {
		if (direct && errno == EINVAL)
			return ab_worker_fail(ctx, errno, "cannot open '%s' with O_DIRECT (the file system "
					      "may not support direct I/O)", path);
		return ab_worker_fail(ctx, errno, "cannot open '%s'", path);
	}
	/* The file the run claimed: a regular file of ours with one link (a
	 * hard link put in its place would let a write phase overwrite another
	 * file). */
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid() ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return ab_worker_fail(ctx, 0, "cannot use '%s': not the regular file, with one link, the run made",
				      path);
	}
	return fd;
}

int ab_open_files_dir(struct ab_phase_ctx *ctx)
{
	int fd = openat(ctx->run_fd, AB_FILES_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ab_worker_fail(ctx, errno, "cannot open directory '%s'", ctx->files_dir);
	return fd;
}
