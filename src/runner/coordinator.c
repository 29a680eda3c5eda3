/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One step's coordinator on this host: the shared mapping and the start
 * barrier (coordinator.h). */
#include "coordinator.h"
#include "../base/error.h"
#include "../base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>


/* The shared words in the mapping's first cache line, the progress
 * counters a line each, then the sample slots. */
#define HEAD_BYTES 64
G_STATIC_ASSERT(sizeof(struct ab_coord_shared) <= HEAD_BYTES);
G_STATIC_ASSERT(sizeof(struct ab_coord_progress) == 64);

gboolean ab_coordinator_init(struct ab_coordinator *c, const struct ab_coordinator_ops *ops, void *ops_data,
			     unsigned workers, GError **error)
{
	*c = (struct ab_coordinator){
		.ops = ops ? ops : &ab_coordinator_ranks,
		.ops_data = ops_data,
		.workers = workers,
		.ranks = 1,
		.sample_count = workers,
		.ready = { -1, -1 },
		.go = { -1, -1 },
		.wall_ready = { -1, -1 },
		.wall_go = { -1, -1 },
	};
	size_t progress_len = sizeof(struct ab_coord_progress) * workers;
	c->map_len = HEAD_BYTES + progress_len + sizeof(struct ab_sample) * workers;
	void *map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		c->map = NULL;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot map %u worker slots", workers);
		return FALSE;
	}
	c->map = map;
	c->shared = map;
	c->progress = (struct ab_coord_progress *)((char *)map + HEAD_BYTES);
	c->samples = (struct ab_sample *)((char *)map + HEAD_BYTES + progress_len);
	if (pipe2(c->ready, O_CLOEXEC) != 0 || pipe2(c->go, O_CLOEXEC) != 0) {
		int e = errno;
		ab_coordinator_clear(c);
		ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot create the start barrier");
		return FALSE;
	}
	return TRUE;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

gboolean ab_coordinator_init_wall(struct ab_coordinator *c, GError **error)
{
	if (pipe2(c->wall_ready, O_CLOEXEC) != 0 || pipe2(c->wall_go, O_CLOEXEC) != 0 ||
	    fcntl(c->wall_ready[0], F_SETFL, O_NONBLOCK) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot create the wear-out's wall");
		return FALSE;
	}
	return TRUE;
}

int ab_coordinator_wall_fd(const struct ab_coordinator *c)
{
	return c->wall_ready[0];
}

gboolean ab_coordinator_wall_reached(struct ab_coordinator *c, const gboolean *gone, uint64_t *mine)
{
	char buf[256];
	while (c->wall_ready[0] >= 0 && read(c->wall_ready[0], buf, sizeof(buf)) > 0)
		; /* the wake-ups: the states below say who is there */
	*mine = 0;
	for (unsigned i = 0; i < c->workers; i++) {
		uint64_t state = __atomic_load_n(&c->progress[i].wall_state, __ATOMIC_ACQUIRE);
		if (state)
			*mine = MAX(*mine, __atomic_load_n(&c->progress[i].wall_bytes, __ATOMIC_RELAXED));
		else if (!gone[i])
			return FALSE;
	}
	return TRUE;
}

gboolean ab_coordinator_wall(struct ab_coordinator *c, gboolean ok_here, const char *why_here, uint64_t mine,
			     uint64_t *target, GError **error)
{
	*target = mine;
	if (!c->ops->wall)
		return ok_here;
	return c->ops->wall(c->ops_data, c, ok_here, why_here, mine, target, error);
}

void ab_coordinator_wall_release(struct ab_coordinator *c, uint64_t target)
{
	__atomic_store_n(&c->shared->wall_target, target, __ATOMIC_RELEASE);
	close_fd(&c->wall_go[1]); /* every waiting worker's read() returns 0 */
}

struct ab_worker_coord *ab_coordinator_worker_end(struct ab_coordinator *c, unsigned i)
{
	close_fd(&c->ready[0]);
	close_fd(&c->go[1]);
	close_fd(&c->wall_ready[0]);
	close_fd(&c->wall_go[1]);
	c->worker = (struct ab_worker_coord){
		.shared = c->shared,
		.progress = &c->progress[i],
		.ready_fd = c->ready[1],
		.go_fd = c->go[0],
		.wall_ready_fd = c->wall_ready[1],
		.wall_go_fd = c->wall_go[0],
	};
	return &c->worker;
}

