/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linux md RAID: mdadm makes the array (fs-setup/mdadm.c plans it), then
 * any --fs goes on it with mkfs, stripe hints from its geometry, and
 * mount(2). */
#include "backend.h"
#include "../src/base/error.h"

#include <unistd.h>

static gboolean md_available(void)
{
	return access("/proc/mdstat", F_OK) == 0;
}

static gboolean make_array(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	g_autofree char *prefix = g_strdup_printf("/dev/md/ab%s-", b->run_id);
	char *array_dev = NULL;
	struct ab_plan plan;
	ab_plan_init(&plan);
	gboolean ok = ab_mdadm_plan(&plan, spec->array_level, (const char *const *)t->members->pdata,
				    spec->chunk_bytes, spec->layout, prefix, &b->geo, &array_dev, error);
	if (ok) {
		t->level = g_strdup(spec->array_level);
		t->layout = g_strdup(spec->layout);
		t->chunk_bytes = b->geo.chunk_bytes;
		t->source = array_dev;
		/* Checked after the level: a bad level is the first thing to say. */
		if (!md_available()) {
			g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
				    "md RAID is not in this kernel (no /proc/mdstat): use --fs btrfs --backend btrfs "
				    "for a btrfs array here, or run on a kernel with md (see tests/vm)");
			ok = FALSE;
		}
	}
	ok = ok && ab_build_run_plan(b, &plan, "building the array", error);
	ab_plan_clear(&plan);
	return ok;
}

static void md_label(GString *s, const struct ab_target *t)
{
	g_string_append_printf(s, "md%s%s-", t->level, t->layout ? t->layout : "");
}

const struct ab_backend_ops ab_backend_mdadm = {
	.name = "mdadm",
	.shape = AB_BACKEND_ARRAY,
	.available = md_available,
	.assemble = make_array,
	.format = ab_build_mkfs,
	.mount = ab_build_mount_source,
	.remount = ab_build_remount,
	.label = md_label,
};
