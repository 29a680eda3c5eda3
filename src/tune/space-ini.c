/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A search space read from INI text (space.h; arraybench-workload(5), SEARCH
 * SPACE FILES): src/base/ini-scan.c's groups and keys with their lines, each
 * value checked as run will check it, every fault one line naming the file,
 * the line and the value. */
#include "space.h"
#include "../base/error.h"
#include "../base/ini-scan.h"
#include "../../fs-setup/mount.h"
#include "../../fs-setup/optwords.h"

#include <string.h>
#include <sys/mount.h>

/* Name and text of each built-in space, then NULL: the build makes it from
 * tune/spaces/NAME.ini (GNUmakefile: build/gen/builtin-spaces.c). */
extern const char *const ab_builtin_spaces[];

#define KEY_GROUP "key "

static const char *const space_keys[] = { "fs", "summary" };
static const char *const key_keys[] = { "mount", "mkfs", "switch", "values", "unsafe", "why-unsafe", "note" };
/* The run switches a key may set: only the stripe hint's. */
static const char *const switches[] = { "no-stripe-hint" };

static gboolean at_line(GError **error, int code, const char *where, unsigned line, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);
static gboolean at_line(GError **error, int code, const char *where, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_autofree char *valid = g_utf8_make_valid(msg, -1);
	g_autofree char *safe = ab_one_line(valid);
	g_autofree char *safe_where = ab_one_line(where);
	g_set_error(error, AB_ERROR, code, "%s:%u: %s", safe_where, line, safe);
	return FALSE;
}
#define fail(error, where, line, ...) at_line(error, AB_ERROR_USAGE, where, line, __VA_ARGS__)

static gboolean in_list(const char *const *list, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (g_str_equal(list[i], word))
			return TRUE;
	return FALSE;
}

static gboolean name_ok(const char *name)
{
	if (!*name || *name == '-')
		return FALSE;
	for (const char *c = name; *c; c++)
		if (!g_ascii_islower(*c) && !g_ascii_isdigit(*c) && *c != '-')
			return FALSE;
	return TRUE;
}

static gboolean group_ok(void *data, const char *group, unsigned line, GError **error)
{
	const char *where = data;
	if (g_str_equal(group, "space"))
		return TRUE;
	if (!g_str_has_prefix(group, KEY_GROUP))
		return fail(error, where, line, "unknown group [%s]: expected [space] or [key NAME]", group);
	if (!name_ok(group + strlen(KEY_GROUP)))
		return fail(error, where, line, "invalid key name '%s' in [%s]: lowercase letters, digits and '-'",
			    group + strlen(KEY_GROUP), group);
	return TRUE;
}

static gboolean key_ok(void *data, const char *group, const char *key, unsigned line, GError **error)
{
	const char *where = data;
	gboolean ok = g_str_equal(group, "space") ? in_list(space_keys, G_N_ELEMENTS(space_keys), key)
						   : in_list(key_keys, G_N_ELEMENTS(key_keys), key);
	if (!ok)
		return fail(error, where, line, "unknown key '%s' in [%s]: expected %s", key, group,
			    g_str_equal(group, "space") ? "fs or summary"
							: "mount, mkfs or switch, values, unsafe, why-unsafe or note");
	return TRUE;
}

static void space_fault(void *data, const struct ab_ini_fault *f, GError **error)
{
	const char *where = data;
	switch (f->kind) {
	case AB_INI_TOO_BIG: {
		g_autofree char *safe_where = ab_one_line(where);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %" G_GSIZE_FORMAT " bytes, more than a space's %u",
			    safe_where, f->size, AB_SPACE_MAX_BYTES);
		return;
	}
	case AB_INI_KEY_OUTSIDE:
		fail(error, where, f->line, "key '%s' outside a group: a space starts with [space] or [key NAME]", f->key);
		return;
	case AB_INI_KEYFILE:
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %s", where, f->text);
		return;
	default:
		break;
	}
	g_autofree char *msg = ab_ini_fault_message(f);
	fail(error, where, f->line, "%s", msg);
}

