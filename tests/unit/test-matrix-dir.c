/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arraybench matrix's results directory: which visits results.jsonl
 * finishes (a retried failure too), the digests, the directory's state,
 * its files, what a kill while it was set up left, and the profiles'
 * copies.  The matrix file itself: test-matrix.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/base/error.h"
#include "../../src/matrix/matrix-file.h"
#include "../../src/matrix/matrix-spread.h"
#include "../../src/matrix/matrix-results.h"
#include "../../src/matrix/matrix-state.h"
#include "../../reports/report.h"
#include "matrix-demo.h"

/* A results.jsonl line of a visit. */
static char *visit_line(const char *label, unsigned repeat, const char *failure)
{
	g_autoptr(ab_run) run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup("0.1.0");
	run->cell = g_strdup(label);
	run->repeat = repeat;
	run->failure = g_strdup(failure);
	g_autofree char *json = ab_json_format(run);
	return g_strdup_printf("%s\n", json);
}

static void test_done_read(void **state)
{
	(void)state;
	g_autofree char *a = visit_line("btrfs-raid1 btrfs defaults", 1, NULL);
	g_autofree char *b = visit_line("btrfs-raid10 btrfs defaults", 1, "mkfs.btrfs failed");
	g_autofree char *c = visit_line("btrfs-raid1 btrfs defaults", 2, NULL);
	g_autoptr(ab_run) plain = ab_run_new(); /* a run of `run`, no cell: not a visit */
	plain->repeat = 3;
	g_autofree char *pj = ab_json_format(plain);
	/* The last line torn by a crash: skipped, a problem. */
	g_autofree char *text = g_strdup_printf("%s%s%s%s\n%.40s", a, b, c, pj, a);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	struct ab_run_set runs;
	ab_run_set_init(&runs);
	g_autoptr(GHashTable) done = ab_matrix_done_read("r.jsonl", text, strlen(text), FALSE, &runs, problems, NULL);
	assert_int_equal(g_hash_table_size(done), 3);
	assert_true(ab_matrix_done_has(done, "btrfs-raid1 btrfs defaults", 1));
	assert_true(ab_matrix_done_has(done, "btrfs-raid1 btrfs defaults", 2));
	assert_true(ab_matrix_done_has(done, "btrfs-raid10 btrfs defaults", 1));
	assert_false(ab_matrix_done_has(done, "btrfs-raid10 btrfs defaults", 2));
	assert_false(ab_matrix_done_has(done, "btrfs-raid1 btrfs", 1));
	assert_int_equal(runs.runs->len, 4);
	assert_int_equal(problems->len, 1);
	assert_true(g_str_has_prefix(g_ptr_array_index(problems, 0), "r.jsonl:5: "));
	ab_run_set_clear(&runs);
	/* --retry-failed: the failed visit is not finished. */
	g_autoptr(GHashTable) retry = ab_matrix_done_read("r.jsonl", text, strlen(text), TRUE, NULL, NULL, NULL);
	assert_int_equal(g_hash_table_size(retry), 2);
	assert_false(ab_matrix_done_has(retry, "btrfs-raid10 btrfs defaults", 1));
	/* Nothing yet. */
	g_autoptr(GHashTable) none = ab_matrix_done_read("r.jsonl", NULL, 0, FALSE, NULL, NULL, NULL);
	assert_int_equal(g_hash_table_size(none), 0);
}

/* A visit that failed and then ran (--retry-failed) is a visit that ran;
 * one that failed twice is one failed visit. */
