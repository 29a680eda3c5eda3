/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "journal.h"
#include "../src/base/runid.h"

#include <string.h>
#include <sys/sysmacros.h>

char *ab_journal_header(const struct ab_journal_owner *o)
{
	return g_strdup_printf(AB_JOURNAL_MAGIC "\trun=%s\tpid=%d\tstart=%" G_GUINT64_FORMAT "\tboot=%s\tuid=%u\n",
			       o->run_id, o->process.pid, o->process.start_ticks, o->process.boot_id,
			       (unsigned)o->uid);
}

static char *identity_fields(const struct ab_undo_step *s)
{
	return g_strdup_printf("%u:%u\t%" G_GUINT64_FORMAT "\t%016" G_GINT64_MODIFIER "x", major(s->dev), minor(s->dev),
			       (guint64)s->ino, s->fsid);
}

char *ab_journal_intent_line(const struct ab_undo_step *s)
{
	g_autofree char *path = g_strescape(s->path, NULL);
	g_autofree char *detail = g_strescape(s->detail ? s->detail : "", NULL);
	g_autofree char *id = s->identified ? identity_fields(s) : NULL;
	return g_strdup_printf("intent\t%s\t%s\t%s%s%s\n", ab_undo_kind_name(s->kind), path, detail, id ? "\t" : "",
			       id ? id : "");
}

char *ab_journal_ident_line(guint index, const struct ab_undo_step *s)
{
	g_autofree char *id = identity_fields(s);
	return g_strdup_printf("ident\t%u\t%s\n", index, id);
}

char *ab_journal_detail_line(guint index, const char *detail)
{
	g_autofree char *text = g_strescape(detail, NULL);
	return g_strdup_printf("detail\t%u\t%s\n", index, text);
}

char *ab_journal_done_line(guint index)
{
	return g_strdup_printf("done\t%u\n", index);
}

static gboolean parse_u64(const char *text, guint64 max, guint64 *out)
{
	return text && g_ascii_string_to_unsigned(text, 10, 0, max, out, NULL);
}

/* "MAJ:MIN" "INO" and, since the fsid was added, "FSID" (16 hex digits). */
static gboolean parse_identity(const char *devtext, const char *inotext, const char *fsidtext, struct ab_undo_step *s)
{
	g_auto(GStrv) mm = devtext ? g_strsplit(devtext, ":", 3) : NULL;
	guint64 maj, min, ino, fsid = 0;
	if (!mm || g_strv_length(mm) != 2 || !parse_u64(mm[0], G_MAXUINT32, &maj) ||
	    !parse_u64(mm[1], G_MAXUINT32, &min) || !parse_u64(inotext, G_MAXUINT64, &ino) ||
	    (fsidtext && (strlen(fsidtext) != 16 || !g_ascii_string_to_unsigned(fsidtext, 16, 0, G_MAXUINT64, &fsid, NULL))))
		return FALSE;
	s->dev = makedev((unsigned)maj, (unsigned)min);
	s->ino = (ino_t)ino;
	s->fsid = fsid;
	s->identified = TRUE;
	return TRUE;
}

static gboolean parse_header(const char *line, struct ab_journal_owner *o)
{
	g_auto(GStrv) f = g_strsplit(line, "\t", -1);
	if (!f[0] || !g_str_equal(f[0], AB_JOURNAL_MAGIC))
		return FALSE;
	memset(o, 0, sizeof(*o));
	guint seen = 0;
	for (char **kv = f + 1; *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		if (!eq)
			return FALSE;
		g_autofree char *key = g_strndup(*kv, (gsize)(eq - *kv));
		const char *val = eq + 1;
		guint64 n;
		if (g_str_equal(key, "run") && ab_run_id_valid(val)) {
			g_strlcpy(o->run_id, val, sizeof(o->run_id));
			seen |= 1;
		} else if (g_str_equal(key, "pid") && parse_u64(val, G_MAXINT, &n) && n > 0) {
			o->process.pid = (int)n;
			seen |= 2;
		} else if (g_str_equal(key, "start") && parse_u64(val, G_MAXUINT64, &n)) {
			o->process.start_ticks = n;
			seen |= 4;
		} else if (g_str_equal(key, "boot") && strlen(val) < sizeof(o->process.boot_id)) {
			g_strlcpy(o->process.boot_id, val, sizeof(o->process.boot_id));
			seen |= 8;
		} else if (g_str_equal(key, "uid") && parse_u64(val, G_MAXUINT32 - 1, &n)) {
			o->uid = (uid_t)n;
			seen |= 16;
		} else {
			return FALSE;
		}
	}
	return seen == 31;
}

