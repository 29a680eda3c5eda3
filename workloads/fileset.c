/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fileset.h"
#include "../src/base/rng.h"

#include <stdio.h>
#include <string.h>

static const char name_chars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

void ab_file_set_dir_name(uint32_t d, char out[8])
{
	snprintf(out, 8, "%05u", d % 100000u);
}

uint32_t ab_file_set_dir_of(const struct ab_file_set *set, uint32_t i)
{
	return (uint32_t)((uint64_t)i * set->dirs / set->count);
}

static gboolean all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isdigit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return FALSE;
	return TRUE;
}

gboolean ab_file_set_name_is_ours(const char *name)
{
	size_t len = strlen(name);
	if (len < 10 || len > 22 || strspn(name, name_chars) != len)
		return FALSE;
	return all_hex(name, 10) || all_hex(name + len - 10, 10);
}

gboolean ab_file_set_dir_name_is_ours(const char *name)
{
	return strlen(name) == 5 && strspn(name, "0123456789") == 5;
}

gboolean ab_file_set_holds_name(const struct ab_file_set *set, const char *name)
{
	if (!ab_file_set_name_is_ours(name))
		return FALSE;
	char digits[11];
	memcpy(digits, set->random_names ? name + strlen(name) - 10 : name, 10);
	digits[10] = '\0';
	uint64_t index = g_ascii_strtoull(digits, NULL, 16);
	return index >= set->base && index - set->base < set->count;
}

struct ab_file_set *ab_file_set_new(const struct ab_step *step, gboolean random_names, uint64_t seed)
{
	return ab_file_set_new_at(step, random_names, seed, 0, FALSE);
}

struct ab_file_set *ab_file_set_new_at(const struct ab_step *step, gboolean random_names, uint64_t seed,
				       uint64_t base, gboolean shared)
{
	struct ab_file_set *set = g_new0(struct ab_file_set, 1);
	set->count = step->num_files_k * 1024u;
	set->dirs = step->num_dirs;
	set->base = base;
	set->random_names = random_names;
	set->shared = shared;
	set->offset = g_new(uint32_t, set->count);
	set->order = g_new(uint32_t, set->count);
	set->order_offset = g_new(uint32_t, set->count);
	set->size = g_new0(uint64_t, set->count);
	struct ab_rng rng;
	ab_rng_init(&rng, seed, random_names ? 0xf11e2 : 0xf11e1);
	GString *blob = g_string_sized_new((gsize)set->count * 24);
	for (uint32_t i = 0; i < set->count; i++) {
		char rnd[13];
		unsigned len = (unsigned)ab_rng_below(&rng, 13);
		for (unsigned k = 0; k < len; k++)
			rnd[k] = name_chars[ab_rng_below(&rng, sizeof(name_chars) - 1)];
		rnd[len] = '\0';
		set->offset[i] = (uint32_t)blob->len;
		if (set->dirs > 1) {
			char d[8];
			ab_file_set_dir_name(ab_file_set_dir_of(set, i), d);
			g_string_append_printf(blob, "%s/", d);
		}
		if (random_names)
			g_string_append_printf(blob, "%s%010" G_GINT64_MODIFIER "x", rnd, base + i);
		else
			g_string_append_printf(blob, "%010" G_GINT64_MODIFIER "x%s", base + i, rnd);
		g_string_append_c(blob, '\0');
		set->order[i] = i;
		set->order_offset[i] = set->offset[i];
		if (step->file_max > 0) {
			uint64_t lo = step->file_min, hi = (uint64_t)step->file_max;
			set->size[i] = lo == hi ? hi : lo + ab_rng_below(&rng, hi - lo + 1);
		}
	}
	set->blob = g_string_free(blob, FALSE);
	return set;
}

void ab_file_set_shuffle(struct ab_file_set *set, uint64_t seed)
{
	struct ab_rng rng;
	ab_rng_init(&rng, seed, 0x5f0ff1e);
	for (uint32_t i = set->count; i > 1; i--) {
		uint32_t j = (uint32_t)ab_rng_below(&rng, i);
		uint32_t t = set->order[i - 1];
		set->order[i - 1] = set->order[j];
		set->order[j] = t;
	}
	for (uint32_t k = 0; k < set->count; k++)
		set->order_offset[k] = set->offset[set->order[k]];
}

void ab_file_set_free(struct ab_file_set *set)
{
	if (!set)
		return;
	g_free(set->blob);
	g_free(set->offset);
	g_free(set->order);
	g_free(set->order_offset);
	g_free(set->size);
	g_free(set);
}
