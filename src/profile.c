/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload profiles: a GKeyFile read into run option words, with a line
 * scanner of our own beside it, since GKeyFile knows no line numbers and
 * silently merges a group or key given twice. */
#include "profile.h"
#include "error.h"
#include "run-options.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Name and text of each built-in profile, then NULL: the build makes it
 * from the workloads/NAME.ini files (GNUmakefile: build/gen/builtin-profiles.c). */
extern const char *const ab_builtin_profiles[];

enum key_place {
	TEXT,    /* [workload]'s own: summary, description */
	RUN,     /* a run-wide option, in [workload]: one cache rule for the run */
	STEP,    /* an option of one step */
};

static const struct profile_key {
	const char *name;
	enum key_place place;
	gboolean is_switch; /* true or false: the option given or not */
} keys[] = {
	{ "summary", TEXT, FALSE },
	{ "description", TEXT, FALSE },
	{ "cache", RUN, FALSE },
	{ "cold-metadata", RUN, TRUE },
	{ "phases", STEP, FALSE },
	{ "size", STEP, FALSE },
	{ "files", STEP, FALSE },
	{ "fast", STEP, FALSE },
	{ "seekers", STEP, FALSE },
	{ "seeks", STEP, FALSE },
	{ "per-char", STEP, FALSE },
	{ "data", STEP, FALSE },
	{ "direct", STEP, TRUE },
	{ "sync-each-write", STEP, TRUE },
	{ "sweep-file-sizes", STEP, FALSE },
	{ "sweep-records", STEP, FALSE },
	{ "sweep-tests", STEP, FALSE },
	{ "stride", STEP, FALSE },
	{ "include-fsync", STEP, TRUE },
	{ "include-close", STEP, TRUE },
	{ "untimed-flush", STEP, TRUE },
	{ "streams", STEP, FALSE },
	{ "sweep-files", STEP, FALSE },
	{ "shared-file", STEP, TRUE },
	{ "wal-sync", STEP, FALSE },
	{ "wal-records", STEP, FALSE },
	{ "wal-writers", STEP, FALSE },
	{ "wal-seconds", STEP, FALSE },
	{ "wal-commits", STEP, FALSE },
	{ "wal-rewrite", STEP, TRUE },
	{ "oltp-procs", STEP, FALSE },
	{ "oltp-block", STEP, FALSE },
	{ "oltp-mix", STEP, FALSE },
	{ "oltp-size", STEP, FALSE },
	{ "oltp-sync-every", STEP, FALSE },
	{ "oltp-seconds", STEP, FALSE },
	{ "curve-procs", STEP, FALSE },
	{ "curve-block", STEP, FALSE },
	{ "curve-mix", STEP, FALSE },
	{ "rate-start", STEP, FALSE },
	{ "rate-factor", STEP, FALSE },
	{ "curve-seconds", STEP, FALSE },
	{ "p99-target", STEP, FALSE },
	{ "curve-steps", STEP, FALSE },
};

const char *const *ab_profile_keys(void)
{
	static const char *names[G_N_ELEMENTS(keys) + 1];
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
		names[i] = keys[i].name;
	return names;
}

static const struct profile_key *key_by_name(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
		if (g_str_equal(keys[i].name, name))
			return &keys[i];
	return NULL;
}

const char *const *ab_profile_builtin_names(void)
{
	static const char *names[16];
	size_t n = 0;
	for (const char *const *p = ab_builtin_profiles; *p && n + 1 < G_N_ELEMENTS(names); p += 2)
		names[n++] = *p;
	names[n] = NULL;
	return names;
}

char *ab_profile_builtin_list(void)
{
	g_autofree char *s = g_strjoinv(", ", (char **)ab_profile_builtin_names());
	return g_steal_pointer(&s);
}

static void step_free(gpointer data)
{
	struct ab_profile_step *st = data;
	g_free(st->name);
	g_free(st->where);
	g_ptr_array_unref(st->words);
	g_free(st);
}

void ab_profile_free(struct ab_profile *p)
{
	if (!p)
		return;
	g_free(p->name);
	g_free(p->summary);
	g_free(p->description);
	g_ptr_array_unref(p->run_words);
	g_ptr_array_unref(p->steps);
	g_free(p);
}

