/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_H
#define AB_RUN_H

/*
 * The results model: what one run measured, owned whole, with no pointer
 * into a live config, target or phase table.  A run measured now and one
 * read back from JSON or CSV are the same kind of value; whatever a source
 * did not hold stays unknown (AB_UNSET, NAN, NULL, AB_FLAG_UNKNOWN) rather
 * than becoming zero, and writers print it as missing.
 */

#include <glib.h>
#include <math.h>
#include <stdint.h>

/* Most results one run holds: what the JSON reader takes (ab_run_add_result
 * numbers passes by a scan of the results before it, so a line of a
 * million tiny phases would take an hour), and so what a run may make. */
#define AB_RUN_MAX_RESULTS 10000

/* An unsigned figure the source did not hold. */
#define AB_UNSET UINT64_MAX
/* A yes/no the source did not hold (ab_flag is -1, 0 or 1). */
#define AB_FLAG_UNKNOWN (-1)
typedef int ab_flag;

static inline gboolean ab_known(uint64_t v)
{
	return v != AB_UNSET;
}

/* The conditions the writers report, copied from the config when the run
 * starts (seeks: the count of the pass that was reported). */
struct ab_conditions {
	char *dir;
	uint64_t file_size;      /* bytes; 0 when no I/O phase was asked for */
	uint64_t io_chunk;       /* bytes */
	uint64_t seeks;
	ab_flag seeks_given;     /* else the count grew until the phase lasted long enough */
	uint64_t seekers;
	uint64_t per_char_bytes;
	char *per_char_mode;     /* "syscall", "stdio" */
	uint64_t num_files_k;    /* units of 1024 files; 0 when no file phase was asked for */
	char *file_kind;         /* "file", "hardlink", "symlink" */
	uint64_t file_max;       /* bytes (0 for links) */
	uint64_t file_min;
	uint64_t num_dirs;
	uint64_t file_chunk;
	uint64_t ram_mib;
	ab_flag ram_given;
	uint64_t repeats;
	char *data;              /* "random", "zeros" */
	ab_flag direct;
	ab_flag sync_each_write;
	char *cache_mode;        /* "cgroup", "drop", "none", ... */
	char *cache_limits;      /* what that mode cannot promise, or NULL */
	ab_flag cold_metadata;
	/* The record-size sweep's (its grid and timing are in each cell). */
	uint64_t stride;         /* records between stride-read's reads */
	uint64_t files_per_stream; /* files each stream goes through in a cell */
	ab_flag shared_file;     /* the streams shared one file */
	/* --stonewall-time: each stream's timed I/O stopped this many seconds
	 * after its start (0: none; NAN: not known); --wearout: then each went
	 * on to the largest count any stream of any rank had by then. */
	double stonewall_time_s;
	ab_flag wearout;
};

/* A block device's queue settings. */
struct ab_queue_desc {
	char *name;
	char *scheduler;
	int64_t read_ahead_kb;
	int64_t rotational;
	int64_t logical_block_size;
	int64_t physical_block_size;
};

/* How the directory the phases ran in was made. */
struct ab_target_desc {
	char *backend;           /* "dir", "device", "mdadm", "btrfs" */
	char *mount_dir;
	char *level;
	uint64_t chunk_bytes;
	char *layout;
	char *fs;
	char *source;
	GPtrArray *members;      /* char *, never NULL */
	char *mkfs_command;
	char *mount_options;
	char *mount_effective;
	char *label;
	uint64_t image_count;    /* --loop images: 0 when none */
	uint64_t image_size;
	char *image_dir;
	char *image_dir_fs;
	GArray *queues;          /* struct ab_queue_desc, never NULL */
};

/* Which cell of a run a result is: a phase measured once per run is one
 * cell; a sweep or stream count makes more, and the same step twice in a
 * run makes a second pass. */
