/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file system type of a directory, from a fake ROOT/proc/self/mountinfo
 * around real directories (the path is resolved first), and that nothing is
 * printed when the table is missing or garbled: arraybench's stderr carries
 * only its own lines (a fresh chroot has no /etc/mtab, and libgtop's mount
 * list used to say so there). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/base/sysinfo.h"

struct fixture {
	char *root; /* holds proc/self/mountinfo */
	char *dirs; /* real directories the table names */
};

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);
	f->root = g_dir_make_tmp("ab-sysinfo-XXXXXX", NULL);
	f->dirs = g_dir_make_tmp("ab-sysinfo-dirs-XXXXXX", NULL);
	/* realpath: the table holds resolved paths, TMPDIR may not be one. */
	char *real = realpath(f->dirs, NULL);
	g_free(f->dirs);
	f->dirs = g_strdup(real);
	free(real);
	const char *sub[] = { "a/b", "ab", "with space/in", "stack" };
	for (size_t i = 0; i < G_N_ELEMENTS(sub); i++) {
		g_autofree char *d = g_build_filename(f->dirs, sub[i], NULL);
		assert_int_equal(g_mkdir_with_parents(d, 0755), 0);
	}
	g_autofree char *proc = g_build_filename(f->root, "proc/self", NULL);
	assert_int_equal(g_mkdir_with_parents(proc, 0755), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s' '%s'", f->root, f->dirs);
	int rc = system(cmd);
	g_free(f->root);
	g_free(f->dirs);
	g_free(f);
	return rc == 0 ? 0 : -1;
}

static void write_mountinfo(const struct fixture *f, const char *text)
{
	g_autofree char *mi = g_build_filename(f->root, "proc/self/mountinfo", NULL);
	assert_true(g_file_set_contents(mi, text, -1, NULL));
}

static char *type_of(const struct fixture *f, const char *sub)
{
	g_autofree char *d = g_build_filename(f->dirs, sub, NULL);
	return ab_sysinfo_fs_type_at(f->root, d);
}

static void test_longest_prefix(void **state)
{
	struct fixture *f = *state;
	/* g_dir_make_tmp's names need no \040 escapes; "with space" does. */
	const char *d = f->dirs;
	g_autofree char *text = g_strdup_printf(
		"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"90 22 7:1 / %s/a rw,noatime shared:50 - xfs /dev/loop1 rw\n"
		"91 22 7:2 / %s/with\\040space rw - btrfs /dev/loop2 rw\n"
		"92 22 0:40 / %s/stack rw - tmpfs tmpfs rw\n"
		"93 92 7:3 / %s/stack rw - ext3 /dev/loop3 rw\n",
		d, d, d, d);
	write_mountinfo(f, text);
	g_autofree char *a = type_of(f, "a/b");
	assert_string_equal(a, "xfs");
	g_autofree char *ab = type_of(f, "ab"); /* "DIRS/a" prefixes "DIRS/ab" as a string only */
	assert_string_equal(ab, "ext4");
	g_autofree char *sp = type_of(f, "with space/in");
	assert_string_equal(sp, "btrfs");
	g_autofree char *st = type_of(f, "stack"); /* the mount on top */
	assert_string_equal(st, "ext3");
	g_autofree char *missing = type_of(f, "no-such-dir");
	assert_string_equal(missing, "unknown");
}

/* Runs fn with fd 2 sent to a file; returns what landed there. */
static char *stderr_of(void (*fn)(const struct fixture *), const struct fixture *f)
{
	g_autofree char *path = g_build_filename(f->root, "stderr", NULL);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	fn(f);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	char *text = NULL;
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

static void lookups(const struct fixture *f)
{
	g_autofree char *t = type_of(f, "a/b");
	assert_string_equal(t, "unknown");
}

static void test_silent_without_table(void **state)
{
	struct fixture *f = *state;
	/* No mountinfo at all (as /etc/mtab is missing in a bare chroot). */
	g_autofree char *out = stderr_of(lookups, f);
	assert_string_equal(out, "");
	/* A garbled one. */
	write_mountinfo(f, "garbage\n\n1 2 3\n");
	g_autofree char *out2 = stderr_of(lookups, f);
	assert_string_equal(out2, "");
}

static void test_real_table(void **state)
{
	(void)state;
	/* Not "/": in a chroot whose root is no mount point the table has no
	 * "/"; /proc, which it is read from, is always there. */
	g_autofree char *t = ab_sysinfo_fs_type("/proc/self");
	assert_string_equal(t, "proc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_longest_prefix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_silent_without_table, setup, teardown),
		cmocka_unit_test(test_real_table),
	};
	return cmocka_run_group_tests_name("sysinfo", tests, NULL, NULL);
}
