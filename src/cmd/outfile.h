/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OUTFILE_H
#define AB_OUTFILE_H

#include <glib.h>
#include <stdio.h>

/* One result file a command appends to (run --csv, --json, --sweep-csv;
 * raw --json): the option naming it, its path (NULL: not given) and, once
 * opened, its stream. */
struct ab_outfile {
	const char *option;
	const char *path;
	FILE *f;
};

/*
 * Opens every given output of outs[0..n) for appending, in order, after
 * checking them all, so that a refusal leaves nothing made:
 * - No output is opened through a symbolic link (AB_ERROR_UNSAFE): root
 *   would write where a link planted in /tmp points, and a link of one's
 *   own is one rule less to remember.  The one exception is a name of the
 *   caller's own descriptors, ab_outfile_names_descriptor(): it is how a
 *   user says "standard output" or "that pipe" (--json >(jq .)).
 * - Another user's file or FIFO by that name is refused (AB_ERROR_UNSAFE),
 *   and opening never blocks (a FIFO with no reader fails).
 * - Two outputs that are one file (one name however spelled, a hard link,
 *   one pipe) are refused (AB_ERROR_USAGE): --csv F --json F read back
 *   counted one run twice, and sweep rows in either spoil it for report.
 *   Character devices (/dev/null, a terminal) may take several.
 * under_u: the run hands files to -u USER, so each output's directory must
 * also be one no other user can change the way to.
 */
gboolean ab_outfiles_open(struct ab_outfile *outs, size_t n, gboolean under_u, GError **error);
/* The standard descriptors (bit 1 << fd of 0, 1 and 2) that were closed
 * when arraybench started: main() holds /dev/null in their place, so an
 * output naming one (--json /dev/stdout with ">&-") would take the run
 * without a word.  ab_outfiles_open() refuses it (AB_ERROR_OUTPUT). */
extern unsigned ab_outfile_closed_std;
void ab_outfiles_close(struct ab_outfile *outs, size_t n);

/*
 * Appends text whole to an output ab_outfiles_open() opened, flushed.  A
 * regular file gets it in one write(2) at a time under an flock (two runs
 * appending to one --json file neither interleave their lines nor cut each
 * other's; a lock someone else holds is waited for 5 s at most, then the
 * run goes in unlocked), and when it cannot take all of it (a full disk) it is cut back
 * to its length before: a torn line would spoil the file for report and
 * glue the next run's line to it.  A pipe or device gets it through its
 * stream.  FALSE with errno set when it failed.
 */
gboolean ab_outfile_append(FILE *f, const char *text);

/* Does path name one of the caller's own open descriptors (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N), symbolic links the system
 * makes, not a file a link could steer? */
gboolean ab_outfile_names_descriptor(const char *path);

#endif
