/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CONFIG_H
#define AB_CONFIG_H

#include <glib.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base/parse.h"
#include "run-option-sets.h"
#include "sweep-grid.h"
#include "../../fs-setup/target.h"
#include "../../workloads/step.h"

#define AB_DEFAULT_CHUNK 8192u
#define AB_DEFAULT_SEEKS 8192u
/* Without a seek count, the seeks phase repeats with twice the count (or
 * more) until it lasts this long; only the last pass is reported. */
#define AB_SEEKS_MIN_S 1.0
#define AB_SEEKS_MAX ((uint64_t)1 << 30)
#define AB_DEFAULT_SEEKERS 5u
#define AB_MAX_SEEKERS 1024u
#define AB_DEFAULT_BYTE_IO (3 * AB_MIB)
#define AB_DEFAULT_NUM_FILES 16u
#define AB_MAX_STEPS 256 /* --phases entries */
#define AB_DEFAULT_STRIDE 17u /* iozone's -j */
/* Limits of the sweep's lists: records of 1 KiB to 1 GiB (iozone stops at
 * 16 MiB, its default grid's last; the RAID lab workload writes 1 GiB
 * blocks); files up to 16 TiB. */
#define AB_SWEEP_RECORD_MIN (1 * AB_SWEEP_KIB)
#define AB_SWEEP_RECORD_LIMIT ((uint64_t)1 << 30) /* given: up to dd's bs=1G */
#define AB_SWEEP_FILE_LIMIT ((uint64_t)16 << 40)
#define AB_CGROUP_MIN_RAM_MIB 16u
/* Effective RAM used for defaults under --cache cgroup when -r is absent. */
#define AB_CGROUP_DEFAULT_RAM_MIB 512u
/* oltp's data file without --oltp-size or -s under --cache cgroup: this
 * many times the group's limit, so a warm cache holds at most a quarter
 * of it (the -s default, twice the limit, let half the reads hit memory). */
#define AB_OLTP_CACHE_FACTOR 4u

enum ab_cache_mode {
	AB_CACHE_AUTO, /* resolved before running to one of the others */
	AB_CACHE_CGROUP,
	AB_CACHE_DROP,
	AB_CACHE_NONE,
	AB_CACHE_REMOUNT, /* unmount and mount again before each phase (iozone -U) */
	AB_CACHE_FADVISE, /* evict the test file's own pages before each read phase (any user) */
};

/* arraybench-mpi: where the ranks' files go (--mpi-layout). */
enum ab_mpi_layout {
	AB_MPI_LAYOUT_PRIVATE, /* each rank in DIR/arraybench.RUNID/rank-NNNNN */
	AB_MPI_LAYOUT_SHARED,  /* the file phases of all ranks in DIR/arraybench.RUNID/files */
	AB_MPI_LAYOUT_SHARED_FILE, /* bonnie++'s I/O phases of all ranks in one file, DIR/arraybench.RUNID.io,
				    * each rank its own segment */
};

