/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_FINDINGS_RUN_H
#define AB_TEST_FINDINGS_RUN_H

/* Runs and results as the findings' tests build them (test-findings,
 * test-findings-groups): a run of one cell with a known RAM, results that
 * lasted long enough and read a 64 MiB file, member device rows; and the
 * findings of a rule's id. */

#include <string.h>

#include "../../src/model/run.h"
#include "../../src/model/findings.h"

#define MIB (1024.0 * 1024.0)

static inline struct ab_run *frun(const char *cell, uint64_t repeat)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->run_id = g_strdup_printf("run-%s-%" G_GUINT64_FORMAT, cell, repeat);
	run->cell = g_strdup(cell);
	run->repeat = repeat;
	run->ram_bytes = 1ull << 30;
	run->kernel = g_strdup("Linux 6.1.0 x86_64");
	run->cond.cache_mode = g_strdup("drop");
	run->cond.direct = FALSE;
	run->cond.sync_each_write = FALSE;
	return run;
}

/* A result that lasted 2 s over a 64 MiB file. */
static inline struct ab_result *fres(struct ab_run *run, const char *phase, double rate)
{
	struct ab_result *r = ab_result_new(phase);
	r->key.file_size = 64u << 20;
	r->key.record_size = 8192;
	r->key.streams = 1;
	r->measurable = TRUE;
	r->min_measurable_s = 0.5;
	r->elapsed_s = 2;
	r->rate = rate;
	r->bytes = 64u << 20;
	r->direct = FALSE;
	r->cache_state = g_strdup("cold");
	ab_run_add_result(run, r);
	return r;
}

static inline void fmembers(struct ab_run *run, const char *backend, const char *level, unsigned n)
{
	run->target.backend = g_strdup(backend);
	run->target.level = g_strdup(level);
	for (unsigned i = 0; i < n; i++)
		g_ptr_array_add(run->target.members, g_strdup_printf("/dev/loop%u", i + 1));
}

static inline void fdevice(struct ab_result *r, const char *name, double read_mib, double written_mib)
{
	struct ab_device_io d = { g_strdup(name), (uint64_t)(read_mib * MIB), (uint64_t)(written_mib * MIB), 1, 1, 1 };
	g_array_append_val(r->devices, d);
}

/* How many findings of rule `id` the run's rules find; the first in *first. */
static inline guint fcount(GPtrArray *found, const char *id, const struct ab_finding **first)
{
	guint n = 0;
	for (guint i = 0; i < found->len; i++) {
		const struct ab_finding *f = g_ptr_array_index(found, i);
		if (strcmp(f->id, id) == 0 && !n++ && first)
			*first = f;
	}
	return n;
}

static inline guint frun_count(const struct ab_run *run, const char *id, const struct ab_finding **first)
{
	GPtrArray *found = ab_findings_of_run(run);
	guint n = fcount(found, id, NULL);
	/* A copy of what the caller looks at, kept past the array. */
	static struct ab_finding *kept;
	ab_finding_free(kept);
	kept = NULL;
	for (guint i = 0; first && i < found->len; i++) {
		struct ab_finding *f = g_ptr_array_index(found, i);
		if (strcmp(f->id, id) == 0) {
			kept = g_ptr_array_steal_index(found, i);
			*first = kept;
			break;
		}
	}
	g_ptr_array_unref(found);
	return n;
}

#endif