struct ab_cell_key {
	uint64_t file_size;      /* bytes the phase worked on */
	uint64_t record_size;    /* bytes per operation (the I/O chunk) */
	uint64_t streams;        /* concurrent streams (1 for bonnie++'s phases) */
	char *test;              /* sub-test label, NULL for none */
	uint64_t pass;           /* 1 for the first result of this phase and cell, 2... */
};

struct ab_worker_stat {
	int64_t pid;
	uint64_t ops;
	uint64_t bytes;
	double elapsed_s;        /* its own stop - start */
	double cpu_s;            /* user+sys between its own stamps */
	/* Concurrent streams: what it had done when the first worker ended,
	 * and that over its own time until then (the phase's unit). */
	uint64_t bytes_at_stonewall;
	double stonewall_rate;
	/* --stonewall-time: what it had done at its deadline (all of it when
	 * it ended before); AB_UNSET without a deadline. */
	uint64_t bytes_at_deadline;
};

/* One rank's share of a result measured on many ranks at once
 * (arraybench-mpi).  Times are seconds from the earliest exit of the
 * phase's barrier, in rank 0's timebase (each rank's clock carried over by
 * its measured offset: no two hosts' clocks are compared). */
struct ab_rank_stat {
	uint64_t rank;
	char *host;
	uint64_t workers;
	uint64_t ops;
	uint64_t bytes;
	double rate;             /* its own work over its own first start to last stop */
	double start_s;          /* its first worker's start */
	double stop_s;           /* its last worker's stop */
	double cpu_s;            /* its workers' user+sys between their stamps */
	double barrier_wait_s;   /* how long it waited for the others at the barrier */
	/* Its rate strays from the ranks' median by more than
	 * AB_RANK_OUTLIER_SHARE (a straggler, or a rank that ran alone). */
	ab_flag outlier;
};

/* A rank whose rate is this share off the ranks' median is an outlier. */
#define AB_RANK_OUTLIER_SHARE 0.25

/* How a run on many ranks ran (arraybench-mpi); ranks AB_UNSET off MPI. */
struct ab_mpi_desc {
	uint64_t ranks;
	uint64_t nodes;
	GPtrArray *hosts;        /* char *, one per rank; never NULL */
	char *library;           /* the MPI library's own version line */
	char *layout;            /* "private", "shared", "shared-file" */
	ab_flag reorder;         /* each rank read another node's data */
	/* The largest over the run's results: the bound on any rank's clock
	 * offset (half the best round trip) and the spread of the ranks'
	 * exits from a phase's barrier. */
	double clock_bound_s;
	double start_spread_s;
};

/* What `arraybench tune` made a visit for, so that `report` can redo the
 * race from the runs alone (src/tune/); stage NULL on any other run. */
struct ab_tune_stamp {
	char *objective;         /* the resolved --objective: "max:commits:fdatasync:8k" */
	char *direction;         /* "max" or "min" */
	char *stage;             /* "screen", "race" */
	uint64_t round;          /* 1-based, within its stage */
	char *candidate;         /* its label: "defaults", "noatime,commit=30" */
	uint64_t index;          /* its place among the stage's candidates (0: the defaults) */
	char **words;            /* the run words it adds (NULL-ended; empty for the defaults) */
	double alpha;
	uint64_t min_rounds;     /* no drop before this many rounds */
};

struct ab_device_io {
	char *name;
	uint64_t read_bytes;
	uint64_t written_bytes;
	uint64_t read_ios;
	uint64_t write_ios;
	uint64_t busy_ms;
};

/* Latency of single operations, in nanoseconds. */
struct ab_latency {
	uint64_t samples;
	uint64_t min_ns;
	double mean_ns;
	uint64_t p50_ns;
	uint64_t p90_ns;
	uint64_t p99_ns;
	uint64_t p99_9_ns;
	uint64_t max_ns;
};

