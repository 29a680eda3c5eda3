/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A matrix file's grammar (matrix-file.h): ini-scan.c gives every group
 * and key with its line and the values; the hooks here refuse unknown
 * names as the scan meets them and word its faults; the keys' values
 * become the lists whose product matrix-cells.c makes the cells of. */
#include "matrix-file.h"
#include "../base/error.h"
#include "../base/ini-scan.h"
#include "../options/run-option-parse.h"
#include "../../fs-setup/backend.h"
#include "../../fs-setup/plan.h"
#include "../../fs-setup/target.h"

#include <stdarg.h>
#include <string.h>

struct parse {
	const char *name;
	char *base;          /* the file's directory, absolute: relative paths in it start there */
	struct ab_ini *ini;  /* groups and keys with their lines, in file order; the values */
};

static const char *const matrix_keys[] = {
	"loop", "members", "yes-destroy", "backend", "levels", "fs", "mkfs-opts", "mount-opts",
	"workloads", "repeats", "seed", "options", NULL,
};
static const char *const workload_keys[] = { "options", NULL };

#define WORKLOAD_GROUP "workload "

static gboolean fail(const struct parse *ps, unsigned line, GError **error, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static gboolean fail(const struct parse *ps, unsigned line, GError **error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ab_matrix_fault(ps->name, line, error, fmt, ap);
	va_end(ap);
	return FALSE;
}

static unsigned line_of(const struct parse *ps, const char *group, const char *key)
{
	return ab_ini_line(ps->ini, group, key);
}

static gboolean strv_has(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (g_str_equal(*v, s))
			return TRUE;
	return FALSE;
}

/* The scan's hooks: the groups and keys a matrix file may hold, refused
 * as the scan meets them, and its faults in a matrix file's words. */
static gboolean group_known(void *data, const char *g, unsigned ln, GError **error)
{
	const char *wl = g_str_has_prefix(g, WORKLOAD_GROUP) ? g + strlen(WORKLOAD_GROUP) : NULL;
	if (!g_str_equal(g, "matrix") && !(wl && *wl && !strchr(wl, ' ')))
		return fail(data, ln, error, "unknown group '[%s]' (expected [matrix] or [workload NAME])", g);
	return TRUE;
}

static gboolean key_known(void *data, const char *group, const char *key, unsigned ln, GError **error)
{
	gboolean wl = !g_str_equal(group, "matrix");
	if (!strv_has(wl ? workload_keys : matrix_keys, key))
		return fail(data, ln, error, "unknown key '%s' in [%s]", key, group);
	return TRUE;
}

static void matrix_fault(void *data, const struct ab_ini_fault *f, GError **error)
{
	const struct parse *ps = data;
	switch (f->kind) {
	case AB_INI_NUL:
		fail(ps, 0, error, "not a text file (it holds a NUL byte)");
		return;
	case AB_INI_NOT_UTF8:
		fail(ps, 0, error, "not UTF-8 text");
		return;
	case AB_INI_BAD_GROUP_LINE:
		fail(ps, f->line, error, "unterminated group header '%s'", f->text);
		return;
	case AB_INI_NOT_KEY_VALUE:
		fail(ps, f->line, error, "expected KEY = VALUE, a [group] or a # comment, not '%s'", f->text);
		return;
	case AB_INI_KEY_OUTSIDE:
		fail(ps, f->line, error, "key '%s' before any group (the file starts with [matrix])", f->key);
		return;
	case AB_INI_DUPLICATE_GROUP:
		fail(ps, f->line, error, "duplicate group '[%s]' (first at line %u)", f->group, f->first_line);
		return;
	case AB_INI_DUPLICATE_KEY:
		fail(ps, f->line, error, "duplicate key '%s' in [%s] (first at line %u)", f->key, f->group,
		     f->first_line);
		return;
	case AB_INI_KEYFILE:
		fail(ps, 0, error, "%s", f->text);
		return;
	case AB_INI_TOO_BIG: /* no cap asked: cmd-matrix.c caps the file it reads */
		break;
	}
	g_autofree char *msg = ab_ini_fault_message(f);
	fail(ps, f->line, error, "%s", msg);
}

static const struct ab_ini_ops matrix_ini_ops = {
	.group = group_known,
	.key = key_known,
	.fault = matrix_fault,
	.flags = AB_INI_REQUIRE_UTF8,
};

/* The value of a key, unescaped; NULL (no error) when it is absent. */
static char *get(const struct parse *ps, const char *group, const char *key, GError **error)
{
	if (!line_of(ps, group, key))
		return NULL;
	g_autoptr(GError) local = NULL;
	char *v = ab_ini_get_string(ps->ini, group, key, &local);
	if (!v)
		fail(ps, line_of(ps, group, key), error, "bad value of '%s': %s", key, local->message);
	return v;
}

/* A list of `sep`-separated entries, each trimmed; none may be empty or
 * twice. */
static GPtrArray *split_list(const struct parse *ps, const char *key, const char *value, char sep, GError **error)
{
	unsigned ln = line_of(ps, "matrix", key);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	char seps[2] = { sep, '\0' };
	g_autofree char *all = g_strstrip(g_strdup(value));
	if (!*all) {
		fail(ps, ln, error, "empty list '%s'", key);
		return NULL;
	}
	g_auto(GStrv) parts = g_strsplit(all, seps, -1);
	for (char **p = parts; *p; p++) {
		char *e = g_strstrip(*p);
		if (!*e) {
			fail(ps, ln, error, "empty entry in '%s' ('%c' separates them)", key, sep);
			return NULL;
		}
		for (const char *c = e; *c; c++)
			if (g_ascii_iscntrl(*c)) {
				g_autofree char *shown = g_strescape(e, NULL);
				fail(ps, ln, error, "bad entry '%s' in '%s': a control character", shown, key);
				return NULL;
			}
		for (guint i = 0; i < out->len; i++)
			if (g_str_equal(g_ptr_array_index(out, i), e)) {
				fail(ps, ln, error, "duplicate entry '%s' in '%s'", e, key);
				return NULL;
			}
		g_ptr_array_add(out, g_strdup(e));
	}
	return g_steal_pointer(&out);
}

/* Paths in the file are relative to the file's directory. */
static char *absolute(const struct parse *ps, const char *path)
{
	return g_path_is_absolute(path) ? g_strdup(path) : g_build_filename(ps->base, path, NULL);
}

/* The --array backend the word names, as run's --backend takes it. */
static const struct ab_backend_ops *parse_backend(const struct parse *ps, unsigned ln, const char *word,
						  GError **error)
{
	const struct ab_backend_ops *backend = ab_backend_by_word(word);
	if (backend)
		return backend;
	g_autofree char *words = ab_backend_words();
	fail(ps, ln, error, "bad backend '%s': expected %s", word, words);
	return NULL;
}

static GArray *parse_levels(const struct parse *ps, GError **error)
{
	unsigned ln = line_of(ps, "matrix", "levels");
	g_autofree char *backend_word = get(ps, "matrix", "backend", error);
	if (!backend_word && line_of(ps, "matrix", "backend"))
		return NULL;
	const struct ab_backend_ops *backend = NULL;
	if (backend_word &&
	    !(backend = parse_backend(ps, line_of(ps, "matrix", "backend"), g_strstrip(backend_word), error)))
		return NULL;
	g_autofree char *value = get(ps, "matrix", "levels", error);
	if (!value && ln)
		return NULL;
	g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(struct ab_matrix_level));
	g_array_set_clear_func(out, ab_matrix_level_clear);
	if (!value) {
		/* No levels: a plain file system on one member. */
		struct ab_matrix_level l = { .label = g_strdup("plain") };
		g_array_append_val(out, l);
		return g_steal_pointer(&out);
	}
	g_autoptr(GPtrArray) words = split_list(ps, "levels", value, ',', error);
	if (!words)
		return NULL;
	for (guint i = 0; i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		struct ab_matrix_level l = { 0 };
		if (g_str_equal(w, "none")) {
			l.label = g_strdup("plain");
		} else {
			const char *colon = strchr(w, ':');
			g_autofree char *word = colon ? g_strndup(w, (size_t)(colon - w)) : NULL;
			l.backend = word ? parse_backend(ps, ln, word, error) : backend;
			l.level = g_strdup(colon ? colon + 1 : w);
			gboolean ok = !word || l.backend;
			if (ok && (!*l.level || strchr(l.level, ':')))
				ok = fail(ps, ln, error, "bad level '%s': expected none, LEVEL or BACKEND:LEVEL", w);
			if (!ok) {
				ab_matrix_level_clear(&l);
				return NULL;
			}
			l.label = l.backend ? g_strdup_printf("%s-%s", l.backend->name, l.level) : g_strdup(l.level);
		}
		g_array_append_val(out, l);
	}
	return g_steal_pointer(&out);
}