static const struct ab_ini_ops space_ini_ops = {
	.group = group_ok,
	.key = key_ok,
	.fault = space_fault,
	.max_bytes = AB_SPACE_MAX_BYTES,
	.flags = AB_INI_REQUIRE_UTF8,
};

/* A key's value as GKeyFile reads it, NULL (no error) when absent. */
static char *get(const struct ab_ini *ini, const char *group, const char *key, GError **error)
{
	unsigned line = ab_ini_line(ini, group, key);
	if (!line)
		return NULL;
	GError *local = NULL;
	char *v = ab_ini_get_string(ini, group, key, &local);
	if (!v) {
		fail(error, ini->where, line, "key '%s' in [%s]: %s", key, group, local->message);
		g_error_free(local);
		return NULL;
	}
	g_strstrip(v);
	return v;
}

static gboolean text_ok(const char *where, unsigned line, const char *what, const char *text, GError **error)
{
	if (!*text)
		return fail(error, where, line, "empty %s", what);
	for (const char *c = text; *c; c++)
		if (g_ascii_iscntrl(*c))
			return fail(error, where, line, "invalid %s '%s': a control character in it", what, text);
	return TRUE;
}

/* mount(2) flags that make no new writable mount of the visit's file
 * system: each visit would fail to mount it, or to write in it. */
#define NOT_A_NEW_MOUNT \
	(MS_RDONLY | MS_REMOUNT | MS_BIND | MS_MOVE | MS_REC | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)

/* The words of a value as run will take them, checked as run checks its
 * --mount-opts and --mkfs-opts (the geometry's words as 1s). */
static gboolean words_ok(const char *where, unsigned line, const struct ab_space_key *k, const char *value,
			 const char *words, GError **error)
{
	GError *local = NULL;
	g_autofree char *filled = ab_space_fill_geometry(words, NULL, &local);
	gboolean ok = filled != NULL;
	if (ok && k->place == AB_SPACE_MOUNT) {
		unsigned long flags;
		g_autofree char *data = NULL;
		ok = !strpbrk(filled, " \t") ? ab_mount_split_options(filled, &flags, &data, &local)
					     : (g_set_error(&local, AB_ERROR, AB_ERROR_USAGE, "a mount option has no spaces"),
						FALSE);
		ok = ok && ab_option_string_check("--mount-opts", filled, &local);
		if (ok && (flags & NOT_A_NEW_MOUNT)) {
			g_set_error(&local, AB_ERROR, AB_ERROR_USAGE,
				    "a visit mounts a new file system to write in: a read-only, remount, bind, move or "
				    "propagation option fails every visit");
			ok = FALSE;
		}
	} else if (ok && k->place == AB_SPACE_MKFS) {
		g_auto(GStrv) split = NULL;
		ok = ab_plan_split_options("mkfs options", filled, &split, &local) &&
		     ab_option_string_check("--mkfs-opts", filled, &local);
	}
	if (ok)
		return TRUE;
	int code = local->domain == AB_ERROR ? local->code : AB_ERROR_USAGE;
	at_line(error, code, where, line, "invalid value '%s' of [key %s]: %s", value, k->name, local->message);
	g_error_free(local);
	return FALSE;
}

/* "{}" once in a template: the value goes there. */
static gboolean template_ok(const char *where, unsigned line, const struct ab_space_key *k, GError **error)
{
	const char *at = strstr(k->template, "{}");
	if (!at || strstr(at + 2, "{}"))
		return fail(error, where, line, "invalid template '%s' of [key %s]: '{}' once, where the value goes",
			    k->template, k->name);
	return TRUE;
}

static char *apply(const char *template, const char *value)
{
	const char *at = strstr(template, "{}");
	return g_strdup_printf("%.*s%s%s", (int)(at - template), template, value, at + 2);
}

