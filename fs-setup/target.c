/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Turn a target spec into a mounted directory: loop images, array, mkfs,
 * mount.  One code path checks (touching nothing), prints the plan
 * (--dry-run) and builds, so the three cannot disagree.  When building,
 * each step is journaled before it is taken and identified once it exists. */
#include "target.h"
#include "diskstats.h"
#include "loop.h"
#include "mount.h"
#include "safety.h"
#include "spawn.h"
#include "../src/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

enum mode {
	CHECK, /* validate only */
	PRINT, /* validate and print the plan */
	BUILD, /* do it */
};

struct build {
	const struct ab_target_spec *spec;
	struct ab_target *t;
	struct ab_undo *undo; /* BUILD only */
	const char *run_id;
	enum mode mode;
	FILE *out;            /* PRINT only */
	ab_stop_check_fn stop_requested; /* BUILD only; NULL: never asked to stop */
	ab_target_hook_fn before_mkfs;   /* BUILD only; may be NULL */
	void *hook_data;
};


static ab_target_activity_fn activity_fn;

void ab_target_set_activity_fn(ab_target_activity_fn fn)
{
	activity_fn = fn;
}

/* Says what the build does next, when building for real. */
static void activity(const struct build *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void activity(const struct build *b, const char *fmt, ...)
{
	if (b->mode != BUILD || !activity_fn)
		return;
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	activity_fn(what);
}

static gboolean interrupted(const struct build *b, GError **error)
{
	if (!b->stop_requested || !b->stop_requested())
		return FALSE;
	g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted while building the target");
	return TRUE;
}

static gboolean before_mkfs(struct build *b, GError **error)
{
	if (b->mode != BUILD || !b->before_mkfs)
		return TRUE;
	return b->before_mkfs(b->t, b->hook_data, error) && !interrupted(b, error);
}

/* The tool's last words are the reason, as a rule, unless it went on to
 * print its usage (mkfs.xfs on a small device: "Filesystem must be larger
 * than 300MB." and then 40 lines of usage): then the words before it.
 * -v shows them all. */
static char *last_line(char *text)
{
	g_auto(GStrv) lines = g_strsplit(g_strstrip(text), "\n", -1);
	guint end = g_strv_length(lines);
	for (guint i = 1; i < end; i++)
		if (g_ascii_strncasecmp(g_strchug(lines[i]), "usage:", 6) == 0) {
			end = i;
			break;
		}
	for (guint i = end; i-- > 0;)
		if (*g_strstrip(lines[i]))
			return g_strdup(lines[i]);
	return g_strdup("no message");
}

static gboolean spawn(struct build *b, const struct ab_plan_step *step, GError **error)
{
	g_autofree char *out = NULL, *err = NULL;
	int status;
	if (!ab_spawn_tool(step->argv, &out, &err, &status, error)) {
		g_prefix_error(error, "cannot %s: ", step->what);
		(*error)->domain = AB_ERROR;
		(*error)->code = AB_ERROR_SKIPPED;
		return FALSE;
	}
	g_autofree char *cmd = ab_plan_step_command(step);
	g_string_append_printf(b->t->tool_output, "$ %s\n%s%s", cmd, out ? out : "", err ? err : "");
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_autofree char *why = last_line(err);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot %s: %s failed: %s (-v shows all it said)",
			    step->what, step->argv[0], why);
		return FALSE;
	}
	return TRUE;
}