static GPtrArray *devices(const struct parse *ps, const char *key, GError **error)
{
	g_autofree char *v = get(ps, "matrix", key, error);
	if (!v)
		return NULL;
	g_autoptr(GPtrArray) list = split_list(ps, key, v, ',', error);
	if (!list)
		return NULL;
	for (guint i = 0; i < list->len; i++) {
		char *abs = absolute(ps, g_ptr_array_index(list, i));
		g_free(list->pdata[i]);
		list->pdata[i] = abs;
	}
	return g_steal_pointer(&list);
}

static gboolean has_string(GPtrArray *list, const char *s)
{
	for (guint i = 0; list && i < list->len; i++)
		if (g_str_equal(g_ptr_array_index(list, i), s))
			return TRUE;
	return FALSE;
}

/* loop = ..., or members = ... with yes-destroy = ... naming each. */
static gboolean parse_members(const struct parse *ps, struct ab_matrix_common *c, GError **error)
{
	unsigned lloop = line_of(ps, "matrix", "loop"), lmem = line_of(ps, "matrix", "members");
	unsigned lyes = line_of(ps, "matrix", "yes-destroy");
	if (lloop && lmem)
		return fail(ps, lmem, error, "'members' and 'loop' exclude each other: give one");
	if (!lloop && !lmem)
		return fail(ps, line_of(ps, "matrix", NULL), error,
			    "no members: give loop = N:SIZE[:DIR] (images) or members = DEV,DEV... with yes-destroy");
	if (lyes && !lmem)
		return fail(ps, lyes, error, "'yes-destroy' confirms 'members', which are not given");
	if (lloop) {
		g_autofree char *v = get(ps, "matrix", "loop", error);
		if (!v)
			return FALSE;
		g_strstrip(v);
		struct ab_target_spec spec;
		ab_target_spec_init(&spec);
		g_autoptr(GError) local = NULL;
		gboolean ok = ab_target_spec_parse_loop(v, &spec, &local);
		ab_target_spec_clear(&spec);
		if (!ok)
			return fail(ps, lloop, error, "%s", local->message);
		g_auto(GStrv) f = g_strsplit(v, ":", 3);
		c->loop_n = g_strdup(f[0]);
		c->loop_size = g_strdup(f[1]);
		c->loop_dir = f[2] && *f[2] ? absolute(ps, f[2]) : NULL;
		return TRUE;
	}
	if (!(c->members = devices(ps, "members", error)))
		return FALSE;
	g_autoptr(GPtrArray) yes = lyes ? devices(ps, "yes-destroy", error) : NULL;
	if (lyes && !yes)
		return FALSE;
	for (guint i = 0; i < c->members->len; i++) {
		const char *m = g_ptr_array_index(c->members, i);
		if (!has_string(yes, m))
			return fail(ps, lyes ? lyes : lmem, error,
				    "member '%s' is not confirmed: every cell overwrites it, so yes-destroy must name "
				    "each member", m);
	}
	for (guint i = 0; yes && i < yes->len; i++)
		if (!has_string(c->members, g_ptr_array_index(yes, i)))
			return fail(ps, lyes, error, "yes-destroy names '%s', which is not a member",
				    (const char *)g_ptr_array_index(yes, i));
	c->confirmed = TRUE;
	return TRUE;
}