/* One phase in one cell. */
struct ab_result {
	char *phase;             /* registry name (workloads/registry.c) */
	struct ab_cell_key key;
	/* Did it last at least min_measurable_s?  FALSE for a `+++++` field:
	 * then the rate may be unknown. */
	gboolean measurable;
	double min_measurable_s;
	double rate;             /* in the phase's unit; with several streams, end to end */
	/* Open-loop load (the latency curve): the aggregate rate the schedule
	 * offered, in the phase's unit; rate is what was achieved.  NAN for
	 * closed-loop phases. */
	double offered_rate;
	/* A cell run as concurrent streams (--streams): two figures that must
	 * not be confused.  stonewall_rate: the sum of each worker's own rate
	 * over what it had done when the first worker ended (iozone's
	 * "children see"); end_to_end_rate: all the bytes over the wall time
	 * from the first start to the last end (iozone's "parent sees"; the
	 * same as rate).  The least and greatest worker rate at the stonewall,
	 * and the least work any worker had done by then.  NAN / AB_UNSET for
	 * phases that are not run as streams. */
	double stonewall_rate;
	double end_to_end_rate;
	double min_worker_rate;
	double max_worker_rate;
	uint64_t min_bytes_at_stonewall;
	/* The sweep's deadline (--stonewall-time, IOR's stonewalling), a
	 * condition of each cell's test: its seconds (0: none; NAN: not a
	 * sweep result, or not known) and whether wear-out followed it.  With
	 * a deadline: the least and most any worker of any rank had done by
	 * it, and the rate at the deadline, the sum of every worker's bytes by
	 * it over the seconds (IOR's "stonewall bandwidth"; rate stays the
	 * end-to-end figure, wear-out included). */
	double stonewall_time_s;
	ab_flag wearout;
	uint64_t min_bytes_at_deadline;
	uint64_t max_bytes_at_deadline;
	double deadline_rate;
	/* The seconds deadline_rate is over: the time until the last
	 * worker's count was taken (at or a little past the deadline when one
	 * was cut, its record under way at it ended after it; the end of the
	 * work when every worker ended before it).  NAN: no deadline figure. */
	double deadline_counted_s;
	double cpu_percent;      /* timed-region CPU of all workers over elapsed_s */
	double elapsed_s;
	uint64_t bytes;
	uint64_t ops;
	uint64_t workers;
	double user_s;
	double sys_s;
	double life_user_s;      /* the workers' whole lives (wait4) */
	double life_sys_s;
	double sys_busy_percent;
	double iowait_percent;
	int64_t max_rss_kib;     /* -1 unknown */
	ab_flag direct;
	char *sync_mode;
	char *cache_mode;        /* what the cache held when the phase began, and why */
	char *cache_state;       /* "cold", "warm" */
	/* The calls its timed region held ("write", "fsync", "close"...), for
	 * the phases that say so per cell (the sweep); NULL when unknown. */
	char **timed;
	ab_flag laid_out_untimed;
	/* Share of the test file in the page cache as the phase began (mincore),
	 * for the phases that read it; NAN for the others. */
	double resident_at_start;
	/* A figure read off between measured steps (the latency curve's
	 * sizing answer), not measured itself; AB_FLAG_UNKNOWN elsewhere. */
	ab_flag interpolated;
	/* Open-loop load: the I/Os sent later than their due time (a process
	 * behind its schedule sends them at once) and the most any was late.
	 * AB_UNSET / NAN for closed-loop phases. */
	uint64_t late_ops;
	double max_late_s;
	struct ab_latency latency;
	/* Measured on many ranks: the bound on the ranks' clock offsets and
	 * the spread of their exits from the phase's barrier (NAN on one
	 * host), and each rank's share (empty on one host). */
	double clock_bound_s;
	double start_spread_s;
	GArray *per_rank;        /* struct ab_rank_stat, never NULL */
	GArray *per_worker;      /* struct ab_worker_stat, never NULL */
	GArray *devices;         /* struct ab_device_io, never NULL */
};

