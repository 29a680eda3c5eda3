/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TARGET_H
#define AB_TARGET_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "plan.h"
#include "undo.h"

struct ab_backend_ops; /* backend.h */

/* What the user asked for (options of `run`). */
struct ab_target_spec {
	char *dir;              /* -d: an existing directory, nothing built */
	char *device;           /* --device */
	char *array_level;      /* --array: "raid10", "1+0", "10", "single"... */
	char **members;         /* --members */
	const struct ab_backend_ops *backend; /* --backend; NULL: the default (ab_backend_pick) */
	uint32_t chunk_bytes;   /* --chunk, 0 = the tool's default */
	char *layout;           /* --layout n2|f2|o2 */
	char *fs;               /* --fs */
	char *mkfs_opts;
	char *mount_opts;
	gboolean no_stripe_hint;
	uint32_t loop_count;    /* --loop N:SIZE[:DIR] */
	uint64_t loop_size;
	char *loop_dir;         /* absolute once checked; default $TMPDIR, else /var/tmp */
	gboolean images_in_ram; /* --images-in-ram: images on tmpfs or ramfs are wanted */
	char *mount_parent;     /* where mount points go: TMPDIR, canonical and trusted once checked */
	char **confirmed;       /* --yes-destroy, canonical paths */
	gboolean raw_baseline;  /* --raw-baseline: the devices are read raw before mkfs */
	gboolean dry_run;
};

/* A device's block-queue settings, for the environment record. */
struct ab_queue_info {
	char name[32];
	char scheduler[32];
	int read_ahead_kb;
	int rotational;
	int logical_block_size;
	int physical_block_size;
};

/* Settings of /sys/class/block/NAME/queue under ROOT ("" for real); FALSE
 * when the device has no queue directory. */
gboolean ab_queue_info_read(const char *root, const char *name, struct ab_queue_info *out);

/* What was built, for the phases and the report. */
struct ab_target {
	char *mount_dir;
	int mount_fd;           /* O_PATH of the mount point itself, under the mount; -1 */
	int root_fd;            /* the mounted file system's root, until the caller lets go; -1 */
	const struct ab_backend_ops *backend; /* what built it; its name goes in the run */
	char *level;
	uint32_t chunk_bytes;
	char *layout;
	char *fs;
	char *source;           /* what was mounted */
	GPtrArray *members;     /* char * */
	char *mkfs_command;
	char *mount_options;    /* asked for */
	char *mount_effective;  /* read back from mountinfo */
	char *label;            /* short name for the CSV: "btrfs-raid10-btrfs-noatime" */
	char *mount_extra;      /* data options we add (device=..., no_prefetch...) */
	GArray *queues;         /* struct ab_queue_info of the source and members */
	GString *tool_output;   /* what mkfs, mdadm... said, in full (for -v) */
};

void ab_target_spec_init(struct ab_target_spec *spec);
void ab_target_spec_clear(struct ab_target_spec *spec);
gboolean ab_target_spec_parse_loop(const char *text, struct ab_target_spec *spec, GError **error);
/* Where --loop images go without a DIR: $TMPDIR if set, else /var/tmp. */
const char *ab_target_default_image_dir(void);
/* "tmpfs" or "ramfs" when dir lies on one (images there are RAM), else NULL. */
const char *ab_target_ram_fs_name(const char *dir);
/* Does the spec ask to build anything (root needed), or just use -d? */
gboolean ab_target_spec_builds(const struct ab_target_spec *spec);

/* The options of a spec on their own (part of ab_target_check): which
 * exclude each other, the --loop directory, option words, duplicate
 * members; makes its paths absolute. */
gboolean ab_target_spec_check_options(struct ab_target_spec *spec, GError **error);
/* Told what the build is about to do ("formatting: create xfs file system
 * on /dev/md/ab..."), for the caller's status line; set once by main()'s
 * side, as fs-setup prints nothing itself.  NULL (the default): nobody. */
typedef void (*ab_target_activity_fn)(const char *what);
/* Has the user asked to stop (Ctrl-C)?  The build checks between steps. */
typedef gboolean (*ab_stop_check_fn)(void);
/* Called once the block devices exist and before anything is written on
 * them (mkfs, or mkfs.btrfs making its array): t->members are there, and
 * t->source is the assembled md array or the one device (NULL for btrfs).
 * FALSE stops the build with its error. */
typedef gboolean (*ab_target_hook_fn)(const struct ab_target *t, void *data, GError **error);
/* An empty target (no descriptor held), safe to clear. */
void ab_target_init(struct ab_target *target);
void ab_target_clear(struct ab_target *target);

#endif
