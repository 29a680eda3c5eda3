/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option rows' parser: GOption entries made from the rows, and one
 * handler per kind of value. */
#include "option-table.h"
#include "../base/error.h"
#include "../base/parse.h"

#include <inttypes.h>
#include <string.h>

gboolean ab_option_refuse(GError **error, const char *name, const char *value, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", name, value, why);
	return FALSE;
}

/* The refusal whose why ends with the row's largest value. */
static gboolean refuse_over(GError **error, const char *name, const char *value, const struct ab_option_row *row)
{
	g_autofree char *why = g_strdup_printf("%s%" PRIu64, row->why, row->max);
	return ab_option_refuse(error, name, value, why);
}

static void *field_of(const struct ab_option_row *row, void *data)
{
	return (char *)data + row->offset;
}

static void store_number(const struct ab_option_row *row, void *data, uint64_t v)
{
	if (row->width == sizeof(uint32_t))
		*(uint32_t *)field_of(row, data) = (uint32_t)v;
	else
		*(uint64_t *)field_of(row, data) = v;
}

static gboolean take_count(const struct ab_option_row *row, const char *name, const char *value, void *data,
			   GError **error)
{
	gboolean own = (row->flags & AB_OPTION_OWN_ERROR) != 0;
	uint64_t n;
	if (!ab_parse_count(value, row->max, &n, own ? error : NULL)) {
		if (!own)
			return refuse_over(error, name, value, row);
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n < row->min)
		return own ? ab_option_refuse(error, name, value, row->why) : refuse_over(error, name, value, row);
	store_number(row, data, n);
	return TRUE;
}

static gboolean take_size(const struct ab_option_row *row, const char *name, const char *value, void *data,
			  GError **error)
{
	gboolean own = (row->flags & AB_OPTION_OWN_ERROR) != 0;
	uint64_t v;
	if (!ab_parse_size(value, row->unit, &v, own ? error : NULL)) {
		if (!own)
			return ab_option_refuse(error, name, value, row->why);
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (v < row->min || v > row->max || ((row->flags & AB_OPTION_POWER_OF_TWO) && (v & (v - 1))) ||
	    (row->multiple && v % row->multiple))
		return ab_option_refuse(error, name, value, row->why);
	store_number(row, data, v);
	return TRUE;
}

/* Every option that keeps its text: refuse empty, replace what was there. */
static gboolean take_string(const struct ab_option_row *row, const char *name, const char *value, void *data,
			    GError **error)
{
	if (!*value) {
		g_autofree char *why = g_strdup_printf("empty %s", row->why);
		return ab_option_refuse(error, name, value, why);
	}
	char **slot = field_of(row, data);
	g_free(*slot);
	*slot = g_strdup(value);
	return TRUE;
}

static uint64_t item_at(const GArray *items, size_t width, guint i)
{
	return width == sizeof(uint32_t) ? g_array_index(items, uint32_t, i) : g_array_index(items, uint64_t, i);
}

/* "4" or "1,2,4,8,16", in the order given. */
static gboolean take_list(const struct ab_option_row *row, const char *name, const char *value, void *data,
			  GError **error)
{
	g_auto(GStrv) words = g_strsplit(value, ",", 0);
	g_autoptr(GArray) items = g_array_new(FALSE, FALSE, (guint)row->width);
	for (char **w = words; *w; w++) {
		uint64_t n;
		if (!**w)
			return ab_option_refuse(error, name, value, "empty count in the list");
		if (!ab_parse_count(*w, row->max, &n, NULL) || n < row->min)
			return refuse_over(error, name, *w, row);
		for (guint i = 0; i < items->len; i++)
			if (item_at(items, row->width, i) == n)
				return ab_option_refuse(error, name, *w, "given twice in the list");
		if (row->width == sizeof(uint32_t)) {
			uint32_t c = (uint32_t)n;
			g_array_append_val(items, c);
		} else {
			g_array_append_val(items, n);
		}
	}
	if (!items->len)
		return ab_option_refuse(error, name, value, "no count given");
	GArray **slot = field_of(row, data);
	if (*slot)
		g_array_unref(*slot);
	*slot = g_steal_pointer(&items);
	return TRUE;
}

static gboolean take_word(const struct ab_option_row *row, const char *name, const char *value, void *data,
			  GError **error)
{
	for (const struct ab_option_word *w = row->words; w->name; w++)
		if (g_str_equal(value, w->name)) {
			*(int *)field_of(row, data) = w->value;
			return TRUE;
		}
	return ab_option_refuse(error, name, value, row->why);
}

static gboolean take(const struct ab_option_row *row, const char *name, const char *value, void *data,
		     GError **error)
{
	switch (row->kind) {
	case AB_OPTION_SWITCH:
		*(gboolean *)field_of(row, data) = TRUE;
		return TRUE;
	case AB_OPTION_COUNT:
		return take_count(row, name, value, data, error);
	case AB_OPTION_SIZE:
		return take_size(row, name, value, data, error);
	case AB_OPTION_STRING:
	case AB_OPTION_PATH:
		return take_string(row, name, value, data, error);
	case AB_OPTION_LIST:
		return take_list(row, name, value, data, error);
	case AB_OPTION_ENUM:
		return take_word(row, name, value, data, error);
	case AB_OPTION_CUSTOM:
		return row->parse(name, value, data, error);
	}
	g_assert_not_reached();
}

const struct ab_option_row *ab_option_find(const struct ab_option_set *sets, size_t n_sets, const char *name,
					   size_t *set_index)
{
	gboolean remaining = !name || !*name;
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct ab_option_row *row = &sets[s].rows[i];
			gboolean match;
			if (remaining)
				match = g_str_equal(row->long_name, G_OPTION_REMAINING);
			else if (name[0] == '-' && name[1] == '-')
				match = g_str_equal(row->long_name, name + 2);
			else
				match = name[0] == '-' && row->short_name && name[1] == row->short_name && !name[2];
			if (match) {
				if (set_index)
					*set_index = s;
				return row;
			}
		}
	return NULL;
}