/* One event line; FALSE if it is not one we write. */
static gboolean parse_event(const char *line, uid_t owner, GPtrArray *steps)
{
	g_auto(GStrv) f = g_strsplit(line, "\t", -1);
	guint n = g_strv_length(f);
	if (n >= 1 && g_str_equal(f[0], "intent") && (n == 4 || n == 6 || n == 7)) {
		enum ab_undo_kind kind;
		if (!ab_undo_kind_from_name(f[1], &kind))
			return FALSE;
		struct ab_undo_step *s = g_new0(struct ab_undo_step, 1);
		s->kind = kind;
		s->path = g_strcompress(f[2]);
		s->detail = *f[3] ? g_strcompress(f[3]) : NULL;
		s->owner = owner;
		g_ptr_array_add(steps, s);
		/* Only absolute paths: a relative one would depend on where
		 * cleanup happens to run. */
		return s->path[0] == '/' && (n == 4 || parse_identity(f[4], f[5], n == 7 ? f[6] : NULL, s));
	}
	guint64 index;
	if (n >= 2 && parse_u64(f[1], G_MAXUINT, &index) && index < steps->len) {
		struct ab_undo_step *s = g_ptr_array_index(steps, index);
		if (g_str_equal(f[0], "ident") && (n == 4 || n == 5))
			return parse_identity(f[2], f[3], n == 5 ? f[4] : NULL, s);
		if (g_str_equal(f[0], "detail") && n == 3) {
			g_free(s->detail);
			s->detail = g_strcompress(f[2]);
			return TRUE;
		}
		if (g_str_equal(f[0], "done") && n == 2) {
			s->done = TRUE;
			return TRUE;
		}
	}
	return FALSE;
}

enum ab_journal_state ab_journal_parse(const char *text, gsize len, struct ab_journal_owner *owner,
				       GPtrArray **steps, char **why)
{
	*steps = NULL;
	*why = NULL;
	if (memchr(text, '\0', len)) {
		*why = g_strdup("it holds a NUL byte");
		return AB_JOURNAL_CORRUPT;
	}
	/* Complete lines only: drop a torn tail. */
	const char *end = text + len;
	while (end > text && end[-1] != '\n')
		end--;
	if (end == text) {
		*why = g_strdup(len ? "its header is incomplete" : "it is empty");
		return AB_JOURNAL_EMPTY;
	}
	g_autofree char *whole = g_strndup(text, (gsize)(end - text - 1));
	g_auto(GStrv) lines = g_strsplit(whole, "\n", -1);
	if (!lines[0] || !parse_header(lines[0], owner)) {
		*why = g_strdup("its header is not one arraybench writes");
		return AB_JOURNAL_CORRUPT;
	}
	g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func((GDestroyNotify)ab_undo_step_free);
	for (guint i = 1; lines[i]; i++)
		if (!parse_event(lines[i], owner->uid, parsed)) {
			*why = g_strdup_printf("line %u is not one arraybench writes", i + 1);
			return AB_JOURNAL_CORRUPT;
		}
	*steps = g_steal_pointer(&parsed);
	return AB_JOURNAL_OK;
}
