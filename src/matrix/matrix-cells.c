/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A matrix file's cells (matrix-cells.h): the product of its lists, each
 * cell's label and run argv; each visit's seed and argv (matrix-file.h). */
#include "matrix-cells.h"
#include "../base/error.h"

#include <string.h>

gboolean ab_matrix_fault(const char *name, unsigned line, GError **error, const char *fmt, va_list ap)
{
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	if (line)
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s:%u: %s", name, line, msg);
	else
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: %s", name, msg);
	return FALSE;
}

static gboolean fail(const struct ab_matrix_where *at, unsigned line, GError **error, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean fail(const struct ab_matrix_where *at, unsigned line, GError **error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ab_matrix_fault(at->name, line, error, fmt, ap);
	va_end(ap);
	return FALSE;
}

void ab_matrix_level_clear(gpointer p)
{
	struct ab_matrix_level *l = p;
	g_free(l->level);
	g_free(l->label);
}

void ab_matrix_common_clear(struct ab_matrix_common *c)
{
	g_free(c->loop_n);
	g_free(c->loop_size);
	g_free(c->loop_dir);
	if (c->members)
		g_ptr_array_unref(c->members);
	g_strfreev(c->options);
}

void ab_matrix_lists_clear(struct ab_matrix_lists *l)
{
	if (l->levels)
		g_array_unref(l->levels);
	g_clear_pointer(&l->fs, g_ptr_array_unref);
	g_clear_pointer(&l->mkfs, g_ptr_array_unref);
	g_clear_pointer(&l->mount, g_ptr_array_unref);
	g_clear_pointer(&l->workloads, g_ptr_array_unref);
	g_clear_pointer(&l->workload_options, g_hash_table_unref);
}

gboolean ab_matrix_workload_is_file(const char *w)
{
	return strchr(w, '/') || g_str_has_suffix(w, ".ini");
}

void ab_matrix_cell_free(gpointer p)
{
	struct ab_matrix_cell *c = p;
	g_free(c->label);
	g_free(c->workload);
	g_ptr_array_unref(c->argv);
	g_free(c);
}

void ab_matrix_free(struct ab_matrix *m)
{
	if (!m)
		return;
	g_free(m->sha256);
	g_free(m->name);
	g_ptr_array_unref(m->cells);
	g_free(m);
}

static void add(GPtrArray *argv, const char *a, const char *b)
{
	g_ptr_array_add(argv, g_strdup(a));
	if (b)
		g_ptr_array_add(argv, g_strdup(b));
}

/* The machine name in the CSV (bon_csv2html's row name): the label as one
 * CSV-safe word of at most 64 characters. */
static char *machine_word(const char *label)
{
	GString *s = g_string_new(NULL);
	for (const char *p = label; *p && s->len < 64; p++)
		g_string_append_c(s, *p == ' ' ? '_' : *p == ',' ? '+' : g_ascii_isgraph(*p) ? *p : '?');
	return g_string_free(s, FALSE);
}

static struct ab_matrix_cell *make_cell(const struct ab_matrix_common *c, const struct ab_matrix_level *l, const char *fs,
					const char *mkfs, const char *mount, const char *workload,
					char **workload_options)
{
	struct ab_matrix_cell *cell = g_new0(struct ab_matrix_cell, 1);
	GString *label = g_string_new(l->label);
	g_string_append_printf(label, " %s", fs);
	if (!g_str_equal(mkfs, "defaults"))
		g_string_append_printf(label, " mkfs(%s)", mkfs);
	g_string_append_printf(label, " %s", mount);
	if (workload) {
		g_autofree char *base = g_path_get_basename(workload);
		if (ab_matrix_workload_is_file(workload) && g_str_has_suffix(base, ".ini"))
			base[strlen(base) - 4] = '\0';
		g_string_append_printf(label, " %s", base);
	}
	cell->label = g_string_free(label, FALSE);
	cell->workload = g_strdup(workload);
	GPtrArray *a = cell->argv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(a, g_strdup("run"));
	/* "none": a plain file system on the first member alone. */
	gboolean plain = !l->level;
	if (c->loop_n) {
		g_autofree char *spec = g_strdup_printf("%s:%s%s%s", plain ? "1" : c->loop_n, c->loop_size,
							c->loop_dir ? ":" : "", c->loop_dir ? c->loop_dir : "");
		add(a, "--loop", spec);
	} else if (plain) {
		/* --members is for an --array: run takes one device as --device. */
		const char *first = g_ptr_array_index(c->members, 0);
		add(a, "--device", first);
		add(a, "--yes-destroy", first);
	} else {
		GString *list = g_string_new(NULL);
		for (guint i = 0; i < c->members->len; i++)
			g_string_append_printf(list, "%s%s", i ? "," : "", (const char *)g_ptr_array_index(c->members, i));
		add(a, "--members", list->str);
		add(a, "--yes-destroy", list->str);
		g_string_free(list, TRUE);
	}
	if (l->backend)
		add(a, "--backend", l->backend->name);
	if (l->level)
		add(a, "--array", l->level);
	add(a, "--fs", fs);
	if (!g_str_equal(mkfs, "defaults"))
		add(a, "--mkfs-opts", mkfs);
	if (!g_str_equal(mount, "defaults"))
		add(a, "--mount-opts", mount);
	if (workload)
		add(a, "--workload", workload);
	if (!c->machine_given) {
		g_autofree char *m = machine_word(cell->label);
		add(a, "-m", m);
	}
	for (char **o = c->options; *o; o++)
		add(a, *o, NULL);
	for (char **o = workload_options; o && *o; o++)
		add(a, *o, NULL);
	return cell;
}

/* A level whose backend makes its own file system (btrfs) goes with that
 * one only. */
gboolean ab_matrix_cells_make(const struct ab_matrix_common *c, const struct ab_matrix_lists *l,
			      const struct ab_matrix_where *at, GPtrArray *cells, GError **error)
{
	guint nw = MAX(l->workloads->len, 1);
	/* Lists of a few hundred entries each would make more cells than
	 * memory holds: the product is checked before any is made. */
	uint64_t n = (uint64_t)l->levels->len * l->fs->len * l->mkfs->len * l->mount->len * nw;
	if (n > AB_MATRIX_MAX_CELLS)
		return fail(at, at->matrix_line, error,
			    "the lists make %" G_GUINT64_FORMAT " cells, more than %u", n, AB_MATRIX_MAX_CELLS);
	for (guint li = 0; li < l->levels->len; li++) {
		const struct ab_matrix_level *lv = &g_array_index(l->levels, struct ab_matrix_level, li);
		guint before = cells->len;
		for (guint fi = 0; fi < l->fs->len; fi++) {
			const char *fs = g_ptr_array_index(l->fs, fi);
			if (lv->backend && lv->backend->own_fs && !g_str_equal(fs, lv->backend->own_fs))
				continue;
			for (guint ki = 0; ki < l->mkfs->len; ki++)
				for (guint mi = 0; mi < l->mount->len; mi++)
					for (guint wi = 0; wi < nw; wi++) {
						const char *w = l->workloads->len ? g_ptr_array_index(l->workloads, wi) : NULL;
						char **wo = w ? g_hash_table_lookup(l->workload_options, w) : NULL;
						struct ab_matrix_cell *cell =
							make_cell(c, lv, fs, g_ptr_array_index(l->mkfs, ki),
								  g_ptr_array_index(l->mount, mi), w, wo);
						g_ptr_array_add(cells, cell);
					}
		}
		if (cells->len == before)
			return fail(at, at->levels_line, error,
				    "level '%s' makes btrfs itself, and 'fs' does not list btrfs", lv->label);
	}
	for (guint i = 0; i < cells->len; i++)
		for (guint j = 0; j < i; j++) {
			const struct ab_matrix_cell *ci = g_ptr_array_index(cells, i), *cj = g_ptr_array_index(cells, j);
			if (!g_str_equal(ci->label, cj->label))
				continue;
			/* A workload named and given as a file ("bonnie" and
			 * "./bonnie.ini") has one label too. */
			if (g_strcmp0(ci->workload, cj->workload) != 0)
				return fail(at, at->workloads_line, error,
					    "two cells would both be '%s': workloads '%s' and '%s' have one label",
					    ci->label, cj->workload, ci->workload);
			return fail(at, at->levels_line, error,
				    "two cells would both be '%s': give each level once", ci->label);
		}
	return TRUE;
}

uint64_t ab_matrix_visit_seed(uint64_t matrix_seed, const char *label, unsigned repeat)
{
	g_autofree char *in = g_strdup_printf("%" G_GUINT64_FORMAT "\n%s\n%u", matrix_seed, label, repeat);
	g_autofree char *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, in, -1);
	hex[8] = '\0'; /* 32 bits, as run's own seeds */
	return g_ascii_strtoull(hex, NULL, 16);
}

