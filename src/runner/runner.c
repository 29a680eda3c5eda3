/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "runner.h"
#include "coordinator.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "progress.h"
#include "../base/sysinfo.h"
#include "../base/timing.h"
#include "../../fs-setup/spawn.h"
#include "../../workloads/write-behind.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t ab_stop_requested;

gboolean ab_runner_stop_requested(void)
{
	return ab_stop_requested != 0;
}

static void on_stop_signal(int sig)
{
	(void)sig;
	ab_stop_requested = 1;
}

/* Only there so SIGCHLD interrupts ppoll(); the default action ignores it. */
static void on_child(int sig)
{
	(void)sig;
}

void ab_runner_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: blocking calls return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	/* A reader that went away must not kill us before the files are removed. */
	signal(SIGPIPE, SIG_IGN);
}

static int compare_fds(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Close every descriptor the parent had but the coordinator's (the
 * barrier's, the wall's) and the two directories: the undo journal, the
 * state directory, the CSV and JSON files were opened by root and must not
 * reach a worker running as -u USER.  `keep` holds n descriptors, -1 for
 * none. */
static void close_inherited(int *keep, unsigned n)
{
	qsort(keep, n, sizeof(int), compare_fds);
	unsigned from = 3;
	for (unsigned i = 0; i < n; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from)
			close_range(from, (unsigned)keep[i] - 1, 0);
		from = (unsigned)keep[i] + 1;
	}
	close_range(from, ~0u, 0);
}

static void worker_main(const struct ab_runner *r, const struct ab_phase *phase, struct ab_phase_ctx *ctx,
			const int coord_fds[AB_WORKER_COORD_FDS], const sigset_t *orig_mask, pid_t parent)
{
	int keep[AB_WORKER_COORD_FDS + 2];
	memcpy(keep, coord_fds, sizeof(int) * AB_WORKER_COORD_FDS);
	keep[AB_WORKER_COORD_FDS] = ctx->dir_fd;
	keep[AB_WORKER_COORD_FDS + 1] = ctx->run_fd;
	close_inherited(keep, G_N_ELEMENTS(keep));
	/* A parent killed outright takes its workers along rather than leaving
	 * them writing into the user's directory or holding a mount. */
	ab_die_with_parent(parent);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, orig_mask, NULL);
	/* Only the I/O phases that may touch a block twice run in the memory
	 * cgroup: it is there to cap the page cache of the big file they read
	 * back (src/runner/cache.h).  The file phases' inodes and dentries are
	 * kernel memory charged to the group that cannot be reclaimed while
	 * dirty, so a cap sized for page cache OOM-kills them. */
	int e = 0;
	struct ab_write_behind write_behind; /* this worker's, for its whole life */
	if (phase->flags & AB_PHASE_IO) {
		if (ab_cache_phase_in_group(r->cache, phase))
			e = ab_cache_join(r->cache);
		uint64_t window = ab_cache_write_behind(r->cache, phase, ctx->workers);
		if (window) {
			ab_write_behind_init(&write_behind, window);
			ctx->write_behind = &write_behind;
		}
	}
	if (e) {
		ab_worker_fail(ctx, e, "cannot join the memory cgroup");
		_exit(1);
	}
	const struct ab_config *cfg = r->cfg;
	if (cfg->user_given && geteuid() == 0) {
		if (setgroups(0, NULL) != 0 || setgid(cfg->gid) != 0 || setuid(cfg->uid) != 0) {
			ab_worker_fail(ctx, errno, "cannot switch to user %u group %u", (unsigned)cfg->uid,
				       (unsigned)cfg->gid);
			_exit(1);
		}
		/* Changing credentials clears the death signal: set it again. */
		ab_die_with_parent(parent);
	}
	_exit(phase->run(ctx) == 0 ? 0 : 1);
}

static void kill_all(pid_t *pids, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
}

struct reaped {
	unsigned left;
	gboolean failed;
	gboolean others_gave_up; /* another rank gave up: the workers were stopped */
	int status;
	double user_s;
	double sys_s;
	long max_rss_kib;
	/* Wear-out: the wall was met (every rank made its call), and how. */
	gboolean wall_met;
	GError *wall_error;      /* another rank's fault, from the wall */
};

