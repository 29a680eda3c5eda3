/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `arraybench cleanup`: finish the journals of runs that died.  A journal is
 * acted on only if this user could have written it (a regular file, ours,
 * mode 0600, not a symlink), its run is gone (pid, start time and boot all
 * checked, and its lock is free), and every line of it parses.  Anything
 * else is reported and left alone; an empty or corrupt journal is moved
 * aside so that it does not fail every cleanup after it.
 */
#include "recover.h"
#include "journal.h"
#include "statedir.h"
#include "../src/base/error.h"
#include "../src/base/runid.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat2 */
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bigger than any journal we write (a few hundred lines). */
#define MAX_JOURNAL_BYTES (4u << 20)

/* Why we would not have written this file, or NULL if we could have. */
static char *not_ours(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return g_strdup("it is a symbolic link");
	if (!S_ISREG(st->st_mode))
		return g_strdup("it is not a regular file");
	if (st->st_uid != geteuid())
		return g_strdup_printf("it belongs to uid %u, not %u", (unsigned)st->st_uid, (unsigned)geteuid());
	if (st->st_mode & 077)
		return g_strdup_printf("its mode %04o lets others in (arraybench writes 0600)",
				       (unsigned)(st->st_mode & 07777));
	return NULL;
}

/* Open `name` only if it is still the file we checked; -1 with *why. */
static int open_checked(int dfd, const char *name, char **why)
{
	struct stat before, st;
	*why = NULL;
	if (fstatat(dfd, name, &before, AT_SYMLINK_NOFOLLOW) != 0) {
		int e = errno;
		*why = g_strdup(g_strerror(e));
		errno = e; /* ENOENT: another cleanup was quicker */
		return -1;
	}
	if ((*why = not_ours(&before))) {
		errno = EPERM;
		return -1;
	}
	int fd = openat(dfd, name, O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		*why = g_strdup(g_strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) != 0 || st.st_dev != before.st_dev || st.st_ino != before.st_ino) {
		close(fd);
		*why = g_strdup("it changed while it was being checked");
		errno = ESTALE;
		return -1;
	}
	return fd;
}

