/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo stack: LIFO order, the write-ahead journal and its format,
 * exclusive creation, the lock, and a parser that survives any input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../fs-setup/journal.h"
#include "../../fs-setup/undo.h"
#include "../../src/base/error.h"

static GString *trace;
static const char *fail_path;

static enum ab_undo_outcome record(const struct ab_undo_step *step, GError **error)
{
	if (fail_path && g_str_equal(step->path, fail_path)) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "busy");
		return AB_UNDO_FAILED;
	}
	g_string_append_printf(trace, "%s:%s;", ab_undo_kind_name(step->kind), step->path);
	return AB_UNDO_UNDONE;
}

static int setup(void **state)
{
	*state = g_dir_make_tmp("ab-undo-XXXXXX", NULL);
	trace = g_string_new(NULL);
	fail_path = NULL;
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

static GPtrArray *read_journal(const char *path, struct ab_journal_owner *owner)
{
	g_autofree char *text = NULL;
	gsize len;
	assert_true(g_file_get_contents(path, &text, &len, NULL));
	GPtrArray *steps = NULL;
	g_autofree char *why = NULL;
	assert_int_equal(ab_journal_parse(text, len, owner, &steps, &why), AB_JOURNAL_OK);
	return steps;
}

static void test_lifo_and_journal_removed(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "state", NULL);
	struct ab_undo u;
	assert_true(ab_undo_open(&u, dir, "run-1", NULL));
	u.exec = record;
	struct stat id = { .st_dev = makedev(254, 3), .st_ino = 77 };
	assert_non_null(ab_undo_intend(&u, AB_UNDO_UNLINK, "/img/a", "1024", NULL, NULL));
	assert_non_null(ab_undo_intend(&u, AB_UNDO_LOOP_DETACH, "/img/a", NULL, &id, NULL));
	struct ab_undo_step *mnt = ab_undo_intend(&u, AB_UNDO_UMOUNT, "/mnt/with\ttab and\nnewline", "/dev/x", NULL, NULL);
	assert_non_null(mnt);
	assert_true(ab_undo_identify(&u, mnt, &id, NULL));
	g_autofree char *path = g_strdup(u.journal_path);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* The journal alone gives back the steps, identities and odd
	 * characters included, and who wrote it. */
	struct ab_journal_owner owner;
	g_autoptr(GPtrArray) back = read_journal(path, &owner);
	assert_string_equal(owner.run_id, "run-1");
	assert_int_equal(owner.process.pid, getpid());
	assert_int_equal(owner.uid, geteuid());
	assert_int_equal(back->len, 3);
	const struct ab_undo_step *s0 = back->pdata[0], *s1 = back->pdata[1], *s2 = back->pdata[2];
	assert_string_equal(s0->detail, "1024");
	assert_false(s0->identified);
	assert_true(s1->identified && s1->dev == makedev(254, 3) && s1->ino == 77);
	assert_string_equal(s2->path, "/mnt/with\ttab and\nnewline");
	assert_true(s2->identified);
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	assert_string_equal(trace->str, "umount:/mnt/with\ttab and\nnewline;loop-detach:/img/a;unlink:/img/a;");
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	ab_undo_clear(&u);
	/* Nothing else is left in the state directory: no hidden journal. */
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	assert_null(g_dir_read_name(d));
}

static void test_failure_keeps_going_and_keeps_journal(void **state)
{
	struct ab_undo u;
	assert_true(ab_undo_open(&u, *state, "run-2", NULL));
	u.exec = record;
	ab_undo_intend(&u, AB_UNDO_UNLINK, "/first", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_UMOUNT, "/stuck", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_RMDIR, "/last", NULL, NULL, NULL);
	fail_path = "/stuck";
	GError *e = NULL;
	g_autoptr(GString) report = g_string_new(NULL);
	assert_false(ab_undo_unwind(&u, report, &e));
	assert_non_null(strstr(e->message, "'/stuck'"));
	g_error_free(e);
	assert_string_equal(trace->str, "rmdir:/last;unlink:/first;");
	assert_non_null(strstr(report->str, "failed: umount /stuck: busy"));
	g_autofree char *path = g_strdup(u.journal_path);
	/* The journal knows what is left: only the stuck step. */
	struct ab_journal_owner owner;
	g_autoptr(GPtrArray) left = read_journal(path, &owner);
	guint pending = 0;
	for (guint i = 0; i < left->len; i++)
		pending += !((struct ab_undo_step *)left->pdata[i])->done;
	assert_int_equal(pending, 1);
	ab_undo_clear(&u);
	assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
}

/* Undoing the newer steps first (a rank's own, before the directory the
 * ranks share): the journal then marks those done, by their place in the
 * whole stack, and the older ones are still to undo. */
