/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real undo of files, directories, a run's test directory and the
 * ranks' shared files/: it acts on the object the journal identified, and
 * leaves anything else alone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/options/config.h"
#include "../../src/options/steps.h"
#include "../../fs-setup/undo.h"
#include "../../src/base/error.h"
#include "../../src/runner/rundir.h"
#include "../../workloads/fileset.h"

static int setup(void **state)
{
	*state = g_dir_make_tmp("ab-exec-XXXXXX", NULL);
	return 0;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("chmod -R u+rwx '%s'; rm -rf '%s'", (char *)*state, (char *)*state);
	assert_int_equal(system(cmd), 0);
	g_free(*state);
	return 0;
}

static struct ab_undo_step *step(enum ab_undo_kind kind, const char *path, const char *detail,
				 const char *identify_from)
{
	struct ab_undo_step *s = g_new0(struct ab_undo_step, 1);
	s->kind = kind;
	s->path = g_strdup(path);
	s->detail = g_strdup(detail);
	s->owner = geteuid();
	struct stat st;
	if (identify_from) {
		assert_int_equal(lstat(identify_from, &st), 0);
		s->identified = TRUE;
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	return s;
}

static enum ab_undo_outcome run(struct ab_undo_step *s, const char *want_in_message)
{
	GError *e = NULL;
	enum ab_undo_outcome o = ab_undo_exec_real(s, &e);
	if (want_in_message && (!e || !strstr(e->message, want_in_message)))
		fail_msg("wanted '%s', got '%s'", want_in_message, e ? e->message : "no message");
	g_clear_error(&e);
	ab_undo_step_free(s);
	return o;
}

static void test_unlink(void **state)
{
	g_autofree char *img = g_build_filename(*state, "a.img", NULL);
	g_autofree char *other = g_build_filename(*state, "b.img", NULL);
	assert_true(g_file_set_contents(img, "", 0, NULL));
	/* The journal's image was replaced by another file of that name. */
	struct ab_undo_step *s = step(AB_UNDO_UNLINK, img, "0", img);
	assert_true(g_file_set_contents(other, "someone's data", -1, NULL));
	assert_int_equal(rename(other, img), 0);
	assert_int_equal(run(s, "another object has taken its name"), AB_UNDO_FOREIGN);
	assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
	/* The same file: removed; then it is absent. */
	assert_int_equal(run(step(AB_UNDO_UNLINK, img, NULL, img), NULL), AB_UNDO_UNDONE);
	assert_false(g_file_test(img, G_FILE_TEST_EXISTS));
	assert_int_equal(run(step(AB_UNDO_UNLINK, img, NULL, NULL), NULL), AB_UNDO_ABSENT);
	/* Never identified (killed right after creating it): ours if it is
	 * still empty or of the planned size, not if it holds other data. */
	assert_true(g_file_set_contents(img, "", 0, NULL));
	assert_int_equal(run(step(AB_UNDO_UNLINK, img, "4096", NULL), NULL), AB_UNDO_UNDONE);
	assert_true(g_file_set_contents(img, "not an image", -1, NULL));
	assert_int_equal(run(step(AB_UNDO_UNLINK, img, "4096", NULL), "size"), AB_UNDO_FOREIGN);
	/* A symlink by that name is not followed, not removed. */
	g_autofree char *link = g_build_filename(*state, "c.img", NULL);
	assert_int_equal(symlink(img, link), 0);
	assert_int_equal(run(step(AB_UNDO_UNLINK, link, NULL, NULL), "not a regular file"), AB_UNDO_FOREIGN);
	assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
	if (geteuid() == 0) {
		assert_int_equal(chown(img, 65534, 65534), 0);
		assert_int_equal(run(step(AB_UNDO_UNLINK, img, "12", NULL), "belongs to another user"), AB_UNDO_FOREIGN);
	}
}

static void test_rmdir(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "mnt", NULL);
	assert_int_equal(mkdir(dir, 0700), 0);
	struct ab_undo_step *s = step(AB_UNDO_RMDIR, dir, NULL, dir);
	/* Another directory takes its place (made while the first existed, so
	 * it cannot reuse its inode). */
	g_autofree char *other = g_build_filename(*state, "other", NULL);
	assert_int_equal(mkdir(other, 0700), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(rename(other, dir), 0);
	assert_int_equal(run(s, "another object"), AB_UNDO_FOREIGN);
	g_autofree char *inside = g_build_filename(dir, "x", NULL);
	assert_true(g_file_set_contents(inside, "x", -1, NULL));
	assert_int_equal(run(step(AB_UNDO_RMDIR, dir, NULL, dir), "not empty"), AB_UNDO_FOREIGN);
	assert_int_equal(unlink(inside), 0);
	assert_int_equal(run(step(AB_UNDO_RMDIR, dir, NULL, dir), NULL), AB_UNDO_UNDONE);
	assert_int_equal(run(step(AB_UNDO_RMDIR, dir, NULL, NULL), NULL), AB_UNDO_ABSENT);
}

static void touch(const char *dir, const char *rel)
{
	g_autofree char *p = g_build_filename(dir, rel, NULL);
	g_autofree char *parent = g_path_get_dirname(p);
	assert_int_equal(g_mkdir_with_parents(parent, 0700), 0);
	assert_true(g_file_set_contents(p, "x", -1, NULL));
}

/* After a crash, the run's directory loses exactly what a run makes:
 * files/, NNNNN/ and file-set names, never what someone else put there,
 * never through a symlink; the I/O file goes only if the run's workers
 * could have made it. */
static void test_run_dir(void **state)
{
	const char *top = *state;
	int top_fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct ab_run_dir rd, again;
	ab_run_dir_init(&rd, top, "r-1");
	ab_run_dir_init(&again, top, "r-1");
	struct ab_undo u;
	assert_true(ab_undo_open(&u, NULL, NULL, NULL));
	assert_true(ab_run_dir_create(&rd, dup(top_fd), &u, FALSE, 0, 0, NULL));
	assert_int_equal(u.steps->len, 2); /* the directory, then the I/O file */
	struct stat claimed;
	assert_int_equal(lstat(rd.io_path, &claimed), 0);
	assert_true(S_ISREG(claimed.st_mode) && claimed.st_size == 0);
	/* A second run by the same id: a clash, nothing touched. */
	touch(rd.path, "keep-me");
	GError *e = NULL;
	assert_false(ab_run_dir_create(&again, dup(top_fd), &u, FALSE, 0, 0, &e));
	assert_non_null(strstr(e->message, "it exists already"));
	g_clear_error(&e);
	g_autofree char *keep = g_build_filename(rd.path, "keep-me", NULL);
	assert_int_equal(unlink(keep), 0);
	struct ab_undo_step *s = g_ptr_array_index(u.steps, 0), *io_step = g_ptr_array_index(u.steps, 1);
	assert_int_equal(io_step->kind, AB_UNDO_IO_FILE);
	assert_string_equal(io_step->path, rd.io_path);
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("1:0:0:3", &cfg, NULL));
	struct ab_file_set *set = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, TRUE, 9);
	for (uint32_t i = 0; i < set->count; i += 97)
		touch(rd.files_dir, ab_file_set_path(set, i));
	/* Strangers: a note at the top, a file in a subdirectory, a symlink
	 * named like a subdirectory that points at a directory to keep. */
	g_autofree char *outside = g_build_filename(top, "outside", NULL);
	touch(outside, "0000000001abc");
	touch(rd.path, "notes.txt");
	touch(rd.files_dir, "00001/README");
	g_autofree char *sym = g_build_filename(rd.files_dir, "00007", NULL);
	assert_int_equal(symlink(outside, sym), 0);
	assert_int_equal(ab_run_dir_undo(s, &e), AB_UNDO_FOREIGN);
	assert_non_null(strstr(e->message, "'notes.txt'"));
	assert_non_null(strstr(e->message, "'files/00001/README'"));
	assert_non_null(strstr(e->message, "'files/00007'"));
	g_clear_error(&e);
	/* Ours went, theirs stayed, the symlink's target is whole. */
	g_autofree char *first = g_build_filename(rd.files_dir, ab_file_set_path(set, 0), NULL);
	assert_false(g_file_test(first, G_FILE_TEST_EXISTS));
	g_autofree char *note = g_build_filename(rd.path, "notes.txt", NULL);
	g_autofree char *kept = g_build_filename(outside, "0000000001abc", NULL);
	assert_true(g_file_test(note, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(kept, G_FILE_TEST_EXISTS));
	/* Without the strangers it goes entirely. */
	assert_int_equal(unlink(note), 0);
	g_autofree char *readme = g_build_filename(rd.files_dir, "00001", "README", NULL);
	assert_int_equal(unlink(readme), 0);
	assert_int_equal(unlink(sym), 0);
	assert_int_equal(ab_run_dir_undo(s, NULL), AB_UNDO_UNDONE);
	assert_false(g_file_test(rd.path, G_FILE_TEST_EXISTS));
	assert_int_equal(ab_run_dir_undo(s, NULL), AB_UNDO_ABSENT);
	/* Another directory by the run dir's name is not ours. */
	touch(outside, "marker");
	assert_int_equal(rename(outside, rd.path), 0);
	assert_int_equal(ab_run_dir_undo(s, NULL), AB_UNDO_FOREIGN);
	g_autofree char *marker = g_build_filename(rd.path, "marker", NULL);
	assert_true(g_file_test(marker, G_FILE_TEST_EXISTS));
	/* The I/O file: its name was claimed (an empty file) when the run
	 * directory was made; a symlink or a file with other links is not one
	 * the workers made; a plain file of the run's user is. */
	assert_int_equal(ab_io_file_undo(io_step, NULL), AB_UNDO_UNDONE);
	assert_int_equal(ab_io_file_undo(io_step, NULL), AB_UNDO_ABSENT);
	assert_int_equal(symlink(marker, rd.io_path), 0);
	assert_int_equal(ab_io_file_undo(io_step, NULL), AB_UNDO_FOREIGN);
	assert_int_equal(unlink(rd.io_path), 0);
	assert_int_equal(link(marker, rd.io_path), 0);
	assert_int_equal(ab_io_file_undo(io_step, NULL), AB_UNDO_FOREIGN);
	assert_int_equal(unlink(rd.io_path), 0);
	assert_true(g_file_set_contents(rd.io_path, "data", -1, NULL));
	assert_int_equal(ab_io_file_undo(io_step, NULL), AB_UNDO_UNDONE);
	assert_false(g_file_test(rd.io_path, G_FILE_TEST_EXISTS));
	ab_file_set_free(set);
	ab_config_clear(&cfg);
	ab_undo_clear(&u);
	ab_run_dir_clear(&rd);
	ab_run_dir_clear(&again);
	close(top_fd);
}