static void test_done_read_retried(void **state)
{
	(void)state;
	const char *l1 = "plain ext4 defaults", *l2 = "plain btrfs defaults";
	g_autofree char *f1 = visit_line(l1, 1, "mkfs.ext4 failed");
	g_autofree char *r1 = visit_line(l1, 1, NULL);
	g_autofree char *f2 = visit_line(l2, 1, "mkfs.btrfs failed");
	g_autofree char *f2b = visit_line(l2, 1, "mkfs.btrfs failed again");
	g_autofree char *text = g_strdup_printf("%s%s%s%s", f1, f2, r1, f2b);
	unsigned failed = 99;
	g_autoptr(GHashTable) done = ab_matrix_done_read("r.jsonl", text, strlen(text), FALSE, NULL, NULL, &failed);
	assert_int_equal(failed, 1);
	assert_true(ab_matrix_done_has(done, l1, 1));
	assert_true(ab_matrix_done_has(done, l2, 1));
	/* --retry-failed: only the visit that never ran is run again. */
	g_autoptr(GHashTable) retry = ab_matrix_done_read("r.jsonl", text, strlen(text), TRUE, NULL, NULL, &failed);
	assert_int_equal(failed, 1);
	assert_true(ab_matrix_done_has(retry, l1, 1));
	assert_false(ab_matrix_done_has(retry, l2, 1));
	/* The success first and a failure after (hand-made): still ran. */
	g_autofree char *rev = g_strdup_printf("%s%s", r1, f1);
	g_autoptr(GHashTable) d2 = ab_matrix_done_read("r.jsonl", rev, strlen(rev), FALSE, NULL, NULL, &failed);
	assert_int_equal(failed, 0);
}

static void test_digests_parse(void **state)
{
	(void)state;
	const char *d = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	g_autofree char *text = g_strdup_printf("%s  matrix.ini\n%s  matrix.workloads/w.ini\n", d, d);
	g_autoptr(GHashTable) t = ab_matrix_digests_parse(text);
	assert_non_null(t);
	assert_int_equal(g_hash_table_size(t), 2);
	assert_string_equal(g_hash_table_lookup(t, "matrix.workloads/w.ini"), d);
	assert_null(ab_matrix_digests_parse(""));
	assert_null(ab_matrix_digests_parse("abc  matrix.ini\n"));
	g_autofree char *no_name = g_strdup_printf("%s  \n", d);
	assert_null(ab_matrix_digests_parse(no_name));
	/* The copies keep the profile's name: "w" for w.ini and w. */
	g_autofree char *c1 = ab_matrix_profile_copy_name("/a/w.ini");
	g_autofree char *c2 = ab_matrix_profile_copy_name("/a/w");
	g_autofree char *c3 = ab_matrix_profile_copy_name("bonnie");
	g_autofree char *c4 = ab_matrix_profile_copy_name("/a/.ini");
	assert_string_equal(c1, "w.ini");
	assert_string_equal(c2, "w.ini");
	assert_string_equal(c3, "bonnie.ini");
	assert_string_equal(c4, ".ini.ini");
}

static void test_dir_state(void **state)
{
	(void)state;
	const char *d = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	assert_int_equal(ab_matrix_dir_state(NULL, FALSE, d), AB_MATRIX_DIR_NEW);
	assert_int_equal(ab_matrix_dir_state(NULL, TRUE, d), AB_MATRIX_DIR_FOREIGN);
	assert_int_equal(ab_matrix_dir_state(d, TRUE, d), AB_MATRIX_DIR_SAME);
	assert_int_equal(ab_matrix_dir_state(d, FALSE, d), AB_MATRIX_DIR_SAME);
	const char *other = "f123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	assert_int_equal(ab_matrix_dir_state(other, TRUE, d), AB_MATRIX_DIR_CHANGED);
	g_autofree char *line = g_strdup_printf("%s  matrix.ini\n", d);
	g_autofree char *p1 = ab_matrix_digest_parse(line);
	assert_string_equal(p1, d);
	g_autofree char *upper = g_ascii_strup(d, -1);
	g_autofree char *p2 = ab_matrix_digest_parse(upper);
	assert_string_equal(p2, d);
	assert_null(ab_matrix_digest_parse("abc  matrix.ini\n"));
	assert_null(ab_matrix_digest_parse(""));
	assert_null(ab_matrix_digest_parse(NULL));
}