/* Where the option goes: exactly one of mount, mkfs and switch. */
static gboolean take_place(const struct ab_ini *ini, const char *group, struct ab_space_key *k, GError **error)
{
	static const struct {
		const char *key;
		enum ab_space_place place;
	} places[] = { { "mount", AB_SPACE_MOUNT }, { "mkfs", AB_SPACE_MKFS }, { "switch", AB_SPACE_SWITCH } };
	const char *found = NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(places); i++) {
		unsigned line = ab_ini_line(ini, group, places[i].key);
		if (!line)
			continue;
		if (found)
			return fail(error, ini->where, line, "[key %s] has both '%s' and '%s': one place for its option",
				    k->name, found, places[i].key);
		found = places[i].key;
		k->place = places[i].place;
		GError *local = NULL;
		g_autofree char *t = get(ini, group, places[i].key, &local);
		if (!t) {
			g_propagate_error(error, local);
			return FALSE;
		}
		if (!text_ok(ini->where, line, places[i].key, t, error))
			return FALSE;
		if (k->place == AB_SPACE_SWITCH) {
			if (!in_list(switches, G_N_ELEMENTS(switches), t))
				return fail(error, ini->where, line, "invalid switch '%s' of [key %s]: expected no-stripe-hint",
					    t, k->name);
			k->template = g_strdup_printf("--%s", t);
		} else {
			k->template = g_steal_pointer(&t);
			if (!template_ok(ini->where, line, k, error))
				return FALSE;
		}
	}
	if (!found)
		return fail(error, ini->where, k->line, "[key %s] has no 'mount', 'mkfs' or 'switch': where its option goes",
			    k->name);
	return TRUE;
}

static gboolean take_values(const struct ab_ini *ini, const char *group, struct ab_space_key *k, GHashTable *labels,
			    GError **error)
{
	const char *where = ini->where;
	unsigned line = ab_ini_line(ini, group, "values");
	if (!line)
		return fail(error, where, k->line, "[key %s] has no 'values': the values to try, the default first",
			    k->name);
	GError *local = NULL;
	g_autofree char *list = get(ini, group, "values", &local);
	if (!list) {
		g_propagate_error(error, local);
		return FALSE;
	}
	g_auto(GStrv) items = g_strsplit(list, ";", -1);
	k->values = g_ptr_array_new_with_free_func(ab_space_value_free);
	for (char **it = items; *it; it++) {
		g_strstrip(*it);
		if (!text_ok(where, line, "value in the list", *it, error))
			return FALSE;
		if (k->values->len == AB_SPACE_MAX_VALUES)
			return fail(error, where, line, "more than %u values in [key %s]", AB_SPACE_MAX_VALUES, k->name);
		struct ab_space_value *v = g_new0(struct ab_space_value, 1);
		g_ptr_array_add(k->values, v);
		v->text = g_strdup(*it);
		v->geometry = strchr(v->text, '@') != NULL;
		gboolean is_default = k->values->len == 1;
		if (is_default) {
			/* It adds no word, so it can name no geometry. */
			if (v->geometry)
				return fail(error, where, line,
					    "invalid default '%s' of [key %s]: the first value adds no option, so it "
					    "cannot name the geometry", v->text, k->name);
			v->label = g_strdup(v->text);
			continue;
		}
		if (k->place == AB_SPACE_SWITCH) {
			if (k->values->len > 2)
				return fail(error, where, line,
					    "invalid value '%s' of [key %s]: a switch has two values, without and with %s",
					    v->text, k->name, k->template);
			v->words = g_strdup(k->template);
		} else {
			v->words = apply(k->template, v->text);
		}
		v->label = k->place == AB_SPACE_MOUNT ? g_strdup(v->words) : g_strdup_printf("%s=%s", k->name, v->text);
		if (!words_ok(where, line, k, v->text, v->words, error))
			return FALSE;
		for (guint i = 0; i + 1 < k->values->len; i++)
			if (g_str_equal(((struct ab_space_value *)g_ptr_array_index(k->values, i))->text, v->text))
				return fail(error, where, line, "duplicate value '%s' in [key %s]", v->text, k->name);
		const char *first = g_hash_table_lookup(labels, v->label);
		if (first)
			return fail(error, where, line, "value '%s' of [key %s] gives '%s', as [key %s] does", v->text,
				    k->name, v->label, first);
		g_hash_table_insert(labels, g_strdup(v->label), k->name);
	}
	if (!k->values->len)
		return fail(error, where, line, "empty values of [key %s]: the values to try, the default first", k->name);
	return TRUE;
}

