/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The in-memory undo stack and its write-ahead journal. */
#include "undo.h"
#include "journal.h"
#include "statedir.h"
#include "../src/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Durable before we go on: the write-ahead rule depends on it. */
static gboolean journal_append(int fd, const char *path, const char *line, GError **error)
{
	if (fd < 0)
		return TRUE;
	size_t len = strlen(line);
	if (write(fd, line, len) != (ssize_t)len || fdatasync(fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno ? errno : EIO, "cannot write the undo journal '%s'",
				   path ? path : "");
		return FALSE;
	}
	return TRUE;
}

/*
 * The journal is written and locked under a hidden name first, then linked
 * to its real name, so `cleanup` never sees a live run's journal empty or
 * unlocked.  Both names are created exclusively: nothing is overwritten,
 * truncated or reached through a symlink.
 */
static gboolean create_journal(struct ab_undo *u, const char *run_id, GError **error)
{
	g_autofree char *tmp = g_strdup_printf(".journal-%s", run_id);
	int fd = openat(u->dir_fd, tmp, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ab_set_error_errno(error, errno == EEXIST ? AB_ERROR_USAGE : AB_ERROR_SKIPPED, errno,
				   "cannot create the undo journal '%s'", u->journal_path);
		return FALSE;
	}
	struct ab_journal_owner o;
	memset(&o, 0, sizeof(o));
	g_strlcpy(o.run_id, run_id, sizeof(o.run_id));
	ab_process_id_of("", (int)getpid(), &o.process);
	o.uid = geteuid();
	g_autofree char *head = ab_journal_header(&o);
	gboolean ok = flock(fd, LOCK_EX) == 0 && journal_append(fd, u->journal_path, head, NULL);
	int e = errno;
	if (ok && linkat(u->dir_fd, tmp, u->dir_fd, u->journal_name, 0) != 0) {
		e = errno;
		ok = FALSE;
	}
	unlinkat(u->dir_fd, tmp, 0);
	if (!ok) {
		close(fd);
		if (e == EEXIST)
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "cannot create the undo journal '%s': run id '%s' is taken (a journal exists)",
				    u->journal_path, run_id);
		else
			ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot create the undo journal '%s'",
					   u->journal_path);
		return FALSE;
	}
	fsync(u->dir_fd);
	u->journal_fd = fd;
	return TRUE;
}

gboolean ab_undo_open(struct ab_undo *u, const char *state_dir, const char *run_id, GError **error)
{
	memset(u, 0, sizeof(*u));
	u->steps = g_ptr_array_new_with_free_func((GDestroyNotify)ab_undo_step_free);
	u->dir_fd = -1;
	u->journal_fd = -1;
	u->owner = geteuid();
	u->exec = ab_undo_exec_real;
	if (!state_dir)
		return TRUE;
	if (!ab_state_dir_open(state_dir, TRUE, &u->dir_fd, error))
		return FALSE;
	u->journal_name = g_strdup_printf("journal-%s", run_id);
	u->journal_path = g_build_filename(state_dir, u->journal_name, NULL);
	return create_journal(u, run_id, error);
}

guint64 ab_undo_fsid_of(const char *path)
{
	struct statfs sfs;
	if (statfs(path, &sfs) != 0)
		return 0;
	int v[2];
	memcpy(v, &sfs.f_fsid, sizeof(v));
	return ((guint64)(unsigned)v[0] << 32) | (unsigned)v[1];
}

static void set_identity(struct ab_undo_step *step, const struct stat *st)
{
	step->identified = TRUE;
	step->dev = st->st_dev;
	step->ino = st->st_ino;
	step->fsid = ab_undo_fsid_of(step->path);
}

struct ab_undo_step *ab_undo_intend(struct ab_undo *u, enum ab_undo_kind kind, const char *path,
				    const char *detail, const struct stat *id, GError **error)
{
	if (!g_path_is_absolute(path)) {
		/* cleanup may run anywhere: a relative path would name something else */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot journal '%s': not an absolute path", path);
		return NULL;
	}
	struct ab_undo_step *step = g_new0(struct ab_undo_step, 1);
	step->kind = kind;
	step->path = g_strdup(path);
	step->detail = g_strdup(detail);
	step->owner = u->owner;
	if (id)
		set_identity(step, id);
	g_autofree char *line = ab_journal_intent_line(step);
	if (!journal_append(u->journal_fd, u->journal_path, line, error)) {
		ab_undo_step_free(step);
		return NULL;
	}
	g_ptr_array_add(u->steps, step);
	return step;
}

void ab_undo_done(struct ab_undo *u, struct ab_undo_step *step)
{
	guint index;
	if (!g_ptr_array_find(u->steps, step, &index))
		g_return_if_reached();
	step->done = TRUE;
	g_autofree char *line = ab_journal_done_line(index);
	/* If this write fails the intent stays: recovery then checks the
	 * owner, as for a run killed before it could write this line. */
	journal_append(u->journal_fd, u->journal_path, line, NULL);
}

gboolean ab_undo_set_detail(struct ab_undo *u, struct ab_undo_step *step, const char *detail, GError **error)
{
	guint index;
	if (!g_ptr_array_find(u->steps, step, &index))
		g_return_val_if_reached(FALSE);
	g_free(step->detail);
	step->detail = g_strdup(detail);
	g_autofree char *line = ab_journal_detail_line(index, detail);
	return journal_append(u->journal_fd, u->journal_path, line, error);
}

gboolean ab_undo_identify(struct ab_undo *u, struct ab_undo_step *step, const struct stat *st, GError **error)
{
	guint index;
	if (!g_ptr_array_find(u->steps, step, &index))
		g_return_val_if_reached(FALSE);
	set_identity(step, st);
	g_autofree char *line = ab_journal_ident_line(index, step);
	return journal_append(u->journal_fd, u->journal_path, line, error);
}

