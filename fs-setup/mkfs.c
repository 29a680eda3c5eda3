/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan.h"
#include "../src/base/error.h"

#include <inttypes.h>
#include <string.h>

/*
 * The options that take a value, from the getopt strings of mke2fs 1.47 and
 * mkfs.xfs 6.1.  We read the user's extra options the way the tool will, to
 * see the few that interact with ours (-E, -b, -d).
 */
#define MKE2FS_VALUED "bdegilmorstCEGIJLMNORTUz"
#define MKFS_XFS_VALUED "bcdilLmnprs"

/* Sees one option with its value; TRUE drops it from the user's options. */
typedef gboolean (*option_fn)(char letter, const char *value, void *data);

/* The user's options with those fn dropped, NULL-terminated. */
static GPtrArray *scan_options(char **argv, const char *valued, option_fn fn, void *data)
{
	GPtrArray *kept = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; argv[i]; i++) {
		const char *a = argv[i];
		if (g_str_equal(a, "--")) {
			while (argv[i])
				g_ptr_array_add(kept, g_strdup(argv[i++]));
			break;
		}
		if (a[0] != '-' || !a[1]) {
			g_ptr_array_add(kept, g_strdup(a));
			continue;
		}
		/* A cluster like "-qE nodiscard": flags, then at most one
		 * option whose value is the rest of the word or the next word. */
		g_autoptr(GString) cluster = g_string_new("-");
		const char *detached = NULL;
		for (const char *c = a + 1; *c; c++) {
			if (!strchr(valued, *c)) {
				g_string_append_c(cluster, *c);
				continue;
			}
			const char *value = c[1] ? c + 1 : argv[i + 1];
			if (!value) {
				/* Missing value: left for the tool to complain about. */
				g_string_append_c(cluster, *c);
				break;
			}
			if (!c[1])
				i++;
			if (!fn(*c, value, data)) {
				g_string_append_c(cluster, *c);
				if (c[1])
					g_string_append(cluster, value);
				else
					detached = value;
			}
			break;
		}
		if (cluster->len > 1)
			g_ptr_array_add(kept, g_strdup(cluster->str));
		if (detached)
			g_ptr_array_add(kept, g_strdup(detached));
	}
	g_ptr_array_add(kept, NULL);
	return kept;
}

struct ext_scan {
	GString *user_extended; /* the user's -E lists, ",a,b" */
	const char *block_size;
};

/* mke2fs keeps only the last -E, so a user's -E would silently drop our
 * nodiscard and no-lazy-init settings: fold it into ours instead (later
 * entries win inside one list, so the user's still override ours). */
static gboolean ext_option(char letter, const char *value, void *data)
{
	struct ext_scan *s = data;
	if (letter == 'E') {
		if (*value)
			g_string_append_printf(s->user_extended, ",%s", value);
		return TRUE;
	}
	if (letter == 'b')
		s->block_size = value;
	return FALSE;
}

/* A user who sets the stripe geometry for mkfs.xfs gets theirs: given twice
 * mkfs.xfs fails with "-d su option respecified". */
static gboolean xfs_option(char letter, const char *value, void *data)
{
	gboolean *user_geometry = data;
	if (letter != 'd')
		return FALSE;
	g_auto(GStrv) subopts = g_strsplit(value, ",", -1);
	for (char **o = subopts; *o; o++) {
		g_autofree char *key = g_strndup(*o, strcspn(*o, "="));
		if (g_str_equal(key, "su") || g_str_equal(key, "sw") || g_str_equal(key, "sunit") ||
		    g_str_equal(key, "swidth") || g_str_equal(key, "noalign"))
			*user_geometry = TRUE;
	}
	return FALSE;
}

static void add_all(GPtrArray *argv, char **more)
{
	for (char **m = more; *m; m++)
		g_ptr_array_add(argv, g_strdup(*m));
}

gboolean ab_stripe_hint(const struct ab_array_geometry *geo, uint64_t block, struct ab_stripe_hint *out)
{
	*out = (struct ab_stripe_hint){ 0 };
	if (!geo || !geo->chunk_bytes || !geo->data_disks || !block || geo->chunk_bytes % block)
		return FALSE;
	out->stride = geo->chunk_bytes / block;
	out->stripe_width = out->stride * geo->data_disks;
	out->su_kib = geo->chunk_bytes / 1024;
	out->sw = geo->data_disks;
	return TRUE;
}