static void test_unwind_to_keeps_the_older(void **state)
{
	struct ab_undo u;
	assert_true(ab_undo_open(&u, *state, "run-8", NULL));
	u.exec = record;
	ab_undo_intend(&u, AB_UNDO_RMDIR, "/shared", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_RMDIR, "/shared/rank-00001", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_UNLINK, "/shared/rank-00001/io", NULL, NULL, NULL);
	assert_true(ab_undo_unwind_to(&u, 1, NULL, NULL));
	assert_string_equal(trace->str, "unlink:/shared/rank-00001/io;rmdir:/shared/rank-00001;");
	g_autofree char *path = g_strdup(u.journal_path);
	struct ab_journal_owner owner;
	g_autoptr(GPtrArray) left = read_journal(path, &owner);
	assert_int_equal(left->len, 3);
	assert_false(((struct ab_undo_step *)left->pdata[0])->done);
	assert_true(((struct ab_undo_step *)left->pdata[1])->done);
	assert_true(((struct ab_undo_step *)left->pdata[2])->done);
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	assert_string_equal(trace->str, "unlink:/shared/rank-00001/io;rmdir:/shared/rank-00001;rmdir:/shared;");
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	ab_undo_clear(&u);
}

/* Outcomes other than UNDONE: absent and foreign are reported, and both
 * count as finished. */
static enum ab_undo_outcome mixed(const struct ab_undo_step *step, GError **error)
{
	if (g_str_has_prefix(step->path, "/foreign")) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "inode differs");
		return AB_UNDO_FOREIGN;
	}
	return g_str_has_prefix(step->path, "/absent") ? AB_UNDO_ABSENT : AB_UNDO_UNDONE;
}

static void test_outcomes(void **state)
{
	struct ab_undo u;
	assert_true(ab_undo_open(&u, *state, "run-3", NULL));
	u.exec = mixed;
	ab_undo_intend(&u, AB_UNDO_UNLINK, "/absent", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_UNLINK, "/foreign", NULL, NULL, NULL);
	ab_undo_intend(&u, AB_UNDO_UNLINK, "/ours", NULL, NULL, NULL);
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_unwind(&u, report, NULL));
	assert_string_equal(report->str, "undone: unlink /ours\nleft alone: unlink /foreign: inode differs\n"
					 "nothing to undo: unlink /absent (not there)\n");
	ab_undo_clear(&u);
}

static void test_write_ahead_needs_the_journal(void **state)
{
	struct ab_undo u;
	assert_true(ab_undo_open(&u, *state, "run-4", NULL));
	/* A relative path would mean something else to cleanup. */
	GError *e = NULL;
	assert_null(ab_undo_intend(&u, AB_UNDO_UNLINK, "img/a", NULL, NULL, &e));
	assert_non_null(strstr(e->message, "'img/a'"));
	g_clear_error(&e);
	/* A journal that cannot be written means the step must not be taken. */
	close(u.journal_fd);
	u.journal_fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	assert_null(ab_undo_intend(&u, AB_UNDO_UNLINK, "/img/a", NULL, NULL, &e));
	assert_int_equal(e->code, AB_ERROR_SKIPPED);
	g_clear_error(&e);
	assert_int_equal(u.steps->len, 0);
	ab_undo_clear(&u);
}

static void test_journal_is_exclusive_and_locked(void **state)
{
	const char *dir = *state;
	struct ab_undo u, again;
	assert_true(ab_undo_open(&u, dir, "run-5", NULL));
	/* Locked for the run's whole life. */
	int fd = open(u.journal_path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), -1);
	close(fd);
	/* The same run id twice: refused, the first journal untouched. */
	GError *e = NULL;
	assert_false(ab_undo_open(&again, dir, "run-5", &e));
	assert_non_null(strstr(e->message, "run id 'run-5' is taken"));
	g_clear_error(&e);
	ab_undo_clear(&again);
	struct stat st;
	assert_int_equal(stat(u.journal_path, &st), 0);
	assert_true(st.st_size > 0);
	ab_undo_clear(&u);
	/* A symlink planted at the journal's name, or at its hidden name, is
	 * neither followed nor replaced. */
	g_autofree char *victim = g_build_filename(dir, "victim", NULL);
	assert_true(g_file_set_contents(victim, "keep", -1, NULL));
	g_autofree char *link1 = g_build_filename(dir, "journal-run-6", NULL);
	g_autofree char *link2 = g_build_filename(dir, ".journal-run-7", NULL);
	assert_int_equal(symlink(victim, link1), 0);
	assert_int_equal(symlink(victim, link2), 0);
	assert_false(ab_undo_open(&again, dir, "run-6", &e));
	g_clear_error(&e);
	ab_undo_clear(&again);
	assert_false(ab_undo_open(&again, dir, "run-7", &e));
	g_clear_error(&e);
	ab_undo_clear(&again);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(victim, &text, NULL, NULL));
	assert_string_equal(text, "keep");
}

static const char valid[] = AB_JOURNAL_MAGIC "\trun=r-1\tpid=4242\tstart=99\tboot=b-1\tuid=0\n"
			    "intent\tunlink\t/var/tmp/arraybench-r-1-0.img\t1024\n"
			    "ident\t0\t8:1\t12\n"
			    "intent\tloop-detach\t/var/tmp/arraybench-r-1-0.img\t\t8:1\t12\n"
			    "intent\tumount\t/tmp/m\t/dev/loop3\n"
			    "done\t2\n";

