/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Commits under load (--phases oltp+wal): one step whose first oltp_procs
 * workers are oltp processes (workloads/oltp.c) and whose other
 * wal_writers workers are wal committers (workloads/wal.h), each worker's
 * role by its index, so all are released at one barrier and run over the
 * same window.  With oltp_procs 0 it is the committers alone: the same
 * code measures the commits without the load (src/suite/oltp-wal-run.c).
 */
#include "phase.h"
#include "oltp.h"
#include "wal.h"

_Static_assert(AB_WAL_LAYOUT_CHUNK <= AB_WORKER_SLACK_BYTES, "a committer's lay-out buffer is within its slack");

static unsigned worker_count(const struct ab_step *step)
{
	return step->oltp_procs + (step->wal_writers ? step->wal_writers : 1);
}

static unsigned most_workers(const struct ab_step *step)
{
	return ab_oltp_most_procs(step) + (step->wal_writers ? step->wal_writers : 1);
}

/* The larger of an oltp process's blocks and a committer's commit (its
 * log's lay-out buffer, AB_WAL_LAYOUT_CHUNK, is within a worker's slack). */
static uint64_t worker_bytes(const struct ab_step *step)
{
	uint64_t most = ab_oltp_process_bytes(step);
	for (guint i = 0; step->wal_commits && i < step->wal_commits->len; i++) {
		const struct ab_wal_commit *c = &g_array_index(step->wal_commits, struct ab_wal_commit, i);
		most = MAX(most, (uint64_t)c->writes * c->write_size);
	}
	return MAX(most, (uint64_t)step->wal_writes * step->wal_write_size);
}

static int run(struct ab_phase_ctx *ctx)
{
	if (ctx->worker < ctx->step->oltp_procs)
		return ab_oltp_process(ctx);
	struct ab_wal_log log;
	int rc = ab_wal_log_open(ctx, ctx->step, ctx->worker - ctx->step->oltp_procs, &log);
	if (rc == 0) {
		ab_worker_start(ctx);
		rc = ab_wal_committer(ctx, ctx->step, &log, ctx->sample);
		ab_worker_stop(ctx);
	}
	ab_wal_log_close(&log);
	return rc;
}

const struct ab_phase ab_phase_oltp_wal = {
	.id = AB_PHASE_OLTP_WAL,
	.name = "oltp+wal",
	.csv_name = "",
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	/* Its results are the wal's and the oltp's, each saying its own. */
	.sync_plain = "per-method",
	.sync_each = "per-method",
	.summary = "WAL commits with and without oltp processes running beside them, over one window",
	.flags = AB_PHASE_WRITES | AB_PHASE_MULTI | AB_PHASE_IO | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_COMMITS_PER_SEC,
	.worker_count = worker_count,
	.worker_bytes = worker_bytes,
	.workers_at_most = most_workers,
	.run = run,
};
