/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PLAN_H
#define AB_PLAN_H

#include <glib.h>
#include <stdint.h>

#include "undo.h"

/*
 * A target is built by running a plan: a list of commands, each with the
 * undo to push once it succeeds.  Builders only produce plans (pure, unit
 * tested); one executor runs them, and --dry-run prints them.
 */
struct ab_plan_step {
	char *what;              /* "create raid10 array /dev/md0" */
	char **argv;             /* program and arguments, NULL-terminated; NULL: run
				  * nothing, only push the undo (mdadm registers the
				  * zeroing of each member's superblock this way,
				  * before the create, so unwinding stops the array
				  * first) */
	enum ab_undo_kind undo;  /* AB_UNDO_KIND_COUNT: nothing to undo */
	char *undo_arg;          /* the object's path */
	char *undo_detail;       /* NULL, or what the undo kind needs (undo.h) */
	gboolean makes_node;     /* the command makes undo_arg (an md array's
				  * node): refused if one is there already, so
				  * that the undo never acts on someone else's;
				  * identified once made.  Needs an undo */
};

struct ab_plan {
	GPtrArray *steps; /* struct ab_plan_step * */
};

void ab_plan_init(struct ab_plan *plan);
void ab_plan_clear(struct ab_plan *plan);
/* Append a step; argv is copied.  undo_arg may be NULL with AB_UNDO_KIND_COUNT.
 * Returns the step, still the plan's. */
struct ab_plan_step *ab_plan_add(struct ab_plan *plan, const char *what, const char *const *argv,
				 enum ab_undo_kind undo, const char *undo_arg, const char *undo_detail);
/* "mkfs.xfs -f -q /dev/loop3" with shell quoting where needed; NULL for a
 * step with no command (argv NULL). */
char *ab_plan_step_command(const struct ab_plan_step *step);
/* Split the user's extra options like a shell would (g_shell_parse_argv);
 * NULL or blank gives an empty vector.  what names them in the error:
 * "invalid mkfs options '-L \"x': ...". */
gboolean ab_plan_split_options(const char *what, const char *opts, GStrv *out, GError **error);

/* File systems and array description shared by the builders. */
enum ab_fs_type { AB_FS_EXT3, AB_FS_EXT4, AB_FS_XFS, AB_FS_BTRFS, AB_FS_COUNT };

struct ab_array_geometry {
	uint32_t chunk_bytes;   /* 0: unknown / not striped */
	uint32_t data_disks;    /* stripe width in chunks; 0: unknown */
};

/* The stripe an array's geometry gives a file system of `block`-byte
 * blocks, as mkfs is told it: ext4's stride (blocks per chunk) and
 * stripe_width (stride times the data members; also ext4's mount option
 * stripe=), xfs's su (the chunk, in KiB) and sw (the data members).  The
 * one place of this arithmetic: mkfs.c's hints and the tuner's values
 * (src/tune/) both read it.  FALSE (and *out zeroed) when there is no
 * stripe: geo NULL or unknown, not striped (a mirror: chunk 0), or a chunk
 * that is no whole number of blocks. */
struct ab_stripe_hint {
	uint64_t stride;        /* ext4 -E stride=, blocks */
	uint64_t stripe_width;  /* ext4 -E stripe_width= and mount stripe=, blocks */
	uint32_t su_kib;        /* xfs -d su=, KiB */
	uint32_t sw;            /* xfs -d sw=, chunks */
};
gboolean ab_stripe_hint(const struct ab_array_geometry *geo, uint64_t block, struct ab_stripe_hint *out);

gboolean ab_fs_type_parse(const char *name, enum ab_fs_type *out, GError **error);
const char *ab_fs_type_name(enum ab_fs_type fs);

/* mkfs for one device, with our defaults (force, quiet, no discard, no lazy
 * init, so the first phases do not race background initialisation), stripe
 * hints from the geometry unless no_hint, then the user's extra options
 * (split like a shell would, g_shell_parse_argv). */
gboolean ab_mkfs_plan(struct ab_plan *plan, enum ab_fs_type fs, const char *device,
		      const struct ab_array_geometry *geo, gboolean no_hint, const char *extra_opts,
		      GError **error);

/* One mkfs.btrfs over all members, data and metadata both PROFILE (single,
 * raid0, raid1, raid10, raid5, raid6), then the user's extra options, then
 * the members (NULL-terminated).  Too few members for the profile, or a
 * member whose path has a comma (mount options could not name it), is a
 * usage error. */
gboolean ab_btrfs_plan(struct ab_plan *plan, const char *profile, const char *const *members,
		       const char *extra_opts, GError **error);
/* Mount data naming every member, "device=/dev/a,device=/dev/b[,user_data]":
 * a multi-device btrfs mounts without a prior `btrfs device scan`. */
char *ab_btrfs_mount_data(const char *const *members, const char *user_data);

/* mdadm arrays for level 0, 1, 4, 5, 6, 10 ("raidN" too) or 1+0 (RAID1
 * pairs of consecutive members, then RAID0 over the pairs).  Arrays are
 * named md_prefix + index ("/dev/md/ab1234-" gives /dev/md/ab1234-0); for 1+0
 * the mirrors take 0..k-1 and the stripe k.  chunk_bytes 0 means mdadm's
 * default, 512 KiB; layout (NULL: default) is n2, f2 or o2, level 10 only.
 * Each array's undo is stop (a step that makes its node), preceded by the
 * zeroing of its members' superblocks (argv NULL steps, whose detail is the
 * array's name: only a superblock of that array is zeroed).  geo_out (may
 * be NULL) gets the stripe geometry as the kernel reports it for mkfs;
 * array_dev_out (may be NULL) the device to put the file system on, to be
 * g_free'd. */
gboolean ab_mdadm_plan(struct ab_plan *plan, const char *level, const char *const *members, uint32_t chunk_bytes,
		       const char *layout, const char *md_prefix, struct ab_array_geometry *geo_out,
		       char **array_dev_out, GError **error);
/* The geometry ab_mdadm_plan() gives geo_out for an array of `members`
 * devices, without planning one (the tuner's alignment values are those
 * of the array it will build): the chunk (mdadm's default when
 * chunk_bytes is 0; 0 for RAID1, which has none) and the data members as
 * the kernel reports them (RAID0 n, RAID10 near-2 n/2, RAID5 n-1, RAID6
 * n-2, RAID1 1).  The level, member count, layout and chunk are checked
 * as ab_mdadm_plan() checks them. */
gboolean ab_mdadm_geometry(const char *level, guint members, uint32_t chunk_bytes, const char *layout,
			   struct ab_array_geometry *out, GError **error);

#endif