/* One key as the scanner found it. */
struct scanned {
	char *group;
	char *key;
	unsigned line;
};

static void scanned_clear(gpointer data)
{
	struct scanned *s = data;
	g_free(s->group);
	g_free(s->key);
}

static gboolean at_line(GError **error, const char *where, unsigned line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean at_line(GError **error, const char *where, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* GKeyFile's own messages quote the bad bytes as they are. */
	g_autofree char *valid = g_utf8_make_valid(msg, -1);
	g_autofree char *safe = ab_one_line(valid);
	g_autofree char *safe_where = ab_one_line(where);
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s:%u: %s", safe_where, line, safe);
	return FALSE;
}

static gboolean step_name_ok(const char *name)
{
	if (!*name)
		return FALSE;
	for (const char *c = name; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_' && *c != '.')
			return FALSE;
	return TRUE;
}

/* The groups and keys in file order with their lines; refuses what
 * GKeyFile would take quietly (a group or key twice, a group we do not
 * know) or report without a line. */
static gboolean scan(const char *where, const char *text, gsize len, GArray *found, GHashTable *group_lines,
		     GError **error)
{
	g_autofree char *copy = g_strndup(text, len);
	if (strlen(copy) != len) {
		unsigned line = 1;
		for (const char *c = copy; *c; c++)
			line += *c == '\n';
		return at_line(error, where, line, "a NUL byte: a profile is text");
	}
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	g_autoptr(GHashTable) key_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *group = NULL;
	for (unsigned i = 0; lines[i]; i++) {
		unsigned line = i + 1;
		char *s = g_strstrip(lines[i]);
		if (!*s || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strrchr(s, ']');
			if (!end || end[1])
				return at_line(error, where, line, "invalid group line '%s': expected [workload] or [step NAME]", s);
			*end = '\0';
			const char *name = s + 1;
			if (!g_str_equal(name, "workload") && !g_str_has_prefix(name, "step "))
				return at_line(error, where, line, "unknown group [%s]: expected [workload] or [step NAME]", name);
			if (g_str_has_prefix(name, "step ") && !step_name_ok(name + 5))
				return at_line(error, where, line,
					       "invalid step name '%s' in [%s]: letters, digits, '-', '_' and '.'", name + 5, name);
			gpointer first = g_hash_table_lookup(group_lines, name);
			if (first)
				return at_line(error, where, line, "duplicate group [%s] (first at line %u)", name,
					       GPOINTER_TO_UINT(first));
			g_hash_table_insert(group_lines, g_strdup(name), GUINT_TO_POINTER(line));
			g_free(group);
			group = g_strdup(name);
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq)
			return at_line(error, where, line, "invalid line '%s': expected [group], key = value or a # comment", s);
		*eq = '\0';
		char *key = g_strstrip(s);
		if (!group)
			return at_line(error, where, line,
				       "key '%s' outside a group: a profile starts with [workload] or [step NAME]", key);
		if (!*key)
			return at_line(error, where, line, "missing key name before '=' in [%s]", group);
		g_autofree char *both = g_strdup_printf("%s\n%s", group, key);
		gpointer first = g_hash_table_lookup(key_lines, both);
		if (first)
			return at_line(error, where, line, "duplicate key '%s' in [%s] (first at line %u)", key, group,
				       GPOINTER_TO_UINT(first));
		g_hash_table_insert(key_lines, g_steal_pointer(&both), GUINT_TO_POINTER(line));
		struct scanned sc = { g_strdup(group), g_strdup(key), line };
		g_array_append_val(found, sc);
	}
	return TRUE;
}

/* `--name=value` checked by the run options' own parser, whose message
 * (after where:line) says what is wrong with it. */
static gboolean option_word(const char *where, const struct scanned *sc, const struct profile_key *k,
			    const char *value, GPtrArray *words, GError **error)
{
	char *word;
	if (k->is_switch) {
		if (g_str_equal(value, "false"))
			return TRUE;
		if (!g_str_equal(value, "true"))
			return at_line(error, where, sc->line, "invalid %s '%s': expected 'true' or 'false'", k->name, value);
		word = g_strdup_printf("--%s", k->name);
	} else if (g_str_equal(k->name, "fast") && g_str_equal(value, "skip")) {
		word = g_strdup("--fast"); /* bonnie++'s -f */
	} else {
		word = g_strdup_printf("--%s=%s", k->name, value);
	}
	g_ptr_array_add(words, word);
	GError *local = NULL;
	if (!ab_run_options_check_word(word, &local)) {
		at_line(error, where, sc->line, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	return TRUE;
}

static gboolean take_key(const char *where, GKeyFile *kf, const struct scanned *sc, struct ab_profile *p,
			 struct ab_profile_step *step, GError **error)
{
	gboolean in_step = step != NULL;
	const struct profile_key *k = key_by_name(sc->key);
	if (!k) {
		if (ab_run_option_known(sc->key))
			return at_line(error, where, sc->line,
				       "key '%s' in [%s]: a target, output or machine option has no place in a "
				       "profile; give it on the command line", sc->key, sc->group);
		return at_line(error, where, sc->line, "unknown key '%s' in [%s]", sc->key, sc->group);
	}
	if (in_step && k->place != STEP)
		return at_line(error, where, sc->line, "key '%s' in [%s]: it applies to the whole run; put it in [workload]",
			       sc->key, sc->group);
	if (!in_step && k->place == STEP)
		return at_line(error, where, sc->line, "key '%s' in [workload]: it is a step's; put it in a [step NAME] group",
			       sc->key);
	GError *local = NULL;
	g_autofree char *value = g_key_file_get_string(kf, sc->group, sc->key, &local);
	if (!value) {
		at_line(error, where, sc->line, "key '%s' in [%s]: %s", sc->key, sc->group, local->message);
		g_error_free(local);
		return FALSE;
	}
	if (k->place == TEXT) {
		if (!*value)
			return at_line(error, where, sc->line, "empty %s in [workload]", k->name);
		for (const char *c = value; *c; c++)
			if (g_ascii_iscntrl(*c) && (*c != '\n' || g_str_equal(k->name, "summary")))
				return at_line(error, where, sc->line, "invalid %s '%s': a control character in it", k->name,
					       value);
		char **slot = g_str_equal(k->name, "summary") ? &p->summary : &p->description;
		*slot = g_steal_pointer(&value);
		return TRUE;
	}
	return option_word(where, sc, k, value, in_step ? step->words : p->run_words, error);
}

struct ab_profile *ab_profile_parse(const char *where, const char *name, const char *text, gsize len, GError **error)
{
	g_autoptr(GArray) found = g_array_new(FALSE, FALSE, sizeof(struct scanned));
	g_array_set_clear_func(found, scanned_clear);
	g_autoptr(GHashTable) group_lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	/* A byte order mark, as some editors write, is no part of line 1. */
	size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	text += bom;
	len -= bom;
	if (!scan(where, text, len, found, group_lines, error))
		return NULL;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	GError *local = NULL;
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &local)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %s", where, local->message);
		g_error_free(local);
		return NULL;
	}
	g_autoptr(ab_profile_auto) p = g_new0(struct ab_profile, 1);
	p->name = g_strdup(name);
	p->run_words = g_ptr_array_new_with_free_func(g_free);
	p->steps = g_ptr_array_new_with_free_func(step_free);
	/* Groups in file order: GKeyFile keeps it, and the scanner refused
	 * any group given twice. */
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	for (char **g = groups; *g; g++) {
		unsigned line = GPOINTER_TO_UINT(g_hash_table_lookup(group_lines, *g));
		if (!g_str_has_prefix(*g, "step "))
			continue;
		if (p->steps->len == AB_PROFILE_MAX_STEPS) {
			at_line(error, where, line, "more than %u steps", AB_PROFILE_MAX_STEPS);
			return NULL;
		}
		struct ab_profile_step *st = g_new0(struct ab_profile_step, 1);
		st->name = g_strdup(*g + 5);
		st->where = g_strdup_printf("%s:%u: [%s]", where, line, *g);
		st->words = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(p->steps, st);
	}
	for (guint i = 0; i < found->len; i++) {
		const struct scanned *sc = &g_array_index(found, struct scanned, i);
		struct ab_profile_step *step = NULL;
		for (guint s = 0; s < p->steps->len; s++) {
			struct ab_profile_step *st = g_ptr_array_index(p->steps, s);
			if (g_str_has_prefix(sc->group, "step ") && g_str_equal(st->name, sc->group + 5))
				step = st;
		}
		if (!take_key(where, kf, sc, p, step, error))
			return NULL;
	}
	if (!p->steps->len) {
		gpointer wl = g_hash_table_lookup(group_lines, "workload");
		at_line(error, where, wl ? GPOINTER_TO_UINT(wl) : 1,
			"no [step NAME] group: a profile needs at least one step to run");
		return NULL;
	}
	return g_steal_pointer(&p);
}

static const char *builtin_text(const char *name)
{
	for (const char *const *p = ab_builtin_profiles; *p; p += 2)
		if (g_str_equal(*p, name))
			return p[1];
	return NULL;
}

/* The whole file, refused unread when it is not a regular file (a FIFO
 * would block, a device never end) or is bigger than a profile can be. */
static char *read_profile_file(const char *path, gsize *len, GError **error)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot open profile '%s'", path);
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing profile '%s': not a regular file", path);
		return NULL;
	}
	if ((uint64_t)st.st_size > AB_PROFILE_MAX_BYTES) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "refusing profile '%s': %" G_GUINT64_FORMAT " bytes, more than a profile's %u", path,
			    (guint64)st.st_size, AB_PROFILE_MAX_BYTES);
		return NULL;
	}
	/* One byte more than allowed: a file that grew since is caught too. */
	char *buf = g_malloc(AB_PROFILE_MAX_BYTES + 1);
	gsize got = 0;
	while (got <= AB_PROFILE_MAX_BYTES) {
		ssize_t n = read(fd, buf + got, AB_PROFILE_MAX_BYTES + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			g_free(buf);
			ab_set_error_errno(error, AB_ERROR_USAGE, err, "cannot read profile '%s'", path);
			return NULL;
		}
		if (n == 0)
			break;
		got += (gsize)n;
	}
	close(fd);
	if (got > AB_PROFILE_MAX_BYTES) {
		g_free(buf);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing profile '%s': more than a profile's %u bytes",
			    path, AB_PROFILE_MAX_BYTES);
		return NULL;
	}
	*len = got;
	return buf;
}

