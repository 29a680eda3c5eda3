/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "liveness.h"

#include <string.h>

/* Start time of a running process; FALSE for a missing one and for a zombie
 * (killed, not yet reaped: it has exited and holds nothing any more). */
static gboolean read_start_ticks(const char *root, int pid, guint64 *out)
{
	g_autofree char *path = g_strdup_printf("%s/proc/%d/stat", root, pid);
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses,
	 * so count fields after its last ')'.  starttime is field 22. */
	const char *p = strrchr(text, ')');
	if (!p)
		return FALSE;
	g_auto(GStrv) f = g_strsplit(p + 2, " ", 21);
	if (g_strv_length(f) < 21)
		return FALSE;
	/* f[0] is field 3 (state), so field 22 is f[19]. */
	if (f[0][0] == 'Z' || f[0][0] == 'X')
		return FALSE;
	return g_ascii_string_to_unsigned(f[19], 10, 0, G_MAXUINT64, out, NULL);
}

static void read_boot_id(const char *root, char out[40])
{
	g_autofree char *path = g_strdup_printf("%s/proc/sys/kernel/random/boot_id", root);
	g_autofree char *text = NULL;
	out[0] = '\0';
	if (g_file_get_contents(path, &text, NULL, NULL))
		g_strlcpy(out, g_strstrip(text), 40);
}

gboolean ab_process_id_of(const char *root, int pid, struct ab_process_id *out)
{
	memset(out, 0, sizeof(*out));
	out->pid = pid;
	read_boot_id(root ? root : "", out->boot_id);
	return read_start_ticks(root ? root : "", pid, &out->start_ticks);
}

gboolean ab_process_id_alive(const char *root, const struct ab_process_id *id)
{
	struct ab_process_id now;
	if (id->pid <= 0 || !ab_process_id_of(root, id->pid, &now))
		return FALSE;
	return now.start_ticks == id->start_ticks && g_str_equal(now.boot_id, id->boot_id);
}