static struct ab_space_value *value_named(const struct ab_space_key *k, const char *text)
{
	for (guint i = 0; i < k->values->len; i++) {
		struct ab_space_value *v = g_ptr_array_index(k->values, i);
		if (g_str_equal(v->text, text))
			return v;
	}
	return NULL;
}

/* unsafe = V; V... with why-unsafe = REASON: both or neither. */
static gboolean take_unsafe(const struct ab_ini *ini, const char *group, struct ab_space_key *k, GError **error)
{
	const char *where = ini->where;
	unsigned line = ab_ini_line(ini, group, "unsafe"), why_line = ab_ini_line(ini, group, "why-unsafe");
	if (!line && !why_line)
		return TRUE;
	if (!line || !why_line)
		return fail(error, where, line ? line : why_line,
			    "[key %s] has '%s' without '%s': an unsafe value needs its reason, and a reason its values",
			    k->name, line ? "unsafe" : "why-unsafe", line ? "why-unsafe" : "unsafe");
	GError *local = NULL;
	g_autofree char *list = get(ini, group, "unsafe", &local);
	g_autofree char *why = list ? get(ini, group, "why-unsafe", &local) : NULL;
	if (!why) {
		g_propagate_error(error, local);
		return FALSE;
	}
	if (!text_ok(where, why_line, "why-unsafe", why, error))
		return FALSE;
	g_auto(GStrv) items = g_strsplit(list, ";", -1);
	for (char **it = items; *it; it++) {
		g_strstrip(*it);
		struct ab_space_value *v = value_named(k, *it);
		if (!v)
			return fail(error, where, line, "invalid unsafe value '%s' of [key %s]: not one of its values", *it,
				    k->name);
		if (v == g_ptr_array_index(k->values, 0))
			return fail(error, where, line,
				    "invalid unsafe value '%s' of [key %s]: the default is what the file system does "
				    "anyway", *it, k->name);
		g_free(v->unsafe);
		v->unsafe = g_strdup(why);
	}
	return TRUE;
}

static struct ab_space_key *take_key(const struct ab_ini *ini, const struct ab_ini_group *g, GHashTable *labels,
				     GError **error)
{
	struct ab_space_key *k = g_new0(struct ab_space_key, 1);
	k->name = g_strdup(g->name + strlen(KEY_GROUP));
	k->line = g->line;
	GError *local = NULL;
	if (!take_place(ini, g->name, k, error) || !take_values(ini, g->name, k, labels, error) ||
	    !take_unsafe(ini, g->name, k, error))
		goto bad;
	if (ab_ini_line(ini, g->name, "note")) {
		k->note = get(ini, g->name, "note", &local);
		if (!k->note) {
			g_propagate_error(error, local);
			goto bad;
		}
		if (!text_ok(ini->where, ab_ini_line(ini, g->name, "note"), "note", k->note, error))
			goto bad;
	}
	return k;
bad:
	ab_space_key_free(k);
	return NULL;
}

