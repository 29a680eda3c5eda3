/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The targets of no array: an existing directory (-d), used as it is, and
 * one device (--device, or the one --loop image or member) with mkfs and
 * mount(2). */
#include "backend.h"
#include "../src/base/error.h"

static gboolean use_directory(struct ab_build *b, GError **error)
{
	b->t->mount_dir = g_strdup(b->spec->dir);
	return TRUE;
}

const struct ab_backend_ops ab_backend_dir = {
	.name = "dir",
	.shape = AB_BACKEND_DIRECTORY,
	.mount = use_directory,
};

static gboolean one_device(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	const char *dev = spec->device ? spec->device : t->members->len ? g_ptr_array_index(t->members, 0) : NULL;
	if (!dev || t->members->len > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s: name one --device, or an --array with its members",
			    dev ? "several devices" : "no device");
		return FALSE;
	}
	t->level = g_strdup("single");
	t->source = g_strdup(dev);
	if (spec->device)
		g_ptr_array_add(t->members, g_strdup(dev));
	return TRUE;
}

const struct ab_backend_ops ab_backend_device = {
	.name = "device",
	.shape = AB_BACKEND_DEVICE,
	.assemble = one_device,
	.format = ab_build_mkfs,
	.mount = ab_build_mount_source,
	.remount = ab_build_remount,
};