static void ext_args(GPtrArray *argv, const struct ab_array_geometry *geo, char **user)
{
	g_autoptr(GString) user_extended = g_string_new(NULL);
	struct ext_scan s = { user_extended, NULL };
	g_autoptr(GPtrArray) kept = scan_options(user, MKE2FS_VALUED, ext_option, &s);
	GString *extended = g_string_new("nodiscard,lazy_itable_init=0,lazy_journal_init=0");
	/* stride is in file system blocks.  mke2fs.conf gives file systems
	 * under 512 MiB 1 KiB blocks, so with a hint we pin 4 KiB blocks,
	 * unless the user chose a size, which we then count in. */
	guint64 block = 4096;
	struct ab_stripe_hint hint;
	if (s.block_size && !g_ascii_string_to_unsigned(s.block_size, 10, 1024, 65536, &block, NULL))
		geo = NULL; /* "-b -1" and the like: we cannot know the unit */
	if (ab_stripe_hint(geo, block, &hint)) {
		if (!s.block_size) {
			g_ptr_array_add(argv, g_strdup("-b"));
			g_ptr_array_add(argv, g_strdup("4096"));
		}
		g_string_append_printf(extended, ",stride=%" PRIu64 ",stripe_width=%" PRIu64, hint.stride,
				       hint.stripe_width);
	}
	/* Last, so the user's entries win over ours. */
	g_string_append(extended, user_extended->str);
	g_ptr_array_add(argv, g_strdup("-E"));
	g_ptr_array_add(argv, g_string_free(extended, FALSE));
	add_all(argv, (char **)kept->pdata);
}

static void xfs_args(GPtrArray *argv, const struct ab_array_geometry *geo, char **user)
{
	gboolean user_geometry = FALSE;
	g_autoptr(GPtrArray) kept = scan_options(user, MKFS_XFS_VALUED, xfs_option, &user_geometry);
	/* su must be a multiple of the block size: 4 KiB unless -b says more,
	 * and then mkfs.xfs names the problem itself. */
	struct ab_stripe_hint hint;
	if (ab_stripe_hint(geo, 4096, &hint) && !user_geometry) {
		g_ptr_array_add(argv, g_strdup("-d"));
		g_ptr_array_add(argv, g_strdup_printf("su=%" PRIu32 "k,sw=%" PRIu32, hint.su_kib, hint.sw));
	}
	add_all(argv, (char **)kept->pdata);
}

gboolean ab_mkfs_plan(struct ab_plan *plan, enum ab_fs_type fs, const char *device,
		      const struct ab_array_geometry *geo, gboolean no_hint, const char *extra_opts,
		      GError **error)
{
	if (!device || !*device) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing device for the %s file system",
			    ab_fs_type_name(fs));
		return FALSE;
	}
	g_auto(GStrv) user = NULL;
	if (!ab_plan_split_options("mkfs options", extra_opts, &user, error))
		return FALSE;
	/* Hints only where the geometry is known and striped (ab_stripe_hint). */
	if (no_hint)
		geo = NULL;

	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	switch (fs) {
	case AB_FS_EXT3:
	case AB_FS_EXT4:
		/* The ext3 journal is zeroed lazily like ext4's; the same
		 * -E settings apply (mke2fs(8) serves both). */
		g_ptr_array_add(argv, g_strdup(fs == AB_FS_EXT3 ? "mkfs.ext3" : "mkfs.ext4"));
		g_ptr_array_add(argv, g_strdup("-F"));
		g_ptr_array_add(argv, g_strdup("-q"));
		ext_args(argv, geo, user);
		break;
	case AB_FS_XFS:
		g_ptr_array_add(argv, g_strdup("mkfs.xfs"));
		g_ptr_array_add(argv, g_strdup("-f"));
		g_ptr_array_add(argv, g_strdup("-q"));
		g_ptr_array_add(argv, g_strdup("-K"));
		xfs_args(argv, geo, user);
		break;
	case AB_FS_BTRFS:
		/* btrfs takes no stripe hint: it stripes its own chunks. */
		g_ptr_array_add(argv, g_strdup("mkfs.btrfs"));
		g_ptr_array_add(argv, g_strdup("-f"));
		g_ptr_array_add(argv, g_strdup("-q"));
		g_ptr_array_add(argv, g_strdup("-K"));
		add_all(argv, user);
		break;
	default:
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid file system '%d'", (int)fs);
		return FALSE;
	}
	g_ptr_array_add(argv, g_strdup(device));
	g_ptr_array_add(argv, NULL);

	g_autofree char *what = g_strdup_printf("create %s file system on %s", ab_fs_type_name(fs), device);
	ab_plan_add(plan, what, (const char *const *)argv->pdata, AB_UNDO_KIND_COUNT, NULL, NULL);
	return TRUE;
}
