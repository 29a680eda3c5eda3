/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SPACE_H
#define AB_SPACE_H

/*
 * A search space of mount-option tuning: the keys of one file system, each
 * an option with the values to try.  The built-in spaces are
 * tune/spaces/NAME.ini (one per file system, compiled in as the workload
 * profiles are); a user's file of the same form is read the same way
 * (space-ini.c; arraybench-workload(5), SEARCH SPACE FILES).
 *
 * A key's first value is the default: what the file system does without
 * the option.  It adds no word, so the candidate of every key's default
 * (candidates.h) runs with nothing added.  A value that can lose data on
 * power loss carries the reason (`unsafe`); a value naming the array's
 * geometry (@stride, @stripe-width, @sunit, @swidth) gets its number from
 * the array a tuner builds.  ab_space_resolve() makes the space a tuner
 * races: geometry filled in, unsafe values left out unless allowed, keys
 * left with nothing to try dropped, and what was left out said.
 */

#include <glib.h>

#include "../../fs-setup/plan.h"

/* A space file bigger than this is refused unread. */
#define AB_SPACE_MAX_BYTES (64u * 1024u)
/* Keys of one space, values of one key (a key's values fit a guint32 mask:
 * candidates.h's `keep`). */
#define AB_SPACE_MAX_KEYS 32u
#define AB_SPACE_MAX_VALUES 16u

/* Where a key's option goes. */
enum ab_space_place {
	AB_SPACE_MOUNT,  /* a mount option: run --mount-opts */
	AB_SPACE_MKFS,   /* mkfs words: run --mkfs-opts (a new file system, as every visit makes anyway) */
	AB_SPACE_SWITCH, /* run's --no-stripe-hint, the one run switch a space may set */
};

struct ab_space_value {
	char *text;      /* as the file gives it: "noatime", "512", "@stripe-width" */
	char *label;     /* in a candidate's label: the mount option ("commit=30"), else
			  * "KEY=TEXT" ("inode-size=512", "stripe-hint=none"); the
			  * default's is its text */
	char *words;     /* the option: mount "commit=30", mkfs "-I 512", switch
			  * "--no-stripe-hint"; NULL for the default (no word) */
	char *unsafe;    /* why it can lose data on power loss; NULL: safe */
	gboolean geometry; /* names the array's geometry: filled in by ab_space_resolve() */
};

struct ab_space_key {
	char *name;        /* "commit": letters, digits and '-' */
	enum ab_space_place place;
	char *template;    /* "commit={}", "-I {}", or for a switch its option "--no-stripe-hint" */
	char *note;        /* what the option does and what to watch; NULL */
	GPtrArray *values; /* struct ab_space_value *; [0] is the default */
	unsigned line;     /* of its group in the file */
};

struct ab_space {
	char *name;        /* "ext4", or a file's base name without .ini */
	char *where;       /* "ext4.ini" or the path given, for messages */
	enum ab_fs_type fs;
	char *summary;     /* NULL when the file has none */
	GPtrArray *keys;   /* struct ab_space_key *, in file order */
};

/* What ab_space_resolve() left out, and why. */
struct ab_space_omission {
	char *what;        /* a value's label ("data=writeback"), or a key's name */
	char *why;
	gboolean unsafe;   /* left out as unsafe (allow_unsafe would keep it) */
};

void ab_space_free(struct ab_space *s);
typedef struct ab_space ab_space_auto;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_space_auto, ab_space_free)
void ab_space_omission_free(gpointer omission);
/* For the GPtrArrays of a key (its values) and of a space (its keys). */
void ab_space_value_free(gpointer value);
void ab_space_key_free(gpointer key);

/* Parse `text` (`len` bytes) named `where` in messages: every error is one
 * line "WHERE:LINE: ..." naming the bad value, AB_ERROR_USAGE (a value
 * naming a device: AB_ERROR_UNSAFE, as run's --mount-opts). */
struct ab_space *ab_space_parse(const char *where, const char *name, const char *text, gsize len, GError **error);
/* A built-in space by NAME ("ext4"), or a file when `spec` has a '/' or
 * ends in .ini (the --space rule, as --workload's). */
struct ab_space *ab_space_load(const char *spec, GError **error);
/* The built-in spaces' names, in `arraybench list` order (NULL-ended). */
const char *const *ab_space_builtin_names(void);

/* The space to race on an array of geometry `geo` (NULL or not striped:
 * one device, a mirror, btrfs's own chunks): each @word replaced by its
 * number (fs-setup's ab_stripe_hint(), 4 KiB blocks), a geometry value
 * and the stripe-hint switch left out where there is no stripe, unsafe
 * values left out unless allow_unsafe, and keys with only their default
 * left dropped.  Each value left out goes to `omitted` (struct
 * ab_space_omission *; may be NULL), unsafe ones first.  NULL with
 * *error when two values come out as one label. */
struct ab_space *ab_space_resolve(const struct ab_space *s, const struct ab_array_geometry *geo,
				  gboolean allow_unsafe, GPtrArray *omitted, GError **error);

/* `text` with each @word replaced by its figure of `hint` (NULL: "1" for
 * each, to check a value's form before the geometry is known).  NULL with
 * *error naming an unknown @word. */
char *ab_space_fill_geometry(const char *text, const struct ab_stripe_hint *hint, GError **error);

#endif
