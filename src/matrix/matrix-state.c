/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix's results directory (matrix-state.h): held, checked, started,
 * recovered after a kill, moved aside; its files one at a time. */
#include "matrix-state.h"
#include "../base/error.h"
#include "../base/replace-file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* What --fresh moves aside: the files, and the directory of the profiles'
 * copies. */
static const char *const own_files[] = { AB_MATRIX_RESULTS_JSON, AB_MATRIX_RESULTS_CSV, AB_MATRIX_COPY,
					 AB_MATRIX_DIGEST, AB_MATRIX_PROFILES, NULL };

enum ab_matrix_dir_state ab_matrix_dir_state(const char *stored, gboolean any_results, const char *digest)
{
	if (!stored)
		return any_results ? AB_MATRIX_DIR_FOREIGN : AB_MATRIX_DIR_NEW;
	return g_ascii_strcasecmp(stored, digest) == 0 ? AB_MATRIX_DIR_SAME : AB_MATRIX_DIR_CHANGED;
}

char *ab_matrix_digest_parse(const char *text)
{
	if (!text)
		return NULL;
	for (int i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(text[i]))
			return NULL;
	if (text[64] && !g_ascii_isspace(text[64]))
		return NULL;
	return g_ascii_strdown(text, 64);
}

GHashTable *ab_matrix_digests_parse(const char *text)
{
	g_autoptr(GHashTable) out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
	for (char **l = lines; *l; l++) {
		if (!**l)
			continue;
		/* sha256sum's "DIGEST  NAME" (text mode) or "DIGEST *NAME". */
		char *digest = ab_matrix_digest_parse(*l);
		if (!digest || (*l)[64] != ' ' || ((*l)[65] != ' ' && (*l)[65] != '*') || !(*l)[66]) {
			g_free(digest);
			return NULL;
		}
		g_hash_table_insert(out, g_strdup(*l + 66), digest);
	}
	return g_hash_table_size(out) ? g_steal_pointer(&out) : NULL;
}

void ab_matrix_dir_init(struct ab_matrix_dir *d)
{
	*d = (struct ab_matrix_dir){ .fd = -1, .json_fd = -1, .csv_fd = -1, .profiles_fd = -1, .copy = AB_MATRIX_COPY };
}

void ab_matrix_dir_clear(struct ab_matrix_dir *d)
{
	g_free(d->path);
	for (int *fd = &d->fd; fd <= &d->profiles_fd; fd++)
		if (*fd >= 0)
			close(*fd);
	ab_matrix_dir_init(d);
}

gboolean ab_matrix_dir_open(struct ab_matrix_dir *d, const char *path, gboolean create, GError **error)
{
	if (create && mkdir(path, 0755) != 0 && errno != EEXIST) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot make results directory '%s'", path);
		return FALSE;
	}
	struct stat st;
	if (lstat(path, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use results directory '%s'", path);
		return FALSE;
	}
	if (S_ISLNK(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing results directory '%s': it is a symbolic link (give the directory itself)", path);
		return FALSE;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use results directory '%s'", path);
		return FALSE;
	}
	/* What was checked is what is held: the same inode, and ours. */
	struct stat held;
	if (fstat(fd, &held) != 0 || held.st_ino != st.st_ino || held.st_dev != st.st_dev ||
	    held.st_uid != geteuid()) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing results directory '%s': it belongs to uid %u, not to us", path,
			    (unsigned)held.st_uid);
		return FALSE;
	}
	/* Another user who may rename in DIR could swap our files about
	 * (results.csv over results.jsonl: the record gone, every visit run
	 * again) or take them away: as for run -d, such a DIR must be sticky. */
	if ((held.st_mode & (S_IWGRP | S_IWOTH)) && !(held.st_mode & S_ISVTX)) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing results directory '%s': others may rename in it (mode %04o, not sticky): chmod "
			    "go-w it, or give another -o DIR", path, (unsigned)(held.st_mode & 07777));
		return FALSE;
	}
	/* Two matrices appending to one DIR would each run the visits the
	 * other has not finished yet: one at a time. */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "results directory '%s' is in use by another arraybench matrix or tune",
				    path);
		else
			ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot lock results directory '%s'", path);
		return FALSE;
	}
	d->fd = fd;
	d->path = g_strdup(path);
	return TRUE;
}

