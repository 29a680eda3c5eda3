/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "undo.h"
#include "../src/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_MAGIC "arraybench-undo 1"

static const char *const kind_names[AB_UNDO_KIND_COUNT] = {
	[AB_UNDO_UMOUNT] = "umount",
	[AB_UNDO_LOOP_DETACH] = "loop-detach",
	[AB_UNDO_UNLINK] = "unlink",
	[AB_UNDO_RMDIR] = "rmdir",
	[AB_UNDO_MDADM_STOP] = "mdadm-stop",
	[AB_UNDO_MDADM_ZERO] = "mdadm-zero-superblock",
};

const char *ab_undo_kind_name(enum ab_undo_kind kind)
{
	return kind < AB_UNDO_KIND_COUNT ? kind_names[kind] : "?";
}

static gboolean kind_from_name(const char *name, enum ab_undo_kind *out)
{
	for (int k = 0; k < AB_UNDO_KIND_COUNT; k++)
		if (g_str_equal(kind_names[k], name)) {
			*out = (enum ab_undo_kind)k;
			return TRUE;
		}
	return FALSE;
}

char *ab_undo_state_dir(void)
{
	const char *env = g_getenv("ARRAYBENCH_STATE_DIR");
	return g_strdup(env && *env ? env : "/var/lib/arraybench");
}

void ab_undo_step_free(struct ab_undo_step *step)
{
	if (!step)
		return;
	g_free(step->arg);
	g_free(step);
}

static gboolean journal_append(struct ab_undo *u, const char *line, GError **error)
{
	if (u->journal_fd < 0)
		return TRUE;
	size_t len = strlen(line);
	if (write(u->journal_fd, line, len) != (ssize_t)len || fdatasync(u->journal_fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot write the undo journal '%s'",
				   u->journal_path);
		return FALSE;
	}
	return TRUE;
}

gboolean ab_undo_open(struct ab_undo *u, const char *dir, GError **error)
{
	memset(u, 0, sizeof(*u));
	u->steps = g_ptr_array_new_with_free_func((GDestroyNotify)ab_undo_step_free);
	u->journal_fd = -1;
	u->exec = ab_undo_exec_real;
	if (!dir)
		return TRUE;
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot create the state directory '%s'", dir);
		return FALSE;
	}
	u->journal_path = g_strdup_printf("%s/journal-%d", dir, (int)getpid());
	u->journal_fd = open(u->journal_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	if (u->journal_fd < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot create the undo journal '%s'",
				   u->journal_path);
		return FALSE;
	}
	g_autofree char *head = g_strdup_printf(JOURNAL_MAGIC " pid=%d\n", (int)getpid());
	return journal_append(u, head, error);
}

gboolean ab_undo_push(struct ab_undo *u, enum ab_undo_kind kind, const char *arg, GError **error)
{
	struct ab_undo_step *step = g_new0(struct ab_undo_step, 1);
	step->kind = kind;
	step->arg = g_strdup(arg);
	g_ptr_array_add(u->steps, step);
	g_autofree char *escaped = g_strescape(arg, NULL);
	g_autofree char *line = g_strdup_printf("push\t%s\t%s\n", ab_undo_kind_name(kind), escaped);
	/* Kept in memory even if the journal write fails: the in-process unwind
	 * must still undo it. */
	return journal_append(u, line, error);
}

static gboolean run_steps(GPtrArray *steps, ab_undo_exec_fn exec, struct ab_undo *journal, GString *report,
			  GError **error)
{
	gboolean all_ok = TRUE;
	for (guint i = steps->len; i-- > 0;) {
		struct ab_undo_step *step = g_ptr_array_index(steps, i);
		if (step->done)
			continue;
		g_autoptr(GError) e = NULL;
		if (exec(step, &e)) {
			step->done = TRUE;
			if (report)
				g_string_append_printf(report, "undone: %s %s\n", ab_undo_kind_name(step->kind), step->arg);
			if (journal) {
				g_autofree char *line = g_strdup_printf("done\t%u\n", i);
				journal_append(journal, line, NULL);
			}
		} else {
			if (report)
				g_string_append_printf(report, "failed: %s %s: %s\n", ab_undo_kind_name(step->kind),
						       step->arg, e->message);
			if (all_ok)
				g_propagate_prefixed_error(error, g_steal_pointer(&e), "cannot undo %s '%s': ",
							   ab_undo_kind_name(step->kind), step->arg);
			all_ok = FALSE;
		}
	}
	return all_ok;
}

gboolean ab_undo_unwind(struct ab_undo *u, GString *report, GError **error)
{
	gboolean ok = run_steps(u->steps, u->exec, u, report, error);
	if (ok && u->journal_path) {
		close(u->journal_fd);
		u->journal_fd = -1;
		unlink(u->journal_path);
		g_clear_pointer(&u->journal_path, g_free);
	}
	if (ok)
		g_ptr_array_set_size(u->steps, 0);
	return ok;
}