/* --mpi-layout shared after a crash: the ranks' files/ waits while a
 * rank-NNNNN is there (its journal first), then loses only what file sets
 * make, never through a symlink; the ranks' directory's rmdir waits for
 * both, and then goes.  A set dropped live takes its names, not the tree
 * the other ranks still use. */
static void test_shared_files(void **state)
{
	g_autofree char *ranks = g_build_filename(*state, "arraybench.r-3", NULL);
	g_autofree char *files = g_build_filename(ranks, "files", NULL);
	g_autofree char *rank1 = g_build_filename(ranks, "rank-00001", NULL);
	assert_int_equal(mkdir(ranks, 0755), 0);
	assert_int_equal(mkdir(rank1, 0755), 0);
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("1:0:0:2", &cfg, NULL));
	struct ab_step st = ab_step_from_config(&cfg, NULL);
	struct ab_file_set *mine = ab_file_set_new_at(&st, FALSE, 3, 0, TRUE);
	struct ab_file_set *theirs = ab_file_set_new_at(&st, FALSE, 3, 1024, TRUE);
	for (uint32_t i = 0; i < 1024; i += 51) {
		touch(files, ab_file_set_path(mine, i));
		touch(files, ab_file_set_path(theirs, i));
	}
	/* Live: a set dropped takes its own names, and no directory. */
	struct ab_run_dir shared;
	assert_true(ab_run_dir_open_other(&shared, *state, "r-3", NULL));
	ab_run_dir_remove_file_set(&shared, mine);
	g_autofree char *my_first = g_build_filename(files, ab_file_set_path(mine, 0), NULL);
	g_autofree char *their_first = g_build_filename(files, ab_file_set_path(theirs, 0), NULL);
	assert_false(g_file_test(my_first, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(their_first, G_FILE_TEST_EXISTS));
	ab_run_dir_clear(&shared);
	/* A symlink to a tree to keep, named like a subdirectory. */
	g_autofree char *outside = g_build_filename(*state, "outside", NULL);
	touch(outside, "0000000001abc");
	g_autofree char *sym = g_build_filename(files, "00007", NULL);
	assert_int_equal(symlink(outside, sym), 0);
	assert_int_equal(run(step(AB_UNDO_SHARED_FILES, ranks, NULL, ranks), "ranks' directories are still in it"),
			 AB_UNDO_FAILED);
	assert_true(g_file_test(their_first, G_FILE_TEST_EXISTS));
	assert_int_equal(run(step(AB_UNDO_RMDIR, ranks, AB_UNDO_RANKS_DIR, ranks), "ranks' directories"),
			 AB_UNDO_FAILED);
	assert_int_equal(rmdir(rank1), 0);
	assert_int_equal(run(step(AB_UNDO_SHARED_FILES, ranks, NULL, ranks), "'files/00007'"), AB_UNDO_FOREIGN);
	assert_false(g_file_test(their_first, G_FILE_TEST_EXISTS));
	g_autofree char *kept = g_build_filename(outside, "0000000001abc", NULL);
	assert_true(g_file_test(kept, G_FILE_TEST_EXISTS));
	/* With no rank left, a stranger in files/ keeps the directory, and
	 * the rmdir stops waiting: it is left alone. */
	assert_int_equal(run(step(AB_UNDO_RMDIR, ranks, AB_UNDO_RANKS_DIR, ranks), "not empty"), AB_UNDO_FOREIGN);
	assert_int_equal(unlink(sym), 0);
	assert_int_equal(run(step(AB_UNDO_SHARED_FILES, ranks, NULL, ranks), NULL), AB_UNDO_UNDONE);
	assert_false(g_file_test(files, G_FILE_TEST_EXISTS));
	assert_int_equal(run(step(AB_UNDO_RMDIR, ranks, AB_UNDO_RANKS_DIR, ranks), NULL), AB_UNDO_UNDONE);
	assert_int_equal(run(step(AB_UNDO_SHARED_FILES, ranks, NULL, NULL), NULL), AB_UNDO_ABSENT);
	/* files/ as a symlink: never followed. */
	assert_int_equal(mkdir(ranks, 0755), 0);
	assert_int_equal(symlink(outside, files), 0);
	assert_int_equal(run(step(AB_UNDO_SHARED_FILES, ranks, NULL, ranks), "files"), AB_UNDO_FOREIGN);
	assert_true(g_file_test(kept, G_FILE_TEST_EXISTS));
	ab_file_set_free(mine);
	ab_file_set_free(theirs);
	ab_config_clear(&cfg);
}