int ab_matrix_dir_open_own(const struct ab_matrix_dir *d, const char *name, int flags, GError **error)
{
	int fd = openat(d->fd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0) {
		if (errno == ENOENT && !(flags & O_CREAT))
			return -1;
		ab_set_error_errno(error, errno == ELOOP ? AB_ERROR_UNSAFE : AB_ERROR_USAGE, errno,
				   "cannot open '%s/%s'%s", d->path, name,
				   errno == ELOOP ? " (a symbolic link is refused)" : "");
		return -2;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing '%s/%s': not a regular file of ours", d->path,
			    name);
		return -2;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

gboolean ab_matrix_dir_read_fd(const struct ab_matrix_dir *d, const char *name, int fd, char **text, size_t *len,
			       GError **error)
{
	GString *s = g_string_new(NULL);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		g_string_append_len(s, buf, n);
	if (n < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot read '%s/%s'", d->path, name);
		g_string_free(s, TRUE);
		return FALSE;
	}
	*len = s->len;
	*text = g_string_free(s, FALSE);
	return TRUE;
}

gboolean ab_matrix_dir_read(const struct ab_matrix_dir *d, const char *name, char **text, size_t *len,
			    GError **error)
{
	*text = NULL;
	*len = 0;
	int fd = ab_matrix_dir_open_own(d, name, O_RDONLY, error);
	if (fd == -1)
		return TRUE;
	if (fd < 0)
		return FALSE;
	gboolean ok = ab_matrix_dir_read_fd(d, name, fd, text, len, error);
	close(fd);
	return ok;
}

static gboolean exists(const struct ab_matrix_dir *d, const char *name)
{
	struct stat st;
	return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* One of own_files[] as this DIR names it: the copy of what it runs is
 * matrix.ini, or the caller's (tune's tune.ini). */
static const char *own_name(const struct ab_matrix_dir *d, const char *name)
{
	return g_str_equal(name, AB_MATRIX_COPY) ? d->copy : name;
}

gboolean ab_matrix_dir_check(const struct ab_matrix_dir *d, const char *digest, enum ab_matrix_dir_state *state,
			     GError **error)
{
	g_autofree char *text = NULL;
	size_t len;
	gboolean any = exists(d, AB_MATRIX_RESULTS_JSON) || exists(d, AB_MATRIX_RESULTS_CSV) ||
		       exists(d, d->copy) || exists(d, AB_MATRIX_PROFILES);
	if (!exists(d, AB_MATRIX_DIGEST)) {
		*state = ab_matrix_dir_state(NULL, any, digest);
		return TRUE;
	}
	if (!ab_matrix_dir_read(d, AB_MATRIX_DIGEST, &text, &len, error))
		return FALSE;
	g_autofree char *stored = ab_matrix_digest_parse(text);
	if (!stored) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s/%s' holds no SHA-256 digest: give another -o DIR", d->path, AB_MATRIX_DIGEST);
		return FALSE;
	}
	*state = ab_matrix_dir_state(stored, any, digest);
	return TRUE;
}

/* Moves what is left of our files to NAME.STAMP (the --fresh under way). */
static gboolean move_to_stamp(const struct ab_matrix_dir *d, const char *stamp, GError **error)
{
	for (const char *const *own = own_files; *own; own++) {
		const char *name = own_name(d, *own);
		struct stat st;
		if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		gboolean dir = g_str_equal(name, AB_MATRIX_PROFILES);
		if (!(dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) || st.st_uid != geteuid()) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing to move '%s/%s' aside: not a %s of ours",
				    d->path, name, dir ? "directory" : "regular file");
			return FALSE;
		}
		g_autofree char *to = g_strdup_printf("%s.%s", name, stamp);
		if (renameat2(d->fd, name, d->fd, to, RENAME_NOREPLACE) != 0) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot move '%s/%s' aside to '%s'", d->path,
					   name, to);
			return FALSE;
		}
	}
	fsync(d->fd);
	return TRUE;
}

/* Is text a stamp move_aside() makes: "old-YYYYmmddTHHMMSS", maybe "-N"? */
static gboolean valid_stamp(const char *text)
{
	return g_regex_match_simple("^old-[0-9]{8}T[0-9]{6}(-[0-9]{1,3})?$", text, 0, 0);
}

