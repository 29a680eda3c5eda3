/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_RANK_RUN_H
#define AB_TEST_RANK_RUN_H

/* A run on 4 ranks over 2 hosts, as the model holds one (test-json,
 * test-html, test-text's checks of the per-rank rows): one block-write
 * result whose rank 2 is half as fast as the others, an outlier and the
 * straggler (the latest stop). */

#include "../../src/model/run.h"

#define RANK_RUN_SLOW 2

static inline struct ab_run *rank_run_of(const char *cell)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup("0.1.0");
	run->cell = g_strdup(cell);
	run->machine = g_strdup("node-a");
	struct ab_mpi_desc *m = &run->mpi;
	m->ranks = 4;
	m->nodes = 2;
	for (int i = 0; i < 4; i++)
		g_ptr_array_add(m->hosts, g_strdup(i < 2 ? "node-a" : "node-b"));
	m->library = g_strdup("Open MPI v4.1.6, package: Debian");
	m->layout = g_strdup("private");
	m->reorder = FALSE;
	m->clock_bound_s = 25e-6;
	m->start_spread_s = 0.0004;
	struct ab_result *r = ab_result_new("block-write");
	r->measurable = TRUE;
	r->min_measurable_s = 0.5;
	r->workers = 8;
	r->bytes = 0;
	r->elapsed_s = 4.0004;
	r->clock_bound_s = 25e-6;
	r->start_spread_s = 0.0004;
	r->cache_state = g_strdup("cold");
	for (int i = 0; i < 4; i++) {
		gboolean slow = i == RANK_RUN_SLOW;
		double start = 0.0001 * i;
		struct ab_rank_stat rs = {
			.rank = (uint64_t)i,
			.host = g_strdup(i < 2 ? "node-a" : "node-b"),
			.workers = 2,
			.ops = 2048,
			.bytes = 2048u * 8192u,
			.start_s = i == 0 ? -0.00001 : start, /* a clock's offset: a hair before */
			.stop_s = start + (slow ? 4.0 : 2.0),
			.cpu_s = 0.75 + i,
			.barrier_wait_s = 0.0004 - 0.0001 * i,
			.outlier = slow,
		};
		rs.rate = rs.bytes / 1024.0 / (rs.stop_s - rs.start_s);
		r->bytes += rs.bytes;
		r->ops = (ab_known(r->ops) ? r->ops : 0) + rs.ops;
		g_array_append_val(r->per_rank, rs);
	}
	r->rate = r->bytes / 1024.0 / r->elapsed_s;
	ab_run_add_result(run, r);
	return run;
}

#endif
