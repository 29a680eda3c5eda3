/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload profiles: ini-scan.c's groups and keys, each with its line,
 * read into run option words; the words here are a profile's own. */
#include "profile.h"
#include "../base/error.h"
#include "../base/ini-scan.h"
#include "run-option-parse.h"

#include <string.h>

/* Name and text of each built-in profile, then NULL: the build makes it
 * from the workloads/NAME.ini files (GNUmakefile: build/gen/builtin-profiles.c). */
extern const char *const ab_builtin_profiles[];

enum key_place {
	TEXT,    /* [workload]'s own: summary, description */
	RUN,     /* a run-wide option, in [workload]: one cache rule for the run */
	STEP,    /* an option of one step */
};

struct profile_key {
	const char *name;
	enum key_place place;
	gboolean is_switch; /* true or false: the option given or not */
};

/* A profile's own keys; the others are the run options whose rows say a
 * profile may set them (src/options/run-option-sets.h). */
static const struct profile_key text_keys[] = {
	{ "summary", TEXT, FALSE },
	{ "description", TEXT, FALSE },
};

const char *const *ab_profile_keys(void)
{
	static const char **names;
	if (names)
		return names;
	size_t n_sets;
	const struct ab_option_set *sets = ab_run_option_sets(&n_sets);
	GPtrArray *all = g_ptr_array_new();
	for (size_t i = 0; i < G_N_ELEMENTS(text_keys); i++)
		g_ptr_array_add(all, (gpointer)text_keys[i].name);
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++)
			if (sets[s].rows[i].profile != AB_OPTION_NO_PROFILE)
				g_ptr_array_add(all, (gpointer)sets[s].rows[i].long_name);
	g_ptr_array_add(all, NULL);
	names = (const char **)g_ptr_array_free(all, FALSE); /* kept for the process */
	return names;
}

static gboolean key_by_name(const char *name, struct profile_key *out)
{
	for (size_t i = 0; i < G_N_ELEMENTS(text_keys); i++)
		if (g_str_equal(text_keys[i].name, name)) {
			*out = text_keys[i];
			return TRUE;
		}
	const struct ab_option_row *row = ab_run_option_row(name);
	if (!row || row->profile == AB_OPTION_NO_PROFILE)
		return FALSE;
	*out = (struct profile_key){ row->long_name, row->profile == AB_OPTION_PROFILE_RUN ? RUN : STEP,
				     row->kind == AB_OPTION_SWITCH };
	return TRUE;
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

/* The scanner's checks of a group name as it meets one. */
static gboolean group_ok(void *data, const char *name, unsigned line, GError **error)
{
	const char *where = data;
	if (!g_str_equal(name, "workload") && !g_str_has_prefix(name, "step "))
		return at_line(error, where, line, "unknown group [%s]: expected [workload] or [step NAME]", name);
	if (g_str_has_prefix(name, "step ") && !step_name_ok(name + 5))
		return at_line(error, where, line, "invalid step name '%s' in [%s]: letters, digits, '-', '_' and '.'",
			       name + 5, name);
	return TRUE;
}

/* Which keys a group may hold is take_key()'s, after the scan; here only
 * that there is a name. */
static gboolean key_named(void *data, const char *group, const char *key, unsigned line, GError **error)
{
	if (!*key)
		return at_line(error, data, line, "missing key name before '=' in [%s]", group);
	return TRUE;
}

/* The scan's faults in a profile's words. */
static void profile_fault(void *data, const struct ab_ini_fault *f, GError **error)
{
	const char *where = data;
	switch (f->kind) {
	case AB_INI_TOO_BIG: {
		g_autofree char *safe_where = ab_one_line(where);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %" G_GSIZE_FORMAT " bytes, more than a profile's %u",
			    safe_where, f->size, AB_PROFILE_MAX_BYTES);
		return;
	}
	case AB_INI_NUL:
		at_line(error, where, f->line, "a NUL byte: a profile is text");
		return;
	case AB_INI_BAD_GROUP_LINE:
		at_line(error, where, f->line, "invalid group line '%s': expected [workload] or [step NAME]", f->text);
		return;
	case AB_INI_NOT_KEY_VALUE:
		at_line(error, where, f->line, "invalid line '%s': expected [group], key = value or a # comment", f->text);
		return;
	case AB_INI_KEY_OUTSIDE:
		at_line(error, where, f->line, "key '%s' outside a group: a profile starts with [workload] or [step NAME]",
			f->key);
		return;
	case AB_INI_DUPLICATE_GROUP:
		at_line(error, where, f->line, "duplicate group [%s] (first at line %u)", f->group, f->first_line);
		return;
	case AB_INI_DUPLICATE_KEY:
		at_line(error, where, f->line, "duplicate key '%s' in [%s] (first at line %u)", f->key, f->group,
			f->first_line);
		return;
	case AB_INI_KEYFILE:
		/* GKeyFile's refusal has no line. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %s", where, f->text);
		return;
	case AB_INI_NOT_UTF8: /* not asked for: a profile's comments may be in any bytes */
		break;
	}
	g_autofree char *msg = ab_ini_fault_message(f);
	at_line(error, where, f->line, "%s", msg);
}