/* Options the matrix sets itself, per cell or per visit. */
static const char *const help_options[] = { "-h", "-?", "--help", "--help-all", "--help-run", NULL };

/* What the matrix sets for each cell itself: the run options whose rows
 * say so (src/options/run-option-rows.c), and help. */
static gboolean matrix_own(const char *opt)
{
	return ab_run_option_matrix_own(opt) || strv_has(help_options, opt);
}

static char **parse_options(const struct parse *ps, const char *group, gboolean *machine, GError **error)
{
	unsigned ln = line_of(ps, group, "options");
	g_autofree char *v = get(ps, group, "options", error);
	if (!v)
		return ln ? NULL : g_new0(char *, 1);
	g_auto(GStrv) words = NULL;
	g_autoptr(GError) local = NULL;
	if (*g_strstrip(v) && !g_shell_parse_argv(v, NULL, &words, &local)) {
		fail(ps, ln, error, "bad value of 'options': %s", local->message);
		return NULL;
	}
	if (!words)
		words = g_new0(char *, 1);
	for (char **w = words; *w; w++) {
		if ((*w)[0] != '-' || g_str_equal(*w, "-") || g_str_equal(*w, "--")) {
			if (g_str_equal(*w, "--")) {
				fail(ps, ln, error, "'--' in 'options': the words after it would be no options");
				return NULL;
			}
			continue;
		}
		if ((*w)[1] != '-') {
			/* Short options bundle: "-bq" is -b -q, "-sq 1g" is
			 * -s 1g -q; only -f takes the rest of the word. */
			for (const char *c = *w + 1; *c; c++) {
				char opt[3] = { '-', *c, '\0' };
				if (matrix_own(opt)) {
					fail(ps, ln, error,
					     "option '%s' in 'options' is the matrix's own (see arraybench-matrix(1))", opt);
					return NULL;
				}
				if (machine && *c == 'm')
					*machine = TRUE;
				if (ab_run_option_takes_rest(*c))
					break;
			}
			continue;
		}
		g_autofree char *opt = g_strndup(*w, strcspn(*w, "="));
		if (matrix_own(opt)) {
			fail(ps, ln, error, "option '%s' in 'options' is the matrix's own (see arraybench-matrix(1))", opt);
			return NULL;
		}
		if (machine && g_str_equal(opt, "--machine"))
			*machine = TRUE;
	}
	return g_steal_pointer(&words);
}

