/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A resolved space's candidates (candidates.h): the product of its keys'
 * values and the one-at-a-time set, each as run's words and a label. */
#include "candidates.h"

#include <string.h>
#include "../base/error.h"

#include <string.h>

void ab_candidate_free(gpointer p)
{
	struct ab_candidate *c = p;
	if (!c)
		return;
	g_free(c->label);
	g_free(c->mount_opts);
	g_free(c->mkfs_opts);
	if (c->argv)
		g_ptr_array_unref(c->argv);
	g_free(c->choice);
	g_free(c);
}

static void join(GString **s, const char *sep, const char *word)
{
	if (!*s)
		*s = g_string_new(word);
	else
		g_string_append_printf(*s, "%s%s", sep, word);
}

static char *take(GString *s)
{
	return s ? g_string_free(s, FALSE) : NULL;
}

/* The candidate of one value per key (choice[k] its index). */
static struct ab_candidate *make(const struct ab_space *s, const guint *choice)
{
	struct ab_candidate *c = g_new0(struct ab_candidate, 1);
	c->n_keys = s->keys->len;
	c->choice = g_memdup2(choice, sizeof(*choice) * MAX(c->n_keys, 1));
	GString *label = NULL, *mount = NULL, *mkfs = NULL;
	for (guint k = 0; k < s->keys->len; k++) {
		if (!choice[k])
			continue;
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		const struct ab_space_value *v = g_ptr_array_index(key->values, choice[k]);
		join(&label, ",", v->label);
		c->unsafe |= v->unsafe != NULL;
		switch (key->place) {
		case AB_SPACE_MOUNT:
			join(&mount, ",", v->words);
			break;
		case AB_SPACE_MKFS:
			join(&mkfs, " ", v->words);
			break;
		case AB_SPACE_SWITCH:
			c->no_stripe_hint = TRUE;
			break;
		}
	}
	c->label = label ? take(label) : g_strdup("defaults");
	c->mount_opts = take(mount);
	c->mkfs_opts = take(mkfs);
	c->argv = g_ptr_array_new_with_free_func(g_free);
	if (c->mkfs_opts) {
		g_ptr_array_add(c->argv, g_strdup("--mkfs-opts"));
		g_ptr_array_add(c->argv, g_strdup(c->mkfs_opts));
	}
	if (c->mount_opts) {
		g_ptr_array_add(c->argv, g_strdup("--mount-opts"));
		g_ptr_array_add(c->argv, g_strdup(c->mount_opts));
	}
	if (c->no_stripe_hint)
		g_ptr_array_add(c->argv, g_strdup("--no-stripe-hint"));
	return c;
}

static gboolean kept(const guint32 *keep, guint k, guint v)
{
	return v == 0 || !keep || (keep[k] >> v & 1u);
}

guint64 ab_candidates_count(const struct ab_space *s, const guint32 *keep)
{
	guint64 n = 1;
	for (guint k = 0; k < s->keys->len; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		guint64 values = 0;
		for (guint v = 0; v < key->values->len; v++)
			values += kept(keep, k, v);
		if (n > G_MAXUINT64 / values)
			return G_MAXUINT64;
		n *= values;
	}
	return n;
}

/* "noatime of [key atime] with lazytime of [key atime2]": what a
 * candidate's values are, key by key. */
static char *provenance(const struct ab_space *s, const struct ab_candidate *c)
{
	GString *out = NULL;
	for (guint k = 0; k < c->n_keys; k++) {
		if (!c->choice[k])
			continue;
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		const struct ab_space_value *v = g_ptr_array_index(key->values, c->choice[k]);
		g_autofree char *one = g_strdup_printf("'%s' of [key %s]", v->text, key->name);
		join(&out, " with ", one);
	}
	return take(out);
}

/* The key of the candidate's value that holds a ',', or NULL. */
static const struct ab_space_key *comma_key(const struct ab_space *s, const struct ab_candidate *c)
{
	for (guint k = 0; k < c->n_keys; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		const struct ab_space_value *v = g_ptr_array_index(key->values, c->choice[k]);
		if (c->choice[k] && strchr(v->label, ','))
			return key;
	}
	return NULL;
}

/* Two candidates with one label: a value holding a ',' ("noatime,lazytime")
 * gives what two keys' values give together.  A visit is found again by
 * its label (the cell of results.jsonl), so the second would be taken for
 * the first: refused, at the line of the key whose value has the ','. */
static gboolean labels_differ(const struct ab_space *s, GPtrArray *candidates, GError **error)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < candidates->len; i++) {
		const struct ab_candidate *c = g_ptr_array_index(candidates, i);
		const struct ab_candidate *first = g_hash_table_lookup(seen, c->label);
		if (!first) {
			g_hash_table_insert(seen, c->label, (gpointer)c);
			continue;
		}
		const struct ab_space_key *key = comma_key(s, first);
		key = key ? key : comma_key(s, c);
		g_autofree char *was = provenance(s, first), *now = provenance(s, c);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "%s:%u: two candidates are both '%s': %s, and %s (a value with a ',' may not give what "
			    "other keys' values give together: a candidate's label names what it runs)",
			    s->where, key ? key->line : 1, c->label, was, now);
		return FALSE;
	}
	return TRUE;
}

GPtrArray *ab_candidates_product(const struct ab_space *s, const guint32 *keep, GError **error)
{
	guint64 n = ab_candidates_count(s, keep);
	if (n > AB_CANDIDATES_MAX) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "space '%s' makes %" G_GUINT64_FORMAT " candidates, more than %u: try fewer keys (--keys) "
			    "or values", s->name, n, AB_CANDIDATES_MAX);
		return NULL;
	}
	GPtrArray *out = g_ptr_array_new_with_free_func(ab_candidate_free);
	guint nk = s->keys->len;
	g_autofree guint *choice = g_new0(guint, MAX(nk, 1));
	/* An odometer over the kept values, the last key turning fastest;
	 * all zeros (the defaults) come first. */
	for (;;) {
		g_ptr_array_add(out, make(s, choice));
		guint k = nk;
		while (k > 0) {
			k--;
			const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
			guint v = choice[k] + 1;
			while (v < key->values->len && !kept(keep, k, v))
				v++;
			if (v < key->values->len) {
				choice[k] = v;
				break;
			}
			choice[k] = 0;
			if (k == 0)
				goto made;
		}
		if (nk == 0)
			break;
	}
made:
	if (!labels_differ(s, out, error)) {
		g_ptr_array_unref(out);
		return NULL;
	}
	return out;
}

GPtrArray *ab_candidates_one_at_a_time(const struct ab_space *s)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(ab_candidate_free);
	guint nk = s->keys->len;
	g_autofree guint *choice = g_new0(guint, MAX(nk, 1));
	g_ptr_array_add(out, make(s, choice));
	for (guint k = 0; k < nk; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		for (guint v = 1; v < key->values->len; v++) {
			choice[k] = v;
			g_ptr_array_add(out, make(s, choice));
		}
		choice[k] = 0;
	}
	return out;
}

gboolean ab_candidates_add_choice(GPtrArray *to, const struct ab_space *s, const guint *choice)
{
	guint nk = s->keys->len;
	for (guint i = 0; i < to->len; i++) {
		const struct ab_candidate *c = g_ptr_array_index(to, i);
		if (c->n_keys == nk && (!nk || memcmp(c->choice, choice, nk * sizeof(*choice)) == 0))
			return FALSE;
	}
	g_ptr_array_add(to, make(s, choice));
	return TRUE;
}
