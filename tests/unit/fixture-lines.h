/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_FIXTURE_LINES_H
#define AB_TEST_FIXTURE_LINES_H

/* A file of tests/fixtures/ as its lines (AB_FIXTURES is the folder, set
 * by the GNUmakefile), for test-csv-read.c and test-csv-read-text.c.
 * Included after cmocka.h. */

#include <string.h>

#include <glib.h>

static char **fixture_lines(const char *file)
{
	g_autofree char *path = g_build_filename(AB_FIXTURES, file, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	if (!g_file_get_contents(path, &text, NULL, &error))
		fail_msg("%s", error->message);
	assert_true(g_str_has_suffix(text, "\n"));
	text[strlen(text) - 1] = '\0';
	return g_strsplit(text, "\n", -1);
}

#endif
