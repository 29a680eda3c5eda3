/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TEST_SAFETY_EXPECT_H
#define AB_TEST_SAFETY_EXPECT_H

/* What test-safety.c (fake trees) and test-safety-loop.c (real loop
 * devices) expect of ab_safety_check_device(): a refusal in so many words,
 * or none.  Included after cmocka.h. */

#include <stdlib.h>

#include "../../fs-setup/safety.h"
#include "../../src/base/error.h"

static void expect_error(GError *e, int code, const char *message)
{
	assert_non_null(e);
	if (!g_error_matches(e, AB_ERROR, code) || !g_str_equal(e->message, message))
		fail_msg("got %d '%s', want %d '%s'", e->code, e->message, code, message);
}

/* The refusal for `dev` (canonical path confirmed, which must not matter). */
static void expect_refusal(const char *root, const char *dev, const char *why)
{
	g_autofree char *canonical = realpath(dev, NULL);
	const char *confirmed[] = { canonical, NULL };
	g_autoptr(GError) e = NULL;
	assert_false(ab_safety_check_device(root, dev, confirmed, &e));
	g_autofree char *want = g_strdup_printf("refusing '%s': %s", dev, why);
	expect_error(e, AB_ERROR_UNSAFE, want);
}

/* In-use checks pass; confirmed so the driverless node is not probed. */
static void expect_free(const char *root, const char *dev)
{
	g_autofree char *canonical = realpath(dev, NULL);
	const char *confirmed[] = { canonical, NULL };
	g_autoptr(GError) e = NULL;
	if (!ab_safety_check_device(root, dev, confirmed, &e))
		fail_msg("'%s' refused: %s", dev, e->message);
}

#endif