static GPtrArray *list_or_default(const struct parse *ps, const char *key, char sep, const char *def,
				  GError **error)
{
	g_autofree char *v = get(ps, "matrix", key, error);
	if (!v) {
		if (line_of(ps, "matrix", key))
			return NULL;
		GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
		if (def)
			g_ptr_array_add(out, g_strdup(def));
		return out;
	}
	return split_list(ps, key, v, sep, error);
}

static gboolean parse_number(const struct parse *ps, const char *key, guint64 min, guint64 max, guint64 *out,
			     gboolean *given, GError **error)
{
	g_autofree char *v = get(ps, "matrix", key, error);
	if (!v)
		return !line_of(ps, "matrix", key);
	g_strstrip(v);
	if (!g_ascii_string_to_unsigned(v, 10, min, max, out, NULL))
		return fail(ps, line_of(ps, "matrix", key), error,
			    "bad value of '%s' '%s': a whole number from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, key,
			    v, min, max);
	if (given)
		*given = TRUE;
	return TRUE;
}

static gboolean parse_lists(const struct parse *ps, struct ab_matrix_lists *l, GError **error)
{
	if (!(l->levels = parse_levels(ps, error)))
		return FALSE;
	/* Levels whose backends all make one file system themselves (btrfs)
	 * need no `fs`: that one is the default. */
	const char *own_fs = NULL;
	for (guint i = 0; i < l->levels->len; i++) {
		const struct ab_backend_ops *b = g_array_index(l->levels, struct ab_matrix_level, i).backend;
		if (!b || !b->own_fs || (own_fs && !g_str_equal(own_fs, b->own_fs))) {
			own_fs = NULL;
			break;
		}
		own_fs = b->own_fs;
	}
	if (!line_of(ps, "matrix", "fs") && !own_fs)
		return fail(ps, line_of(ps, "matrix", NULL), error,
			    "missing key 'fs': the file systems to make (ext3, ext4, xfs, btrfs)");
	if (!(l->fs = list_or_default(ps, "fs", ',', own_fs, error)))
		return FALSE;
	for (guint i = 0; i < l->fs->len; i++) {
		enum ab_fs_type t;
		g_autoptr(GError) local = NULL;
		if (!ab_fs_type_parse(g_ptr_array_index(l->fs, i), &t, &local))
			return fail(ps, line_of(ps, "matrix", "fs"), error, "%s", local->message);
	}
	if (!(l->mkfs = list_or_default(ps, "mkfs-opts", ';', "defaults", error)) ||
	    !(l->mount = list_or_default(ps, "mount-opts", ';', "defaults", error)) ||
	    !(l->workloads = list_or_default(ps, "workloads", ',', NULL, error)))
		return FALSE;
	for (guint i = 0; i < l->workloads->len; i++) {
		const char *w = g_ptr_array_index(l->workloads, i);
		if (ab_matrix_workload_is_file(w)) {
			char *abs = absolute(ps, w);
			g_free(l->workloads->pdata[i]);
			l->workloads->pdata[i] = abs;
		}
	}
	l->workload_options = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);
	for (guint i = 0; i < ps->ini->groups->len; i++) {
		const char *g = ((const struct ab_ini_group *)g_ptr_array_index(ps->ini->groups, i))->name;
		if (!g_str_has_prefix(g, WORKLOAD_GROUP))
			continue;
		const char *w = g + strlen(WORKLOAD_GROUP);
		/* A file named as its entry was written (relative, as given). */
		g_autofree char *key = ab_matrix_workload_is_file(w) ? absolute(ps, w) : g_strdup(w);
		if (!has_string(l->workloads, key))
			return fail(ps, line_of(ps, g, NULL), error, "[%s] names no entry of 'workloads'", g);
		char **o = parse_options(ps, g, NULL, error);
		if (!o)
			return FALSE;
		g_hash_table_insert(l->workload_options, g_steal_pointer(&key), o);
	}
	return TRUE;
}