/* The workers' progress, summed by the coordinator, to the status line;
 * and each worker's, noted for the stonewall across ranks. */
static void show_progress(struct ab_coordinator *coord)
{
	ab_coordinator_note_progress(coord);
	uint64_t done, total;
	ab_coordinator_progress(coord, &done, &total);
	ab_progress_work(done, total);
}

/* Wear-out: every worker here is at its deadline, done or gone.  Every
 * rank's largest count meets (one cluster call, made once a step by every
 * rank, whatever its outcome), and the workers waiting at the wall go on
 * to the largest; when any rank is not ok, they are stopped instead. */
static void meet_at_wall(pid_t *pids, unsigned n, struct ab_coordinator *coord, uint64_t mine, gboolean killed,
			 struct reaped *out)
{
	out->wall_met = TRUE;
	const char *why = NULL;
	for (unsigned i = 0; i < n && !why; i++)
		if (coord->samples[i].error_code)
			why = coord->samples[i].error;
	if (!why && (out->failed || killed))
		why = ab_stop_requested ? "interrupted" : "a worker failed";
	uint64_t target = 0;
	GError *peer = NULL;
	if (ab_coordinator_wall(coord, why == NULL, why, mine, &target, &peer)) {
		ab_coordinator_wall_release(coord, target);
		return;
	}
	kill_all(pids, n);
	if (!why) { /* not this rank's fault: another's */
		out->others_gave_up = TRUE;
		out->wall_error = peer;
	} else {
		g_clear_error(&peer);
	}
}

/* Reaps every worker.  The wait wakes on SIGCHLD, on a stop signal, on a
 * worker reaching wear-out's wall, and at least every 50 ms; each wake
 * passes the workers' counters to the status line (which redraws at most
 * every AB_PROGRESS_INTERVAL_NS) and notes them for the stonewall across
 * ranks (which is read off them to that step).  With `wall` (wear-out, the
 * workers released), the wall is met once every worker here is there. */
static void reap_all(pid_t *pids, unsigned n, const sigset_t *unblocked, struct ab_coordinator *coord,
		     gboolean watch_others, gboolean wall, struct reaped *out)
{
	gboolean killed = FALSE;
	g_autofree gboolean *gone = g_new0(gboolean, n ? n : 1);
	/* Only the workers that were forked: a failed fork leaves its slot 0. */
	out->left = 0;
	for (unsigned i = 0; i < n; i++) {
		if (pids[i] > 0)
			out->left++;
		else
			gone[i] = TRUE;
	}
	while (out->left) {
		if (ab_stop_requested && !killed) {
			kill_all(pids, n);
			killed = TRUE;
		}
		/* Another rank failed or was stopped: this step cannot be one
		 * result any more, so stop it now rather than at its end. */
		if (!killed && watch_others && ab_cluster_gave_up()) {
			kill_all(pids, n);
			killed = TRUE;
			out->others_gave_up = TRUE;
		}
		gboolean any = FALSE;
		for (unsigned i = 0; i < n; i++) {
			if (pids[i] <= 0)
				continue;
			int st;
			struct rusage ru;
			pid_t p = wait4(pids[i], &st, WNOHANG, &ru);
			if (p == 0)
				continue;
			if (p < 0 && errno == EINTR)
				continue;
			any = TRUE;
			pids[i] = 0;
			gone[i] = TRUE;
			out->left--;
			if (p < 0)
				continue;
			out->user_s += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
			out->sys_s += (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
			out->max_rss_kib = MAX(out->max_rss_kib, ru.ru_maxrss);
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				if (!out->failed)
					out->status = st;
				out->failed = TRUE;
			}
		}
		uint64_t mine;
		if (wall && !out->wall_met && ab_coordinator_wall_reached(coord, gone, &mine)) {
			meet_at_wall(pids, n, coord, mine, killed || out->others_gave_up, out);
			continue;
		}
		if (!any && out->left) {
			show_progress(coord);
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			int fd = wall && !out->wall_met ? ab_coordinator_wall_fd(coord) : -1;
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			ppoll(fd >= 0 ? &pfd : NULL, fd >= 0 ? 1 : 0, &ts, unblocked);
		}
	}
	/* Every rank makes the wall's call once: here when every worker left
	 * before the check above saw them all there. */
	uint64_t mine;
	if (wall && !out->wall_met) {
		ab_coordinator_wall_reached(coord, gone, &mine);
		meet_at_wall(pids, n, coord, mine, killed || out->others_gave_up, out);
	}
}

