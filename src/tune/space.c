/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A search space and the space a tuner races on one array (space.h): the
 * geometry's numbers filled in, what cannot or may not be tried left out. */
#include "space.h"
#include "../base/error.h"

#include <inttypes.h>
#include <string.h>

void ab_space_value_free(gpointer p)
{
	struct ab_space_value *v = p;
	g_free(v->text);
	g_free(v->label);
	g_free(v->words);
	g_free(v->unsafe);
	g_free(v);
}

void ab_space_key_free(gpointer p)
{
	struct ab_space_key *k = p;
	g_free(k->name);
	g_free(k->template);
	g_free(k->note);
	if (k->values)
		g_ptr_array_unref(k->values);
	g_free(k);
}

void ab_space_free(struct ab_space *s)
{
	if (!s)
		return;
	g_free(s->name);
	g_free(s->where);
	g_free(s->summary);
	g_ptr_array_unref(s->keys);
	g_free(s);
}

void ab_space_omission_free(gpointer p)
{
	struct ab_space_omission *o = p;
	g_free(o->what);
	g_free(o->why);
	g_free(o);
}

/* The words a space may name, each a figure of the array's stripe. */
static const char *const geometry_words[] = { "stride", "stripe-width", "sunit", "swidth" };

static uint64_t geometry_figure(size_t word, const struct ab_stripe_hint *h)
{
	switch (word) {
	case 0:
		return h->stride;
	case 1:
		return h->stripe_width;
	case 2:
		return (uint64_t)h->su_kib * 2; /* xfs's sunit= counts 512-byte sectors */
	default:
		return (uint64_t)h->su_kib * 2 * h->sw;
	}
}

char *ab_space_fill_geometry(const char *text, const struct ab_stripe_hint *hint, GError **error)
{
	GString *out = g_string_new(NULL);
	for (const char *c = text; *c;) {
		if (*c != '@') {
			g_string_append_c(out, *c++);
			continue;
		}
		size_t n = 1;
		while (g_ascii_isalnum(c[n]) || c[n] == '-')
			n++;
		size_t word = G_N_ELEMENTS(geometry_words);
		for (size_t w = 0; w < G_N_ELEMENTS(geometry_words); w++)
			if (n - 1 == strlen(geometry_words[w]) && !strncmp(c + 1, geometry_words[w], n - 1))
				word = w;
		if (word == G_N_ELEMENTS(geometry_words)) {
			g_autofree char *bad = g_strndup(c, n);
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "unknown geometry word '%s': expected @stride, @stripe-width, @sunit or @swidth", bad);
			g_string_free(out, TRUE);
			return NULL;
		}
		g_string_append_printf(out, "%" PRIu64, hint ? geometry_figure(word, hint) : 1);
		c += n;
	}
	return g_string_free(out, FALSE);
}

static void omit(GPtrArray *omitted, gboolean unsafe, const char *what, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void omit(GPtrArray *omitted, gboolean unsafe, const char *what, const char *fmt, ...)
{
	if (!omitted)
		return;
	struct ab_space_omission *o = g_new0(struct ab_space_omission, 1);
	va_list ap;
	va_start(ap, fmt);
	o->why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	o->what = g_strdup(what);
	o->unsafe = unsafe;
	g_ptr_array_add(omitted, o);
}

static struct ab_space_value *value_copy(const struct ab_space_value *v, const struct ab_stripe_hint *hint)
{
	struct ab_space_value *c = g_new0(struct ab_space_value, 1);
	/* The file's forms were checked with ab_space_fill_geometry() when
	 * it was read: only the figures change here. */
	c->text = ab_space_fill_geometry(v->text, hint, NULL);
	c->label = ab_space_fill_geometry(v->label, hint, NULL);
	c->words = v->words ? ab_space_fill_geometry(v->words, hint, NULL) : NULL;
	c->unsafe = g_strdup(v->unsafe);
	return c;
}

struct ab_space *ab_space_resolve(const struct ab_space *s, const struct ab_array_geometry *geo,
				  gboolean allow_unsafe, GPtrArray *omitted, GError **error)
{
	struct ab_stripe_hint hint;
	/* ext4's stride and stripe counted in 4 KiB blocks, the block run pins
	 * when it gives mkfs a stripe (fs-setup/mkfs.c). */
	gboolean striped = ab_stripe_hint(geo, 4096, &hint);
	g_autoptr(ab_space_auto) r = g_new0(struct ab_space, 1);
	r->name = g_strdup(s->name);
	r->where = g_strdup(s->where);
	r->fs = s->fs;
	r->summary = g_strdup(s->summary);
	r->keys = g_ptr_array_new_with_free_func(ab_space_key_free);
	g_autoptr(GPtrArray) no_stripe = g_ptr_array_new_with_free_func(ab_space_omission_free);
	g_autoptr(GPtrArray) unsafe = g_ptr_array_new_with_free_func(ab_space_omission_free);
	g_autoptr(GHashTable) labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint k = 0; k < s->keys->len; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		struct ab_space_key *rk = g_new0(struct ab_space_key, 1);
		rk->name = g_strdup(key->name);
		rk->place = key->place;
		rk->template = g_strdup(key->template);
		rk->note = g_strdup(key->note);
		rk->line = key->line;
		rk->values = g_ptr_array_new_with_free_func(ab_space_value_free);
		for (guint v = 0; v < key->values->len; v++) {
			const struct ab_space_value *val = g_ptr_array_index(key->values, v);
			if (v > 0 && !striped && (val->geometry || key->place == AB_SPACE_SWITCH)) {
				omit(no_stripe, FALSE, val->label,
				     "no stripe to align to (one device, a mirror, or btrfs, which stripes its own chunks)");
				continue;
			}
			if (val->unsafe && !allow_unsafe) {
				omit(unsafe, TRUE, val->label, "%s", val->unsafe);
				continue;
			}
			struct ab_space_value *rv = value_copy(val, striped ? &hint : NULL);
			g_ptr_array_add(rk->values, rv);
			if (v > 0 && !g_hash_table_add(labels, g_strdup(rv->label))) {
				/* The file's labels differ; two figures of one array may not. */
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
					    "%s:%u: [key %s]: value '%s' is one another key or value already gives", s->where,
					    key->line, key->name, rv->label);
				ab_space_key_free(rk);
				return NULL;
			}
		}
		if (rk->values->len < 2) {
			ab_space_key_free(rk); /* nothing but the default left to try */
			continue;
		}
		g_ptr_array_add(r->keys, rk);
	}
	if (omitted) {
		g_ptr_array_extend_and_steal(omitted, g_steal_pointer(&unsafe));
		g_ptr_array_extend_and_steal(omitted, g_steal_pointer(&no_stripe));
	}
	return g_steal_pointer(&r);
}
