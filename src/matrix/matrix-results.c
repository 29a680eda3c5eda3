/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record of a matrix's visits in its results directory
 * (matrix-results.h): results.jsonl read back, mended and appended to,
 * results.csv made from it, visit.inflight. */
#include "matrix-results.h"
#include "../base/error.h"
#include "../base/replace-file.h"
#include "../base/runid.h"
#include "../../reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ab_matrix_visit_key(const char *label, unsigned repeat)
{
	return g_strdup_printf("%u\n%s", repeat, label);
}

gboolean ab_matrix_done_has(GHashTable *done, const char *label, unsigned repeat)
{
	g_autofree char *key = ab_matrix_visit_key(label, repeat);
	return g_hash_table_contains(done, key);
}

GHashTable *ab_matrix_done_read(const char *name, const char *text, size_t len, gboolean retry_failed,
				struct ab_run_set *runs, GPtrArray *problems, unsigned *failed)
{
	GHashTable *done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) ran = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) failures = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	/* Each run once, as report counts it: a line given twice (results
	 * merged by hand, a restore) made results.csv hold the run twice
	 * and counted it twice towards --repeat-until's spread. */
	struct ab_run_set set;
	ab_run_set_init_once(&set);
	if (text)
		ab_report_read_text(name, text, len, &set, problems);
	if (set.dropped && problems)
		g_ptr_array_add(problems, g_strdup_printf("%s: %u run%s read again (the first at '%s'): each counts once",
							  name, set.dropped, set.dropped == 1 ? "" : "s",
							  set.first_dropped));
	for (guint i = 0; i < set.runs->len; i++) {
		const struct ab_run *r = g_ptr_array_index(set.runs, i);
		/* Only our own lines: a run with its cell and matrix repeat. */
		if (!r->cell || r->repeat == AB_UNSET || r->repeat == 0 || r->repeat > G_MAXUINT)
			continue;
		g_hash_table_add(r->failure ? failures : ran, ab_matrix_visit_key(r->cell, (unsigned)r->repeat));
	}
	/* A visit that failed and then ran (--retry-failed) is a visit that
	 * ran: its failure no longer counts. */
	unsigned still_failed = 0;
	GHashTableIter it;
	gpointer key;
	g_hash_table_iter_init(&it, failures);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (!g_hash_table_contains(ran, key)) {
			still_failed++;
			if (!retry_failed)
				g_hash_table_add(done, g_strdup(key));
		}
	g_hash_table_iter_init(&it, ran);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_hash_table_add(done, g_strdup(key));
	if (failed)
		*failed = still_failed;
	/* The runs go to the caller's set; what kept them once (the keys,
	 * the first dropped) goes with this one. */
	if (runs)
		g_ptr_array_extend_and_steal(runs->runs, g_steal_pointer(&set.runs));
	ab_run_set_clear(&set);
	return done;
}

void ab_matrix_csv_append(GString *out, const struct ab_run *run)
{
	if (!run->failure && ab_writer_has_run(&ab_writer_csv, run))
		ab_writer_csv.write_run(run, out, NULL);
}

char *ab_matrix_csv_text(const struct ab_run_set *set)
{
	GString *out = g_string_new(NULL);
	for (guint i = 0; i < set->runs->len; i++)
		ab_matrix_csv_append(out, g_ptr_array_index(set->runs, i));
	return g_string_free(out, FALSE);
}

/* Is text one whole JSON object?  A line cut anywhere before its end is
 * not: only its last byte closes the object it opens. */
static gboolean whole_json_object(const char *text, size_t len)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	if (len > G_MAXSSIZE || !json_parser_load_from_data(parser, text, (gssize)len, NULL))
		return FALSE;
	JsonNode *root = json_parser_get_root(parser);
	return root && JSON_NODE_HOLDS_OBJECT(root);
}

/* A last line without its newline: a kill or a full disk mid-write left
 * part of a run (cut off: appending after it would glue two runs into one
 * unreadable line), or a run whole but for its newline (kept, the newline
 * added: cutting it lost a run that had been recorded). */
static gboolean mend_last_line(const struct ab_matrix_dir *d, const char *name, int fd,
			       struct ab_matrix_mend *mend, GError **error)
{
	struct stat st;
	char last;
	if (fstat(fd, &st) != 0 || st.st_size == 0 || pread(fd, &last, 1, st.st_size - 1) != 1 || last == '\n')
		return TRUE;
	g_autofree char *text = NULL;
	size_t len;
	if (lseek(fd, 0, SEEK_SET) != 0 || !ab_matrix_dir_read_fd(d, name, fd, &text, &len, error))
		return FALSE;
	const char *nl = memrchr(text, '\n', len);
	size_t keep = nl ? (size_t)(nl - text) + 1 : 0;
	if (whole_json_object(text + keep, len - keep)) {
		if (!ab_matrix_dir_write_fd(d, name, fd, "\n", 1, error))
			return FALSE;
		mend->newline_added = TRUE;
		return TRUE;
	}
	if (ftruncate(fd, (off_t)keep) != 0 || fsync(fd) != 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot cut the torn last line of '%s/%s'", d->path,
				   name);
		return FALSE;
	}
	mend->cut_bytes = len - keep;
	return TRUE;
}

