/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The INI scanner of profiles and matrix files (ini-scan.h): groups and keys
 * with their lines, then GKeyFile on the same text for the values. */
#include "ini-scan.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void key_free(gpointer p)
{
	struct ab_ini_key *k = p;
	g_free(k->name);
	g_free(k->raw);
	g_free(k);
}

static void group_free(gpointer p)
{
	struct ab_ini_group *g = p;
	g_free(g->name);
	g_ptr_array_unref(g->keys);
	g_free(g);
}

void ab_ini_free(struct ab_ini *ini)
{
	if (!ini)
		return;
	g_free(ini->where);
	g_ptr_array_unref(ini->groups);
	g_hash_table_unref(ini->lines);
	g_key_file_unref(ini->kf);
	g_free(ini);
}

char *ab_ini_fault_message(const struct ab_ini_fault *f)
{
	switch (f->kind) {
	case AB_INI_TOO_BIG:
		return g_strdup_printf("%" G_GSIZE_FORMAT " bytes: too big", f->size);
	case AB_INI_NUL:
		return g_strdup("a NUL byte: an INI file is text");
	case AB_INI_NOT_UTF8:
		return g_strdup("bytes that are not UTF-8");
	case AB_INI_BAD_GROUP_LINE:
		return g_strdup_printf("invalid group line '%s': expected [NAME]", f->text);
	case AB_INI_NOT_KEY_VALUE:
		return g_strdup_printf("invalid line '%s': expected [group], key = value or a # comment", f->text);
	case AB_INI_KEY_OUTSIDE:
		return g_strdup_printf("key '%s' outside a group", f->key);
	case AB_INI_DUPLICATE_GROUP:
		return g_strdup_printf("duplicate group [%s] (first at line %u)", f->group, f->first_line);
	case AB_INI_DUPLICATE_KEY:
		return g_strdup_printf("duplicate key '%s' in [%s] (first at line %u)", f->key, f->group, f->first_line);
	case AB_INI_KEYFILE:
		return g_strdup(f->text);
	}
	g_assert_not_reached();
}

/* The fault in the caller's words, else "WHERE:LINE: " and ours. */
static gboolean refuse(const char *where, const struct ab_ini_ops *ops, void *data, const struct ab_ini_fault *f,
		       GError **error)
{
	if (ops && ops->fault) {
		ops->fault(data, f, error);
		return FALSE;
	}
	g_autofree char *msg = ab_ini_fault_message(f);
	g_autofree char *valid = g_utf8_make_valid(msg, -1);
	g_autofree char *safe = ab_one_line(valid);
	g_autofree char *safe_where = ab_one_line(where);
	if (f->line)
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s:%u: %s", safe_where, f->line, safe);
	else
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %s", safe_where, safe);
	return FALSE;
}

/* The line (1-based) that byte `at` of `text` is on. */
static unsigned line_at(const char *text, const char *at)
{
	unsigned line = 1;
	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	return line;
}

static gboolean scan_lines(struct ab_ini *ini, char *text, const struct ab_ini_ops *ops, void *data,
			   GError **error)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	struct ab_ini_group *group = NULL;
	for (unsigned i = 0; lines[i]; i++) {
		unsigned line = i + 1;
		char *s = g_strstrip(lines[i]);
		if (!*s || *s == '#')
			continue;
		if (*s == '[') {
			size_t n = strlen(s);
			if (s[n - 1] != ']') {
				struct ab_ini_fault f = { .kind = AB_INI_BAD_GROUP_LINE, .line = line, .text = s };
				return refuse(ini->where, ops, data, &f, error);
			}
			s[n - 1] = '\0';
			const char *name = s + 1;
			if (ops && ops->group && !ops->group(data, name, line, error))
				return FALSE;
			unsigned first = ab_ini_line(ini, name, NULL);
			if (first) {
				struct ab_ini_fault f = { .kind = AB_INI_DUPLICATE_GROUP, .line = line, .group = name,
							  .first_line = first };
				return refuse(ini->where, ops, data, &f, error);
			}
			group = g_new0(struct ab_ini_group, 1);
			group->name = g_strdup(name);
			group->line = line;
			group->keys = g_ptr_array_new_with_free_func(key_free);
			g_ptr_array_add(ini->groups, group);
			g_hash_table_insert(ini->lines, g_strdup(name), GUINT_TO_POINTER(line));
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			struct ab_ini_fault f = { .kind = AB_INI_NOT_KEY_VALUE, .line = line, .text = s };
			return refuse(ini->where, ops, data, &f, error);
		}
		*eq = '\0';
		const char *key = g_strstrip(s);
		if (!group) {
			struct ab_ini_fault f = { .kind = AB_INI_KEY_OUTSIDE, .line = line, .key = key };
			return refuse(ini->where, ops, data, &f, error);
		}
		if (ops && ops->key && !ops->key(data, group->name, key, line, error))
			return FALSE;
		unsigned first = ab_ini_line(ini, group->name, key);
		if (first) {
			struct ab_ini_fault f = { .kind = AB_INI_DUPLICATE_KEY, .line = line, .group = group->name,
						  .key = key, .first_line = first };
			return refuse(ini->where, ops, data, &f, error);
		}
		struct ab_ini_key *k = g_new0(struct ab_ini_key, 1);
		k->name = g_strdup(key);
		k->raw = g_strdup(g_strstrip(eq + 1));
		k->line = line;
		g_ptr_array_add(group->keys, k);
		g_hash_table_insert(ini->lines, g_strdup_printf("%s\n%s", group->name, key), GUINT_TO_POINTER(line));
	}
	return TRUE;
}

