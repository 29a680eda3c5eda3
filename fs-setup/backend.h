/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_BACKEND_H
#define AB_BACKEND_H

#include <glib.h>

#include "build.h"
#include "../src/model/backend-list.h"

/*
 * A kind of target, one file each (fs-setup/backend-*.c), one row of
 * src/model/backend-list.h.  target-build.c gathers the members (named, or --loop
 * images), then runs the ops in this order: assemble, the caller's
 * before-mkfs hook, format, mount; then the label.  The ops do the work,
 * journal their undo steps (plans through ab_build_run_plan(), or
 * ab_undo_intend() themselves) and fill in the target; target-build.c knows no
 * backend by name.
 */
enum ab_backend_shape {
	AB_BACKEND_DIRECTORY, /* -d: an existing directory, nothing built */
	AB_BACKEND_DEVICE,    /* one device, no --array */
	AB_BACKEND_ARRAY,     /* --array LEVEL over the members; its name is a
			       * --backend word and a matrix level's BACKEND */
};

struct ab_backend_ops {
	const char *name;            /* as src/model/backend-list.h's row names it */
	enum ab_backend_shape shape;
	const char *own_fs;          /* the one file system it makes itself, as it
				      * builds (btrfs); NULL: any of --fs */
	/* Can it build here at all?  Asked only when picking the default
	 * --array backend; NULL: yes. */
	gboolean (*available)(void);
	/* What the file system goes on, before anything is written on the
	 * members (md: the array): checks the level and the members, sets
	 * t->source and how it is built (level, layout, chunk, b->geo).
	 * NULL: nothing to assemble. */
	gboolean (*assemble)(struct ab_build *b, GError **error);
	/* Make the file system (sets t->mkfs_command); NULL: none (-d). */
	gboolean (*format)(struct ab_build *b, GError **error);
	/* Mount it: t->mount_dir, and for a built one t->mount_fd, t->root_fd. */
	gboolean (*mount)(struct ab_build *b, GError **error);
	/* --cache remount: drop the file system's caches by mounting it again;
	 * NULL: it cannot. */
	gboolean (*remount)(const struct ab_target *t, GError **error);
	/* The label's head ("md10f2-"), before the file system and mount
	 * options; NULL: none. */
	void (*label)(GString *s, const struct ab_target *t);
};

/* Each backend's ops, defined in its own file: reach them through the
 * functions below, by name or shape, never directly. */
#define AB_BACKEND_DECLARE(name, raid1_writes, own_device) extern const struct ab_backend_ops ab_backend_##name;
AB_BACKEND_LIST(AB_BACKEND_DECLARE)
#undef AB_BACKEND_DECLARE

/* All of them, in src/model/backend-list.h's order, NULL-terminated. */
extern const struct ab_backend_ops *const ab_backends[];
/* The backend of that name, or NULL. */
const struct ab_backend_ops *ab_backend_by_name(const char *name);
/* The --array backend a --backend word (or a matrix level's BACKEND)
 * names, or NULL. */
const struct ab_backend_ops *ab_backend_by_word(const char *word);
/* Those words for a message: "'mdadm' or 'btrfs'". */
char *ab_backend_words(void);
/* What a spec builds with: nothing to build, the directory; no --array,
 * the device; --backend as given; else the first --array backend (in the
 * list's order) that is available here and makes `fs`, or failing that
 * the first, whose assemble then says why it cannot.  fs is asked only in
 * that last case. */
const struct ab_backend_ops *ab_backend_pick(const struct ab_target_spec *spec, enum ab_fs_type fs);

#endif
