/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target a tune's visits build (src/tune/tune-target.c): refused when
 * it builds nothing, or when a device it formats is not named in
 * --yes-destroy (each visit from the second on finds what the one before
 * made); the devices the winner's mkfs command names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../src/base/error.h"
#include "../../src/tune/tune-target.h"

static void expect_refused(const struct ab_target_spec *t, const char *want)
{
	GError *e = NULL;
	if (ab_tune_target_check(t, &e))
		fail_msg("accepted; expected '%s'", want);
	assert_int_equal(ab_error_exit_status(e), AB_ERROR_USAGE);
	if (!g_str_equal(e->message, want))
		fail_msg("got '%s'\nwant '%s'", e->message, want);
	g_error_free(e);
}

static void test_builds_nothing(void **state)
{
	(void)state;
	struct ab_target_spec t = { 0 };
	static const char want[] = "a tune builds its target at each visit: give --loop N:SIZE[:DIR], --device DEV "
				   "--yes-destroy DEV, or --array LEVEL --members DEV,... --yes-destroy DEV,..., with --fs";
	expect_refused(&t, want);
	/* --members without --array builds nothing in run either */
	char *members[] = { "/dev/null", NULL };
	t.members = members;
	expect_refused(&t, want);
}

/* /dev/null and /dev/zero stand for devices: the check reads their
 * canonical names only, whatever they are (the target check refuses what
 * is no block device). */
static void test_confirmed(void **state)
{
	(void)state;
	struct ab_target_spec t = { .device = "/dev/null" };
	expect_refused(&t, "a tune formats '/dev/null' at every visit, over what the visit before left on it: give "
			   "--yes-destroy /dev/null");
	char *other[] = { "/dev/zero", NULL };
	t.confirmed = other;
	expect_refused(&t, "a tune formats '/dev/null' at every visit, over what the visit before left on it: give "
			   "--yes-destroy /dev/null");
	char *yes[] = { "/dev/zero", "/dev/null", NULL };
	t.confirmed = yes;
	assert_true(ab_tune_target_check(&t, NULL));

	char *members[] = { "/dev/zero", "/dev/null", NULL };
	char *half[] = { "/dev/zero", NULL };
	struct ab_target_spec m = { .array_level = "raid1", .members = members, .confirmed = half };
	expect_refused(&m, "a tune formats '/dev/null' at every visit, over what the visit before left on it: give "
			   "--yes-destroy /dev/zero,/dev/null");
	m.confirmed = yes;
	assert_true(ab_tune_target_check(&m, NULL));

	/* A name that does not resolve is the target check's ("cannot use
	 * device"): --yes-destroy could not name it. */
	struct ab_target_spec gone = { .device = "/nonexistent/dev" };
	assert_true(ab_tune_target_check(&gone, NULL));

	/* Loop images are the tune's own: nothing to confirm. */
	struct ab_target_spec loop = { .loop_count = 2 };
	assert_true(ab_tune_target_check(&loop, NULL));
}

static void expect_devices(const struct ab_target_spec *t, gboolean striped, gboolean btrfs, const char *want)
{
	g_auto(GStrv) devices = ab_tune_target_mkfs_devices(t, striped, btrfs);
	g_autofree char *got = g_strjoinv(" ", devices);
	assert_string_equal(got, want);
}

static void test_mkfs_devices(void **state)
{
	(void)state;
	struct ab_target_spec device = { .device = "/dev/sdb" };
	expect_devices(&device, FALSE, FALSE, "/dev/sdb");
	char *members[] = { "/dev/sdb", "/dev/sdc", NULL };
	struct ab_target_spec md = { .array_level = "raid1", .members = members };
	expect_devices(&md, TRUE, FALSE, "/dev/mdX");
	expect_devices(&md, FALSE, TRUE, "/dev/sdb /dev/sdc");
	struct ab_target_spec loop = { .loop_count = 3 };
	expect_devices(&loop, FALSE, FALSE, "DEVICE1");
	expect_devices(&loop, FALSE, TRUE, "DEVICE1 DEVICE2 DEVICE3");
	expect_devices(&loop, TRUE, FALSE, "/dev/mdX");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builds_nothing),
		cmocka_unit_test(test_confirmed),
		cmocka_unit_test(test_mkfs_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