static char *read_text(const char *path)
{
	char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

static void test_results_dir(void **state)
{
	(void)state;
	g_autofree char *tmp = g_dir_make_tmp("test-matrix.XXXXXX", NULL);
	assert_non_null(tmp);
	g_autofree char *dir = g_build_filename(tmp, "out", NULL);
	g_autoptr(GError) error = NULL;
	struct ab_matrix_dir d;
	ab_matrix_dir_init(&d);
	assert_true(ab_matrix_dir_open(&d, dir, TRUE, &error));
	/* One matrix at a time in a DIR. */
	struct ab_matrix_dir other;
	ab_matrix_dir_init(&other);
	assert_false(ab_matrix_dir_open(&other, dir, TRUE, &error));
	assert_true(strstr(error->message, "in use by another arraybench matrix") != NULL);
	g_clear_error(&error);
	ab_matrix_dir_clear(&other);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	enum ab_matrix_dir_state s;
	assert_true(ab_matrix_dir_check(&d, "x", &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_NEW);
	g_autoptr(ab_matrix) m = parse_ok(demo);
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, NULL, &error));
	assert_true(ab_matrix_dir_check(&d, m->sha256, &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_SAME);
	assert_true(ab_matrix_dir_check(&d, "0000000000000000000000000000000000000000000000000000000000000000", &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_CHANGED);
	/* A torn last line is cut off before appending. */
	g_autofree char *json = g_build_filename(dir, AB_MATRIX_RESULTS_JSON, NULL);
	assert_true(g_file_set_contents(json, "{\"a\":1}\n{\"b\":", -1, NULL));
	struct ab_matrix_mend mend;
	assert_true(ab_matrix_dir_open_results(&d, &mend, &error));
	assert_int_equal(mend.cut_bytes, 5);
	assert_false(mend.newline_added);
	assert_true(ab_matrix_dir_append(&d, d.json_fd, "{\"c\":2}\n", &error));
	g_autofree char *text = read_text(json);
	assert_string_equal(text, "{\"a\":1}\n{\"c\":2}\n");
	/* A whole run but for its newline is kept, the newline added: it
	 * was cut, and its visit ran again.  So is a file of one such line. */
	const char *const whole[][2] = {
		{ "{\"a\":1}\n{\"b\":{\"c\":[1,2]}}", "{\"a\":1}\n{\"b\":{\"c\":[1,2]}}\n" },
		{ "{\"a\":1}", "{\"a\":1}\n" },
		/* cut right after a nested object: still torn */
		{ "{\"a\":1}\n{\"b\":{\"c\":1}", "{\"a\":1}\n" },
		{ "{\"a\"", "" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(whole); i++) {
		close(d.json_fd);
		close(d.csv_fd);
		d.json_fd = d.csv_fd = -1;
		assert_true(g_file_set_contents(json, whole[i][0], -1, NULL));
		assert_true(ab_matrix_dir_open_results(&d, &mend, &error));
		assert_int_equal(mend.newline_added, i < 2);
		assert_int_equal(mend.cut_bytes, i < 2 ? 0 : strlen(whole[i][0]) - strlen(whole[i][1]));
		g_autofree char *now = read_text(json);
		assert_string_equal(now, whole[i][1]);
	}
	/* --fresh: ours moved aside, a stranger's file left. */
	g_autofree char *notes = g_build_filename(dir, "notes.txt", NULL);
	assert_true(g_file_set_contents(notes, "mine", -1, NULL));
	assert_true(ab_matrix_dir_move_aside(&d, &error));
	assert_true(ab_matrix_dir_check(&d, m->sha256, &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_NEW);
	g_autoptr(GDir) gd = g_dir_open(dir, 0, NULL);
	unsigned old = 0, all = 0;
	for (const char *n; (n = g_dir_read_name(gd)); all++)
		old += strstr(n, ".old-") != NULL;
	assert_int_equal(old, 4);
	assert_int_equal(all, 5);
	/* Again within the second: moved aside beside the first, not refused. */
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, NULL, &error));
	assert_true(ab_matrix_dir_move_aside(&d, &error));
	assert_null(error);
	g_autoptr(GDir) gd2 = g_dir_open(dir, 0, NULL);
	old = all = 0;
	for (const char *n; (n = g_dir_read_name(gd2)); all++)
		old += strstr(n, ".old-") != NULL;
	assert_int_equal(all, old + 1);
	assert_true(old >= 6);
	ab_matrix_dir_clear(&d);
	/* A symbolic link as DIR is refused, and so are our files as links. */
	g_autofree char *link = g_build_filename(tmp, "link", NULL);
	assert_int_equal(symlink(dir, link), 0);
	assert_false(ab_matrix_dir_open(&d, link, TRUE, &error));
	assert_int_equal(error->code, AB_ERROR_UNSAFE);
	g_clear_error(&error);
	ab_matrix_dir_clear(&d);
	assert_true(ab_matrix_dir_open(&d, dir, FALSE, &error));
	assert_int_equal(symlink("/etc/passwd", json), 0);
	assert_false(ab_matrix_dir_open_results(&d, &mend, &error));
	assert_int_equal(error->code, AB_ERROR_UNSAFE);
	g_clear_error(&error);
	ab_matrix_dir_clear(&d);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static struct ab_matrix_profile *profile(const char *entry, const char *text)
{
	struct ab_matrix_profile *p = g_new0(struct ab_matrix_profile, 1);
	p->entry = g_strdup(entry);
	g_autofree char *name = ab_matrix_profile_copy_name(entry);
	p->copy = g_build_filename(AB_MATRIX_PROFILES, name, NULL);
	p->text = g_strdup(text);
	p->len = strlen(text);
	p->sha256 = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
	return p;
}

static gboolean there(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	struct stat st;
	return lstat(path, &st) == 0;
}

/* What a kill while DIR was set up left is made right before anything
 * looks at DIR: a start cut short before its digests undone, a --fresh
 * cut short finished, temporary files gone; a DIR without a marker is
 * left as it is (a stranger's matrix.ini stays: FOREIGN, as before). */
/* A caller's own copy name (tune's tune.ini): the copy and the first
 * digest line are it, no matrix.ini is made, the state reads it back. */
static void test_own_copy_name(void **state)
{
	(void)state;
	g_autofree char *tmp = g_dir_make_tmp("test-matrix.XXXXXX", NULL);
	assert_non_null(tmp);
	g_autoptr(GError) error = NULL;
	struct ab_matrix_dir d;
	ab_matrix_dir_init(&d);
	d.copy = "tune.ini";
	assert_true(ab_matrix_dir_open(&d, tmp, TRUE, &error));
	g_autoptr(ab_matrix) m = parse_ok(demo);
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, NULL, &error));
	g_autofree char *copy = g_build_filename(tmp, "tune.ini", NULL);
	g_autofree char *text = read_text(copy);
	assert_string_equal(text, demo);
	g_autofree char *matrix_copy = g_build_filename(tmp, AB_MATRIX_COPY, NULL);
	assert_false(g_file_test(matrix_copy, G_FILE_TEST_EXISTS));
	g_autofree char *digests = g_build_filename(tmp, AB_MATRIX_DIGEST, NULL);
	g_autofree char *lines = read_text(digests);
	g_autofree char *want = g_strdup_printf("%s  tune.ini\n", m->sha256);
	assert_string_equal(lines, want);
	enum ab_matrix_dir_state s;
	assert_true(ab_matrix_dir_check(&d, m->sha256, &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_SAME);
	ab_matrix_dir_clear(&d);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static void test_recover(void **state)
{
	(void)state;
	g_autofree char *tmp = g_dir_make_tmp("test-matrix.XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(tmp, "out", NULL);
	g_autoptr(GError) error = NULL;
	struct ab_matrix_dir d;
	ab_matrix_dir_init(&d);
	assert_true(ab_matrix_dir_open(&d, dir, TRUE, &error));
	g_autoptr(GString) said = g_string_new(NULL);
	g_autofree char *copy = g_build_filename(dir, AB_MATRIX_COPY, NULL);
	g_autofree char *wl = g_build_filename(dir, AB_MATRIX_PROFILES, NULL);
	g_autofree char *wl_copy = g_build_filename(wl, "w.ini", NULL);
	g_autofree char *marker = g_build_filename(dir, AB_MATRIX_STARTING, NULL);
	g_autofree char *temp = g_build_filename(dir, ".matrix.sha256.0a1b2c", NULL);
	g_autofree char *not_temp = g_build_filename(dir, ".matrix.sha256.0a1b2", NULL);
	/* No marker: nothing is touched but the temporary file. */
	assert_true(g_file_set_contents(copy, "[matrix]\n", -1, NULL));
	assert_true(g_file_set_contents(temp, "x", -1, NULL));
	assert_true(g_file_set_contents(not_temp, "x", -1, NULL));
	assert_true(ab_matrix_dir_recover(&d, said, &error));
	assert_string_equal(said->str, "");
	assert_true(there(dir, AB_MATRIX_COPY));
	assert_false(there(dir, ".matrix.sha256.0a1b2c"));
	assert_true(there(dir, ".matrix.sha256.0a1b2"));
	enum ab_matrix_dir_state st;
	assert_true(ab_matrix_dir_check(&d, "x", &st, &error));
	assert_int_equal(st, AB_MATRIX_DIR_FOREIGN);
	/* A start cut short after its copies, before its digests. */
	assert_int_equal(mkdir(wl, 0755), 0);
	assert_true(g_file_set_contents(wl_copy, "[step a]\n", -1, NULL));
	assert_true(g_file_set_contents(marker, "", -1, NULL));
	assert_true(ab_matrix_dir_recover(&d, said, &error));
	assert_non_null(strstr(said->str, "a start of the matrix in '"));
	assert_false(there(dir, AB_MATRIX_COPY));
	assert_false(there(dir, AB_MATRIX_PROFILES));
	assert_false(there(dir, AB_MATRIX_STARTING));
	assert_true(ab_matrix_dir_check(&d, "x", &st, &error));
	assert_int_equal(st, AB_MATRIX_DIR_NEW);
	/* ... or after its digests: it was over, only the marker goes. */
	g_autoptr(ab_matrix) m = parse_ok(demo);
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, NULL, &error));
	assert_false(there(dir, AB_MATRIX_STARTING));
	assert_true(g_file_set_contents(marker, "", -1, NULL));
	g_string_truncate(said, 0);
	assert_true(ab_matrix_dir_recover(&d, said, &error));
	assert_string_equal(said->str, "");
	assert_true(there(dir, AB_MATRIX_COPY));
	assert_false(there(dir, AB_MATRIX_STARTING));
	/* A start's leftover that is not ours to remove: refused. */
	g_autofree char *digest = g_build_filename(dir, AB_MATRIX_DIGEST, NULL);
	assert_int_equal(unlink(digest), 0);
	assert_int_equal(mkdir(wl, 0755), 0);
	assert_int_equal(mkdir(wl_copy, 0755), 0);
	assert_true(g_file_set_contents(marker, "", -1, NULL));
	assert_false(ab_matrix_dir_recover(&d, said, &error));
	assert_int_equal(error->code, AB_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_int_equal(rmdir(wl_copy), 0);
	assert_true(ab_matrix_dir_recover(&d, said, &error));
	assert_false(there(dir, AB_MATRIX_PROFILES));
	/* A --fresh cut short: some moved, the rest moved now by its stamp. */
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, NULL, &error));
	g_autofree char *json = g_build_filename(dir, AB_MATRIX_RESULTS_JSON, NULL);
	assert_true(g_file_set_contents(json, "{}\n", -1, NULL));
	g_autofree char *fresh = g_build_filename(dir, AB_MATRIX_FRESHING, NULL);
	assert_true(g_file_set_contents(fresh, "old-20261201T120000\n", -1, NULL));
	g_autofree char *moved = g_build_filename(dir, AB_MATRIX_DIGEST ".old-20261201T120000", NULL);
	assert_int_equal(rename(digest, moved), 0);
	g_string_truncate(said, 0);
	assert_true(ab_matrix_dir_recover(&d, said, &error));
	assert_non_null(strstr(said->str, "a --fresh in '"));
	assert_true(there(dir, AB_MATRIX_RESULTS_JSON ".old-20261201T120000"));
	assert_true(there(dir, AB_MATRIX_COPY ".old-20261201T120000"));
	assert_false(there(dir, AB_MATRIX_FRESHING));
	assert_true(ab_matrix_dir_check(&d, m->sha256, &st, &error));
	assert_int_equal(st, AB_MATRIX_DIR_NEW);
	/* A stamp that is not one is refused, not used as a name. */
	assert_true(g_file_set_contents(fresh, "../../etc\n", -1, NULL));
	assert_false(ab_matrix_dir_recover(&d, said, &error));
	g_clear_error(&error);
	ab_matrix_dir_clear(&d);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* The profiles' copies and digests, a changed one found, --fresh moving
 * their directory aside; results.csv made anew; the visit in flight. */
static void test_profiles_in_dir(void **state)
{
	(void)state;
	g_autofree char *tmp = g_dir_make_tmp("test-matrix.XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(tmp, "out", NULL);
	g_autoptr(GError) error = NULL;
	struct ab_matrix_dir d;
	ab_matrix_dir_init(&d);
	assert_true(ab_matrix_dir_open(&d, dir, TRUE, &error));
	g_autoptr(ab_matrix) m = parse_ok(demo);
	g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func(ab_matrix_profile_free);
	g_ptr_array_add(profiles, profile("/x/w.ini", "[step a]\nsize = 64m\n"));
	g_ptr_array_add(profiles, profile("bonnie", "[step bonnie]\n"));
	assert_true(ab_matrix_dir_start(&d, demo, strlen(demo), m->sha256, profiles, &error));
	g_autofree char *copy = g_build_filename(dir, AB_MATRIX_PROFILES, "w.ini", NULL);
	g_autofree char *copied = read_text(copy);
	assert_string_equal(copied, "[step a]\nsize = 64m\n");
	g_autofree char *sums = g_build_filename(dir, AB_MATRIX_DIGEST, NULL);
	g_autofree char *sum_text = read_text(sums);
	const struct ab_matrix_profile *bonnie = g_ptr_array_index(profiles, 1);
	g_autofree char *line = g_strdup_printf("%s  matrix.workloads/bonnie.ini\n", bonnie->sha256);
	assert_non_null(strstr(sum_text, line));
	enum ab_matrix_dir_state s;
	assert_true(ab_matrix_dir_check(&d, m->sha256, &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_SAME);
	const struct ab_matrix_profile *changed = (void *)1;
	gboolean copy_changed = TRUE;
	/* Not held: no copy can be read, so each counts as changed. */
	assert_true(ab_matrix_dir_profile_changed(&d, profiles, &changed, &copy_changed, &error));
	assert_ptr_equal(changed, profiles->pdata[0]);
	assert_true(copy_changed);
	assert_true(ab_matrix_dir_hold_profiles(&d, &error));
	g_autofree char *held = ab_matrix_dir_profile_path(&d, "matrix.workloads/w.ini");
	g_autofree char *want = g_strdup_printf("/proc/self/fd/%d/w.ini", d.profiles_fd);
	assert_string_equal(held, want);
	assert_true(ab_matrix_dir_profile_changed(&d, profiles, &changed, &copy_changed, &error));
	assert_null(changed);
	assert_false(copy_changed);
	/* A symbolic link in its place (a copy that matches where it points)
	 * is refused; so is a directory others may write to. */
	g_autofree char *wl = g_build_filename(dir, AB_MATRIX_PROFILES, NULL);
	g_autofree char *wl_real = g_build_filename(tmp, "wl", NULL);
	struct ab_matrix_dir planted;
	ab_matrix_dir_init(&planted);
	planted.fd = d.fd;
	planted.path = d.path;
	assert_int_equal(rename(wl, wl_real), 0);
	assert_int_equal(symlink(wl_real, wl), 0);
	assert_false(ab_matrix_dir_hold_profiles(&planted, &error));
	assert_int_equal(error->code, AB_ERROR_UNSAFE);
	assert_non_null(strstr(error->message, "matrix.workloads': a symbolic link"));
	g_clear_error(&error);
	assert_int_equal(unlink(wl), 0);
	assert_int_equal(rename(wl_real, wl), 0);
	assert_int_equal(chmod(wl, 0777), 0);
	assert_false(ab_matrix_dir_hold_profiles(&planted, &error));
	assert_int_equal(error->code, AB_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_int_equal(chmod(wl, 0755), 0);
	assert_int_equal(planted.profiles_fd, -1);
	/* One byte more in the profile: that one is named. */
	g_autoptr(GPtrArray) edited = g_ptr_array_new_with_free_func(ab_matrix_profile_free);
	g_ptr_array_add(edited, profile("/x/w.ini", "[step a]\nsize = 128m\n"));
	g_ptr_array_add(edited, profile("bonnie", "[step bonnie]\n"));
	assert_true(ab_matrix_dir_profile_changed(&d, edited, &changed, &copy_changed, &error));
	assert_ptr_equal(changed, edited->pdata[0]);
	assert_false(copy_changed);
	/* The copy edited in DIR instead. */
	assert_true(g_file_set_contents(copy, "[step a]\nsize = 1g\n", -1, NULL));
	assert_true(ab_matrix_dir_profile_changed(&d, profiles, &changed, &copy_changed, &error));
	assert_ptr_equal(changed, profiles->pdata[0]);
	assert_true(copy_changed);
	assert_true(g_file_set_contents(copy, "[step a]\nsize = 64m\n", -1, NULL));
	/* A profile the first start did not have. */
	g_ptr_array_add(profiles, profile("mirror", "[step m]\n"));
	assert_true(ab_matrix_dir_profile_changed(&d, profiles, &changed, &copy_changed, &error));
	assert_ptr_equal(changed, profiles->pdata[2]);

	/* results.csv: left alone when right, made anew when not. */
	struct ab_matrix_mend mend;
	assert_true(ab_matrix_dir_open_results(&d, &mend, &error));
	unsigned old_lines;
	assert_true(ab_matrix_dir_sync_csv(&d, "", 0, &old_lines, &error));
	assert_int_equal(old_lines, G_MAXUINT);
	assert_true(ab_matrix_dir_append(&d, d.csv_fd, "a\ntorn", &error));
	assert_true(ab_matrix_dir_sync_csv(&d, "a\nb\n", 4, &old_lines, &error));
	assert_int_equal(old_lines, 2);
	assert_true(ab_matrix_dir_append(&d, d.csv_fd, "c\n", &error)); /* to the new file */
	g_autofree char *csv = g_build_filename(dir, AB_MATRIX_RESULTS_CSV, NULL);
	g_autofree char *csv_text = read_text(csv);
	assert_string_equal(csv_text, "a\nb\nc\n");

	/* The visit in flight. */
	g_autofree char *id = NULL, *sd = NULL;
	assert_true(ab_matrix_dir_get_visit(&d, &id, &sd, &error));
	assert_null(id);
	assert_true(ab_matrix_dir_set_visit(&d, "261204-1-abcdef", "/var/lib/a b\nc", &error));
	assert_true(ab_matrix_dir_get_visit(&d, &id, &sd, &error));
	assert_string_equal(id, "261204-1-abcdef");
	assert_string_equal(sd, "/var/lib/a b\nc");
	ab_matrix_dir_clear_visit(&d);
	g_clear_pointer(&id, g_free);
	g_clear_pointer(&sd, g_free);
	assert_true(ab_matrix_dir_get_visit(&d, &id, &sd, &error));
	assert_null(id);
	/* Not what a matrix writes: refused, not guessed at. */
	g_autofree char *rec = g_build_filename(dir, AB_MATRIX_VISIT, NULL);
	assert_true(g_file_set_contents(rec, "../../etc\n/x\n", -1, NULL));
	assert_false(ab_matrix_dir_get_visit(&d, &id, &sd, &error));
	g_clear_error(&error);
	unlink(rec);

	/* --fresh moves the copies' directory aside with the files. */
	assert_true(ab_matrix_dir_move_aside(&d, &error));
	assert_true(ab_matrix_dir_check(&d, m->sha256, &s, &error));
	assert_int_equal(s, AB_MATRIX_DIR_NEW);
	g_autoptr(GDir) gd = g_dir_open(dir, 0, NULL);
	unsigned aside = 0;
	for (const char *n; (n = g_dir_read_name(gd));)
		aside += g_str_has_prefix(n, AB_MATRIX_PROFILES ".old-");
	assert_int_equal(aside, 1);
	ab_matrix_dir_clear(&d);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_done_read),
		cmocka_unit_test(test_done_read_retried),
		cmocka_unit_test(test_digests_parse),
		cmocka_unit_test(test_profiles_in_dir),
		cmocka_unit_test(test_own_copy_name),
		cmocka_unit_test(test_recover),
		cmocka_unit_test(test_dir_state),
		cmocka_unit_test(test_results_dir),
	};
	return cmocka_run_group_tests_name("matrix-dir", tests, NULL, NULL);
}