static char *read_all(int fd, gsize *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size > MAX_JOURNAL_BYTES)
		return NULL;
	char *buf = g_malloc((gsize)st.st_size + 1);
	gsize got = 0;
	while (got < (gsize)st.st_size) {
		ssize_t n = pread(fd, buf + got, (gsize)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (gsize)n;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Renamed so no later cleanup trips over it; never overwrites. */
static void move_aside(int dfd, const char *dir, const char *name, const char *why, GString *report)
{
	g_autofree char *shown = ab_one_line(name);
	for (int i = 0; i < 100; i++) {
		g_autofree char *to = i ? g_strdup_printf("torn-%s.%d", name, i) : g_strdup_printf("torn-%s", name);
		if (renameat2(dfd, name, dfd, to, RENAME_NOREPLACE) == 0) {
			g_autofree char *to_shown = ab_one_line(to);
			g_string_append_printf(report,
					       "moved aside: '%s/%s': %s; arraybench does not act on it (now '%s'): "
					       "check by hand what its run left\n",
					       dir, shown, why, to_shown);
			return;
		}
		if (errno != EEXIST)
			break;
	}
	g_string_append_printf(report, "ignored: '%s/%s': %s, and it cannot be moved aside: %s\n", dir, shown, why,
			       g_strerror(errno));
}

/* *undone (may be NULL): the steps that were left, when the journal was
 * acted on; untouched otherwise. */
static gboolean recover_one(int dfd, const char *dir, const char *name, ab_undo_exec_fn exec, GString *report,
			    int *undone, GError **error)
{
	g_autofree char *shown = ab_one_line(name); /* a planted name may hold a newline */
	g_autofree char *why = NULL;
	int fd = open_checked(dfd, name, &why);
	if (fd < 0) {
		if (errno != ENOENT) /* not: another cleanup finished it just now */
			g_string_append_printf(report, "ignored: '%s/%s' is not a journal arraybench wrote: %s\n", dir,
					       shown, why);
		return TRUE;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		g_string_append_printf(report, "skipped: '%s/%s' is in use (its run is still going, or another "
				       "cleanup has it)\n", dir, shown);
		close(fd);
		return TRUE;
	}
	gsize len = 0;
	g_autofree char *text = read_all(fd, &len);
	struct ab_journal_owner owner;
	g_autoptr(GPtrArray) steps = NULL;
	enum ab_journal_state state = text ? ab_journal_parse(text, len, &owner, &steps, &why) : AB_JOURNAL_CORRUPT;
	if (!text)
		why = g_strdup("it is unreadable or too big");
	if (state == AB_JOURNAL_OK && (!g_str_equal(name + strlen("journal-"), owner.run_id) || owner.uid != geteuid())) {
		state = AB_JOURNAL_CORRUPT;
		why = g_strdup_printf("its header names run '%s' of uid %u", owner.run_id, (unsigned)owner.uid);
	}
	if (state != AB_JOURNAL_OK) {
		g_autofree char *why_line = ab_one_line(why);
		move_aside(dfd, dir, name, why_line, report);
		close(fd);
		return TRUE;
	}
	if (ab_process_id_alive("", &owner.process)) {
		g_string_append_printf(report, "skipped: run %s is still going (pid %d)\n", owner.run_id,
				       owner.process.pid);
		close(fd);
		return TRUE;
	}
	guint left = 0;
	for (guint i = 0; i < steps->len; i++)
		left += !((struct ab_undo_step *)steps->pdata[i])->done;
	g_string_append_printf(report, "journal of run %s (pid %d, gone): %u step(s) to undo\n", owner.run_id,
			       owner.process.pid, left);
	gboolean ok = ab_undo_run_steps(steps, exec, fd, report, error);
	if (ok) {
		unlinkat(dfd, name, 0);
		fsync(dfd);
		if (undone)
			*undone = (int)left;
	}
	close(fd);
	return ok;
}

/* A hidden journal whose run died between creating and naming it holds
 * nothing to undo.  A run locks it right after creating it, then writes its
 * header: with a header, the run it names decides; without, one that is
 * unlocked and a minute old is dead, a younger one may be starting now. */
static void remove_unfinished(int dfd, const char *dir, const char *name, GString *report)
{
	g_autofree char *shown = ab_one_line(name);
	g_autofree char *why = NULL;
	int fd = open_checked(dfd, name, &why);
	if (fd < 0) {
		if (errno != ENOENT) /* another cleanup was quicker */
			g_string_append_printf(report, "ignored: '%s/%s': %s\n", dir, shown, why);
		return;
	}
	struct stat st;
	gboolean dead = fstat(fd, &st) == 0 && st.st_mtime < time(NULL) - 60;
	gsize len = 0;
	g_autofree char *text = read_all(fd, &len);
	struct ab_journal_owner owner;
	g_autoptr(GPtrArray) steps = NULL;
	g_autofree char *unused = NULL;
	if (text && ab_journal_parse(text, len, &owner, &steps, &unused) == AB_JOURNAL_OK)
		dead = !ab_process_id_alive("", &owner.process);
	if (dead && flock(fd, LOCK_EX | LOCK_NB) == 0 && unlinkat(dfd, name, 0) == 0)
		g_string_append_printf(report, "removed: '%s/%s', a journal its run never started\n", dir, shown);
	close(fd);
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean ab_undo_recover(const char *state_dir, ab_undo_exec_fn exec, GString *report, GError **error)
{
	int dfd;
	if (!ab_state_dir_open(state_dir, FALSE, &dfd, error))
		return FALSE;
	if (dfd < 0)
		return TRUE; /* nothing was ever journaled */
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	int lfd = dup(dfd);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot list the state directory '%s'", state_dir);
		close(dfd);
		return FALSE;
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (g_str_has_prefix(de->d_name, "journal-") || g_str_has_prefix(de->d_name, ".journal-"))
			g_ptr_array_add(names, g_strdup(de->d_name));
	closedir(d);
	/* Oldest run first: run ids start with the time. */
	g_ptr_array_sort(names, compare_names);
	/* A step may wait on another run's: a run on many ranks removes the
	 * directory its ranks shared only once every rank's journal removed
	 * its own in it.  So the journals that failed get a second pass when
	 * others were finished in the first. */
	g_autoptr(GPtrArray) failed = g_ptr_array_new();
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func((GDestroyNotify)g_error_free);
	gboolean progress = FALSE;
	for (guint i = 0; i < names->len; i++) {
		const char *name = names->pdata[i];
		if (name[0] == '.') {
			remove_unfinished(dfd, state_dir, name, report);
			continue;
		}
		GError *e = NULL;
		if (recover_one(dfd, state_dir, name, exec, report, NULL, &e)) {
			progress = TRUE;
			continue;
		}
		g_ptr_array_add(failed, names->pdata[i]);
		g_ptr_array_add(errors, e ? e : g_error_new(AB_ERROR, AB_ERROR_SKIPPED, "journal '%s' is not finished", name));
	}
	gboolean ok = TRUE;
	for (guint i = 0; i < failed->len; i++) {
		GError *again = NULL;
		if (progress && recover_one(dfd, state_dir, failed->pdata[i], exec, report, NULL, &again))
			continue;
		if (ok)
			g_propagate_error(error, again ? again : g_error_copy(errors->pdata[i]));
		else
			g_clear_error(&again);
		ok = FALSE;
	}
	close(dfd);
	return ok;
}

gboolean ab_undo_recover_run(const char *state_dir, const char *run_id, ab_undo_exec_fn exec, GString *report,
			     int *undone, GError **error)
{
	*undone = -1;
	if (!ab_run_id_valid(run_id)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid run id '%s'", run_id);
		return FALSE;
	}
	int dfd;
	if (!ab_state_dir_open(state_dir, FALSE, &dfd, error))
		return FALSE;
	if (dfd < 0)
		return TRUE;
	g_autofree char *hidden = g_strdup_printf(".journal-%s", run_id);
	const char *name = hidden + 1;
	struct stat st;
	gboolean ok = TRUE;
	if (fstatat(dfd, hidden, &st, AT_SYMLINK_NOFOLLOW) == 0)
		remove_unfinished(dfd, state_dir, hidden, report);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		ok = recover_one(dfd, state_dir, name, exec, report, undone, error);
	close(dfd);
	return ok;
}