gboolean ab_matrix_dir_move_aside(const struct ab_matrix_dir *d, GError **error)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autofree char *when = g_date_time_format(now, "old-%Y%m%dT%H%M%S");
	/* A second --fresh within the second (a script's loop) takes the
	 * stamp with -2, -3...: the first's files are never in the way. */
	g_autofree char *stamp = g_strdup(when);
	for (unsigned k = 2; k < 1000; k++) {
		gboolean taken = FALSE;
		for (const char *const *n = own_files; *n && !taken; n++) {
			g_autofree char *to = g_strdup_printf("%s.%s", own_name(d, *n), stamp);
			struct stat st;
			taken = fstatat(d->fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
		}
		if (!taken)
			break;
		g_free(stamp);
		stamp = g_strdup_printf("%s-%u", when, k);
	}
	/* The stamp first: a --fresh killed halfway (some files moved, some
	 * not: a DIR no start would take) is finished by the next start. */
	g_autofree char *line = g_strdup_printf("%s\n", stamp);
	if (!ab_replace_file_at("the --fresh under way", d->fd, d->path, AB_MATRIX_FRESHING, line, strlen(line), error) ||
	    !move_to_stamp(d, stamp, error))
		return FALSE;
	unlinkat(d->fd, AB_MATRIX_FRESHING, 0);
	fsync(d->fd);
	return TRUE;
}

gboolean ab_matrix_dir_write_fd(const struct ab_matrix_dir *d, const char *name, int fd, const char *text, size_t len,
			       GError **error)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ab_set_error_errno(error, AB_ERROR_OUTPUT, n < 0 ? errno : EIO, "cannot write '%s/%s'", d->path,
					   name);
			return FALSE;
		}
		done += (size_t)n;
	}
	if (fsync(fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write '%s/%s'", d->path, name);
		return FALSE;
	}
	return TRUE;
}

static gboolean write_new(const struct ab_matrix_dir *d, const char *name, const char *text, size_t len,
			  GError **error)
{
	int fd = ab_matrix_dir_open_own(d, name, O_WRONLY | O_CREAT | O_EXCL, error);
	if (fd < 0)
		return FALSE;
	gboolean ok = ab_matrix_dir_write_fd(d, name, fd, text, len, error);
	close(fd);
	if (!ok)
		unlinkat(d->fd, name, 0); /* made just now (O_EXCL): ours */
	return ok;
}

/* Undoes write_profiles(): the directory is ours, made by it. */
static void remove_profiles(const struct ab_matrix_dir *d, GPtrArray *profiles)
{
	for (guint i = 0; i < profiles->len; i++)
		unlinkat(d->fd, ((const struct ab_matrix_profile *)g_ptr_array_index(profiles, i))->copy, 0);
	unlinkat(d->fd, AB_MATRIX_PROFILES, AT_REMOVEDIR);
}

/* The profiles' copies, in a directory of their own made now (all or
 * none). */
static gboolean write_profiles(const struct ab_matrix_dir *d, GPtrArray *profiles, GError **error)
{
	if (mkdirat(d->fd, AB_MATRIX_PROFILES, 0755) != 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot make '%s/%s'", d->path, AB_MATRIX_PROFILES);
		return FALSE;
	}
	int pfd = openat(d->fd, AB_MATRIX_PROFILES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (pfd < 0 || fstat(pfd, &st) != 0 || st.st_uid != geteuid()) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, pfd < 0 ? errno : EPERM, "cannot use '%s/%s' just made",
				   d->path, AB_MATRIX_PROFILES);
		if (pfd >= 0)
			close(pfd);
		return FALSE; /* not what was made: left alone */
	}
	struct ab_matrix_dir sub = { .path = g_build_filename(d->path, AB_MATRIX_PROFILES, NULL), .fd = pfd };
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < profiles->len; i++) {
		const struct ab_matrix_profile *p = g_ptr_array_index(profiles, i);
		ok = write_new(&sub, p->copy + strlen(AB_MATRIX_PROFILES "/"), p->text, p->len, error);
	}
	if (ok && fsync(pfd) != 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write '%s'", sub.path);
		ok = FALSE;
	}
	g_free(sub.path);
	close(pfd);
	if (!ok)
		remove_profiles(d, profiles);
	return ok;
}

/* All the files or none: a start cut short (a full disk) left an empty
 * matrix.sha256, and the rerun refused DIR as holding no digest; one
 * killed (kill -9, a power cut) left the copies without their digests,
 * and the rerun refused DIR as holding results no matrix started.  So
 * start.inflight says a start is under way (the next one removes what it
 * made), and the digests go last, whole (a temporary file renamed): with
 * them, DIR is a matrix's. */
