/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --mkfs-opts and --mount-opts cannot bring in a device: any word, piece
 * or value that names an existing path or a device by tag is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../fs-setup/optwords.h"
#include "../../src/base/error.h"

static void refused(const char *option, const char *text, const char *what, const char *why)
{
	GError *e = NULL;
	assert_false(ab_option_string_check(option, text, &e));
	assert_int_equal(e->code, AB_ERROR_UNSAFE);
	g_autofree char *want = g_strdup_printf("refusing %s '%s': %s", option, what, why);
	if (!g_str_has_prefix(e->message, want))
		fail_msg("'%s' does not start with '%s'", e->message, want);
	g_error_free(e);
}

static void accepted(const char *option, const char *text)
{
	GError *e = NULL;
	if (!ab_option_string_check(option, text, &e))
		fail_msg("'%s' refused: %s", text, e->message);
}

static void test_devices_and_paths(void **state)
{
	(void)state;
	/* /dev/null stands for any device node: it is a character device,
	 * so "an existing path"; /dev/loop-control likewise. */
	refused("--mkfs-opts", "/dev/null", "/dev/null", "it names an existing path");
	refused("--mkfs-opts", "-q /dev/null", "/dev/null", "it names an existing path");
	refused("--mkfs-opts", "-J device=/dev/null", "/dev/null", "it names an existing path");
	refused("--mkfs-opts", "-l logdev=/dev/null,size=10m", "/dev/null", "it names an existing path");
	refused("--mkfs-opts", "-L/etc", "/etc", "it names an existing path");
	refused("--mkfs-opts", "-Fd/etc", "/etc", "it names an existing path"); /* a cluster */
	refused("--mkfs-opts", "--rootdir=/etc", "/etc", "it names an existing path");
	refused("--mount-opts", "noatime,device=/dev/null", "/dev/null", "it names an existing path");
	refused("--mount-opts", "journal_path=/dev/null", "/dev/null", "it names an existing path");
	refused("--mkfs-opts", "-J device=UUID=1234", "UUID=1234", "it names a device by tag");
	refused("--mkfs-opts", "-J device=LABEL=journal", "LABEL=journal", "it names a device by tag");
	refused("--mount-opts", "logdev=PARTUUID=ab-cd", "PARTUUID=ab-cd", "it names a device by tag");
	/* Relative names are taken from "/", where the tools and the mount
	 * run, not from wherever arraybench was started. */
	refused("--mkfs-opts", "-d tmp", "tmp", "it names an existing path (from /)");
	refused("--mount-opts", "device=dev/null", "dev/null", "it names an existing path (from /)");
	g_autofree char *dir = g_dir_make_tmp("ab-words-XXXXXX", NULL);
	g_autofree char *cwd = g_get_current_dir();
	assert_int_equal(chdir(dir), 0);
	assert_true(g_file_set_contents("noatime", "", 0, NULL));
	accepted("--mount-opts", "noatime");
	assert_int_equal(unlink("noatime"), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rmdir(dir), 0);
	/* mke2fs -z writes its undo file wherever it is told, clusters too. */
	refused("--mkfs-opts", "-z /var/tmp/new-file", "-z", "mke2fs -z writes an undo file");
	refused("--mkfs-opts", "-qz/var/tmp/new-file", "-qz/var/tmp/new-file", "mke2fs -z writes an undo file");
	accepted("--mount-opts", "-z"); /* not an mkfs option there */
	/* A real block device, where one exists here. */
	const char *blocks[] = { "/dev/loop0", "/dev/vda", "/dev/sda" };
	for (size_t i = 0; i < G_N_ELEMENTS(blocks); i++)
		if (g_file_test(blocks[i], G_FILE_TEST_EXISTS)) {
			g_autofree char *text = g_strdup_printf("-E nodiscard %s", blocks[i]);
			refused("--mkfs-opts", text, blocks[i], "it is a block device");
			break;
		}
}

static void test_ordinary_options_pass(void **state)
{
	(void)state;
	accepted("--mkfs-opts", "");
	accepted("--mkfs-opts", "-L data -E stride=16,stripe_width=64 -O ^has_journal -m 0");
	accepted("--mkfs-opts", "-d su=64k,sw=4 -l size=64m -i size=512");
	accepted("--mkfs-opts", "--nodesize 16384 -R free-space-tree");
	accepted("--mount-opts", "noatime,nodiratime,data=writeback,commit=60,barrier=0");
	accepted("--mount-opts", "compress=zstd:3,space_cache=v2,ssd");
	/* Unbalanced quotes are bad input, not a refusal. */
	GError *e = NULL;
	assert_false(ab_option_string_check("--mkfs-opts", "-L 'x", &e));
	assert_int_equal(e->code, AB_ERROR_USAGE);
	g_error_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices_and_paths),
		cmocka_unit_test(test_ordinary_options_pass),
	};
	return cmocka_run_group_tests_name("optwords", tests, NULL, NULL);
}
