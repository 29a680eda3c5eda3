/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_MATRIX_DEMO_H
#define AB_TEST_MATRIX_DEMO_H

/* The matrix file both matrix tests parse (the demo's shape at small
 * sizes) and a parse that must succeed, for test-matrix.c (the file, its
 * cells, the spread) and test-matrix-dir.c (the results directory and
 * resume).  Included after cmocka.h. */

#include <string.h>

#include "../../src/matrix/matrix-file.h"

static struct ab_matrix *parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	struct ab_matrix *m = ab_matrix_parse("/etc/ab/m.ini", text, strlen(text), &error);
	if (!m)
		fail_msg("%s", error->message);
	return m;
}

static const char demo[] = "# the demo\n"
			   "[matrix]\n"
			   "loop = 4:256m\n"
			   "levels = btrfs:raid1, btrfs:raid10\n"
			   "mount-opts = defaults; noatime,nodiratime\n"
			   "workloads = bonnie, mirror\n"
			   "repeats = 2\n"
			   "options = -r 16 --cache cgroup\n"
			   "\n"
			   "[workload mirror]\n"
			   "options = --sweep-file-sizes 4m\n";

#endif
