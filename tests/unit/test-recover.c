/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench cleanup` against hostile state: journals it would not have
 * written (symlinked, loose, foreign), empty, torn, corrupt or misnamed
 * ones, live runs and pid reuse; and the trust rules of the state
 * directory itself.  The executor is a recorder: what it is called with is
 * all that cleanup would touch. */
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
#include <time.h>
#include <unistd.h>

#include "../../fs-setup/journal.h"
#include "../../fs-setup/liveness.h"
#include "../../fs-setup/recover.h"
#include "../../fs-setup/statedir.h"
#include "../../src/base/error.h"

static GString *trace;

static enum ab_undo_outcome record(const struct ab_undo_step *step, GError **error)
{
	g_string_append_printf(trace, "%s:%s;", ab_undo_kind_name(step->kind), step->path);
	return AB_UNDO_UNDONE;
}

static int setup(void **state)
{
	*state = g_dir_make_tmp("ab-recover-XXXXXX", NULL);
	trace = g_string_new(NULL);
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

/* A journal as a run would leave it: mode 0600, ours. */
static char *plant(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *path = g_build_filename(dir, name, NULL);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

static char *header(const char *run, int pid, guint64 start)
{
	struct ab_journal_owner o;
	memset(&o, 0, sizeof(o));
	g_strlcpy(o.run_id, run, sizeof(o.run_id));
	ab_process_id_of("", getpid(), &o.process); /* this boot's id */
	o.process.pid = pid;
	o.process.start_ticks = start;
	o.uid = geteuid();
	return ab_journal_header(&o);
}

static void test_recover_dead_runs_only(void **state)
{
	const char *dir = *state;
	struct ab_process_id me;
	assert_true(ab_process_id_of("", getpid(), &me));
	/* Dead: pid 999999 does not exist. */
	g_autofree char *h1 = header("dead-1", 999999, 5);
	g_autofree char *t1 = g_strconcat(h1, "intent\tunlink\t/images/m0.img\t\n", "intent\tloop-detach\t/images/m0.img\t\t7:0\t11\n",
					  "intent\tumount\t/mnt/ab\t/dev/loop3\n", "done\t2\n", "intent\tmdadm-st", NULL);
	g_autofree char *p1 = plant(dir, "journal-dead-1", t1, 0600);
	/* Pid reuse: our pid, but another start time, so another process. */
	g_autofree char *h2 = header("reused-2", getpid(), me.start_ticks + 1);
	g_autofree char *t2 = g_strconcat(h2, "intent\trmdir\t/mnt/reused\t\n", NULL);
	g_autofree char *p2 = plant(dir, "journal-reused-2", t2, 0600);
	/* Alive: this very process. */
	g_autofree char *h3 = header("live-3", getpid(), me.start_ticks);
	g_autofree char *t3 = g_strconcat(h3, "intent\tunlink\t/live\t\n", NULL);
	g_autofree char *p3 = plant(dir, "journal-live-3", t3, 0600);
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_string_equal(trace->str, "loop-detach:/images/m0.img;unlink:/images/m0.img;rmdir:/mnt/reused;");
	assert_false(g_file_test(p1, G_FILE_TEST_EXISTS));
	assert_false(g_file_test(p2, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(p3, G_FILE_TEST_EXISTS));
	assert_non_null(strstr(report->str, "journal of run dead-1 (pid 999999, gone): 2 step(s)"));
	assert_non_null(strstr(report->str, "skipped: run live-3 is still going"));
}

static void test_locked_journal_is_left(void **state)
{
	const char *dir = *state;
	g_autofree char *h = header("locked-1", 999999, 5);
	g_autofree char *t = g_strconcat(h, "intent\tunlink\t/x\t\n", NULL);
	g_autofree char *p = plant(dir, "journal-locked-1", t, 0600);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_string_equal(trace->str, "");
	assert_non_null(strstr(report->str, "is in use"));
	close(fd);
}

/* Journals it would not have written are reported and not read at all. */
static void test_hostile_journals_are_ignored(void **state)
{
	const char *dir = *state;
	g_autofree char *h = header("h", 999999, 5);
	g_autofree char *evil = g_strconcat(h, "intent\tunlink\t/etc/important\t\n", NULL);
	/* A symlink to a file that would parse as a journal. */
	g_autofree char *target = plant(dir, "elsewhere", evil, 0600);
	g_autofree char *link = g_build_filename(dir, "journal-h", NULL);
	assert_int_equal(symlink(target, link), 0);
	/* Loose modes: anyone might have written these. */
	g_autofree char *loose = plant(dir, "journal-loose", evil, 0644);
	g_autofree char *wide = plant(dir, "journal-wide", evil, 0666);
	/* Another user's, where we can make one (its header names its own
	 * run, so only the owner decides; as that owner it is acted on). */
	g_autofree char *fh = header("foreign", 999999, 5);
	g_autofree char *fevil = g_strconcat(fh, "intent\tunlink\t/etc/important\t\n", NULL);
	g_autofree char *foreign = plant(dir, "journal-foreign", fevil, 0600);
	gboolean root = geteuid() == 0;
	if (root)
		assert_int_equal(chown(foreign, 65534, 65534), 0);
	/* A directory and a fifo by a journal's name. */
	g_autofree char *sub = g_build_filename(dir, "journal-dir", NULL);
	g_autofree char *fifo = g_build_filename(dir, "journal-fifo", NULL);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	/* Nothing was acted on. */
	assert_string_equal(trace->str, root ? "" : "unlink:/etc/important;");
	assert_non_null(strstr(report->str, "journal-h' is not a journal arraybench wrote: it is a symbolic link"));
	assert_non_null(strstr(report->str, "journal-loose' is not a journal arraybench wrote: its mode 0644"));
	assert_non_null(strstr(report->str, "journal-wide' is not a journal arraybench wrote: its mode 0666"));
	assert_non_null(strstr(report->str, "journal-dir' is not a journal arraybench wrote: it is not a regular file"));
	assert_non_null(strstr(report->str, "journal-fifo' is not a journal arraybench wrote: it is not a regular file"));
	if (root)
		assert_non_null(strstr(report->str, "journal-foreign' is not a journal arraybench wrote: it belongs to uid 65534"));
	/* And all of them are still there, the symlink's target too. */
	assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
	assert_true(g_file_test(target, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(loose, G_FILE_TEST_EXISTS));
}

/* Empty, torn, corrupt and misnamed journals are moved aside once, with a
 * message, and never acted on; a second cleanup is quiet about them. */
static void test_broken_journals_are_moved_aside(void **state)
{
	const char *dir = *state;
	g_autofree char *h = header("named-1", 999999, 5);
	g_autofree char *misnamed = g_strconcat(h, "intent\tunlink\t/x\t\n", NULL);
	g_autofree char *corrupt = g_strconcat(h, "intent\tunlink\t/x\t\nrm -rf /\n", NULL);
	g_free(plant(dir, "journal-empty", "", 0600));
	g_free(plant(dir, "journal-torn", "arraybench-undo 2\trun=to", 0600));
	g_free(plant(dir, "journal-corrupt", corrupt, 0600));
	g_free(plant(dir, "journal-other", misnamed, 0600));
	/* Already one aside by that name: never overwritten. */
	g_free(plant(dir, "torn-journal-empty", "keep", 0600));
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_string_equal(trace->str, "");
	assert_non_null(strstr(report->str, "journal-empty': it is empty; arraybench does not act on it (now "
					    "'torn-journal-empty.1')"));
	assert_non_null(strstr(report->str, "journal-torn': its header is incomplete"));
	assert_non_null(strstr(report->str, "journal-corrupt': line 3 is not one arraybench writes"));
	assert_non_null(strstr(report->str, "journal-other': its header names run 'named-1'"));
	g_autofree char *kept = g_build_filename(dir, "torn-journal-empty", NULL);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(kept, &text, NULL, NULL));
	assert_string_equal(text, "keep");
	g_string_truncate(report, 0);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_string_equal(report->str, "");
}

/* A hidden journal of a run that died before naming it is removed; one
 * that is locked (a run starting now) is not. */
static void test_unfinished_journals(void **state)
{
	const char *dir = *state;
	g_autofree char *dead = plant(dir, ".journal-dead", "arraybench-undo 2\t", 0600);
	g_autofree char *live = plant(dir, ".journal-live", "", 0600);
	/* Unlocked but just made: its run may not have locked it yet. */
	g_autofree char *young = plant(dir, ".journal-young", "", 0600);
	struct timespec two_minutes_ago[2] = { { time(NULL) - 120, 0 }, { time(NULL) - 120, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, dead, two_minutes_ago, 0), 0);
	assert_int_equal(utimensat(AT_FDCWD, live, two_minutes_ago, 0), 0);
	int fd = open(live, O_RDONLY | O_CLOEXEC);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	g_autoptr(GString) report = g_string_new(NULL);
	assert_true(ab_undo_recover(dir, record, report, NULL));
	assert_false(g_file_test(dead, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(live, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(young, G_FILE_TEST_EXISTS));
	close(fd);
}

static void assert_refused(const char *path, const char *why)
{
	int fd = 5;
	GError *e = NULL;
	assert_false(ab_state_dir_open(path, FALSE, &fd, &e));
	assert_int_equal(fd, -1);
	assert_int_equal(e->code, AB_ERROR_UNSAFE);
	if (!strstr(e->message, why))
		fail_msg("'%s' does not say '%s'", e->message, why);
	g_error_free(e);
}

static void test_state_dir_trust(void **state)
{
	const char *dir = *state;
	int fd;
	/* Missing: created with 0700 when asked, else "nothing journaled". */
	g_autofree char *fresh = g_build_filename(dir, "a", "b", NULL);
	assert_true(ab_state_dir_open(fresh, FALSE, &fd, NULL));
	assert_int_equal(fd, -1);
	assert_true(ab_state_dir_open(fresh, TRUE, &fd, NULL));
	assert_true(fd >= 0);
	close(fd);
	struct stat st;
	assert_int_equal(stat(fresh, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	g_autofree char *link = g_build_filename(dir, "link", NULL);
	assert_int_equal(symlink(fresh, link), 0);
	assert_refused(link, "it is a symbolic link");
	g_autofree char *file = plant(dir, "file", "x", 0600);
	assert_refused(file, "not a directory");
	assert_int_equal(chmod(fresh, 0770), 0);
	assert_refused(fresh, "group or others may write to it (mode 0770)");
	assert_int_equal(chmod(fresh, 0703), 0);
	assert_refused(fresh, "group or others may write to it");
	assert_int_equal(chmod(fresh, 0755), 0);
	assert_true(ab_state_dir_open(fresh, FALSE, &fd, NULL));
	close(fd);
	assert_refused("relative/state", "not an absolute path");
	if (geteuid() == 0) {
		/* The planted-journal attack: a state directory nobody owns. */
		assert_int_equal(chown(fresh, 65534, 65534), 0);
		assert_refused(fresh, "it belongs to uid 65534, not to uid 0");
		g_autoptr(GString) report = g_string_new(NULL);
		GError *e = NULL;
		assert_false(ab_undo_recover(fresh, record, report, &e));
		assert_int_equal(e->code, AB_ERROR_UNSAFE);
		g_error_free(e);
	}
}

static void test_liveness(void **state)
{
	const char *root = *state;
	struct ab_process_id me, other;
	assert_true(ab_process_id_of("", getpid(), &me));
	assert_true(ab_process_id_alive("", &me));
	other = me;
	other.start_ticks++;
	assert_false(ab_process_id_alive("", &other)); /* pid reused by another process */
	other = me;
	g_strlcpy(other.boot_id, "another-boot", sizeof(other.boot_id));
	assert_false(ab_process_id_alive("", &other));
	other = me;
	other.pid = 0;
	assert_false(ab_process_id_alive("", &other));
	/* A command name with spaces and parentheses does not shift the fields. */
	g_autofree char *procdir = g_build_filename(root, "proc", "77", NULL);
	assert_int_equal(g_mkdir_with_parents(procdir, 0700), 0);
	g_autofree char *stat = g_build_filename(procdir, "stat", NULL);
	assert_true(g_file_set_contents(stat, "77 (a) b (c)) S 1 77 77 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 "
					      "123456 1000 10 18446744073709551615\n", -1, NULL));
	struct ab_process_id fake;
	assert_true(ab_process_id_of(root, 77, &fake));
	assert_int_equal(fake.start_ticks, 123456);
	/* A zombie (killed, not reaped yet) is gone: it holds nothing. */
	assert_true(ab_process_id_alive(root, &fake));
	assert_true(g_file_set_contents(stat, "77 (a) b (c)) Z 1 77 77 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 "
					      "123456 0 0 18446744073709551615\n", -1, NULL));
	assert_false(ab_process_id_alive(root, &fake));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_recover_dead_runs_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked_journal_is_left, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_journals_are_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken_journals_are_moved_aside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unfinished_journals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_dir_trust, setup, teardown),
		cmocka_unit_test_setup_teardown(test_liveness, setup, teardown),
	};
	return cmocka_run_group_tests_name("recover", tests, NULL, NULL);
}