static gboolean is_builtin_spec(const char *spec)
{
	return !strchr(spec, '/') && !g_str_has_suffix(spec, ".ini");
}

static const char *builtin_or_error(const char *spec, GError **error)
{
	const char *text = builtin_text(spec);
	if (!text) {
		g_autofree char *names = ab_profile_builtin_list();
		g_autofree char *safe = ab_one_line(spec);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --workload '%s': no such built-in profile (%s); a profile file's name "
			    "has a '/' or ends in .ini", safe, names);
	}
	return text;
}

char *ab_profile_text(const char *spec, gsize *len, GError **error)
{
	if (is_builtin_spec(spec)) {
		const char *text = builtin_or_error(spec, error);
		if (!text)
			return NULL;
		*len = strlen(text);
		return g_strdup(text);
	}
	return read_profile_file(spec, len, error);
}

struct ab_profile *ab_profile_load(const char *spec, GError **error)
{
	if (is_builtin_spec(spec)) {
		const char *text = builtin_or_error(spec, error);
		if (!text)
			return NULL;
		g_autofree char *where = g_strdup_printf("%s.ini", spec);
		return ab_profile_parse(where, spec, text, strlen(text), error);
	}
	gsize len = 0;
	g_autofree char *text = read_profile_file(spec, &len, error);
	if (!text)
		return NULL;
	g_autofree char *base = g_path_get_basename(spec);
	if (g_str_has_suffix(base, ".ini") && strlen(base) > 4)
		base[strlen(base) - 4] = '\0';
	return ab_profile_parse(spec, base, text, len, error);
}
