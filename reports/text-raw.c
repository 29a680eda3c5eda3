/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table's header for `arraybench raw`: no directory, file system or
 * test file, but the devices and how they were read and written. */
#include "report.h"
#include "text-block.h"
#include "format.h"
#include "../src/base/error.h"

#include <stdio.h>

static void add(GString *s, const char *text)
{
	g_autofree char *line = ab_one_line(text ? text : "-");
	g_string_append(s, line);
}

gboolean ab_text_raw_header(GString *s, const struct ab_run *run)
{
	const struct ab_target_desc *t = &run->target;
	if (g_strcmp0(t->backend, "raw") != 0)
		return FALSE;
	add(s, run->tool);
	g_string_append_c(s, ' ');
	add(s, run->tool_version);
	g_string_append(s, " raw  machine ");
	add(s, run->machine);
	g_string_append(s, "  id ");
	add(s, run->run_id);
	g_string_append(s, "\nkernel  ");
	add(s, run->kernel);
	g_string_append_printf(s, "\ndevices ");
	for (guint i = 0; i < t->members->len; i++) {
		g_string_append(s, i ? ", " : "");
		add(s, g_ptr_array_index(t->members, i));
	}
	for (guint i = 0; i < t->queues->len; i++) {
		const struct ab_queue_desc *q = &g_array_index(t->queues, struct ab_queue_desc, i);
		g_string_append(s, i ? ", " : "  (");
		add(s, q->name);
		g_string_append_printf(s, " %s", q->rotational == 1 ? "rotational" : q->rotational == 0 ? "solid" : "?");
		g_string_append(s, " scheduler ");
		add(s, q->scheduler);
		g_string_append(s, i + 1 == t->queues->len ? ")" : "");
	}
	char block[32];
	ab_format_size(run->cond.io_chunk, block, sizeof(block));
	g_string_append_printf(s, "\ni/o     sequential from byte 0 in %s blocks, O_DIRECT: the page cache is bypassed%s\n",
			       block, run->cond.data ? "; writes random data, their fdatasync timed" : "");
	return TRUE;
}

static gboolean is_raw(const struct ab_run *run)
{
	return g_strcmp0(run->target.backend, "raw") == 0;
}

static void append_raw_header(GString *s, const struct ab_run *run)
{
	ab_text_raw_header(s, run);
}

const struct ab_text_block ab_text_block_raw_header = {
	.name = "raw header",
	.applies = is_raw,
	.append = append_raw_header,
};
