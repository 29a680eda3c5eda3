/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_REPLACE_FILE_H
#define AB_REPLACE_FILE_H

#include <glib.h>

/*
 * Outputs that are rewritten rather than appended to (report --html, a
 * matrix's results.csv made anew) are written whole or not at all: the new
 * text goes to a temporary file beside the old one (same directory, so the
 * same file system), is fsynced, and is renamed over it; the directory is
 * then fsynced so the rename survives a crash.  A full disk or a kill leaves
 * the old file as it was (and at most a hidden temporary file, named
 * .NAME.XXXXXX, that a later replace does not reuse).
 *
 * The name must not be a symbolic link (AB_ERROR_UNSAFE: a rename would
 * replace the link, not what it points to, and a root writer must not be
 * steered), nor anything but a regular file (AB_ERROR_USAGE); one that
 * belongs to another user (not root, not us) is refused (AB_ERROR_UNSAFE).
 * The new file keeps the old one's permission bits (0644 when new).  `what`
 * starts each message ("the HTML report").  Write errors are AB_ERROR_OUTPUT.
 */
gboolean ab_replace_file(const char *what, const char *path, const char *data, gsize len, GError **error);
/* The same inside a directory held open (dir_fd; dir_name only for messages). */
gboolean ab_replace_file_at(const char *what, int dir_fd, const char *dir_name, const char *name, const char *data,
			    gsize len, GError **error);

#endif