/* Parsed and checked options; read-only once ab_config_finish() passed. */
struct ab_config {
	char *dir;
	uint64_t file_size;   /* bytes; 0 skips the I/O phases */
	gboolean file_size_given;
	uint32_t io_chunk;    /* bytes, power of two in [256, 1 MiB] */
	uint64_t seeks;
	gboolean seeks_given; /* else the count doubles until the phase lasts AB_SEEKS_MIN_S */
	uint32_t seekers;
	uint32_t num_files;   /* units of 1024 files; 0 skips the file phases */
	int64_t file_max;     /* bytes, or AB_FILES_HARDLINK / AB_FILES_SYMLINK */
	uint64_t file_min;
	uint32_t num_dirs;
	uint32_t file_chunk;
	char *machine_name;
	uint64_t ram_mib;
	gboolean ram_given;
	uint32_t repeats;
	uint64_t seed;
	gboolean seed_given;
	uint64_t byte_io_size; /* bytes for the per-char phases; 0 skips them */
	gboolean sync_each_write; /* -b */
	gboolean direct;           /* --direct, -D */
	gboolean quiet;
	gboolean verbose;     /* -v: what mkfs, mdadm... said, in full */
	gboolean user_given;
	uid_t uid;
	gid_t gid;
	enum ab_per_char_mode per_char;
	enum ab_data_mode data;
	enum ab_cache_mode cache;
	gboolean cold_metadata; /* stat and delete start with cold metadata caches */
	/* arraybench-mpi: the phases that work on data made before them work
	 * on the data of the rank one node on (--reorder). */
	gboolean reorder;
	enum ab_mpi_layout mpi_layout;
	gboolean cgroup_available; /* set by ab_cache_resolve: may hints suggest it? */
	GArray *phase_ids;    /* unsigned enum ab_phase_id, in the order asked for */
	gboolean phases_given;
	GArray *steps;        /* struct ab_step: what a run does, built by ab_config_finish */
	char *csv_path;
	char *json_path;
	/* Original text of the options, for the report. */
	char *size_text;
	char *files_text;
	gboolean machine_given;
	/* The record-size sweep (--phases sweep). */
	struct ab_sweep_grid sweep_grid; /* iozone -a's unless the lists are given */
	uint32_t sweep_tests;            /* bit per enum ab_sweep_test */
	uint64_t stride;                 /* --stride, in records */
	gboolean include_fsync;          /* iozone -e */
	gboolean include_close;          /* iozone -c */
	gboolean untimed_flush;          /* iozone's default: only the I/O calls timed */
	char *sweep_csv_path;
	GArray *stream_counts;           /* uint64_t, --streams; NULL: one stream */
	gboolean shared_file;            /* --shared-file */
	uint64_t files_per_stream;       /* --sweep-files; 0: not given (1) */
	double stonewall_time_s;         /* --stonewall-time; 0: none */
	gboolean wearout;                /* --wearout */
	/* The wal phase (--phases wal; workloads/wal.h). */
	GArray *wal_syncs;               /* unsigned enum ab_wal_sync; NULL: not given */
	GArray *wal_commits;             /* struct ab_wal_commit; NULL: not given */
	uint32_t wal_writers;            /* 0: not given (1) */
	double wal_seconds;              /* 0: not given (AB_WAL_DEFAULT_SECONDS) */
	uint64_t wal_count;              /* --wal-commits; 0: not given (by time) */
	gboolean wal_rewrite;            /* --wal-rewrite: every commit at the log's start */
	/* The oltp phase (--phases oltp; workloads/oltp.h). */
	GArray *oltp_proc_counts;        /* uint32_t, --oltp-procs; NULL: the default */
	uint32_t oltp_block;             /* --oltp-block, bytes */
	uint32_t oltp_read_pct;          /* --oltp-mix R:W as R percent */
	uint64_t oltp_size;              /* --oltp-size, bytes; 0: the -s file size (after finishing,
					  * AB_OLTP_CACHE_FACTOR times a cgroup's limit if neither was given) */
	uint64_t oltp_sync_every;        /* --oltp-sync-every K; 0: no fdatasync */
	uint32_t oltp_seconds;           /* --oltp-seconds */
	/* The latency curve (--phases latency-curve; workloads/curve-math.h). */
	uint32_t curve_procs;            /* --curve-procs */
	uint32_t curve_block;            /* --curve-block, bytes */
	uint32_t curve_read_pct;         /* --curve-mix R:W, as the share of reads */
	double rate_start;               /* --rate-start, IOPS */
	double rate_factor;              /* --rate-factor */
	double curve_seconds;            /* --curve-seconds */
	uint64_t p99_target_ns;          /* --p99-target */
	uint32_t curve_steps;            /* --curve-steps */
	/* Which options the parse took: bit i of options_given[s] is row i
	 * of set s (enum ab_run_option_set); ab_run_option_given() reads it. */
	uint64_t options_given[AB_RUN_OPTION_SETS];
	/* What to build and mount before the phases (--device, --array, --loop). */
	struct ab_target_spec target;
	/* --workload: the profile's name (the run's "workload"), where this
	 * config's step is ("mirror.ini:5: [step mirror]", for the errors of
	 * its checks), and the configs of its steps after the first (struct
	 * ab_config *, each of the profile's words then the user's): the
	 * first step is this config itself. */
	char *workload;
	char *step_where;
	GPtrArray *step_configs;
	/* Every phase the profile's steps ask for (bit 1u << enum
	 * ab_phase_id), the same in each step's config: an option the user
	 * gave for the whole profile (--wal-seconds) belongs to the steps
	 * with its phase and is no error in the others.  0 without a
	 * profile. */
	uint32_t workload_phases;
	/* The phases (bit 1u << enum ab_phase_id) whose options this step's
	 * own profile keys gave: those are for this step alone, never
	 * excused by another step having the phase. */
	uint32_t step_own_phase_options;
	/* ... and whether they gave --wal-seconds or --wal-commits, which
	 * oltp+wal does not take (its other wal options it does). */
	gboolean step_own_wal_timing;
};

void ab_config_init(struct ab_config *cfg);
void ab_config_clear(struct ab_config *cfg);
/* Clear and free one from g_new (a profile's step config). */
void ab_config_free(gpointer cfg);

/* Parsers; each names the bad value in its error (AB_ERROR_USAGE). */
gboolean ab_parse_size_spec(const char *text, struct ab_config *cfg, GError **error);
gboolean ab_parse_files_spec(const char *text, struct ab_config *cfg, GError **error);
gboolean ab_parse_user_spec(const char *text, struct ab_config *cfg, GError **error);
gboolean ab_parse_machine_name(const char *text, struct ab_config *cfg, GError **error);

/* Fill defaults that depend on each other, and check the combination. */
gboolean ab_config_finish(struct ab_config *cfg, uint64_t physical_ram_bytes, GError **error);
/* The phases whose options cfg holds (bit 1u << enum ab_phase_id: sweep,
 * wal, oltp, latency-curve). */
uint32_t ab_config_phase_options(const struct ab_config *cfg);
/* Does cfg ask for phase id, or for any phase with one of `flags`? */
gboolean ab_config_asks_for(const struct ab_config *cfg, unsigned flags, unsigned id);
/* Does a step of cfg's profile (any: workload_phases) ask for phase id? */
gboolean ab_config_some_step_asks_for(const struct ab_config *cfg, unsigned id);
/* Does another step of the profile ask for phase id?  Then an option of
 * phase `family` (wal's for oltp+wal too), given on the command line or in
 * [workload] for every step, is for it; one the step's own keys gave is
 * this step's mistake. */
gboolean ab_config_another_step_asks_for(const struct ab_config *cfg, unsigned family, unsigned id);
/* RAM the cache rule is checked against: -r, the cgroup default, or all of it. */
uint64_t ab_config_effective_ram_mib(const struct ab_config *cfg, uint64_t physical_ram_bytes);

const char *ab_cache_mode_name(enum ab_cache_mode mode);
const char *ab_mpi_layout_name(enum ab_mpi_layout layout);
const char *ab_per_char_mode_name(enum ab_per_char_mode mode);
const char *ab_data_mode_name(enum ab_data_mode mode);

typedef struct ab_config ab_config_auto;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(ab_config_auto, ab_config_clear)

#endif