static enum ab_journal_state parse(const char *text, GPtrArray **steps)
{
	struct ab_journal_owner owner;
	g_autofree char *why = NULL;
	enum ab_journal_state st = ab_journal_parse(text, strlen(text), &owner, steps, &why);
	assert_true(st == AB_JOURNAL_OK ? why == NULL : why != NULL);
	return st;
}

static void test_journal_parse(void **state)
{
	(void)state;
	g_autoptr(GPtrArray) steps = NULL;
	assert_int_equal(parse(valid, &steps), AB_JOURNAL_OK);
	assert_int_equal(steps->len, 3);
	const struct ab_undo_step *s = steps->pdata[1];
	assert_int_equal(s->kind, AB_UNDO_LOOP_DETACH);
	assert_true(s->identified && s->ino == 12);
	assert_true(((struct ab_undo_step *)steps->pdata[2])->done);
	/* A torn last line (power cut mid-write) is not an event. */
	g_autofree char *torn = g_strconcat(valid, "intent\tumount\t/tmp/n", NULL);
	g_clear_pointer(&steps, g_ptr_array_unref);
	assert_int_equal(parse(torn, &steps), AB_JOURNAL_OK);
	assert_int_equal(steps->len, 3);
	g_clear_pointer(&steps, g_ptr_array_unref);
	assert_int_equal(parse("", &steps), AB_JOURNAL_EMPTY);
	assert_int_equal(parse(AB_JOURNAL_MAGIC "\trun=r", &steps), AB_JOURNAL_EMPTY);
	const char *corrupt[] = {
		"arraybench-undo 1 pid=3\n",
		AB_JOURNAL_MAGIC "\trun=r-1\tpid=1\n", /* fields missing */
		AB_JOURNAL_MAGIC "\trun=../x\tpid=1\tstart=1\tboot=b\tuid=0\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\tcolour=red\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\nintent\tunlink\timg/relative\t\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\nintent\tformat\t/dev/sda\t\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\ndone\t0\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\nintent\tunlink\t/a\t\nident\t0\t8\t1\n",
		AB_JOURNAL_MAGIC "\trun=r\tpid=1\tstart=1\tboot=b\tuid=0\nrm -rf /\n",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(corrupt); i++) {
		assert_int_equal(parse(corrupt[i], &steps), AB_JOURNAL_CORRUPT);
		assert_null(steps);
	}
	/* A NUL byte inside. */
	struct ab_journal_owner owner;
	g_autofree char *why = NULL;
	assert_int_equal(ab_journal_parse(valid, sizeof(valid), &owner, &steps, &why), AB_JOURNAL_CORRUPT);
}

/* Random damage to a valid journal: the parser never crashes (ASan and
 * UBSan watch the second run of this test), and whatever it accepts is a
 * list of known kinds on absolute paths. */
static void test_journal_parse_fuzz(void **state)
{
	(void)state;
	GRand *rand = g_rand_new_with_seed(20261203);
	const char alphabet[] = "\t\n:=/\\0123456789abcdefintentidentdone-";
	guint accepted = 0;
	for (int round = 0; round < 20000; round++) {
		GString *t = g_string_new(valid);
		int edits = g_rand_int_range(rand, 1, 6);
		for (int e = 0; e < edits && t->len; e++) {
			gsize at = (gsize)g_rand_int_range(rand, 0, (gint32)t->len);
			switch (g_rand_int_range(rand, 0, 4)) {
			case 0:
				t->str[at] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
				break;
			case 1: {
				gsize n = (gsize)g_rand_int_range(rand, 1, 12);
				g_string_erase(t, (gssize)at, (gssize)MIN(t->len - at, n));
				break;
			}
			case 2:
				g_string_insert_c(t, (gssize)at, alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)]);
				break;
			default:
				g_string_truncate(t, at);
			}
		}
		struct ab_journal_owner owner;
		GPtrArray *steps = NULL;
		char *why = NULL;
		if (ab_journal_parse(t->str, t->len, &owner, &steps, &why) == AB_JOURNAL_OK) {
			accepted++;
			for (guint i = 0; i < steps->len; i++) {
				const struct ab_undo_step *s = steps->pdata[i];
				assert_true(s->kind < AB_UNDO_KIND_COUNT);
				assert_true(s->path[0] == '/');
			}
			g_ptr_array_unref(steps);
		} else {
			assert_null(steps);
		}
		g_free(why);
		g_string_free(t, TRUE);
	}
	/* Torn tails and harmless edits still parse: the fuzz reached both sides. */
	assert_true(accepted > 100 && accepted < 20000);
	g_rand_free(rand);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lifo_and_journal_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_keeps_going_and_keeps_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outcomes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwind_to_keeps_the_older, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_ahead_needs_the_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_is_exclusive_and_locked, setup, teardown),
		cmocka_unit_test(test_journal_parse),
		cmocka_unit_test(test_journal_parse_fuzz),
	};
	return cmocka_run_group_tests_name("undo", tests, NULL, NULL);
}