static gboolean take_space(const struct ab_ini *ini, struct ab_space *s, GError **error)
{
	unsigned line = ab_ini_line(ini, "space", NULL);
	if (!line)
		return fail(error, s->where, 1, "no [space] group: a space names its file system (fs = ext4, xfs or btrfs)");
	if (!ab_ini_line(ini, "space", "fs"))
		return fail(error, s->where, line, "[space] has no 'fs': the file system (ext4, xfs or btrfs)");
	GError *local = NULL;
	g_autofree char *fs = get(ini, "space", "fs", &local);
	if (!fs) {
		g_propagate_error(error, local);
		return FALSE;
	}
	if (!ab_fs_type_parse(fs, &s->fs, &local)) {
		fail(error, s->where, ab_ini_line(ini, "space", "fs"), "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	if (ab_ini_line(ini, "space", "summary")) {
		s->summary = get(ini, "space", "summary", &local);
		if (!s->summary) {
			g_propagate_error(error, local);
			return FALSE;
		}
		return text_ok(s->where, ab_ini_line(ini, "space", "summary"), "summary", s->summary, error);
	}
	return TRUE;
}

struct ab_space *ab_space_parse(const char *where, const char *name, const char *text, gsize len, GError **error)
{
	g_autoptr(ab_ini_auto) ini = ab_ini_scan(where, text, len, &space_ini_ops, (char *)where, error);
	if (!ini)
		return NULL;
	g_autoptr(ab_space_auto) s = g_new0(struct ab_space, 1);
	s->name = g_strdup(name);
	s->where = g_strdup(where);
	s->keys = g_ptr_array_new_with_free_func(ab_space_key_free);
	if (!take_space(ini, s, error))
		return NULL;
	/* A label names one value of one key, so a candidate's label says
	 * what it runs. */
	g_autoptr(GHashTable) labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < ini->groups->len; i++) {
		const struct ab_ini_group *g = g_ptr_array_index(ini->groups, i);
		if (!g_str_has_prefix(g->name, KEY_GROUP))
			continue;
		if (s->keys->len == AB_SPACE_MAX_KEYS) {
			fail(error, where, g->line, "more than %u keys", AB_SPACE_MAX_KEYS);
			return NULL;
		}
		struct ab_space_key *k = take_key(ini, g, labels, error);
		if (!k)
			return NULL;
		g_ptr_array_add(s->keys, k);
	}
	if (!s->keys->len) {
		fail(error, where, ab_ini_line(ini, "space", NULL), "no [key NAME] group: nothing to try");
		return NULL;
	}
	return g_steal_pointer(&s);
}

const char *const *ab_space_builtin_names(void)
{
	static const char *names[16];
	size_t n = 0;
	for (const char *const *p = ab_builtin_spaces; *p && n + 1 < G_N_ELEMENTS(names); p += 2)
		names[n++] = *p;
	names[n] = NULL;
	return names;
}

struct ab_space *ab_space_load(const char *spec, GError **error)
{
	if (!strchr(spec, '/') && !g_str_has_suffix(spec, ".ini")) {
		for (const char *const *p = ab_builtin_spaces; *p; p += 2)
			if (g_str_equal(*p, spec)) {
				g_autofree char *where = g_strdup_printf("%s.ini", spec);
				return ab_space_parse(where, spec, p[1], strlen(p[1]), error);
			}
		g_autofree char *names = g_strjoinv(", ", (char **)ab_space_builtin_names());
		g_autofree char *safe = ab_one_line(spec);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --space '%s': no such built-in space (%s); a space file's name has a '/' or ends "
			    "in .ini", safe, names);
		return NULL;
	}
	gsize len = 0;
	g_autofree char *text = ab_ini_read_file(spec, "space", AB_SPACE_MAX_BYTES, &len, error);
	if (!text)
		return NULL;
	g_autofree char *base = g_path_get_basename(spec);
	if (g_str_has_suffix(base, ".ini") && strlen(base) > 4)
		base[strlen(base) - 4] = '\0';
	return ab_space_parse(spec, base, text, len, error);
}
