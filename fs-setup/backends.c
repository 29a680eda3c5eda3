/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of backends, made from src/model/backend-list.h, and the ways to
 * find one: by name, by --backend word, and the default for a spec. */
#include "backend.h"

#include <string.h>

const struct ab_backend_ops *const ab_backends[] = {
#define AB_BACKEND_ROW(name, raid1_writes, own_device) &ab_backend_##name,
	AB_BACKEND_LIST(AB_BACKEND_ROW)
#undef AB_BACKEND_ROW
	NULL,
};

const struct ab_backend_ops *ab_backend_by_name(const char *name)
{
	for (const struct ab_backend_ops *const *b = ab_backends; name && *b; b++)
		if (g_str_equal((*b)->name, name))
			return *b;
	return NULL;
}

const struct ab_backend_ops *ab_backend_by_word(const char *word)
{
	const struct ab_backend_ops *b = ab_backend_by_name(word);
	return b && b->shape == AB_BACKEND_ARRAY ? b : NULL;
}

char *ab_backend_words(void)
{
	GString *s = g_string_new(NULL);
	guint n = 0, left = 0;
	for (const struct ab_backend_ops *const *b = ab_backends; *b; b++)
		left += (*b)->shape == AB_BACKEND_ARRAY;
	for (const struct ab_backend_ops *const *b = ab_backends; *b; b++) {
		if ((*b)->shape != AB_BACKEND_ARRAY)
			continue;
		left--;
		g_string_append_printf(s, "%s'%s'", !n++ ? "" : left ? ", " : " or ", (*b)->name);
	}
	return g_string_free(s, FALSE);
}

static const struct ab_backend_ops *first_of_shape(enum ab_backend_shape shape)
{
	for (const struct ab_backend_ops *const *b = ab_backends; *b; b++)
		if ((*b)->shape == shape)
			return *b;
	g_assert_not_reached();
}

const struct ab_backend_ops *ab_backend_pick(const struct ab_target_spec *spec, enum ab_fs_type fs)
{
	if (!ab_target_spec_builds(spec))
		return first_of_shape(AB_BACKEND_DIRECTORY);
	if (!spec->array_level)
		return first_of_shape(AB_BACKEND_DEVICE);
	if (spec->backend)
		return spec->backend;
	for (const struct ab_backend_ops *const *b = ab_backends; *b; b++)
		if ((*b)->shape == AB_BACKEND_ARRAY && (!(*b)->available || (*b)->available()) &&
		    (!(*b)->own_fs || g_str_equal((*b)->own_fs, ab_fs_type_name(fs))))
			return *b;
	return first_of_shape(AB_BACKEND_ARRAY);
}
