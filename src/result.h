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

/* One worker of a phase, as it measured itself. */
struct ab_worker_stat {
	int32_t pid;
	uint64_t ops;
	double elapsed_s; /* its own stop - start */
	double cpu_s;     /* user+sys between its own stamps */
};

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
	/* Workers' user+sys between their own start and stop stamps, over
	 * elapsed_s: about 100 at most per worker. */
	double cpu_percent;
	double user_s;
	double sys_s;
	/* The workers' whole lives (wait4), set-up and barrier wait included. */
	double life_user_s;
	double life_sys_s;
	struct ab_worker_stat *per_worker; /* `workers` entries */
	double sys_busy_percent;
	double iowait_percent;
	long max_rss_kib;
	gboolean direct;
	char sync_mode[64];
	char cache_mode[128]; /* what the cache held when the phase began, and why */
	gboolean cold;        /* evicted right before the phase */
	gboolean laid_out_untimed; /* the test file was written, untimed, for this phase */
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
	uint64_t seeks_done;   /* the seek count of the reported seeks pass */
	int64_t start_unix;
	char *machine;
	char *dir;
	char *fs_type;
	char *image_dir_fs;   /* file system under the --loop images, or NULL */
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
/* Did any phase with one of these flags run (AB_PHASE_IO: the big test
 * file; AB_PHASE_FILES: create, stat, delete)? */
gboolean ab_run_ran_any(const struct ab_run *run, unsigned phase_flags);
/* The seek count the reported seeks phase ran with. */
uint64_t ab_run_seeks(const struct ab_run *run);
void ab_result_clear(struct ab_result *res);
/* Merges n workers' samples into res (cleared first): rate = work / (last
 * stop - first start), CPU = the sum of each worker's timed-region CPU over
 * that span, and each worker's own figures. */
void ab_result_merge(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
		     struct ab_result *res);
const char *ab_rate_unit_name(enum ab_rate_unit unit);
/* Rate from bytes/ops and elapsed time, as bonnie++ computes it. */
double ab_result_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s);
/* Sync behaviour that was inside the timed region, for the report. */
void ab_result_describe_sync(const struct ab_phase *phase, const struct ab_config *cfg, char *out,
			     size_t len);

#endif