/* results.csv needs no mending: ab_matrix_dir_sync_csv() makes it anew
 * from results.jsonl whenever it is anything else. */
gboolean ab_matrix_dir_open_results(struct ab_matrix_dir *d, struct ab_matrix_mend *mend, GError **error)
{
	*mend = (struct ab_matrix_mend){ 0 };
	d->json_fd = ab_matrix_dir_open_own(d, AB_MATRIX_RESULTS_JSON, O_RDWR | O_APPEND | O_CREAT, error);
	if (d->json_fd < 0)
		return FALSE;
	d->csv_fd = ab_matrix_dir_open_own(d, AB_MATRIX_RESULTS_CSV, O_RDWR | O_APPEND | O_CREAT, error);
	if (d->csv_fd < 0)
		return FALSE;
	return mend_last_line(d, AB_MATRIX_RESULTS_JSON, d->json_fd, mend, error);
}

static unsigned count_lines(const char *text, size_t len)
{
	unsigned n = 0;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n + (len && text[len - 1] != '\n');
}

gboolean ab_matrix_dir_sync_csv(struct ab_matrix_dir *d, const char *want, size_t want_len, unsigned *old_lines,
				GError **error)
{
	*old_lines = G_MAXUINT;
	g_autofree char *have = NULL;
	size_t have_len;
	if (lseek(d->csv_fd, 0, SEEK_SET) != 0 ||
	    !ab_matrix_dir_read_fd(d, AB_MATRIX_RESULTS_CSV, d->csv_fd, &have, &have_len, error))
		return FALSE;
	if (have_len == want_len && memcmp(have, want, want_len) == 0)
		return TRUE;
	g_autofree char *what = g_strdup_printf("the CSV of the runs in %s", AB_MATRIX_RESULTS_JSON);
	if (!ab_replace_file_at(what, d->fd, d->path, AB_MATRIX_RESULTS_CSV, want, want_len, error))
		return FALSE;
	/* The name is the new file now: append to that one. */
	close(d->csv_fd);
	d->csv_fd = ab_matrix_dir_open_own(d, AB_MATRIX_RESULTS_CSV, O_RDWR | O_APPEND, error);
	if (d->csv_fd < 0)
		return FALSE;
	*old_lines = count_lines(have, have_len);
	return TRUE;
}

gboolean ab_matrix_dir_set_visit(const struct ab_matrix_dir *d, const char *run_id, const char *state_dir,
				 GError **error)
{
	g_autofree char *dir = g_strescape(state_dir, NULL);
	g_autofree char *text = g_strdup_printf("%s\n%s\n", run_id, dir);
	return ab_replace_file_at("the visit in flight's run id", d->fd, d->path, AB_MATRIX_VISIT, text, strlen(text),
				  error);
}

gboolean ab_matrix_dir_get_visit(const struct ab_matrix_dir *d, char **run_id, char **state_dir, GError **error)
{
	*run_id = *state_dir = NULL;
	g_autofree char *text = NULL;
	size_t len;
	if (!ab_matrix_dir_read(d, AB_MATRIX_VISIT, &text, &len, error))
		return FALSE;
	if (!text)
		return TRUE;
	g_auto(GStrv) lines = g_strsplit(text, "\n", 3);
	if (len != strlen(text) || g_strv_length(lines) != 3 || !ab_run_id_valid(lines[0]) || !*lines[1] ||
	    *lines[2]) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s/%s' is not a run id and a state directory, as a matrix writes it: check what the "
			    "visit it names left ('arraybench cleanup'), then remove it",
			    d->path, AB_MATRIX_VISIT);
		return FALSE;
	}
	*run_id = g_strdup(lines[0]);
	*state_dir = g_strcompress(lines[1]);
	return TRUE;
}

void ab_matrix_dir_clear_visit(const struct ab_matrix_dir *d)
{
	unlinkat(d->fd, AB_MATRIX_VISIT, 0);
}

gboolean ab_matrix_dir_append(const struct ab_matrix_dir *d, int fd, const char *text, GError **error)
{
	/* A line the disk took part of is cut off at once: the file stays
	 * whole lines, whatever the next start finds. */
	struct stat st;
	gboolean known = fstat(fd, &st) == 0;
	const char *name = fd == d->json_fd ? AB_MATRIX_RESULTS_JSON : AB_MATRIX_RESULTS_CSV;
	if (ab_matrix_dir_write_fd(d, name, fd, text, strlen(text), error))
		return TRUE;
	if (known && ftruncate(fd, st.st_size) == 0)
		fsync(fd);
	return FALSE;
}