char **ab_matrix_visit_argv(const struct ab_matrix *m, const struct ab_matrix_cell *cell, unsigned repeat,
			    gboolean quiet)
{
	GPtrArray *a = g_ptr_array_new();
	for (guint i = 0; i < cell->argv->len; i++)
		g_ptr_array_add(a, g_strdup(g_ptr_array_index(cell->argv, i)));
	g_ptr_array_add(a, g_strdup("-x"));
	g_ptr_array_add(a, g_strdup("1"));
	g_ptr_array_add(a, g_strdup("-z"));
	g_ptr_array_add(a, g_strdup_printf("%" G_GUINT64_FORMAT, ab_matrix_visit_seed(m->seed, cell->label, repeat)));
	if (quiet)
		g_ptr_array_add(a, g_strdup("-q"));
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

void ab_matrix_set_workload_path(struct ab_matrix *m, const char *entry, const char *path)
{
	for (guint k = 0; k < m->cells->len; k++) {
		struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, k);
		if (g_strcmp0(cell->workload, entry) != 0)
			continue;
		/* The matrix's own --workload word: 'options' may not hold one. */
		for (guint i = 1; i + 1 < cell->argv->len; i++)
			if (g_str_equal(g_ptr_array_index(cell->argv, i), "--workload")) {
				g_free(cell->argv->pdata[i + 1]);
				cell->argv->pdata[i + 1] = g_strdup(path);
				break;
			}
	}
}

char *ab_matrix_command_line(char *const *argv)
{
	GString *s = g_string_new("arraybench");
	for (char *const *w = argv; *w; w++) {
		gboolean plain = **w != '\0';
		for (const char *p = *w; *p; p++)
			if (!g_ascii_isalnum(*p) && !strchr("-_.,:/=+%@^", *p))
				plain = FALSE;
		g_autofree char *q = plain ? g_strdup(*w) : g_shell_quote(*w);
		g_string_append_printf(s, " %s", q);
	}
	return g_string_free(s, FALSE);
}
