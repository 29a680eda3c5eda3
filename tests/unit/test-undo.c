/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo stack: LIFO order, the journal, recovery after a crash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../fs-setup/undo.h"
#include "../../src/error.h"

static GString *trace;
static const char *fail_arg;

static gboolean record(const struct ab_undo_step *step, GError **error)
{
	if (fail_arg && g_str_equal(step->arg, fail_arg)) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "busy");
		return FALSE;
	}
	g_string_append_printf(trace, "%s:%s;", ab_undo_kind_name(step->kind), step->arg);
	return TRUE;
}

static int setup(void **state)
{
	*state = g_dir_make_tmp("ab-undo-XXXXXX", NULL);
	trace = g_string_new(NULL);
	fail_arg = NULL;
	return 0;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	g_free(*state);
	g_string_free(trace, TRUE);
	return 0;
}

static void test_lifo_and_journal_removed(void **state)
{
	const char *dir = *state;
	struct ab_undo u;
	assert_true(ab_undo_open(&u, dir, NULL));
	u.exec = record;
	assert_true(ab_undo_push(&u, AB_UNDO_UNLINK, "/img/a", NULL));
	assert_true(ab_undo_push(&u, AB_UNDO_LOOP_DETACH, "/dev/loop7", NULL));
	assert_true(ab_undo_push(&u, AB_UNDO_UMOUNT, "/mnt/with\ttab and\nnewline", NULL));
	g_autofree char *path = g_strdup(u.journal_path);
	assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
	/* The journal alone gives back the steps, odd characters included. */
	g_autoptr(GPtrArray) read_back = ab_undo_journal_read(path, NULL);
	assert_int_equal(read_back->len, 3);
	assert_string_equal(((struct ab_undo_step *)read_back->pdata[2])->arg, "/mnt/with\ttab and\nnewline");
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	assert_string_equal(trace->str, "umount:/mnt/with\ttab and\nnewline;loop-detach:/dev/loop7;unlink:/img/a;");
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	ab_undo_clear(&u);
}

static void test_failure_keeps_going_and_keeps_journal(void **state)
{
	const char *dir = *state;
	struct ab_undo u;
	assert_true(ab_undo_open(&u, dir, NULL));
	u.exec = record;
	ab_undo_push(&u, AB_UNDO_UNLINK, "first", NULL);
	ab_undo_push(&u, AB_UNDO_UMOUNT, "stuck", NULL);
	ab_undo_push(&u, AB_UNDO_RMDIR, "last", NULL);
	fail_arg = "stuck";
	GError *e = NULL;
	g_autoptr(GString) report = g_string_new(NULL);
	assert_false(ab_undo_unwind(&u, report, &e));
	assert_non_null(strstr(e->message, "'stuck'"));
	g_error_free(e);
	assert_string_equal(trace->str, "rmdir:last;unlink:first;");
	assert_non_null(strstr(report->str, "failed: umount stuck: busy"));
	g_autofree char *path = g_strdup(u.journal_path);
	assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
	/* The journal knows what is left: only the stuck step. */
	g_autoptr(GPtrArray) left = ab_undo_journal_read(path, NULL);
	guint pending = 0;
	for (guint i = 0; i < left->len; i++)
		pending += !((struct ab_undo_step *)left->pdata[i])->done;
	assert_int_equal(pending, 1);
	ab_undo_clear(&u);
}

static void test_recover_dead_run(void **state)
{
	const char *dir = *state;
	/* A journal left by a process that no longer exists, with one step
	 * done and a torn last line from a power cut. */
	g_autofree char *path = g_strdup_printf("%s/journal-%d", dir, 999999);
	const char *text = "arraybench-undo 1 pid=999999\n"
			   "push\tunlink\t/images/m0.img\n"
			   "push\tloop-detach\t/dev/loop3\n"
			   "push\tumount\t/mnt/ab\n"
			   "done\t2\n"
			   "push\tmdadm-st";
	assert_true(g_file_set_contents(path, text, -1, NULL));
	/* And one from a live process (this one's parent), left alone. */
	g_autofree char *live = g_strdup_printf("%s/journal-%d", dir, (int)getppid());
	assert_true(g_file_set_contents(live, "arraybench-undo 1\npush\tunlink\t/x\n", -1, NULL));
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_string_equal(trace->str, "loop-detach:/dev/loop3;unlink:/images/m0.img;");
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(live, G_FILE_TEST_EXISTS));
	assert_non_null(strstr(report->str, "journal of run 999999"));
	assert_non_null(strstr(report->str, "still going"));
}

static void test_real_exec_files(void **state)
{
	const char *dir = *state;
	g_autofree char *sub = g_build_filename(dir, "sub", NULL);
	g_autofree char *file = g_build_filename(sub, "img", NULL);
	assert_int_equal(g_mkdir(sub, 0700), 0);
	assert_true(g_file_set_contents(file, "x", 1, NULL));
	struct ab_undo u;
	assert_true(ab_undo_open(&u, NULL, NULL)); /* no journal */
	ab_undo_push(&u, AB_UNDO_RMDIR, sub, NULL);
	ab_undo_push(&u, AB_UNDO_UNLINK, file, NULL);
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	assert_false(g_file_test(sub, G_FILE_TEST_EXISTS));
	/* Undoing what is already gone is not an error. */
	ab_undo_push(&u, AB_UNDO_UNLINK, file, NULL);
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	ab_undo_clear(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lifo_and_journal_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_keeps_going_and_keeps_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recover_dead_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_exec_files, setup, teardown),
	};
	return cmocka_run_group_tests_name("undo", tests, NULL, NULL);
}
