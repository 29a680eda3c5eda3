/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan.h"
#include "../src/base/error.h"
#include "../src/base/raid-level.h"

#include <inttypes.h>
#include <string.h>

#define DEFAULT_CHUNK (512u * 1024u) /* mdadm(8) 4.2: "The default when creating an array is 512KB" */
#define MAX_NAME 32                  /* version-1 superblock set_name */

enum level { L0, L1, L4, L5, L6, L10, L1_0 };

static const struct {
	const char *name; /* also the --level argument, but for 1+0 */
	guint min_members;
	gboolean striped;    /* takes a chunk size */
	gboolean chunk_pow2; /* mdadm(8): "RAID4, RAID5, RAID6, and RAID10 require
			      * the chunk size to be a power of 2" */
} levels[] = {
	[L0] = { "0", 2, TRUE, FALSE },  [L1] = { "1", 2, FALSE, FALSE },  [L4] = { "4", 3, TRUE, TRUE },
	[L5] = { "5", 3, TRUE, TRUE },   [L6] = { "6", 4, TRUE, TRUE },    [L10] = { "10", 2, TRUE, TRUE },
	[L1_0] = { "1+0", 4, TRUE, FALSE },
};

/* The spellings are src/base/raid-level.c's, which reports/ reads a run's
 * recorded level with: its canonical form is "raid" and the name here. */
static gboolean parse_level(const char *text, enum level *out, GError **error)
{
	const char *canonical = ab_raid_level_canonical(text);
	const char *bare = canonical ? canonical + strlen("raid") : NULL;
	for (size_t l = 0; bare && l < G_N_ELEMENTS(levels); l++)
		if (g_str_equal(bare, levels[l].name)) {
			*out = (enum level)l;
			return TRUE;
		}
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid RAID level '%s': expected 0, 1, 4, 5, 6, 10 or 1+0",
		    text ? text : "");
	return FALSE;
}

static gboolean check_members(enum level level, guint n, GError **error)
{
	if (n < levels[level].min_members) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "too few devices for RAID level %s: got '%u', need at least %u", levels[level].name, n,
			    levels[level].min_members);
		return FALSE;
	}
	if (level == L1_0 && n % 2) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "odd number of devices for RAID level 1+0: got '%u', it mirrors pairs", n);
		return FALSE;
	}
	return TRUE;
}

static gboolean check_layout(enum level level, const char *layout, GError **error)
{
	if (!layout)
		return TRUE;
	if (level != L10) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid layout '%s' for RAID level %s: only level 10 takes a layout", layout,
			    levels[level].name);
		return FALSE;
	}
	if (!g_str_equal(layout, "n2") && !g_str_equal(layout, "f2") && !g_str_equal(layout, "o2")) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid RAID10 layout '%s': expected n2, f2 or o2",
			    layout);
		return FALSE;
	}
	return TRUE;
}

/* mdadm(8): the chunk "must be a multiple of 4KB", a power of two for 4/5/6/10. */
static gboolean check_chunk(enum level level, uint32_t chunk, GError **error)
{
	if (chunk % 4096) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid chunk size '%" PRIu32 "': must be a multiple of 4096 bytes", chunk);
		return FALSE;
	}
	if (levels[level].chunk_pow2 && (chunk & (chunk - 1))) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid chunk size '%" PRIu32 "': RAID level %s needs a power of two", chunk,
			    levels[level].name);
		return FALSE;
	}
	return TRUE;
}

static gboolean check_names(const char *md_prefix, guint last_index, GError **error)
{
	if (!md_prefix || !*md_prefix) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid md array name prefix '': it must not be empty");
		return FALSE;
	}
	/* mdadm stores the last component of /dev/md/NAME in the superblock. */
	g_autofree char *longest = g_strdup_printf("%s%u", md_prefix, last_index);
	const char *name = strrchr(longest, '/') ? strrchr(longest, '/') + 1 : longest;
	if (g_str_has_prefix(longest, "/dev/md/") && strlen(name) > MAX_NAME) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "md array name '%s' is longer than %d characters", name,
			    MAX_NAME);
		return FALSE;
	}
	return TRUE;
}

/*
 * One array.  The members' superblock zeroing is pushed before the create, so
 * the LIFO unwind stops the array first and only then wipes its members.
 */