gboolean ab_matrix_dir_start(const struct ab_matrix_dir *d, const char *text, size_t len, const char *digest,
			     GPtrArray *profiles, GError **error)
{
	g_autoptr(GString) lines = g_string_new(NULL);
	g_string_append_printf(lines, "%s  %s\n", digest, d->copy);
	for (guint i = 0; profiles && i < profiles->len; i++) {
		const struct ab_matrix_profile *p = g_ptr_array_index(profiles, i);
		g_string_append_printf(lines, "%s  %s\n", p->sha256, p->copy);
	}
	if (!ab_replace_file_at("the start under way", d->fd, d->path, AB_MATRIX_STARTING, "", 0, error))
		return FALSE;
	gboolean ok = write_new(d, d->copy, text, len, error);
	gboolean copies = ok && profiles && profiles->len;
	if (copies && !write_profiles(d, profiles, error)) {
		unlinkat(d->fd, d->copy, 0);
		ok = FALSE;
	}
	if (ok && !ab_replace_file_at("the digests", d->fd, d->path, AB_MATRIX_DIGEST, lines->str, lines->len, error)) {
		if (copies)
			remove_profiles(d, profiles);
		unlinkat(d->fd, d->copy, 0);
		ok = FALSE;
	}
	unlinkat(d->fd, AB_MATRIX_STARTING, 0);
	fsync(d->fd);
	return ok;
}

/* A regular file of ours in DIR removed; FALSE (and nothing done) when
 * the name is something else. */
static gboolean remove_own_file(int dir_fd, const char *name)
{
	struct stat st;
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode) && st.st_uid == geteuid() && unlinkat(dir_fd, name, 0) == 0;
}

/* What a start cut short made: the copy of the matrix file and the
 * profiles' directory, with the regular files of ours in it. */
static gboolean remove_started(const struct ab_matrix_dir *d, GError **error)
{
	gboolean ok = remove_own_file(d->fd, d->copy);
	int pfd = openat(d->fd, AB_MATRIX_PROFILES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (pfd >= 0 && fstat(pfd, &st) == 0 && st.st_uid == geteuid()) {
		DIR *dir = fdopendir(pfd);
		if (dir) {
			for (struct dirent *e; (e = readdir(dir));)
				if (!g_str_equal(e->d_name, ".") && !g_str_equal(e->d_name, ".."))
					ok = remove_own_file(dirfd(dir), e->d_name) && ok;
			closedir(dir);
		} else {
			close(pfd);
		}
		ok = unlinkat(d->fd, AB_MATRIX_PROFILES, AT_REMOVEDIR) == 0 && ok;
	} else if (pfd >= 0 || errno != ENOENT) {
		if (pfd >= 0)
			close(pfd);
		ok = FALSE;
	}
	if (!ok)
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "cannot remove what a start of the matrix cut short made in '%s' (%s, %s/): something there "
			    "is not ours; look, then remove %s", d->path, d->copy, AB_MATRIX_PROFILES,
			    AB_MATRIX_STARTING);
	return ok;
}

/* The temporary files a kill left (".NAME.XXXXXX", replace-file.c's). */
static void remove_temporaries(const struct ab_matrix_dir *d)
{
	static const char *const names[] = { AB_MATRIX_DIGEST, AB_MATRIX_RESULTS_CSV, AB_MATRIX_VISIT,
					     AB_MATRIX_STARTING, AB_MATRIX_FRESHING };
	int fd = dup(d->fd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	rewinddir(dir);
	for (struct dirent *e; (e = readdir(dir));) {
		const char *n = e->d_name;
		for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
			size_t len = strlen(names[i]);
			if (n[0] == '.' && strncmp(n + 1, names[i], len) == 0 && n[len + 1] == '.' &&
			    strlen(n + len + 2) == 6 && strspn(n + len + 2, "0123456789abcdef") == 6)
				remove_own_file(d->fd, n);
		}
	}
	closedir(dir);
}