/* Journal the step's undo, then run its command. */
static gboolean run_step(struct build *b, const struct ab_plan_step *step, const char *doing, GError **error)
{
	if (b->mode == PRINT) {
		if (step->argv) {
			g_autofree char *cmd = ab_plan_step_command(step);
			fprintf(b->out, "  %s\n", cmd);
		}
		if (step->undo != AB_UNDO_KIND_COUNT)
			fprintf(b->out, "      undo: %s %s\n", ab_undo_kind_name(step->undo), step->undo_arg);
	}
	if (b->mode != BUILD)
		return TRUE;
	if (interrupted(b, error))
		return FALSE;
	struct stat st;
	if (step->makes_node && lstat(step->undo_arg, &st) == 0) {
		/* Never undo, later, what someone else named so. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot %s: '%s' exists already", step->what,
			    step->undo_arg);
		return FALSE;
	}
	struct ab_undo_step *intent = NULL;
	if (step->undo != AB_UNDO_KIND_COUNT &&
	    !(intent = ab_undo_intend(b->undo, step->undo, step->undo_arg, step->undo_detail, NULL, error)))
		return FALSE;
	if (step->argv) {
		activity(b, "%s: %s", doing, step->what);
		if (!spawn(b, step, error))
			return FALSE;
	}
	/* The node made, so that its undo checks later that it is still this
	 * one (an array stopped by name). */
	if (step->makes_node && stat(step->undo_arg, &st) == 0)
		return ab_undo_identify(b->undo, intent, &st, error);
	return TRUE;
}

/* `doing` heads each command's activity ("formatting"). */
static gboolean run_plan(struct build *b, struct ab_plan *plan, const char *doing, GError **error)
{
	for (guint i = 0; i < plan->steps->len; i++)
		if (!run_step(b, g_ptr_array_index(plan->steps, i), doing, error))
			return FALSE;
	return TRUE;
}

static gboolean make_loop(struct build *b, uint32_t i, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	g_autofree char *img = g_strdup_printf("%s/arraybench-%s-%u.img", spec->loop_dir, b->run_id, i);
	if (b->mode != BUILD) {
		if (b->out)
			fprintf(b->out, "  truncate -s %" G_GUINT64_FORMAT " %s\n      undo: unlink %s\n"
				"  losetup --find --show --direct-io=on %s   # LOOP%u\n      undo: loop-detach LOOP%u\n",
				spec->loop_size, img, img, img, i, i);
		g_ptr_array_add(b->t->members, g_strdup_printf("LOOP%u", i));
		return TRUE;
	}
	if (interrupted(b, error))
		return FALSE;
	activity(b, "making loop image %u of %u", i + 1, spec->loop_count);
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

static gboolean md_available(void)
{
	return access("/proc/mdstat", F_OK) == 0;
}

static enum ab_backend pick_backend(const struct ab_target_spec *spec, enum ab_fs_type fs)
{
	if (spec->backend != AB_BACKEND_AUTO)
		return spec->backend;
	if (md_available())
		return AB_BACKEND_MDADM;
	return fs == AB_FS_BTRFS ? AB_BACKEND_BTRFS : AB_BACKEND_MDADM;
}

static const char *btrfs_profile(const char *level)
{
	static const char *const names[] = { "single", "raid0", "raid1", "raid10", "raid5", "raid6" };
	const char *bare = g_str_has_prefix(level, "raid") ? level + 4 : level;
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		const char *nb = g_str_has_prefix(names[i], "raid") ? names[i] + 4 : names[i];
		if (g_str_equal(bare, nb))
			return names[i];
	}
	return NULL;
}

static char *make_label(const struct ab_target *t)
{
	GString *s = g_string_new(NULL);
	if (g_str_equal(t->backend, "mdadm"))
		g_string_append_printf(s, "md%s%s-", t->level, t->layout ? t->layout : "");
	else if (g_str_equal(t->backend, "btrfs"))
		g_string_append_printf(s, "btrfs-%s-", t->level);
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

static gboolean build_array_plan(struct build *b, enum ab_fs_type fs, struct ab_plan *planp,
				 struct ab_array_geometry *geo, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	const char *const *members = (const char *const *)t->members->pdata;
	if (pick_backend(spec, fs) == AB_BACKEND_BTRFS) {
		const char *profile = btrfs_profile(spec->array_level);
		if (fs != AB_FS_BTRFS || !profile) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "invalid --array '%s' for the btrfs backend: it takes --fs btrfs and one of "
				    "single, raid0, raid1, raid10, raid5, raid6", spec->array_level);
			return FALSE;
		}
		t->backend = g_strdup("btrfs");
		t->level = g_strdup(profile);
		t->source = g_strdup(members[0]);
		if (!ab_btrfs_plan(planp, profile, members, spec->mkfs_opts, error))
			return FALSE;
		t->mkfs_command = ab_plan_step_command(g_ptr_array_index(planp->steps, 0));
		return TRUE;
	}
	g_autofree char *prefix = g_strdup_printf("/dev/md/ab%s-", b->run_id);
	char *array_dev = NULL;
	if (!ab_mdadm_plan(planp, spec->array_level, members, spec->chunk_bytes, spec->layout, prefix, geo,
			   &array_dev, error))
		return FALSE;
	t->backend = g_strdup("mdadm");
	t->level = g_strdup(spec->array_level);
	t->layout = g_strdup(spec->layout);
	t->chunk_bytes = geo->chunk_bytes;
	t->source = array_dev;
	/* Checked after the level: a bad level is the first thing to say. */
	if (!md_available()) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "md RAID is not in this kernel (no /proc/mdstat): use --fs btrfs --backend btrfs for "
			    "a btrfs array here, or run on a kernel with md (see tests/vm)");
		return FALSE;
	}
	return TRUE;
}

static gboolean build_array(struct build *b, enum ab_fs_type fs, struct ab_array_geometry *geo, GError **error)
{
	struct ab_plan plan;
	ab_plan_init(&plan);
	/* btrfs makes its array as it formats */
	gboolean ok = build_array_plan(b, fs, &plan, geo, error) &&
		      run_plan(b, &plan, g_str_equal(b->t->backend, "btrfs") ? "formatting" : "building the array", error);
	ab_plan_clear(&plan);
	return ok;
}

