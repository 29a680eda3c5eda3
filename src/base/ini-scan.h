/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_INI_SCAN_H
#define AB_INI_SCAN_H

/*
 * The one INI scanner of workload profiles (profile.c) and matrix files
 * (matrix-file.c).  GKeyFile gives the values (escapes and all), but it
 * knows no line numbers and silently merges a group or key given twice;
 * so the text is scanned here first, line by line: every group and key
 * with its line, in file order, and what GKeyFile would take quietly
 * refused where it stands.
 *
 * The rules, shared by both callers: a UTF-8 byte order mark is no part of
 * line 1; lines split at '\n' and are trimmed of white space (a '\r' too);
 * a blank line or one starting with '#' is skipped; "[NAME]" starts a
 * group (NAME up to the line's last ']', which ends the line); any other
 * line is KEY = VALUE, split at its first '=' and both sides trimmed; no
 * line continues another.  A group or a key of one group given twice is
 * refused, and so is a key before any group, a NUL byte, and (with
 * AB_INI_REQUIRE_UTF8) bytes that are not UTF-8.
 *
 * Each caller keeps its own words: it checks each group and key name as
 * the scan meets them (ops->group, ops->key) and words each fault itself
 * (ops->fault); without a fault hook the error is "WHERE:LINE: " and
 * ab_ini_fault_message()'s words.  Every error is AB_ERROR_USAGE.
 */

#include <glib.h>

enum ab_ini_flags {
	AB_INI_REQUIRE_UTF8 = 1u << 0, /* refuse the file when any byte is not UTF-8 (comments too) */
};

enum ab_ini_fault_kind {
	AB_INI_TOO_BIG,         /* more than ops->max_bytes; line 0 */
	AB_INI_NUL,             /* a NUL byte; line: the one it is on */
	AB_INI_NOT_UTF8,        /* (AB_INI_REQUIRE_UTF8) the first line with a byte that is not UTF-8 */
	AB_INI_BAD_GROUP_LINE,  /* a line starting '[' and not ending ']'; text: the line */
	AB_INI_NOT_KEY_VALUE,   /* no '=' in a line that is no group or comment; text: the line */
	AB_INI_KEY_OUTSIDE,     /* key: one before any group */
	AB_INI_DUPLICATE_GROUP, /* group: given again, first at first_line */
	AB_INI_DUPLICATE_KEY,   /* group and key: given again, first at first_line */
	AB_INI_KEYFILE,         /* GKeyFile refused the text the scan took; text: its message; line 0 */
};

struct ab_ini_fault {
	enum ab_ini_fault_kind kind;
	unsigned line;        /* 1-based; 0 when no line is at fault */
	const char *text;     /* the trimmed line, or GKeyFile's message */
	const char *group;
	const char *key;
	unsigned first_line;  /* of the first of a duplicate */
	gsize size;           /* AB_INI_TOO_BIG: the text's length */
};

struct ab_ini_ops {
	/* A group header as met, before it is checked for a duplicate:
	 * FALSE with *error set refuses it.  NULL: any name. */
	gboolean (*group)(void *data, const char *group, unsigned line, GError **error);
	/* A key as met (in `group`), before the duplicate check; the same. */
	gboolean (*key)(void *data, const char *group, const char *key, unsigned line, GError **error);
	/* Sets *error for a fault, in the caller's words.  NULL: the scan's. */
	void (*fault)(void *data, const struct ab_ini_fault *fault, GError **error);
	gsize max_bytes;  /* a longer text is refused unscanned (AB_INI_TOO_BIG); 0: no cap */
	unsigned flags;   /* enum ab_ini_flags */
};

struct ab_ini_key {
	char *name;
	char *raw;     /* the value as written, trimmed, escapes not undone */
	unsigned line;
};

struct ab_ini_group {
	char *name;
	unsigned line;
	GPtrArray *keys; /* struct ab_ini_key *, in file order */
};

struct ab_ini {
	char *where;
	GPtrArray *groups; /* struct ab_ini_group *, in file order */
	GHashTable *lines; /* "GROUP" and "GROUP\nKEY" -> line (GUINT_TO_POINTER) */
	GKeyFile *kf;      /* the same text, for the values */
};

/* Scans `text` (`len` bytes, NUL bytes included) named `where` in
 * messages.  `ops` may be NULL (no cap, no name checks, the scan's own
 * words). */
struct ab_ini *ab_ini_scan(const char *where, const char *text, gsize len, const struct ab_ini_ops *ops,
			   void *data, GError **error);
void ab_ini_free(struct ab_ini *ini);
typedef struct ab_ini ab_ini_auto;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_ini_auto, ab_ini_free)

/* The line of group `group` (key NULL) or of its key `key`; 0 when absent. */
unsigned ab_ini_line(const struct ab_ini *ini, const char *group, const char *key);
/* The group by name; NULL when absent. */
const struct ab_ini_group *ab_ini_group(const struct ab_ini *ini, const char *group);
/* A key's value as GKeyFile reads it (escapes undone); NULL with GKeyFile's
 * own error when it refuses the value or the key is absent. */
char *ab_ini_get_string(const struct ab_ini *ini, const char *group, const char *key, GError **error);

/* The scan's own words for a fault (no "WHERE:LINE: "), to g_free. */
char *ab_ini_fault_message(const struct ab_ini_fault *fault);

/* The bytes of file `path`, refused unread when it is not a regular file
 * (a FIFO would block, a device never end) or is bigger than `max_bytes`;
 * `noun` names it in messages ("profile": "refusing profile 'x.ini': ...,
 * more than a profile's 1048576").  *len: its length; to g_free. */
char *ab_ini_read_file(const char *path, const char *noun, gsize max_bytes, gsize *len, GError **error);

#endif
