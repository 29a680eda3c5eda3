/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RESULT_H
#define AB_RESULT_H

#include <glib.h>
#include <stdint.h>

#include "config.h"
#include "histogram.h"
#include "../fs-setup/diskstats.h"
#include "../fs-setup/target.h"
#include "../workloads/phase.h"

/* Phases under this wall time are "too fast to measure", as in bonnie++. */
#define AB_MIN_MEASURABLE_S 0.5

/* One phase after its workers' samples are merged. */
struct ab_result {
	gboolean ran;
	gboolean measurable;
	const struct ab_phase *phase;
	unsigned workers;
	double elapsed_s;
	uint64_t bytes;
	uint64_t ops;
	double rate;          /* in the phase's unit */
	double cpu_percent;   /* workers' user+sys over wall time; may exceed 100 */
	double user_s;
	double sys_s;
	double sys_busy_percent;
	double iowait_percent;
	long max_rss_kib;
	gboolean direct;
	char sync_mode[64];
	char cache_mode[64];
	struct ab_histogram latency;
	struct ab_disk_set disks; /* per-member I/O during the phase */
};

/* Everything a report writer reads about one run. */
struct ab_run {
	const char *tool_version;
	const struct ab_config *cfg;
	unsigned repeat_index; /* 0-based */
	const char *run_id;    /* shared by the repeats, and by all the run made */
	uint64_t seed;
	int64_t start_unix;
	char *machine;
	char *dir;
	char *fs_type;
	char *kernel;
	uint64_t ram_bytes;
	unsigned cpus;
	char *cache_desc;
	gboolean cache_controlled;
	char *cache_warning;  /* NULL when the numbers are not suspect */
	const struct ab_target *target; /* how the directory was made */
	struct ab_result results[AB_PHASE_COUNT];
};

void ab_run_clear(struct ab_run *run);
const char *ab_rate_unit_name(enum ab_rate_unit unit);
/* Rate from bytes/ops and elapsed time, as bonnie++ computes it. */
double ab_result_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s);
/* Sync behaviour that was inside the timed region, for the report. */
void ab_result_describe_sync(const struct ab_phase *phase, const struct ab_config *cfg, char *out,
			     size_t len);

#endif