static unsigned cell_line(const struct parse *ps, const char *workload)
{
	for (guint i = 0; workload && i < ps->ini->groups->len; i++) {
		const char *g = ((const struct ab_ini_group *)g_ptr_array_index(ps->ini->groups, i))->name;
		if (!g_str_has_prefix(g, WORKLOAD_GROUP) || !line_of(ps, g, "options"))
			continue;
		const char *w = g + strlen(WORKLOAD_GROUP);
		g_autofree char *key = ab_matrix_workload_is_file(w) ? absolute(ps, w) : g_strdup(w);
		if (g_str_equal(key, workload))
			return line_of(ps, g, "options");
	}
	unsigned o = line_of(ps, "matrix", "options");
	return o ? o : line_of(ps, "matrix", NULL);
}

/* The cells, each with the line to blame when run refuses its options. */
static gboolean make_cells(const struct parse *ps, const struct ab_matrix_common *c, const struct ab_matrix_lists *l,
			   GPtrArray *cells, GError **error)
{
	const struct ab_matrix_where at = {
		.name = ps->name,
		.matrix_line = line_of(ps, "matrix", NULL),
		.levels_line = line_of(ps, "matrix", "levels"),
		.workloads_line = line_of(ps, "matrix", "workloads"),
	};
	if (!ab_matrix_cells_make(c, l, &at, cells, error))
		return FALSE;
	for (guint i = 0; i < cells->len; i++) {
		struct ab_matrix_cell *cell = g_ptr_array_index(cells, i);
		cell->line = cell_line(ps, cell->workload);
	}
	return TRUE;
}

static struct ab_matrix *build(struct parse *ps, const char *text, size_t len, GError **error)
{
	if (!line_of(ps, "matrix", NULL)) {
		fail(ps, 0, error, "no [matrix] group");
		return NULL;
	}
	struct ab_matrix_common c = { 0 };
	struct ab_matrix_lists l = { 0 };
	guint64 repeats = AB_MATRIX_DEFAULT_REPEATS, seed = 0;
	gboolean seed_given = FALSE;
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(ab_matrix_cell_free);
	gboolean ok = parse_members(ps, &c, error) && parse_lists(ps, &l, error) &&
		      parse_number(ps, "repeats", 1, AB_MATRIX_MAX_REPEATS, &repeats, NULL, error) &&
		      parse_number(ps, "seed", 0, G_MAXUINT64, &seed, &seed_given, error) &&
		      (c.options = parse_options(ps, "matrix", &c.machine_given, error)) != NULL &&
		      make_cells(ps, &c, &l, cells, error);
	ab_matrix_common_clear(&c);
	ab_matrix_lists_clear(&l);
	if (!ok)
		return NULL;
	struct ab_matrix *m = g_new0(struct ab_matrix, 1);
	m->name = g_strdup(ps->name);
	m->workloads_line = line_of(ps, "matrix", "workloads");
	m->target_line = line_of(ps, "matrix", "levels");
	if (!m->target_line)
		m->target_line = line_of(ps, "matrix", NULL);
	m->devices_line = line_of(ps, "matrix", "loop");
	if (!m->devices_line)
		m->devices_line = line_of(ps, "matrix", "members");
	m->repeats = (unsigned)repeats;
	m->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	if (!seed_given) {
		/* The same file, the same seeds: from its digest. */
		char hex[9];
		memcpy(hex, m->sha256, 8);
		hex[8] = '\0';
		seed = g_ascii_strtoull(hex, NULL, 16);
	}
	m->seed = seed;
	m->cells = g_steal_pointer(&cells);
	return m;
}

struct ab_matrix *ab_matrix_parse(const char *name, const char *text, size_t len, GError **error)
{
	struct parse ps = { .name = name };
	/* The scan drops a byte order mark from line 1; the checksum still
	 * covers it: the file is kept as given. */
	ps.ini = ab_ini_scan(name, text, len, &matrix_ini_ops, &ps, error);
	if (!ps.ini)
		return NULL;
	g_autofree char *dir = g_path_get_dirname(name);
	ps.base = g_canonicalize_filename(dir, NULL);
	struct ab_matrix *m = build(&ps, text, len, error);
	g_free(ps.base);
	ab_ini_free(ps.ini);
	return m;
}

