/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A block device's queue settings, for the environment record. */
#include "target.h"

#include <string.h>

static int read_int(const char *dir, const char *file)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return -1;
	return (int)g_ascii_strtoll(text, NULL, 10);
}

gboolean ab_queue_info_read(const char *root, const char *name, struct ab_queue_info *out)
{
	memset(out, 0, sizeof(*out));
	g_autofree char *dir = g_strdup_printf("%s/sys/class/block/%s/queue", root, name);
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
		return FALSE;
	g_strlcpy(out->name, name, sizeof(out->name));
	g_autofree char *path = g_build_filename(dir, "scheduler", NULL);
	g_autofree char *text = NULL;
	/* "mq-deadline [none]": the bracketed one is in use. */
	if (g_file_get_contents(path, &text, NULL, NULL)) {
		char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			*close = '\0';
			g_strlcpy(out->scheduler, open + 1, sizeof(out->scheduler));
		} else {
			g_strlcpy(out->scheduler, g_strstrip(text), sizeof(out->scheduler));
		}
	}
	out->read_ahead_kb = read_int(dir, "read_ahead_kb");
	out->rotational = read_int(dir, "rotational");
	out->logical_block_size = read_int(dir, "logical_block_size");
	out->physical_block_size = read_int(dir, "physical_block_size");
	return TRUE;
}