struct ab_run {
	char *tool;              /* "arraybench", "bonnie++" */
	char *tool_version;
	char *run_id;
	uint64_t repeat;         /* 1-based; of conditions.repeats */
	uint64_t seed;
	char *seed_text;         /* a seed that is no number (bonnie++ -Z FILE), else NULL */
	int64_t start_unix;      /* INT64_MIN unknown */
	uint64_t concurrency;    /* bonnie++'s -c label; 1 for arraybench */
	/* Comparison runs: the matrix cell this run measured ("btrfs-raid1
	 * ext4 noatime bonnie"), the workload profile it ran, and why a cell's
	 * visit gave no results (its build failed...); NULL when none.  A
	 * matrix run's repeat is its matrix repeat. */
	char *cell;
	char *workload;
	char *failure;
	char *machine;
	/* The host it was measured on (gethostname): a matrix's machine is
	 * its cell, and arraybench-mpi's ranks visit cells on their own hosts. */
	char *host;
	char *kernel;
	uint64_t cpus;
	uint64_t ram_bytes;
	char *fs_type;           /* of conditions.dir */
	char *cache_desc;
	/* The most page cache the I/O phases could fill: the memory cgroup's
	 * limit under --cache cgroup; AB_UNSET for any other mode (the
	 * machine's RAM, ram_bytes, bounds it) or when unknown. */
	uint64_t cache_limit_bytes;
	ab_flag cache_controlled;
	char *cache_warning;
	struct ab_conditions cond;
	struct ab_target_desc target;
	struct ab_mpi_desc mpi;
	struct ab_tune_stamp tune;
	GPtrArray *results;      /* struct ab_result *, in the order they ran */
};

/* Many runs: the repeats of one, cells of a matrix, files read back. */
struct ab_run_set {
	GPtrArray *runs;         /* struct ab_run * */
	/* A set made by ab_run_set_init_once() holds each run once: the keys
	 * of the runs it holds (ab_run_set_add_once()), how many were dropped
	 * as read before and where the first of those was ("FILE:LINE", set
	 * by the reader).  NULL, 0, NULL in a set that holds what it is given. */
	GHashTable *keys;
	unsigned dropped;
	char *first_dropped;
};

/* Everything unknown, lists empty. */
struct ab_run *ab_run_new(void);
void ab_run_free(struct ab_run *run);
typedef struct ab_run ab_run;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_run, ab_run_free)

struct ab_result *ab_result_new(const char *phase);
void ab_result_free(struct ab_result *res);
typedef struct ab_result ab_result;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_result, ab_result_free)
/* A deep copy (run --raw-baseline gives each repeat the same raw rows). */
struct ab_result *ab_result_dup(const struct ab_result *res);
/* Appends res (the run takes it) and numbers its pass among the results of
 * the same phase and cell already there. */
void ab_run_add_result(struct ab_run *run, struct ab_result *res);
/* The first result of a phase (pass 1 of any cell), or NULL. */
const struct ab_result *ab_run_find(const struct ab_run *run, const char *phase);
/* Did a phase with one of these registry flags run? */
gboolean ab_run_ran_any(const struct ab_run *run, unsigned phase_flags);

void ab_run_set_init(struct ab_run_set *set);
/* A set that counts a run read twice once (report: `--compare R R` gave n=2
 * and a CV of 0 for one run). */
void ab_run_set_init_once(struct ab_run_set *set);
/* Appends run (the set takes it), unless the set holds each run once and
 * one of the same key is there: then run is freed, set->dropped counted
 * and FALSE returned.  A run is known by its run id, repeat and cell (the
 * repeats of one run share its id, and a copy relabelled into another cell
 * is another run); one without a run id (a CSV line) by text, the line it
 * was read from.  own_line (may be NULL) is the line without a run id
 * that a run with one also answers to (its CSV line): such a line read
 * before or after it is that run, dropped and counted (one read before is
 * replaced by run, in its place: the run id, cell and conditions stay). */
gboolean ab_run_set_add_once(struct ab_run_set *set, struct ab_run *run, const char *text, const char *own_line);
void ab_run_set_clear(struct ab_run_set *set);

#endif
