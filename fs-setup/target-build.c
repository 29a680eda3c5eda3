/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Turn a target spec into a mounted directory: gather the members (named,
 * or loop images made here), then the backend's ops (backend.h) assemble,
 * format and mount.  One code path checks (touching nothing), prints the
 * plan (--dry-run) and builds, so the three cannot disagree.  When
 * building, each step is journaled before it is taken and identified once
 * it exists. */
#include "target-build.h"
#include "backend.h"
#include "build.h"
#include "diskstats.h"
#include "loop.h"
#include "safety.h"
#include "../src/base/error.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ab_target_activity_fn activity_fn;

void ab_target_set_activity_fn(ab_target_activity_fn fn)
{
	activity_fn = fn;
}

static gboolean before_mkfs(struct ab_build *b, GError **error)
{
	if (b->mode != AB_BUILD_REAL || !b->before_mkfs)
		return TRUE;
	return b->before_mkfs(b->t, b->hook_data, error) && !ab_build_interrupted(b, error);
}

static gboolean make_loop(struct ab_build *b, uint32_t i, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	g_autofree char *img = g_strdup_printf("%s/arraybench-%s-%u.img", spec->loop_dir, b->run_id, i);
	if (b->mode != AB_BUILD_REAL) {
		if (b->out)
			fprintf(b->out, "  truncate -s %" G_GUINT64_FORMAT " %s\n      undo: unlink %s\n"
				"  losetup --find --show --direct-io=on %s   # LOOP%u\n      undo: loop-detach LOOP%u\n",
				spec->loop_size, img, img, img, i, i);
		g_ptr_array_add(b->t->members, g_strdup_printf("LOOP%u", i));
		return TRUE;
	}
	if (ab_build_interrupted(b, error))
		return FALSE;
	ab_build_activity(b, "making loop image %u of %u", i + 1, spec->loop_count);
	g_autofree char *size = g_strdup_printf("%" G_GUINT64_FORMAT, spec->loop_size);
	struct ab_undo_step *made = ab_undo_intend(b->undo, AB_UNDO_UNLINK, img, size, NULL, error);
	if (!made)
		return FALSE;
	struct stat st;
	if (!ab_loop_make_image(img, spec->loop_size, &st, error)) {
		/* It removes what it made itself; an existing file is not ours. */
		ab_undo_done(b->undo, made);
		return FALSE;
	}
	if (!ab_undo_identify(b->undo, made, &st, error))
		return FALSE;
	/* Detaching looks for loop devices backed by this very image. */
	struct ab_undo_step *attach = ab_undo_intend(b->undo, AB_UNDO_LOOP_DETACH, img, NULL, &st, error);
	if (!attach)
		return FALSE;
	char *dev = ab_loop_attach(img, &st, TRUE, error);
	if (!dev) {
		ab_undo_done(b->undo, attach);
		return FALSE;
	}
	/* Which device, and which attach of it: the image's inode number alone
	 * could, once the image is gone, be another file's. */
	g_autofree char *which = g_strdup_printf("%s %" G_GUINT64_FORMAT, dev, ab_loop_diskseq(dev + strlen("/dev/")));
	if (!ab_undo_set_detail(b->undo, attach, which, error)) {
		g_free(dev);
		return FALSE;
	}
	g_ptr_array_add(b->t->members, dev);
	return TRUE;
}

static gboolean check_named_devices(const struct ab_target_spec *spec, GError **error)
{
	const char *const *confirmed = (const char *const *)spec->confirmed;
	if (spec->device && !ab_safety_check_device("", spec->device, confirmed, error))
		return FALSE;
	for (char **m = spec->members; m && *m; m++)
		if (!ab_safety_check_device("", *m, confirmed, error))
			return FALSE;
	return TRUE;
}

/* A short name for the CSV: the backend's head ("btrfs-raid10-"), the file
 * system, the mount options; "btrfs-raid10-btrfs-noatime". */
static char *make_label(const struct ab_target *t)
{
	GString *s = g_string_new(NULL);
	if (t->backend->label)
		t->backend->label(s, t);
	g_string_append(s, t->fs);
	if (t->mount_options && *t->mount_options)
		g_string_append_printf(s, "-%s", t->mount_options);
	for (char *p = s->str; *p; p++)
		if (*p == ',')
			*p = '+';
		else if (!g_ascii_isgraph(*p))
			*p = '_';
	if (s->len > 64)
		g_string_truncate(s, 64);
	return g_string_free(s, FALSE);
}