static const struct ab_ini_ops profile_ini_ops = {
	.group = group_ok,
	.key = key_named,
	.fault = profile_fault,
	.max_bytes = AB_PROFILE_MAX_BYTES,
};

/* `--name=value` checked by the run options' own parser, whose message
 * (after where:line) says what is wrong with it. */
static gboolean option_word(const char *where, const struct ab_ini_key *sc, const struct profile_key *k,
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

static gboolean take_key(const char *where, const struct ab_ini *ini, const struct ab_ini_group *group,
			 const struct ab_ini_key *sc, struct ab_profile *p, struct ab_profile_step *step, GError **error)
{
	gboolean in_step = step != NULL;
	struct profile_key key;
	const struct profile_key *k = key_by_name(sc->name, &key) ? &key : NULL;
	if (!k) {
		if (ab_run_option_known(sc->name))
			return at_line(error, where, sc->line,
				       "key '%s' in [%s]: a target, output or machine option has no place in a "
				       "profile; give it on the command line", sc->name, group->name);
		return at_line(error, where, sc->line, "unknown key '%s' in [%s]", sc->name, group->name);
	}
	if (in_step && k->place != STEP)
		return at_line(error, where, sc->line, "key '%s' in [%s]: it applies to the whole run; put it in [workload]",
			       sc->name, group->name);
	if (!in_step && k->place == STEP)
		return at_line(error, where, sc->line, "key '%s' in [workload]: it is a step's; put it in a [step NAME] group",
			       sc->name);
	GError *local = NULL;
	g_autofree char *value = ab_ini_get_string(ini, group->name, sc->name, &local);
	if (!value) {
		at_line(error, where, sc->line, "key '%s' in [%s]: %s", sc->name, group->name, local->message);
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
	g_autoptr(ab_ini_auto) ini = ab_ini_scan(where, text, len, &profile_ini_ops, (char *)where, error);
	if (!ini)
		return NULL;
	g_autoptr(ab_profile_auto) p = g_new0(struct ab_profile, 1);
	p->name = g_strdup(name);
	p->run_words = g_ptr_array_new_with_free_func(g_free);
	p->steps = g_ptr_array_new_with_free_func(step_free);
	/* Groups in file order, each once (the scanner refused a second). */
	for (guint i = 0; i < ini->groups->len; i++) {
		const struct ab_ini_group *g = g_ptr_array_index(ini->groups, i);
		if (!g_str_has_prefix(g->name, "step "))
			continue;
		if (p->steps->len == AB_PROFILE_MAX_STEPS) {
			at_line(error, where, g->line, "more than %u steps", AB_PROFILE_MAX_STEPS);
			return NULL;
		}
		struct ab_profile_step *st = g_new0(struct ab_profile_step, 1);
		st->name = g_strdup(g->name + 5);
		st->where = g_strdup_printf("%s:%u: [%s]", where, g->line, g->name);
		st->words = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(p->steps, st);
	}
	/* Then the keys, in file order. */
	for (guint i = 0, s = 0; i < ini->groups->len; i++) {
		const struct ab_ini_group *g = g_ptr_array_index(ini->groups, i);
		struct ab_profile_step *step = g_str_has_prefix(g->name, "step ") ? g_ptr_array_index(p->steps, s++) : NULL;
		for (guint k = 0; k < g->keys->len; k++)
			if (!take_key(where, ini, g, g_ptr_array_index(g->keys, k), p, step, error))
				return NULL;
	}
	if (!p->steps->len) {
		unsigned wl = ab_ini_line(ini, "workload", NULL);
		at_line(error, where, wl ? wl : 1, "no [step NAME] group: a profile needs at least one step to run");
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
	return ab_ini_read_file(spec, "profile", AB_PROFILE_MAX_BYTES, len, error);
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
	g_autofree char *text = ab_ini_read_file(spec, "profile", AB_PROFILE_MAX_BYTES, &len, error);
	if (!text)
		return NULL;
	g_autofree char *base = g_path_get_basename(spec);
	if (g_str_has_suffix(base, ".ini") && strlen(base) > 4)
		base[strlen(base) - 4] = '\0';
	return ab_profile_parse(spec, base, text, len, error);
}