/* A mount point of our own, named after the run, made exclusively in the
 * (trusted) TMPDIR, and held by an O_PATH descriptor from then on. */
static gboolean make_mount_point(struct build *b, char **dir_out, GError **error)
{
	const char *parent = b->spec->mount_parent;
	g_autofree char *name = g_strdup_printf("arraybench-mnt.%s", b->run_id);
	g_autofree char *dir = g_build_filename(parent, name, NULL);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot open the temporary directory '%s'", parent);
		return FALSE;
	}
	struct ab_undo_step *step = ab_undo_intend(b->undo, AB_UNDO_RMDIR, dir, NULL, NULL, error);
	if (!step) {
		close(pfd);
		return FALSE;
	}
	if (mkdirat(pfd, name, 0700) != 0) {
		int e = errno;
		close(pfd);
		ab_undo_done(b->undo, step); /* what is there is not ours */
		ab_set_error_errno(error, e == EEXIST ? AB_ERROR_USAGE : AB_ERROR_SKIPPED, e,
				   "cannot make the mount point '%s'", dir);
		return FALSE;
	}
	struct stat st;
	b->t->mount_fd = openat(pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (b->t->mount_fd < 0 || fstat(b->t->mount_fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, errno, "cannot open the mount point '%s' just made", dir);
		return FALSE;
	}
	if (!ab_undo_identify(b->undo, step, &st, error))
		return FALSE;
	*dir_out = g_steal_pointer(&dir);
	return TRUE;
}

/* The mounted root, seen through the mount point's name: it must now lead
 * to the new file system, not to the directory below it. */
static gboolean open_mounted_root(struct ab_target *t, const char *dir, GError **error)
{
	struct stat root, below;
	t->root_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->root_fd >= 0 && fstat(t->root_fd, &root) == 0 && fstat(t->mount_fd, &below) == 0 &&
	    root.st_dev != below.st_dev)
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
		    "refusing mount point '%s': it does not lead to the file system just mounted", dir);
	return FALSE;
}

static gboolean format_and_mount(struct build *b, enum ab_fs_type fs, const struct ab_array_geometry *geo,
				 GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	if (!g_str_equal(t->backend, "btrfs")) {
		struct ab_plan plan;
		ab_plan_init(&plan);
		gboolean ok = ab_mkfs_plan(&plan, fs, t->source, geo, spec->no_stripe_hint, spec->mkfs_opts, error);
		if (ok) {
			t->mkfs_command = ab_plan_step_command(g_ptr_array_index(plan.steps, 0));
			ok = run_plan(b, &plan, "formatting", error);
		}
		ab_plan_clear(&plan);
		if (!ok)
			return FALSE;
	}
	g_autofree char *extra = NULL;
	if (g_str_equal(t->backend, "btrfs"))
		extra = ab_btrfs_mount_data((const char *const *)t->members->pdata, NULL);
	else if (fs == AB_FS_EXT3 || fs == AB_FS_EXT4)
		extra = g_strdup("no_prefetch_block_bitmaps"); /* no ext4lazyinit thread during the phases */
	if (b->mode != BUILD) {
		if (b->out)
			fprintf(b->out, "  mkdir %s/arraybench-mnt.%s   # MOUNT_DIR\n      undo: rmdir MOUNT_DIR\n"
				"  mount -t %s -o %s%s%s %s MOUNT_DIR\n      undo: umount MOUNT_DIR\n", spec->mount_parent,
				b->run_id, t->fs, extra ? extra : "", extra && t->mount_options && *t->mount_options ? "," : "",
				t->mount_options ? t->mount_options : "", t->source);
		t->mount_dir = g_strdup("MOUNT_DIR");
		return TRUE;
	}
	g_autofree char *dir = NULL;
	if (interrupted(b, error) || !make_mount_point(b, &dir, error))
		return FALSE;
	struct ab_undo_step *mounted = ab_undo_intend(b->undo, AB_UNDO_UMOUNT, dir, t->source, NULL, error);
	if (!mounted)
		return FALSE;
	activity(b, "mounting %s", t->source);
	if (!ab_mount(t->source, t->mount_fd, dir, t->fs, spec->mount_opts, extra, error)) {
		ab_undo_done(b->undo, mounted);
		return FALSE;
	}
	if (!open_mounted_root(t, dir, error)) {
		/* Someone moved the mount point: the undo by name would miss it.
		 * Unmount it where it is, found from the descriptor. */
		char at[64], real[4096];
		snprintf(at, sizeof(at), "/proc/self/fd/%d", t->mount_fd);
		ssize_t n = readlink(at, real, sizeof(real) - 1);
		if (n > 0) {
			real[n] = '\0';
			if (umount2(real, UMOUNT_NOFOLLOW) == 0)
				ab_undo_done(b->undo, mounted);
		}
		return FALSE;
	}
	t->mount_dir = g_steal_pointer(&dir);
	t->mount_effective = ab_mount_effective_options("", t->mount_dir);
	t->mount_extra = g_steal_pointer(&extra);
	return TRUE;
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
	if (!t->source || !t->mount_dir) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--cache remount: no mount of ours to remount");
		return FALSE;
	}
	/* Writeback of the last phase can hold the file system briefly. */
	int rc = -1;
	for (int i = 0; i < 50 && (rc = umount2(t->mount_dir, 0)) != 0 && errno == EBUSY; i++)
		g_usleep(100000);
	if (rc != 0) {
		ab_set_error_errno(error, AB_ERROR_PHASE, errno, "--cache remount: cannot unmount '%s'", t->mount_dir);
		return FALSE;
	}
	/* The undo still says umount: if this mount fails, that undo finds
	 * nothing mounted and succeeds. */
	return ab_mount(t->source, t->mount_fd, t->mount_dir, t->fs, t->mount_options, t->mount_extra, error);
}