const struct ab_option_row *ab_option_find_long(const struct ab_option_set *sets, size_t n_sets,
						const char *long_name)
{
	g_autofree char *name = g_strconcat("--", long_name, NULL);
	return *long_name ? ab_option_find(sets, n_sets, name, NULL) : NULL;
}

const struct ab_option_row *ab_option_find_short(const struct ab_option_set *sets, size_t n_sets, char short_name)
{
	char name[3] = { '-', short_name, '\0' };
	return short_name ? ab_option_find(sets, n_sets, name, NULL) : NULL;
}

struct parse_state {
	const struct ab_option_set *sets;
	size_t n_sets;
	void *data;
	uint64_t *given;
};

/* Every row's GOption callback: the row by the name GLib saw. */
static gboolean dispatch(const char *name, const char *value, gpointer user_data, GError **error)
{
	struct parse_state *st = user_data;
	size_t s = 0;
	const struct ab_option_row *row = ab_option_find(st->sets, st->n_sets, name, &s);
	if (!row) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unknown option '%s'", name);
		return FALSE;
	}
	if (!take(row, name, value, st->data, error))
		return FALSE;
	if (st->given)
		st->given[s] |= (uint64_t)1 << (row - st->sets[s].rows);
	return TRUE;
}

/* Does the row's field fit its kind?  A wrong width would write past it. */
static gboolean row_fits(const struct ab_option_row *row)
{
	gboolean number = row->width == sizeof(uint32_t) || row->width == sizeof(uint64_t);
	switch (row->kind) {
	case AB_OPTION_SWITCH:
		return row->width == sizeof(gboolean);
	case AB_OPTION_COUNT:
	case AB_OPTION_SIZE:
	case AB_OPTION_LIST:
		return number && row->why;
	case AB_OPTION_STRING:
	case AB_OPTION_PATH:
		return row->width == sizeof(char *) && row->why;
	case AB_OPTION_ENUM:
		return row->width == sizeof(int) && row->words && row->why;
	case AB_OPTION_CUSTOM:
		return row->parse != NULL;
	}
	return FALSE;
}

static GOptionEntry *make_entries(const struct ab_option_set *sets, size_t n_sets)
{
	size_t n = 0;
	for (size_t s = 0; s < n_sets; s++) {
		g_assert(sets[s].n <= 64); /* a bit each in the given mask */
		n += sets[s].n;
	}
	GOptionEntry *entries = g_new0(GOptionEntry, n + 1);
	GOptionEntry *e = entries;
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++, e++) {
			const struct ab_option_row *row = &sets[s].rows[i];
			g_assert(row_fits(row));
			e->long_name = row->long_name;
			e->short_name = row->short_name;
			e->flags = (row->kind == AB_OPTION_SWITCH ? G_OPTION_FLAG_NO_ARG : 0) |
				   (row->kind == AB_OPTION_PATH || (row->flags & AB_OPTION_FILENAME) ? G_OPTION_FLAG_FILENAME
												      : 0) |
				   (row->flags & AB_OPTION_OPTIONAL_ARG ? G_OPTION_FLAG_OPTIONAL_ARG : 0);
			e->arg = G_OPTION_ARG_CALLBACK;
			e->arg_data = (gpointer)dispatch;
			e->description = row->help;
			e->arg_description = row->arg;
		}
	return entries;
}

gboolean ab_option_parse(const struct ab_option_command *cmd, const struct ab_option_set *sets, size_t n_sets,
			 void *data, uint64_t *given, int *argc, char ***argv, GError **error)
{
	struct parse_state st = { sets, n_sets, data, given };
	g_autofree GOptionEntry *entries = make_entries(sets, n_sets);
	g_autoptr(GOptionContext) ctx = g_option_context_new(cmd->params);
	g_autofree char *group_desc = g_strdup_printf("%s options", cmd->name);
	g_autofree char *group_help = g_strdup_printf("Show %s options", cmd->name);
	GOptionGroup *group = g_option_group_new(cmd->name, group_desc, group_help, &st, NULL);
	g_option_group_add_entries(group, entries);
	g_option_context_set_main_group(ctx, group);
	g_option_context_set_summary(ctx, cmd->summary);
	g_option_context_set_description(ctx, cmd->description);
	GError *local = NULL;
	if (g_option_context_parse(ctx, argc, argv, &local))
		return TRUE;
	/* GLib's own (an unknown option, a missing value) are bad input too;
	 * ours pass as they are. */
	if (local->domain != AB_ERROR) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s", local->message);
		g_error_free(local);
	} else {
		g_propagate_error(error, local);
	}
	return FALSE;
}

const struct ab_option_row *ab_option_first_given(const struct ab_option_set *sets, size_t n_sets,
						  const uint64_t *given, enum ab_option_family family)
{
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++)
			if (sets[s].rows[i].family == family && (given[s] >> i) & 1u)
				return &sets[s].rows[i];
	return NULL;
}