/* The live path: the suite removes a file set by its names only. */
static void test_remove_file_set_by_name(void **state)
{
	int top_fd = open(*state, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct ab_run_dir rd;
	ab_run_dir_init(&rd, *state, "r-2");
	struct ab_undo u;
	assert_true(ab_undo_open(&u, NULL, NULL, NULL));
	assert_true(ab_run_dir_create(&rd, dup(top_fd), &u, FALSE, 0, 0, NULL));
	struct ab_config cfg;
	ab_config_init(&cfg);
	assert_true(ab_parse_files_spec("1:0:0:2", &cfg, NULL));
	struct ab_file_set *set = ab_file_set_new((struct ab_step[]){ ab_step_from_config(&cfg, NULL) }, FALSE, 3);
	for (uint32_t i = 0; i < set->count; i++)
		touch(rd.files_dir, ab_file_set_path(set, i));
	touch(rd.files_dir, "00000/0000000001zz-not-in-the-set");
	ab_run_dir_remove_file_set(&rd, set);
	g_autofree char *sub = g_build_filename(rd.files_dir, "00001", NULL);
	g_autofree char *stranger = g_build_filename(rd.files_dir, "00000", "0000000001zz-not-in-the-set", NULL);
	assert_false(g_file_test(sub, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(stranger, G_FILE_TEST_EXISTS));
	/* The directory's name swapped for a symlink to another tree with the
	 * same names: removal goes on in the directory the run made. */
	g_autofree char *decoy = g_build_filename(*state, "decoy", NULL);
	g_autofree char *moved = g_build_filename(*state, "moved", NULL);
	for (uint32_t i = 0; i < set->count; i++) {
		g_autofree char *rel = g_build_filename("files", ab_file_set_path(set, i), NULL);
		touch(decoy, rel);
		touch(rd.path, rel);
	}
	assert_int_equal(rename(rd.path, moved), 0);
	assert_int_equal(symlink(decoy, rd.path), 0);
	ab_run_dir_remove_file_set(&rd, set);
	g_autofree char *decoy_first = g_build_filename(decoy, "files", ab_file_set_path(set, 0), NULL);
	g_autofree char *moved_first = g_build_filename(moved, "files", ab_file_set_path(set, 0), NULL);
	assert_true(g_file_test(decoy_first, G_FILE_TEST_EXISTS));
	assert_false(g_file_test(moved_first, G_FILE_TEST_EXISTS));
	ab_file_set_free(set);
	ab_config_clear(&cfg);
	ab_undo_clear(&u);
	ab_run_dir_clear(&rd);
	close(top_fd);
}

int main(void)
{
	ab_undo_exec_set_run_files(ab_run_files_undo);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rmdir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_file_set_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_files, setup, teardown),
	};
	return cmocka_run_group_tests_name("undo-exec", tests, NULL, NULL);
}