void ab_coordinator_worker_fds(const struct ab_coordinator *c, int fds[AB_WORKER_COORD_FDS])
{
	fds[0] = c->ready[1];
	fds[1] = c->go[0];
	fds[2] = c->wall_ready[1];
	fds[3] = c->wall_go[0];
}

void ab_coordinator_forked(struct ab_coordinator *c)
{
	close_fd(&c->ready[1]);
	close_fd(&c->go[0]);
	close_fd(&c->wall_ready[1]);
	close_fd(&c->wall_go[0]);
}

/* Waits for one byte from each worker on the ready pipe; FALSE if a worker
 * left before it was set up (every write end closed) or a stop came. */
static gboolean wait_here(int fd, unsigned want, const sigset_t *unblocked, gboolean (*stopped)(void))
{
	unsigned got = 0;
	while (got < want && !stopped()) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		int rc = ppoll(&pfd, 1, &ts, unblocked);
		if (rc < 0 && errno != EINTR)
			return FALSE;
		if (rc <= 0)
			continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n == 0)
			return FALSE;
		if (n > 0)
			got += (unsigned)n;
	}
	return got >= want;
}

gboolean ab_coordinator_wait_ready(struct ab_coordinator *c, gboolean forked_all, const sigset_t *unblocked,
				   gboolean (*stopped)(void), GError **error)
{
	c->ready_here = forked_all && wait_here(c->ready[0], c->workers, unblocked, stopped);
	return c->ops->meet(c->ops_data, c, c->ready_here, error);
}

gboolean ab_coordinator_gather(struct ab_coordinator *c, gboolean ok_here, const char *why_here, GError **error)
{
	if (!c->ops->gather)
		return ok_here;
	return c->ops->gather(c->ops_data, c, ok_here, why_here, error);
}

void ab_coordinator_go(struct ab_coordinator *c)
{
	close_fd(&c->go[1]); /* every worker's read() returns 0 */
	close_fd(&c->ready[0]);
}

void ab_coordinator_progress(const struct ab_coordinator *c, uint64_t *done, uint64_t *total)
{
	*done = *total = 0;
	for (unsigned i = 0; i < c->workers; i++) {
		*done += __atomic_load_n(&c->progress[i].done, __ATOMIC_RELAXED);
		*total += __atomic_load_n(&c->progress[i].total, __ATOMIC_RELAXED);
	}
	if (c->ops->progress)
		c->ops->progress(c->ops_data, done, total);
}

void ab_coordinator_note_progress(struct ab_coordinator *c)
{
	if (!c->series) {
		c->series = g_new0(struct ab_progress_point, (gsize)c->workers * AB_PROGRESS_POINTS);
		c->series_every = 1;
	}
	if (++c->series_skipped < c->series_every)
		return;
	c->series_skipped = 0;
	if (c->series_len == AB_PROGRESS_POINTS) {
		/* Full: keep every other point, and note half as often. */
		for (unsigned w = 0; w < c->workers; w++) {
			struct ab_progress_point *p = &c->series[(gsize)w * AB_PROGRESS_POINTS];
			for (unsigned i = 0; i < AB_PROGRESS_POINTS / 2; i++)
				p[i] = p[2 * i + 1];
		}
		c->series_len = AB_PROGRESS_POINTS / 2;
		c->series_every *= 2;
	}
	uint64_t now = ab_now_ns();
	for (unsigned w = 0; w < c->workers; w++)
		c->series[(gsize)w * AB_PROGRESS_POINTS + c->series_len] = (struct ab_progress_point){
			now, __atomic_load_n(&c->progress[w].done, __ATOMIC_RELAXED)
		};
	c->series_len++;
}

void ab_coordinator_clear(struct ab_coordinator *c)
{
	g_clear_pointer(&c->series, g_free);
	close_fd(&c->ready[0]);
	close_fd(&c->ready[1]);
	close_fd(&c->go[0]);
	close_fd(&c->go[1]);
	close_fd(&c->wall_ready[0]);
	close_fd(&c->wall_ready[1]);
	close_fd(&c->wall_go[0]);
	close_fd(&c->wall_go[1]);
	if (c->map)
		munmap(c->map, c->map_len);
	c->map = NULL;
	g_clear_pointer(&c->gathered, g_free);
	c->shared = NULL;
	c->progress = NULL;
	c->samples = NULL;
}