gboolean ab_matrix_dir_recover(const struct ab_matrix_dir *d, GString *said, GError **error)
{
	remove_temporaries(d);
	g_autofree char *stamp = NULL;
	size_t len;
	if (!ab_matrix_dir_read(d, AB_MATRIX_FRESHING, &stamp, &len, error))
		return FALSE;
	if (stamp) {
		g_strchomp(stamp);
		if (!valid_stamp(stamp)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "'%s/%s' is not the stamp of a --fresh (old-YYYYmmddTHHMMSS): look, then remove it",
				    d->path, AB_MATRIX_FRESHING);
			return FALSE;
		}
		if (!move_to_stamp(d, stamp, error))
			return FALSE;
		unlinkat(d->fd, AB_MATRIX_FRESHING, 0);
		fsync(d->fd);
		g_string_append_printf(said, "a --fresh in '%s' was cut short (killed?): the rest of its files are "
				       "moved aside now (NAME.%s)\n", d->path, stamp);
	}
	struct stat st;
	if (fstatat(d->fd, AB_MATRIX_STARTING, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return TRUE;
	/* With its digests the start was over; without, what it made goes. */
	if (fstatat(d->fd, AB_MATRIX_DIGEST, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (!remove_started(d, error))
			return FALSE;
		g_string_append_printf(said, "a start of the matrix in '%s' was cut short (killed?): what it had made "
				       "is removed, and it starts again\n", d->path);
	}
	if (!remove_own_file(d->fd, AB_MATRIX_STARTING)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing '%s/%s': not a regular file of ours", d->path,
			    AB_MATRIX_STARTING);
		return FALSE;
	}
	fsync(d->fd);
	return TRUE;
}

gboolean ab_matrix_dir_hold_profiles(struct ab_matrix_dir *d, GError **error)
{
	if (d->profiles_fd >= 0)
		close(d->profiles_fd);
	d->profiles_fd = openat(d->fd, AB_MATRIX_PROFILES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->profiles_fd < 0) {
		int e = errno;
		struct stat st;
		if (e == ENOENT)
			return TRUE;
		if ((e == ELOOP || e == ENOTDIR) && fstatat(d->fd, AB_MATRIX_PROFILES, &st, AT_SYMLINK_NOFOLLOW) == 0)
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing '%s/%s': %s, not the directory the matrix made (remove it)", d->path,
				    AB_MATRIX_PROFILES, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
		else
			ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot open '%s/%s'", d->path, AB_MATRIX_PROFILES);
		return FALSE;
	}
	struct stat st;
	if (fstat(d->profiles_fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing '%s/%s': another user may write to it (uid %u, mode %04o), not the directory the "
			    "matrix made", d->path, AB_MATRIX_PROFILES, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(d->profiles_fd);
		d->profiles_fd = -1;
		return FALSE;
	}
	return TRUE;
}

char *ab_matrix_dir_profile_path(const struct ab_matrix_dir *d, const char *copy)
{
	if (d->profiles_fd < 0)
		return NULL;
	g_autofree char *base = g_path_get_basename(copy);
	return g_strdup_printf("/proc/self/fd/%d/%s", d->profiles_fd, base);
}

gboolean ab_matrix_dir_profile_changed(const struct ab_matrix_dir *d, GPtrArray *profiles,
				       const struct ab_matrix_profile **changed, gboolean *copy_changed,
				       GError **error)
{
	*changed = NULL;
	*copy_changed = FALSE;
	g_autofree char *text = NULL;
	size_t len;
	if (!ab_matrix_dir_read(d, AB_MATRIX_DIGEST, &text, &len, error))
		return FALSE;
	g_autoptr(GHashTable) stored = ab_matrix_digests_parse(text);
	if (!stored) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s/%s' holds no SHA-256 digest: give another -o DIR", d->path, AB_MATRIX_DIGEST);
		return FALSE;
	}
	for (guint i = 0; profiles && i < profiles->len && !*changed; i++) {
		const struct ab_matrix_profile *p = g_ptr_array_index(profiles, i);
		const char *was = g_hash_table_lookup(stored, p->copy);
		if (!was || g_ascii_strcasecmp(was, p->sha256) != 0) {
			*changed = p;
			break;
		}
		/* The copy is what the visits of a profile file run: one
		 * edited in DIR (for the original) is a change too.  It is
		 * read from the directory held, as the visits will. */
		g_autofree char *copy = NULL, *base = g_path_get_basename(p->copy);
		size_t copy_len = 0;
		struct ab_matrix_dir sub = { .path = g_build_filename(d->path, AB_MATRIX_PROFILES, NULL),
					     .fd = d->profiles_fd };
		gboolean ok = sub.fd < 0 || ab_matrix_dir_read(&sub, base, &copy, &copy_len, error);
		g_free(sub.path);
		if (!ok)
			return FALSE;
		if (!copy || copy_len != p->len || memcmp(copy, p->text, copy_len) != 0) {
			*changed = p;
			*copy_changed = TRUE;
		}
	}
	return TRUE;
}

