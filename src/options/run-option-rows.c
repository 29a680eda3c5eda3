/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`'s own options (bonnie++'s letters and meanings, plus
 * long ones): the run, its target, bonnie++'s phases and the outputs, as
 * rows of src/options/option-table.h, with the parsers no kind covers. */
#include "run-option-sets.h"
#include "config.h"
#include "../base/error.h"
#include "run-option-parse.h"
#include "../../fs-setup/backend.h"
#include "../../fs-setup/safety.h"
#include "../../workloads/phase.h"

#define CFG(f) AB_OPTION_FIELD(struct ab_config, f)

static gboolean opt_size(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_parse_size_spec(value, data, error);
}

static gboolean opt_files(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_parse_files_spec(value, data, error);
}

static gboolean opt_machine(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_parse_machine_name(value, data, error);
}

static gboolean opt_user(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_parse_user_spec(value, data, error);
}

/* Whole MiB, as the cgroup's limit is set; noted as given (no default
 * from the machine's RAM then). */
static gboolean opt_ram(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t bytes;
	if (!ab_parse_size(value, AB_MIB, &bytes, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (bytes % AB_MIB)
		return ab_option_refuse(error, name, value, "must be a whole number of MiB");
	cfg->ram_mib = bytes / AB_MIB;
	cfg->ram_given = TRUE;
	return TRUE;
}

/* Any 64-bit number, 0 too: no count limits apply. */
static gboolean opt_seed(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	guint64 seed;
	if (!g_ascii_string_to_unsigned(value, 10, 0, G_MAXUINT64, &seed, NULL))
		return ab_option_refuse(error, name, value, "not a non-negative whole number");
	cfg->seed = seed;
	cfg->seed_given = TRUE;
	return TRUE;
}

/* Noted as given: without a count the phase doubles it until it lasts
 * long enough. */
static gboolean opt_seeks(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, 1ull << 40, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return ab_option_refuse(error, name, value, "must be at least 1");
	cfg->seeks = n;
	cfg->seeks_given = TRUE;
	return TRUE;
}

/* -f alone skips the per-char phases; -fSIZE sets their size. */
static gboolean opt_fast(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	if (!value) {
		cfg->byte_io_size = 0;
		return TRUE;
	}
	uint64_t bytes;
	if (!ab_parse_size(value, AB_MIB, &bytes, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (bytes == 0 || bytes % AB_MIB)
		return ab_option_refuse(error, name, value, "per-char size must be a whole number of MiB, at least 1");
	cfg->byte_io_size = bytes;
	return TRUE;
}

static gboolean opt_phases(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_parse_phase_list(value, data, error);
}

static gboolean opt_fs(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	enum ab_fs_type fs;
	if (!ab_fs_type_parse(value, &fs, error))
		return FALSE;
	if (!*value)
		return ab_option_refuse(error, name, value, "empty value");
	g_free(cfg->target.fs);
	cfg->target.fs = g_strdup(value);
	return TRUE;
}

static gboolean opt_layout(const char *name, const char *value, void *data, GError **error)
{
	struct ab_config *cfg = data;
	if (!g_str_equal(value, "n2") && !g_str_equal(value, "f2") && !g_str_equal(value, "o2"))
		return ab_option_refuse(error, name, value, "expected n2, f2 or o2");
	g_free(cfg->target.layout);
	cfg->target.layout = g_strdup(value);
	return TRUE;
}

static gboolean opt_members(const char *name, const char *value, void *data, GError **error)
{
	struct ab_target_spec *t = &((struct ab_config *)data)->target;
	g_auto(GStrv) parts = g_strsplit(value, ",", 0);
	for (char **p = parts; *p; p++)
		if (!**p)
			return ab_option_refuse(error, name, value, "empty device name in the list");
	g_strfreev(t->members);
	t->members = g_steal_pointer(&parts);
	return TRUE;
}

/* The backends' names come from their table (fs-setup/backends.c). */
static gboolean opt_backend(const char *name, const char *value, void *data, GError **error)
{
	struct ab_target_spec *t = &((struct ab_config *)data)->target;
	const struct ab_backend_ops *backend = ab_backend_by_word(value);
	if (!backend) {
		g_autofree char *words = ab_backend_words();
		g_autofree char *why = g_strdup_printf("expected %s", words);
		return ab_option_refuse(error, name, value, why);
	}
	t->backend = backend;
	return TRUE;
}

static gboolean opt_loop(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_target_spec_parse_loop(value, &((struct ab_config *)data)->target, error);
}

static gboolean opt_yes_destroy(const char *name, const char *value, void *data, GError **error)
{
	return ab_safety_replace_confirmed(name, value, &((struct ab_config *)data)->target.confirmed, error);
}

/* The profile was read before any option (see ab_run_options_parse):
 * nothing is left to do with the name here. */
static gboolean opt_workload(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)value, (void)data, (void)error;
	return TRUE;
}

static const struct ab_option_word per_char_words[] = {
	{ "syscall", AB_PER_CHAR_SYSCALL }, { "stdio", AB_PER_CHAR_STDIO }, { NULL, 0 },
};

static const struct ab_option_word data_words[] = {
	{ "random", AB_DATA_RANDOM }, { "zeros", AB_DATA_ZEROS }, { NULL, 0 },
};

static const struct ab_option_word cache_words[] = {
	{ "auto", AB_CACHE_AUTO }, { "cgroup", AB_CACHE_CGROUP }, { "drop", AB_CACHE_DROP },
	{ "none", AB_CACHE_NONE }, { "remount", AB_CACHE_REMOUNT }, { "fadvise", AB_CACHE_FADVISE },
	{ NULL, 0 },
};

static const struct ab_option_word mpi_layout_words[] = {
	{ "private", AB_MPI_LAYOUT_PRIVATE }, { "shared", AB_MPI_LAYOUT_SHARED },
	{ "shared-file", AB_MPI_LAYOUT_SHARED_FILE }, { NULL, 0 },
};

#define GENERAL .family = AB_OPTION_GENERAL
#define TARGET .family = AB_OPTION_TARGET
#define BONNIE .family = AB_OPTION_BONNIE
#define OUTPUT .family = AB_OPTION_OUTPUT
#define RUN_KEY .profile = AB_OPTION_PROFILE_RUN
#define STEP_KEY .profile = AB_OPTION_PROFILE_STEP
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)
#define SWITCH(f) .kind = AB_OPTION_SWITCH, CFG(f)
/* A matrix sets these for each cell itself (src/matrix/matrix-file.c). */
#define MATRIX_OWN AB_OPTION_MATRIX_OWN

static const struct ab_option_row ab_general_option_rows[] = {
	{ "directory", 'd', .kind = AB_OPTION_PATH, CFG(dir), .why = "directory name", GENERAL, .flags = MATRIX_OWN,
	  .help = "Directory to test in (required); each phase records the I/O of the devices under it", .arg = "DIR" },
	{ "size", 's', CUSTOM(opt_size), BONNIE, STEP_KEY,
	  .help = "File size in MiB or with k/m/g/t, then I/O chunk (8k), seek count (8192), seekers (5)",
	  .arg = "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]" },
	{ "files", 'n', CUSTOM(opt_files), BONNIE, STEP_KEY,
	  .help = "Files in units of 1024 (16), max and min size in bytes (-1 hard links, -2 symlinks), "
		  "directories, file chunk",
	  .arg = "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]" },
	{ "machine", 'm', CUSTOM(opt_machine), OUTPUT, .flags = AB_OPTION_FILENAME,
	  .help = "Machine name in the report (default: host name)", .arg = "NAME" },
	{ "ram", 'r', CUSTOM(opt_ram), GENERAL, .help = "RAM in MiB: the cgroup limit under --cache cgroup, else trusted",
	  .arg = "RAM" },
	{ "repeats", 'x', .kind = AB_OPTION_COUNT, CFG(repeats), .min = 1, .max = 10000, .why = "must be at least 1",
	  GENERAL, .flags = AB_OPTION_OWN_ERROR | MATRIX_OWN,
	  .help = "Run the whole suite N times, each with its own seed", .arg = "N" },
	{ "seed", 'z', CUSTOM(opt_seed), GENERAL, .flags = MATRIX_OWN, .help = "Random seed of the first run",
	  .arg = "SEED" },
	{ "fast", 'f', CUSTOM(opt_fast), BONNIE, STEP_KEY, .flags = AB_OPTION_OPTIONAL_ARG,
	  .help = "-f skips the per-char phases; -fSIZE (attached) sets their size (3m)", .arg = "SIZE" },
	{ "sync-each-write", 'b', SWITCH(sync_each_write), BONNIE, STEP_KEY,
	  .help = "fsync after every write (and file create/delete)" },
	{ "quiet", 'q', SWITCH(quiet), OUTPUT, .flags = MATRIX_OWN,
	  .help = "Table to stderr, no progress line; stdout has only the CSV" },
	{ "verbose", 'v', SWITCH(verbose), OUTPUT, .help = "Show all that mkfs, mdadm and the other set-up tools said" },
	{ "user", 'u', CUSTOM(opt_user), GENERAL, .help = "Run the workers as this user (as root)",
	  .arg = "USER[:GROUP]" },
	{ "seekers", 0, .kind = AB_OPTION_COUNT, CFG(seekers), .min = 1, .max = AB_MAX_SEEKERS,
	  .why = "must be at least 1", BONNIE, STEP_KEY, .flags = AB_OPTION_OWN_ERROR,
	  .help = "Forked seeker processes (5)", .arg = "N" },
	{ "seeks", 0, CUSTOM(opt_seeks), BONNIE, STEP_KEY,
	  .help = "Random seeks in all (default: from 8192, doubled until the phase lasts 1 s)", .arg = "N" },
	{ "per-char", 0, .kind = AB_OPTION_ENUM, CFG(per_char), .words = per_char_words,
	  .why = "expected 'syscall' or 'stdio'", BONNIE, STEP_KEY,
	  .help = "syscall: 1-byte read/write over the per-char size (bonnie++ 2.00); stdio: getc/putc over the "
		  "whole file, or the -fSIZE given (1.03)",
	  .arg = "MODE" },
	{ "phases", 0, CUSTOM(opt_phases), GENERAL, STEP_KEY,
	  .help = "Phases to run, in this order; one named twice runs twice (see 'arraybench list')", .arg = "LIST" },
	{ "data", 0, .kind = AB_OPTION_ENUM, CFG(data), .words = data_words, .why = "expected 'random' or 'zeros'",
	  BONNIE, STEP_KEY, .help = "random (incompressible, default) or zeros (bonnie++ parity)", .arg = "KIND" },
	{ "direct", 'D', SWITCH(direct), BONNIE, STEP_KEY,
	  .help = "O_DIRECT for every phase that can (per-char stays buffered); unlike bonnie++, reads too" },
	{ "cache", 0, .kind = AB_OPTION_ENUM, CFG(cache), .words = cache_words,
	  .why = "expected 'auto', 'cgroup', 'drop', 'fadvise', 'remount' or 'none'", GENERAL, RUN_KEY,
	  .help = "auto (default: cgroup, else drop, else fadvise), cgroup, drop, fadvise, remount (built targets) or none",
	  .arg = "MODE" },
	{ "reorder", 0, SWITCH(reorder), GENERAL, .flags = MATRIX_OWN,
	  .help = "On ranks on two or more nodes (arraybench-mpi): read, rewrite, seek and stat the files of the rank one "
		  "node on, never this rank's own" },
	{ "mpi-layout", 0, .kind = AB_OPTION_ENUM, CFG(mpi_layout), .words = mpi_layout_words,
	  .why = "expected 'private', 'shared' or 'shared-file'", GENERAL, .flags = MATRIX_OWN,
	  .help = "On many ranks (arraybench-mpi): private (default: each rank in a directory of its own), shared "
		  "(the file phases of all ranks in one directory) or shared-file (the I/O phases of all ranks in "
		  "one file, each rank its own segment)",
	  .arg = "LAYOUT" },
	{ "cold-metadata", 0, SWITCH(cold_metadata), BONNIE, RUN_KEY,
	  .help = "Start stat and delete with cold dentry and inode caches (root; bonnie++ runs them warm)" },
	{ "csv", 0, .kind = AB_OPTION_PATH, CFG(csv_path), .why = "file name", OUTPUT, .flags = MATRIX_OWN,
	  .help = "Append the bonnie++ CSV lines to FILE", .arg = "FILE" },
	{ "json", 0, .kind = AB_OPTION_PATH, CFG(json_path), .why = "file name", OUTPUT, .flags = MATRIX_OWN,
	  .help = "Append one JSON object per run (one per line) to FILE", .arg = "FILE" },
	{ "device", 0, .kind = AB_OPTION_PATH, CFG(target.device), .why = "value", TARGET, .flags = MATRIX_OWN,
	  .help = "Format this block device with --fs and test on it (instead of -d)", .arg = "DEV" },
	{ "array", 0, .kind = AB_OPTION_STRING, CFG(target.array_level), .why = "value", TARGET, .flags = MATRIX_OWN,
	  .help = "Build an array of --members or --loop images: mdadm 0, 1, 4, 5, 6, 10, 1+0; btrfs single, raid0, "
		  "raid1, raid10, raid5, raid6",
	  .arg = "LEVEL" },
	{ "members", 0, CUSTOM(opt_members), TARGET, .flags = AB_OPTION_FILENAME | MATRIX_OWN,
	  .help = "Comma-separated member devices of --array", .arg = "DEV,DEV..." },
	{ "backend", 0, CUSTOM(opt_backend), TARGET, .flags = MATRIX_OWN,
	  .help = "mdadm or btrfs (default: mdadm where the kernel has md)", .arg = "NAME" },
	{ "chunk", 0, .kind = AB_OPTION_SIZE, CFG(target.chunk_bytes), .unit = 1024, .min = 4096, .max = 1ull << 30,
	  .why = "a power of two from 4k to 1g (KiB without a suffix)", TARGET,
	  .flags = AB_OPTION_OWN_ERROR | AB_OPTION_POWER_OF_TWO, .help = "Array chunk size (KiB without a suffix)",
	  .arg = "SIZE" },
	{ "layout", 0, CUSTOM(opt_layout), TARGET, .help = "RAID10 layout: n2, f2 or o2", .arg = "LAYOUT" },
	{ "fs", 0, CUSTOM(opt_fs), TARGET, .flags = MATRIX_OWN, .help = "File system to make: ext3, ext4, xfs or btrfs",
	  .arg = "FS" },
	{ "mkfs-opts", 0, .kind = AB_OPTION_STRING, CFG(target.mkfs_opts), .why = "value", TARGET, .flags = MATRIX_OWN,
	  .help = "Extra mkfs options; none may name a path or device (exit 4)", .arg = "\"OPTS\"" },
	{ "mount-opts", 0, .kind = AB_OPTION_STRING, CFG(target.mount_opts), .why = "value", TARGET,
	  .flags = MATRIX_OWN,
	  .help = "Mount options (noatime... become flags, the rest go to the fs); none may name a path or device",
	  .arg = "OPTS" },
	{ "no-stripe-hint", 0, SWITCH(target.no_stripe_hint), TARGET, .help = "Do not pass the array geometry to mkfs" },
	{ "raw-baseline", 0, SWITCH(target.raw_baseline), TARGET,
	  .help = "Before mkfs, read each member (and the md array) raw, as 'arraybench raw'; the table gives the file "
		  "system's share" },
	{ "loop", 0, CUSTOM(opt_loop), TARGET, .flags = AB_OPTION_FILENAME | MATRIX_OWN,
	  .help = "Make N sparse images of SIZE in DIR ($TMPDIR, else /var/tmp) on loop devices as members; DIR must "
		  "exist and not be tmpfs or ramfs",
	  .arg = "N:SIZE[:DIR]" },
	{ "images-in-ram", 0, SWITCH(target.images_in_ram), TARGET,
	  .help = "Allow --loop images on tmpfs (the array is then RAM)" },
	{ "yes-destroy", 0, CUSTOM(opt_yes_destroy), TARGET, .flags = MATRIX_OWN,
	  .help = "Overwrite these devices even though they carry a signature", .arg = "DEV,DEV..." },
	{ "dry-run", 0, SWITCH(target.dry_run), TARGET, .flags = MATRIX_OWN,
	  .help = "Print the set-up plan with each undo and touch nothing" },
	{ "workload", 0, CUSTOM(opt_workload), GENERAL, .flags = AB_OPTION_FILENAME | MATRIX_OWN,
	  .help = "Run a workload profile's steps: a built-in NAME (see 'arraybench list') or a FILE (with a '/' or "
		  "ending in .ini; arraybench-workload(5)); the other options given change every step",
	  .arg = "NAME|FILE" },
};

const struct ab_option_set ab_general_options = AB_OPTION_SET(ab_general_option_rows);