struct ab_ini *ab_ini_scan(const char *where, const char *text, gsize len, const struct ab_ini_ops *ops,
			   void *data, GError **error)
{
	if (ops && ops->max_bytes && len > ops->max_bytes) {
		struct ab_ini_fault f = { .kind = AB_INI_TOO_BIG, .size = len };
		refuse(where, ops, data, &f, error);
		return NULL;
	}
	/* A byte order mark, as some editors write, is no part of line 1. */
	size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	text += bom;
	len -= bom;
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		struct ab_ini_fault f = { .kind = AB_INI_NUL, .line = line_at(text, nul) };
		refuse(where, ops, data, &f, error);
		return NULL;
	}
	const char *bad = NULL;
	if (ops && (ops->flags & AB_INI_REQUIRE_UTF8) && !g_utf8_validate(text, (gssize)len, &bad)) {
		struct ab_ini_fault f = { .kind = AB_INI_NOT_UTF8, .line = line_at(text, bad) };
		refuse(where, ops, data, &f, error);
		return NULL;
	}
	g_autoptr(ab_ini_auto) ini = g_new0(struct ab_ini, 1);
	ini->where = g_strdup(where);
	ini->groups = g_ptr_array_new_with_free_func(group_free);
	ini->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ini->kf = g_key_file_new();
	g_autofree char *copy = g_strndup(text, len);
	if (!scan_lines(ini, copy, ops, data, error))
		return NULL;
	/* The scan refused what GKeyFile would merge; what GKeyFile still
	 * refuses (a key name it cannot take, say) it words without a line. */
	g_autoptr(GError) local = NULL;
	if (!g_key_file_load_from_data(ini->kf, text, len, G_KEY_FILE_NONE, &local)) {
		struct ab_ini_fault f = { .kind = AB_INI_KEYFILE, .text = local->message };
		refuse(where, ops, data, &f, error);
		return NULL;
	}
	return g_steal_pointer(&ini);
}

unsigned ab_ini_line(const struct ab_ini *ini, const char *group, const char *key)
{
	g_autofree char *k = key ? g_strdup_printf("%s\n%s", group, key) : g_strdup(group);
	return GPOINTER_TO_UINT(g_hash_table_lookup(ini->lines, k));
}

const struct ab_ini_group *ab_ini_group(const struct ab_ini *ini, const char *group)
{
	for (guint i = 0; i < ini->groups->len; i++) {
		const struct ab_ini_group *g = g_ptr_array_index(ini->groups, i);
		if (g_str_equal(g->name, group))
			return g;
	}
	return NULL;
}

char *ab_ini_get_string(const struct ab_ini *ini, const char *group, const char *key, GError **error)
{
	return g_key_file_get_string(ini->kf, group, key, error);
}

char *ab_ini_read_file(const char *path, const char *noun, gsize max_bytes, gsize *len, GError **error)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot open %s '%s'", noun, path);
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing %s '%s': not a regular file", noun, path);
		return NULL;
	}
	if ((guint64)st.st_size > max_bytes) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "refusing %s '%s': %" G_GUINT64_FORMAT " bytes, more than a %s's %" G_GSIZE_FORMAT, noun,
			    path, (guint64)st.st_size, noun, max_bytes);
		return NULL;
	}
	/* One byte more than allowed: a file that grew since is caught too. */
	char *buf = g_malloc(max_bytes + 1);
	gsize got = 0;
	while (got <= max_bytes) {
		ssize_t n = read(fd, buf + got, max_bytes + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			g_free(buf);
			ab_set_error_errno(error, AB_ERROR_USAGE, err, "cannot read %s '%s'", noun, path);
			return NULL;
		}
		if (n == 0)
			break;
		got += (gsize)n;
	}
	close(fd);
	if (got > max_bytes) {
		g_free(buf);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing %s '%s': more than a %s's %" G_GSIZE_FORMAT " bytes",
			    noun, path, noun, max_bytes);
		return NULL;
	}
	*len = got;
	return buf;
}
