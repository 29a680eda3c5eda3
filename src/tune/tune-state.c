/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tune.ini, the inputs of a tune's results directory (tune-state.h). */
#include "tune-state.h"
#include "candidates.h"
#include "../matrix/matrix-cells.h"

#include <string.h>

/* One value on one line: the words a line holds never hold a newline
 * (run refuses option values with one), but a file name could. */
static void add_key(GString *out, const char *key, const char *value)
{
	g_autofree char *one = g_strescape(value ? value : "", NULL);
	g_string_append_printf(out, "%s = %s\n", key, one);
}

static void add_words(GString *out, const char *key, GPtrArray *words)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	for (guint i = 0; words && i < words->len; i++)
		g_ptr_array_add(argv, g_ptr_array_index(words, i));
	g_ptr_array_add(argv, NULL);
	g_autofree char *line = argv->len > 1 ? ab_matrix_command_line((char **)argv->pdata) : g_strdup("");
	/* ab_matrix_command_line() starts "arraybench run": keep what follows. */
	const char *shown = g_str_has_prefix(line, "arraybench ") ? line + strlen("arraybench ") : line;
	add_key(out, key, shown);
}

char *ab_tune_ini_text(const struct ab_tune_ini *in, uint64_t *seed)
{
	const struct ab_tune_opts *o = in->o;
	GString *out = g_string_new("# The inputs of this tune, written by arraybench tune: the same command again "
				    "resumes,\n# another is refused naming the first line that differs.  Do not edit.\n");
	g_string_append(out, "[tune]\n");
	add_key(out, "objective", in->objective);
	add_key(out, "budget", o->budget_text);
	g_autofree char *alpha = g_strdup_printf("%g", o->alpha);
	add_key(out, "alpha", alpha);
	g_autofree char *rounds = g_strdup_printf("%u", o->min_rounds);
	add_key(out, "min-rounds", rounds);
	add_key(out, "space", in->space);
	add_key(out, "keys", o->keys ? o->keys : "all");
	add_key(out, "allow-unsafe", o->allow_unsafe ? "yes" : "no");
	add_key(out, "whole-workload", o->whole_workload ? "yes" : "no");
	add_key(out, "plan", in->plan);
	add_words(out, "visit", in->visit_words);
	if (in->workload_sha256)
		add_key(out, "workload-sha256", in->workload_sha256);
	for (guint k = 0; k < in->candidates->len; k++) {
		const struct ab_candidate *c = g_ptr_array_index(in->candidates, k);
		g_string_append_printf(out, "[candidate %u]\n", k + 1);
		add_key(out, "label", c->label);
		add_words(out, "words", c->argv);
	}
	if (o->seed_given) {
		*seed = o->seed;
	} else {
		g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
		g_checksum_update(sum, (const guchar *)out->str, (gssize)out->len);
		guint8 digest[32];
		gsize len = sizeof(digest);
		g_checksum_get_digest(sum, digest, &len);
		*seed = 0;
		for (int i = 0; i < 8; i++)
			*seed = *seed << 8 | digest[i];
	}
	g_autofree char *seed_text = g_strdup_printf("%" G_GUINT64_FORMAT "%s", *seed, o->seed_given ? "" : " (from the inputs)");
	g_string_append(out, "[order]\n");
	add_key(out, "seed", seed_text);
	return g_string_free(out, FALSE);
}

gboolean ab_tune_ini_differs(const char *stored, const char *now, char **stored_line, char **now_line)
{
	g_auto(GStrv) a = g_strsplit(stored, "\n", -1);
	g_auto(GStrv) b = g_strsplit(now, "\n", -1);
	for (guint i = 0; a[i] || b[i]; i++) {
		const char *x = a[i] ? a[i] : "", *y = b[i] ? b[i] : "";
		if (!g_str_equal(x, y)) {
			*stored_line = g_strdup(x);
			*now_line = g_strdup(y);
			return TRUE;
		}
		if (!a[i] || !b[i])
			break;
	}
	*stored_line = *now_line = NULL;
	return FALSE;
}