static gboolean build(struct build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	ab_target_init(t);
	/* NULL-terminated: pdata is the member list the builders take. */
	t->members = g_ptr_array_new_null_terminated(4, g_free, TRUE);
	t->tool_output = g_string_new(NULL);
	if (!ab_target_spec_builds(spec)) {
		t->mount_dir = g_strdup(spec->dir);
		t->backend = g_strdup("dir");
		return TRUE;
	}
	enum ab_fs_type fs;
	if (!spec->fs) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing --fs: ext3, ext4, xfs or btrfs");
		return FALSE;
	}
	if (!ab_fs_type_parse(spec->fs, &fs, error))
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
	struct ab_array_geometry geo = { 0 };
	if (spec->array_level) {
		/* mkfs.btrfs makes the btrfs array: before it, only the members. */
		gboolean btrfs = pick_backend(spec, fs) == AB_BACKEND_BTRFS;
		if ((btrfs && !before_mkfs(b, error)) || !build_array(b, fs, &geo, error) ||
		    (!btrfs && !before_mkfs(b, error)))
			return FALSE;
	} else {
		const char *dev = spec->device ? spec->device
				  : t->members->len ? g_ptr_array_index(t->members, 0) : NULL;
		if (!dev || t->members->len > 1) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "%s: name one --device, or an --array with its members", dev ? "several devices" : "no device");
			return FALSE;
		}
		t->backend = g_strdup("device");
		t->level = g_strdup("single");
		t->source = g_strdup(dev);
		if (spec->device)
			g_ptr_array_add(t->members, g_strdup(dev));
		if (!before_mkfs(b, error))
			return FALSE;
	}
	if (!format_and_mount(b, fs, &geo, error))
		return FALSE;
	t->label = make_label(t);
	if (b->mode == BUILD)
		record_queues(t);
	return TRUE;
}

gboolean ab_target_check(struct ab_target_spec *spec, const char *run_id, FILE *out, GError **error)
{
	if (!ab_target_spec_check_options(spec, error))
		return FALSE;
	struct ab_target scratch;
	struct build b = { .spec = spec, .t = &scratch, .run_id = run_id, .mode = out ? PRINT : CHECK, .out = out };
	gboolean ok = build(&b, error);
	ab_target_clear(&scratch);
	return ok;
}

gboolean ab_target_build(const struct ab_target_spec *spec, struct ab_target *t, struct ab_undo *undo,
			 const char *run_id, ab_stop_check_fn stop_requested, ab_target_hook_fn hook,
			 void *hook_data, GError **error)
{
	struct build b = { .spec = spec, .t = t, .undo = undo, .run_id = run_id, .mode = BUILD,
			   .stop_requested = stop_requested, .before_mkfs = hook, .hook_data = hook_data };
	return build(&b, error);
}

void ab_target_init(struct ab_target *t)
{
	memset(t, 0, sizeof(*t));
	t->mount_fd = -1;
	t->root_fd = -1;
}

void ab_target_clear(struct ab_target *t)
{
	g_free(t->mount_dir);
	if (t->mount_fd >= 0)
		close(t->mount_fd);
	if (t->root_fd >= 0)
		close(t->root_fd);
	g_free(t->backend);
	g_free(t->level);
	g_free(t->layout);
	g_free(t->fs);
	g_free(t->source);
	if (t->members)
		g_ptr_array_unref(t->members);
	g_free(t->mkfs_command);
	g_free(t->mount_options);
	g_free(t->mount_effective);
	g_free(t->label);
	g_free(t->mount_extra);
	if (t->queues)
		g_array_unref(t->queues);
	if (t->tool_output)
		g_string_free(t->tool_output, TRUE);
	ab_target_init(t);
}