/* What the parent adds to the workers' own figures. */
static void finish_result(const struct ab_step *step, const struct reaped *rp, struct ab_result *res)
{
	res->life_user_s = rp->user_s;
	res->life_sys_s = rp->sys_s;
	res->max_rss_kib = rp->max_rss_kib;
	const struct ab_phase *phase = step->phase;
	res->direct = step->direct && (phase->flags & AB_PHASE_DIRECT_OK);
	g_free(res->sync_mode);
	res->sync_mode = g_strdup(step->sync_each_write ? phase->sync_each : phase->sync_plain);
	/* The cache state is the suite's to say (it made it). */
}

static gboolean phase_error(const struct ab_runner *r, const struct ab_phase *phase, struct ab_sample *samples,
			    unsigned n, const struct reaped *rp, GError **error)
{
	for (unsigned i = 0; i < n; i++)
		if (samples[i].error_code) {
			g_set_error(error, AB_ERROR,
				    samples[i].error_code == AB_SAMPLE_UNSAFE ? AB_ERROR_UNSAFE : AB_ERROR_PHASE,
				    "phase '%s': %s", phase->name, samples[i].error);
			return FALSE;
		}
	uint64_t oom_kills = ab_cache_oom_kills(r->cache);
	if (WIFSIGNALED(rp->status) && WTERMSIG(rp->status) == SIGKILL && oom_kills > 0)
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE,
			    "phase '%s': the memory cgroup's out-of-memory killer stopped a worker "
			    "(limit %" G_GUINT64_FORMAT "M from -r): raise -r",
			    phase->name, r->cache->limit_bytes / AB_MIB);
	else if (WIFSIGNALED(rp->status))
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "phase '%s': a worker was killed by signal %d (%s)",
			    phase->name, WTERMSIG(rp->status), strsignal(WTERMSIG(rp->status)));
	else
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "phase '%s': a worker failed with status %d",
			    phase->name, WEXITSTATUS(rp->status));
	return FALSE;
}

gboolean ab_runner_run_step(const struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			    struct ab_result *res, GError **error)
{
	return ab_runner_run_step_samples(r, step, seed, res, NULL, NULL, error);
}

gboolean ab_runner_run_step_samples(const struct ab_runner *r, const struct ab_step *step, uint64_t seed,
				    struct ab_result *res, ab_samples_fn each, void *data, GError **error)
{
	const struct ab_phase *phase = step->phase;
	if (ab_stop_requested) {
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
		return FALSE;
	}
	unsigned n = phase->worker_count ? phase->worker_count(step) : 1;
	struct ab_coordinator coord;
	if (!ab_coordinator_init(&coord, r->coordinator, r->coordinator_data, n, error))
		return FALSE;
	/* Wear-out (the sweep's --wearout): the wall the workers wait at. */
	gboolean wall = step->stonewall_ns && step->wearout;
	if (wall && !ab_coordinator_init_wall(&coord, error)) {
		ab_coordinator_clear(&coord);
		return FALSE;
	}
	struct ab_sample *samples = coord.samples;
	for (unsigned i = 0; i < n; i++) {
		ab_histogram_init(&samples[i].latency);
		for (unsigned k = 0; k < G_N_ELEMENTS(samples[i].kind); k++)
			ab_histogram_init(&samples[i].kind[k].latency);
	}
	sigset_t block, orig;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigset_t unblocked = orig;
	sigdelset(&unblocked, SIGINT);
	sigdelset(&unblocked, SIGTERM);
	sigdelset(&unblocked, SIGHUP);
	sigdelset(&unblocked, SIGCHLD);