static void add_array(struct ab_plan *plan, const char *dev, const char *level, const char *const *members,
		      guint n, uint32_t chunk, const char *layout)
{
	/* The name mdadm writes into each member's superblock. */
	const char *name = strrchr(dev, '/') + 1;
	for (guint i = 0; i < n; i++) {
		g_autofree char *what = g_strdup_printf("zero the md superblock of %s when undoing", members[i]);
		ab_plan_add(plan, what, NULL, AB_UNDO_MDADM_ZERO, members[i], name);
	}
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	/* --run: never ask (stdin is /dev/null, which mdadm takes as "no");
	 * --assume-clean: no initial resync competing with the benchmark. */
	const char *const fixed[] = { "mdadm", "--create", dev, "--run", "--assume-clean", "--metadata=1.2" };
	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(argv, g_strdup(fixed[i]));
	g_ptr_array_add(argv, g_strdup_printf("--level=%s", level));
	g_ptr_array_add(argv, g_strdup_printf("--raid-devices=%u", n));
	if (chunk)
		g_ptr_array_add(argv, g_strdup_printf("--chunk=%" PRIu32 "K", chunk / 1024));
	if (layout)
		g_ptr_array_add(argv, g_strdup_printf("--layout=%s", layout));
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(argv, g_strdup(members[i]));
	g_ptr_array_add(argv, NULL);
	g_autofree char *what = g_strdup_printf("create raid%s array %s", level, dev);
	/* The array's node: never one someone else named so. */
	ab_plan_add(plan, what, (const char *const *)argv->pdata, AB_UNDO_MDADM_STOP, dev, NULL)->makes_node = TRUE;
}

/* Stripe width in chunks as the kernel reports it (io_opt / io_min), which
 * is what mkfs would read from the array itself.  For RAID10 that is
 * drivers/md/raid10.c raid10_nr_stripes(): devices / near copies when that
 * divides, else all devices; far and offset layouts have one near copy. */
static uint32_t data_disks(enum level level, guint n, const char *layout)
{
	switch (level) {
	case L0:
		return n;
	case L1:
		return 1;
	case L4:
	case L5:
		return n - 1;
	case L6:
		return n - 2;
	case L10:
		if (layout && !g_str_equal(layout, "n2"))
			return n;
		return n % 2 ? n : n / 2;
	case L1_0:
		return n / 2;
	}
	return 0;
}

/* The checks of an array and what it is: its level, its chunk (the default
 * filled in, 0 for RAID1) and its layout (NULL for the default). */
static gboolean check_array(const char *level_text, guint n, uint32_t chunk_bytes, const char **layout,
			    enum level *level, uint32_t *chunk, GError **error)
{
	if (!parse_level(level_text, level, error) || !check_members(*level, n, error))
		return FALSE;
	if (*layout && !**layout)
		*layout = NULL;
	if (!check_layout(*level, *layout, error))
		return FALSE;
	/* RAID1 has no chunk; mdadm ignores one given, and so do we. */
	*chunk = 0;
	if (levels[*level].striped) {
		*chunk = chunk_bytes ? chunk_bytes : DEFAULT_CHUNK;
		if (!check_chunk(*level, *chunk, error))
			return FALSE;
	}
	return TRUE;
}

gboolean ab_mdadm_geometry(const char *level_text, guint members, uint32_t chunk_bytes, const char *layout,
			   struct ab_array_geometry *out, GError **error)
{
	enum level level;
	uint32_t chunk;
	if (!check_array(level_text, members, chunk_bytes, &layout, &level, &chunk, error))
		return FALSE;
	out->chunk_bytes = chunk;
	out->data_disks = data_disks(level, members, layout);
	return TRUE;
}

gboolean ab_mdadm_plan(struct ab_plan *plan, const char *level_text, const char *const *members, uint32_t chunk_bytes,
		       const char *layout, const char *md_prefix, struct ab_array_geometry *geo_out,
		       char **array_dev_out, GError **error)
{
	enum level level;
	uint32_t chunk;
	guint n = members ? g_strv_length((char **)members) : 0;
	if (!check_array(level_text, n, chunk_bytes, &layout, &level, &chunk, error))
		return FALSE;
	guint pairs = level == L1_0 ? n / 2 : 0;
	if (!check_names(md_prefix, pairs, error))
		return FALSE;

	g_autofree char *array_dev = g_strdup_printf("%s%u", md_prefix, pairs);
	if (level == L1_0) {
		/* Mirrors of consecutive pairs, then RAID0 over the mirrors,
		 * whose own superblocks are wiped before each mirror stops. */
		g_autoptr(GPtrArray) mirrors = g_ptr_array_new_with_free_func(g_free);
		for (guint p = 0; p < pairs; p++) {
			g_autofree char *dev = g_strdup_printf("%s%u", md_prefix, p);
			add_array(plan, dev, "1", members + 2 * p, 2, 0, NULL);
			g_ptr_array_add(mirrors, g_steal_pointer(&dev));
		}
		g_ptr_array_add(mirrors, NULL);
		add_array(plan, array_dev, "0", (const char *const *)mirrors->pdata, pairs, chunk, NULL);
	} else {
		add_array(plan, array_dev, levels[level].name, members, n, chunk, layout);
	}

	if (geo_out) {
		geo_out->chunk_bytes = chunk;
		geo_out->data_disks = data_disks(level, n, layout);
	}
	if (array_dev_out)
		*array_dev_out = g_steal_pointer(&array_dev);
	return TRUE;
}