static void record_queues(struct ab_target *t)
{
	t->queues = g_array_new(FALSE, TRUE, sizeof(struct ab_queue_info));
	g_autoptr(GPtrArray) paths = g_ptr_array_new_null_terminated(4, NULL, TRUE);
	if (t->source)
		g_ptr_array_add(paths, t->source);
	for (guint i = 0; i < t->members->len; i++)
		g_ptr_array_add(paths, g_ptr_array_index(t->members, i));
	g_autoptr(GPtrArray) names = ab_diskstats_names((const char *const *)paths->pdata);
	for (guint i = 0; i < names->len; i++) {
		struct ab_queue_info q;
		if (ab_queue_info_read("", g_ptr_array_index(names, i), &q))
			g_array_append_val(t->queues, q);
	}
}

gboolean ab_target_remount(const struct ab_target *t, GError **error)
{
	if (!t->backend || !t->backend->remount || !t->source || !t->mount_dir) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--cache remount: no mount of ours to remount");
		return FALSE;
	}
	return t->backend->remount(t, error);
}

/* The file system asked for, and the block devices the backend builds on:
 * those named, and the loop images made here. */
static gboolean gather_members(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	if (!spec->fs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing --fs: ext3, ext4, xfs or btrfs");
		return FALSE;
	}
	if (!ab_fs_type_parse(spec->fs, &b->fs, error))
		return FALSE;
	t->fs = g_strdup(spec->fs);
	t->mount_options = g_strdup(spec->mount_opts);
	/* Again when building: a device may have been mounted since the check. */
	if (!check_named_devices(spec, error))
		return FALSE;
	for (char **m = spec->members; m && *m; m++)
		g_ptr_array_add(t->members, g_strdup(*m));
	for (uint32_t i = 0; i < spec->loop_count; i++)
		if (!make_loop(b, i, error))
			return FALSE;
	return TRUE;
}

static gboolean build(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	ab_target_init(t);
	/* NULL-terminated: pdata is the member list the builders take. */
	t->members = g_ptr_array_new_null_terminated(4, g_free, TRUE);
	t->tool_output = g_string_new(NULL);
	gboolean builds = ab_target_spec_builds(spec);
	if (builds && !gather_members(b, error))
		return FALSE;
	const struct ab_backend_ops *ops = ab_backend_pick(spec, b->fs);
	t->backend = ops;
	if (!builds)
		return ops->mount(b, error);
	/* The hook sees the block devices before anything is written on them:
	 * after an md array is made, before mkfs.btrfs makes its own. */
	if ((ops->assemble && !ops->assemble(b, error)) || !before_mkfs(b, error) ||
	    (ops->format && !ops->format(b, error)) || !ops->mount(b, error))
		return FALSE;
	t->label = make_label(t);
	if (b->mode == AB_BUILD_REAL)
		record_queues(t);
	return TRUE;
}

gboolean ab_target_check(struct ab_target_spec *spec, const char *run_id, FILE *out, GError **error)
{
	if (!ab_target_spec_check_options(spec, error))
		return FALSE;
	struct ab_target scratch;
	struct ab_build b = { .spec = spec, .t = &scratch, .run_id = run_id,
			      .mode = out ? AB_BUILD_PRINT : AB_BUILD_CHECK, .out = out, .fs = AB_FS_COUNT };
	gboolean ok = build(&b, error);
	ab_target_clear(&scratch);
	return ok;
}

gboolean ab_target_build(const struct ab_target_spec *spec, struct ab_target *t, struct ab_undo *undo,
			 const char *run_id, ab_stop_check_fn stop_requested, ab_target_hook_fn hook,
			 void *hook_data, GError **error)
{
	struct ab_build b = { .spec = spec, .t = t, .undo = undo, .run_id = run_id, .mode = AB_BUILD_REAL,
			      .stop_requested = stop_requested, .before_mkfs = hook, .hook_data = hook_data,
			      .activity = activity_fn, .fs = AB_FS_COUNT };
	return build(&b, error);
}