	fflush(stdout);
	fflush(stderr);
	struct ab_cpu_snapshot cpu_a, cpu_b;
	struct ab_disk_set disks_a, disks_b;
	ab_diskstats_read("", r->disk_names, &disks_a);
	ab_sysinfo_cpu(&cpu_a);
	pid_t *pids = g_new0(pid_t, n);
	pid_t self = getpid();
	gboolean ok = TRUE;
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot fork worker %u of %u", i + 1, n);
			ok = FALSE;
			break;
		}
		if (pid == 0) {
			struct ab_worker_coord *wc = ab_coordinator_worker_end(&coord, i);
			int barrier_fds[AB_WORKER_COORD_FDS];
			ab_coordinator_worker_fds(&coord, barrier_fds);
			struct ab_phase_ctx ctx = {
				.phase = phase, .step = step, .dir_fd = r->dir_fd, .io_name = r->io_name,
				.run_fd = r->run_fd, .io_path = r->io_path, .io_shared = r->io_shared,
				.io_base = r->io_base,
				.files_dir = r->files_dir, .run_path = r->run_path,
				.files = r->files, .seed = seed, .worker = i, .workers = n,
				.sample = &samples[i], .coord = wc,
			};
			worker_main(r, phase, &ctx, barrier_fds, &orig, self);
		}
		pids[i] = pid;
	}
	ab_coordinator_forked(&coord);
	/* Not ready (a worker failed its set-up, a fork failed, a stop came, or
	 * under many hosts another's did): stop them before the release, so
	 * none starts its timed work. */
	GError *meet_error = NULL;
	/* Released only when every rank was ready: then, and only then, a rank
	 * giving up later is another's doing (a failed meeting leaves the
	 * cluster given up, this rank's own fault included). */
	gboolean released = ab_coordinator_wait_ready(&coord, ok, &unblocked, ab_runner_stop_requested, &meet_error);
	if (!released)
		kill_all(pids, n);
	ab_coordinator_go(&coord);
	struct reaped rp = { 0 };
	reap_all(pids, n, &unblocked, &coord, released, wall && released, &rp);
	ab_sysinfo_cpu(&cpu_b);
	ab_diskstats_read("", r->disk_names, &disks_b);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	g_free(pids);

	/* This rank's outcome: interrupted, its own workers' fault, or
	 * stopped because another rank was not ready (no fault of its own). */
	GError *own = NULL;
	if (ab_stop_requested)
		g_set_error(&own, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted during phase '%s'", phase->name);
	else if (!ok)
		own = g_steal_pointer(error);
	else if (rp.failed && !meet_error && !rp.others_gave_up)
		phase_error(r, phase, samples, n, &rp, &own);
	/* Another rank's fault as the wall heard it, when the gather cannot
	 * say it any more (the ranks gave up there). */
	GError *wall_error = g_steal_pointer(&rp.wall_error);
	gboolean ok_here = own == NULL && meet_error == NULL && !rp.others_gave_up;
	/* Every rank's samples come together (on one rank: as they are); the
	 * ranks all take part, whatever their outcome, and all learn whose
	 * fault a failure was. */
	GError *peer = NULL;
	gboolean all = ab_coordinator_gather(&coord, ok_here, own ? own->message : NULL, &peer);
	ok = ok_here && all;
	if (own)
		g_propagate_error(error, own);
	else if (peer) /* "rank R: " and what that rank said, its phase named */
		g_propagate_error(error, g_steal_pointer(&peer));
	else if (meet_error)
		g_propagate_prefixed_error(error, g_steal_pointer(&meet_error), "phase '%s': ", phase->name);
	else if (wall_error)
		g_propagate_error(error, g_steal_pointer(&wall_error));
	else if (!ok)
		g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "phase '%s': another rank failed", phase->name);
	g_clear_error(&peer);
	g_clear_error(&meet_error);
	g_clear_error(&wall_error);
	if (ok) {
		ab_result_merge(phase, coord.samples, coord.sample_count, res);
		if (step->stonewall_ns)
			ab_result_merge_deadline(phase, coord.samples, coord.sample_count,
						 (double)step->stonewall_ns / AB_NS_PER_SEC, res);
		finish_result(step, &rp, res);
		res->iowait_percent = ab_sysinfo_iowait_percent(&cpu_a, &cpu_b);
		res->sys_busy_percent = ab_sysinfo_busy_percent(&cpu_a, &cpu_b);
		struct ab_disk_set delta;
		ab_diskstats_delta(&disks_a, &disks_b, &delta);
		ab_result_add_devices(res, &delta);
		if (each)
			each(coord.samples, n, coord.ranks, data);
	}
	ab_coordinator_clear(&coord);
	return ok;
}