/* The same file system: the device, or, remounted with another device
 * number, the fsid. */
static gboolean same_fs(const struct ab_undo_step *step, dev_t dev, const char *path)
{
	return dev == step->dev || (step->fsid && ab_undo_fsid_of(path) == step->fsid);
}

const char *ab_undo_step_mismatch(const struct ab_undo_step *step, const struct stat *st)
{
	if (step->identified)
		return st->st_ino == step->ino && same_fs(step, st->st_dev, step->path)
			       ? NULL
			       : "another object has taken its name (inode and file system differ from the journal's)";
	return st->st_uid == step->owner ? NULL : "it belongs to another user";
}

enum ab_undo_outcome ab_undo_not_there(const struct ab_undo_step *step, GError **error)
{
	if (!step->identified || step->on_own_mount)
		return AB_UNDO_ABSENT;
	/* The nearest directory that exists on the way: on the file system that
	 * held the object, it is truly gone; on another, that file system is
	 * not mounted there (or a directory on the way was unmounted). */
	g_autofree char *parent = g_path_get_dirname(step->path);
	struct stat st;
	while (stat(parent, &st) != 0) {
		char *up = g_path_get_dirname(parent);
		g_free(parent);
		parent = up;
	}
	if (same_fs(step, st.st_dev, parent))
		return AB_UNDO_ABSENT;
	g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
		    "it is not there, but '%s' is not on the file system that held it (device %u:%u): "
		    "mount that file system again, then run cleanup", parent, major(step->dev), minor(step->dev));
	return AB_UNDO_FAILED;
}

/* Steps below a mount point that an older step mounted live on a file
 * system the run made, which its own unwind destroys. */
static void mark_own_mounts(GPtrArray *steps)
{
	for (guint i = 0; i < steps->len; i++) {
		struct ab_undo_step *s = g_ptr_array_index(steps, i);
		for (guint j = 0; j < i && !s->on_own_mount; j++) {
			const struct ab_undo_step *m = g_ptr_array_index(steps, j);
			size_t n = strlen(m->path);
			s->on_own_mount = m->kind == AB_UNDO_UMOUNT && strncmp(s->path, m->path, n) == 0 &&
					  s->path[n] == '/';
		}
	}
}

/* The steps from index `from` on, newest first; the journal's "done"
 * lines name each by its index in the whole stack. */
static gboolean run_steps_from(GPtrArray *steps, guint from, ab_undo_exec_fn exec, int journal_fd, GString *report,
			       GError **error)
{
	gboolean all_ok = TRUE;
	mark_own_mounts(steps);
	for (guint i = steps->len; i-- > from;) {
		struct ab_undo_step *step = g_ptr_array_index(steps, i);
		if (step->done)
			continue;
		g_autoptr(GError) e = NULL;
		enum ab_undo_outcome outcome = exec(step, &e);
		const char *kind = ab_undo_kind_name(step->kind);
		/* One line per step, whatever the path holds. */
		g_autofree char *path = ab_one_line(step->path);
		g_autofree char *why = ab_one_line(e ? e->message : "not made by this run");
		if (outcome == AB_UNDO_FAILED) {
			if (report)
				g_string_append_printf(report, "failed: %s %s: %s\n", kind, path, why);
			if (all_ok && e)
				g_propagate_prefixed_error(error, g_steal_pointer(&e), "cannot undo %s '%s': ", kind,
							   step->path);
			else if (all_ok)
				g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "cannot undo %s '%s'", kind, step->path);
			all_ok = FALSE;
			continue;
		}
		step->done = TRUE;
		if (report && outcome == AB_UNDO_UNDONE)
			g_string_append_printf(report, "undone: %s %s\n", kind, path);
		else if (report && outcome == AB_UNDO_ABSENT)
			g_string_append_printf(report, "nothing to undo: %s %s (not there)\n", kind, path);
		else if (report && outcome == AB_UNDO_FOREIGN)
			g_string_append_printf(report, "left alone: %s %s: %s\n", kind, path, why);
		g_autofree char *line = ab_journal_done_line(i);
		journal_append(journal_fd, NULL, line, NULL);
	}
	return all_ok;
}

gboolean ab_undo_run_steps(GPtrArray *steps, ab_undo_exec_fn exec, int journal_fd, GString *report,
			   GError **error)
{
	return run_steps_from(steps, 0, exec, journal_fd, report, error);
}

gboolean ab_undo_unwind_to(struct ab_undo *u, guint keep, GString *report, GError **error)
{
	return run_steps_from(u->steps, keep, u->exec, u->journal_fd, report, error);
}

gboolean ab_undo_unwind(struct ab_undo *u, GString *report, GError **error)
{
	gboolean ok = ab_undo_run_steps(u->steps, u->exec, u->journal_fd, report, error);
	if (!ok)
		return FALSE;
	if (u->journal_fd >= 0) {
		unlinkat(u->dir_fd, u->journal_name, 0);
		fsync(u->dir_fd);
		close(u->journal_fd); /* releases the lock last */
		u->journal_fd = -1;
	}
	g_ptr_array_set_size(u->steps, 0);
	return TRUE;
}

void ab_undo_clear(struct ab_undo *u)
{
	if (u->journal_fd >= 0)
		close(u->journal_fd);
	if (u->dir_fd >= 0)
		close(u->dir_fd);
	g_free(u->journal_path);
	g_free(u->journal_name);
	if (u->steps)
		g_ptr_array_unref(u->steps);
	memset(u, 0, sizeof(*u));
	u->journal_fd = -1;
	u->dir_fd = -1;
}