void ab_undo_clear(struct ab_undo *u)
{
	if (u->journal_fd >= 0)
		close(u->journal_fd);
	g_free(u->journal_path);
	if (u->steps)
		g_ptr_array_unref(u->steps);
	memset(u, 0, sizeof(*u));
	u->journal_fd = -1;
}

GPtrArray *ab_undo_journal_read(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot read the undo journal '%s'", path);
		return NULL;
	}
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	if (!lines[0] || !g_str_has_prefix(lines[0], JOURNAL_MAGIC)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "'%s' is not an arraybench undo journal", path);
		return NULL;
	}
	GPtrArray *steps = g_ptr_array_new_with_free_func((GDestroyNotify)ab_undo_step_free);
	for (char **l = lines + 1; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, "\t", 3);
		enum ab_undo_kind kind;
		if (f[0] && g_str_equal(f[0], "push") && f[1] && f[2] && kind_from_name(f[1], &kind)) {
			struct ab_undo_step *step = g_new0(struct ab_undo_step, 1);
			step->kind = kind;
			step->arg = g_strcompress(f[2]);
			g_ptr_array_add(steps, step);
		} else if (f[0] && g_str_equal(f[0], "done") && f[1]) {
			guint64 i;
			if (g_ascii_string_to_unsigned(f[1], 10, 0, G_MAXUINT, &i, NULL) && i < steps->len)
				((struct ab_undo_step *)g_ptr_array_index(steps, i))->done = TRUE;
		}
		/* A torn last line (power cut mid-write) is ignored. */
	}
	return steps;
}

gboolean ab_undo_recover(const char *dir, ab_undo_exec_fn exec, GString *report, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d)
		return TRUE; /* nothing was ever journaled */
	gboolean ok = TRUE;
	const char *name;
	while ((name = g_dir_read_name(d))) {
		guint64 pid;
		if (!g_str_has_prefix(name, "journal-") ||
		    !g_ascii_string_to_unsigned(name + strlen("journal-"), 10, 1, G_MAXINT, &pid, NULL))
			continue;
		if (kill((pid_t)pid, 0) == 0 && (pid_t)pid != getpid()) {
			if (report)
				g_string_append_printf(report, "skipped: run %d is still going\n", (int)pid);
			continue;
		}
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autoptr(GError) e = NULL;
		g_autoptr(GPtrArray) steps = ab_undo_journal_read(path, &e);
		if (!steps) {
			if (ok)
				g_propagate_error(error, g_steal_pointer(&e));
			ok = FALSE;
			continue;
		}
		struct ab_undo journal = { .journal_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC),
					   .journal_path = path };
		if (report)
			g_string_append_printf(report, "journal of run %d: %u step(s)\n", (int)pid, steps->len);
		gboolean this_ok = run_steps(steps, exec, &journal, report, ok ? error : NULL);
		if (journal.journal_fd >= 0)
			close(journal.journal_fd);
		if (this_ok)
			unlink(path);
		ok = ok && this_ok;
	}
	return ok;
}

static gboolean run_mdadm(const char *action, const char *arg, GError **error)
{
	const char *argv[] = { "mdadm", action, arg, NULL };
	g_autofree char *err = NULL;
	int status;
	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
			  G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, NULL, &err, &status, error))
		return FALSE;
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "mdadm %s failed: %s", action, g_strstrip(err));
		return FALSE;
	}
	return TRUE;
}

gboolean ab_undo_exec_real(const struct ab_undo_step *step, GError **error)
{
	const char *arg = step->arg;
	switch (step->kind) {
	case AB_UNDO_UMOUNT:
		/* Writeback after a big run can keep the file system busy briefly. */
		for (int i = 0; i < 50; i++) {
			if (umount2(arg, 0) == 0 || errno == EINVAL || errno == ENOENT)
				return TRUE;
			if (errno != EBUSY)
				break;
			g_usleep(100000);
		}
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "umount");
		return FALSE;
	case AB_UNDO_LOOP_DETACH: {
		int fd = open(arg, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				return TRUE;
			ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "open");
			return FALSE;
		}
		int rc = -1;
		for (int i = 0; i < 50; i++) {
			rc = ioctl(fd, LOOP_CLR_FD, 0);
			if (rc == 0 || errno == ENXIO || errno != EBUSY)
				break;
			g_usleep(100000);
		}
		int e = errno;
		close(fd);
		if (rc == 0 || e == ENXIO)
			return TRUE;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "detach");
		return FALSE;
	}
	case AB_UNDO_UNLINK:
		if (unlink(arg) == 0 || errno == ENOENT)
			return TRUE;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "unlink");
		return FALSE;
	case AB_UNDO_RMDIR:
		if (rmdir(arg) == 0 || errno == ENOENT)
			return TRUE;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "rmdir");
		return FALSE;
	case AB_UNDO_MDADM_STOP:
		return run_mdadm("--stop", arg, error);
	case AB_UNDO_MDADM_ZERO:
		return run_mdadm("--zero-superblock", arg, error);
	case AB_UNDO_KIND_COUNT:
		break;
	}
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unknown undo step");
	return FALSE;
}
