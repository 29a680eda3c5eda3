/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Target plans: the exact mkfs, mkfs.btrfs and mdadm commands, stripe hints,
 * the undo each step registers and the order the unwind runs them in. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../fs-setup/plan.h"
#include "../../src/base/error.h"

/* One line per step: the command (or "-" when there is none) and its undo. */
static char *dump(const struct ab_plan *plan)
{
	GString *out = g_string_new(NULL);
	for (guint i = 0; i < plan->steps->len; i++) {
		const struct ab_plan_step *s = g_ptr_array_index(plan->steps, i);
		g_autofree char *cmd = ab_plan_step_command(s);
		g_string_append(out, cmd ? cmd : "-");
		if (s->undo != AB_UNDO_KIND_COUNT)
			g_string_append_printf(out, " => %s %s", ab_undo_kind_name(s->undo), s->undo_arg);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static void assert_mkfs(enum ab_fs_type fs, const struct ab_array_geometry *geo, gboolean no_hint,
			const char *extra, const char *expected)
{
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mkfs_plan(&plan, fs, "/dev/loop3", geo, no_hint, extra, NULL));
	assert_int_equal(plan.steps->len, 1);
	const struct ab_plan_step *s = g_ptr_array_index(plan.steps, 0);
	assert_int_equal(s->undo, AB_UNDO_KIND_COUNT);
	assert_null(s->undo_arg);
	g_autofree char *got = dump(&plan);
	g_autofree char *want = g_strconcat(expected, "\n", NULL);
	assert_string_equal(got, want);
	ab_plan_clear(&plan);
}

/* A usage error whose message quotes the bad value. */
static void assert_usage(GError **e, const char *bad)
{
	assert_non_null(*e);
	assert_true((*e)->domain == AB_ERROR);
	assert_int_equal((*e)->code, AB_ERROR_USAGE);
	g_autofree char *quoted = g_strdup_printf("'%s'", bad);
	if (!strstr((*e)->message, quoted))
		fail_msg("\"%s\" does not quote %s", (*e)->message, quoted);
	g_clear_error(e);
}

static void test_fs_types(void **state)
{
	(void)state;
	const char *names[] = { "ext3", "ext4", "xfs", "btrfs" };
	for (int i = 0; i < AB_FS_COUNT; i++) {
		enum ab_fs_type fs;
		assert_true(ab_fs_type_parse(names[i], &fs, NULL));
		assert_int_equal(fs, i);
		assert_string_equal(ab_fs_type_name(fs), names[i]);
	}
	const char *bad[] = { "zfs", "", "EXT4", "ext4 " };
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		enum ab_fs_type fs;
		GError *e = NULL;
		assert_false(ab_fs_type_parse(bad[i], &fs, &e));
		if (i == 0)
			assert_string_equal(e->message, "invalid file system 'zfs': expected ext3, ext4, xfs or btrfs");
		assert_usage(&e, bad[i]);
	}
}

static void test_step_command_quoting(void **state)
{
	(void)state;
	struct ab_plan plan;
	ab_plan_init(&plan);
	const char *argv[] = { "mkfs.ext4", "-L", "my label", "", "it's", "a$b", "-E",
			       "x=1,y_z.2:/dev/A+B@C%D-", "semi;colon", "*", NULL };
	ab_plan_add(&plan, "quoting", argv, AB_UNDO_UNLINK, "/img/a", "4096");
	ab_plan_add(&plan, "undo only", NULL, AB_UNDO_MDADM_ZERO, "/dev/loop1", NULL);
	const struct ab_plan_step *s = g_ptr_array_index(plan.steps, 0);
	/* argv is copied, not borrowed. */
	assert_true(s->argv != (char **)argv);
	assert_string_equal(s->what, "quoting");
	assert_int_equal(s->undo, AB_UNDO_UNLINK);
	assert_string_equal(s->undo_arg, "/img/a");
	assert_string_equal(s->undo_detail, "4096");
	g_autofree char *cmd = ab_plan_step_command(s);
	assert_string_equal(cmd, "mkfs.ext4 -L 'my label' '' 'it'\\''s' 'a$b' -E x=1,y_z.2:/dev/A+B@C%D- "
				 "'semi;colon' '*'");
	/* What we print parses back to the same argv. */
	g_auto(GStrv) back = NULL;
	assert_true(g_shell_parse_argv(cmd, NULL, &back, NULL));
	assert_int_equal(g_strv_length(back), G_N_ELEMENTS(argv) - 1);
	for (size_t i = 0; argv[i]; i++)
		assert_string_equal(back[i], argv[i]);
	const struct ab_plan_step *none = g_ptr_array_index(plan.steps, 1);
	assert_null(none->argv);
	assert_null(ab_plan_step_command(none));
	ab_plan_clear(&plan);
	assert_null(plan.steps);
	ab_plan_clear(&plan); /* twice is harmless */
}

#define EXT_E "-E nodiscard,lazy_itable_init=0,lazy_journal_init=0"

static void test_mkfs_defaults(void **state)
{
	(void)state;
	assert_mkfs(AB_FS_EXT4, NULL, FALSE, NULL, "mkfs.ext4 -F -q " EXT_E " /dev/loop3");
	assert_mkfs(AB_FS_EXT3, NULL, FALSE, NULL, "mkfs.ext3 -F -q " EXT_E " /dev/loop3");
	assert_mkfs(AB_FS_XFS, NULL, FALSE, NULL, "mkfs.xfs -f -q -K /dev/loop3");
	assert_mkfs(AB_FS_BTRFS, NULL, FALSE, NULL, "mkfs.btrfs -f -q -K /dev/loop3");
	/* Blank extra options are none. */
	assert_mkfs(AB_FS_XFS, NULL, FALSE, "", "mkfs.xfs -f -q -K /dev/loop3");
	assert_mkfs(AB_FS_XFS, NULL, FALSE, " \t ", "mkfs.xfs -f -q -K /dev/loop3");
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mkfs_plan(&plan, AB_FS_EXT4, "/dev/md0", NULL, FALSE, NULL, NULL));
	assert_string_equal(((struct ab_plan_step *)g_ptr_array_index(plan.steps, 0))->what,
			    "create ext4 file system on /dev/md0");
	ab_plan_clear(&plan);
}

static void test_mkfs_stripe_hints(void **state)
{
	(void)state;
	const struct ab_array_geometry raid5 = { 512 * 1024, 4 };
	const struct ab_array_geometry raid0 = { 64 * 1024, 2 };
	/* stride in 4 KiB blocks, pinned so small file systems (1 KiB blocks
	 * by mke2fs.conf) do not read it in the wrong unit. */
	assert_mkfs(AB_FS_EXT4, &raid5, FALSE, NULL,
		    "mkfs.ext4 -F -q -b 4096 " EXT_E ",stride=128,stripe_width=512 /dev/loop3");
	assert_mkfs(AB_FS_EXT3, &raid0, FALSE, NULL,
		    "mkfs.ext3 -F -q -b 4096 " EXT_E ",stride=16,stripe_width=32 /dev/loop3");
	assert_mkfs(AB_FS_XFS, &raid5, FALSE, NULL, "mkfs.xfs -f -q -K -d su=512k,sw=4 /dev/loop3");
	assert_mkfs(AB_FS_XFS, &raid0, FALSE, NULL, "mkfs.xfs -f -q -K -d su=64k,sw=2 /dev/loop3");
	assert_mkfs(AB_FS_BTRFS, &raid5, FALSE, NULL, "mkfs.btrfs -f -q -K /dev/loop3");
}

/* The one stripe arithmetic mkfs and the tuner share. */
static void test_stripe_hint(void **state)
{
	(void)state;
	struct ab_stripe_hint h;
	struct ab_array_geometry raid10;
	assert_true(ab_mdadm_geometry("raid10", 4, 512 * 1024, NULL, &raid10, NULL));
	assert_true(ab_stripe_hint(&raid10, 4096, &h));
	assert_int_equal(h.stride, 128);
	assert_int_equal(h.stripe_width, 256);
	assert_int_equal(h.su_kib, 512);
	assert_int_equal(h.sw, 2);
	/* 1 KiB blocks count four times the blocks; the KiB stay. */
	assert_true(ab_stripe_hint(&raid10, 1024, &h));
	assert_int_equal(h.stride, 512);
	assert_int_equal(h.stripe_width, 1024);
	assert_int_equal(h.su_kib, 512);
	const struct ab_array_geometry unstriped = { 0, 1 }, no_width = { 512 * 1024, 0 }, odd = { 6 * 1024, 2 };
	const struct ab_array_geometry *none[] = { NULL, &unstriped, &no_width, &odd };
	for (size_t i = 0; i < G_N_ELEMENTS(none); i++) {
		h.stride = 7;
		assert_false(ab_stripe_hint(none[i], 4096, &h));
		assert_int_equal(h.stride, 0);
	}
	GError *e = NULL;
	struct ab_array_geometry g;
	assert_false(ab_mdadm_geometry("raid7", 4, 0, NULL, &g, &e));
	assert_string_equal(e->message, "invalid RAID level 'raid7': expected 0, 1, 4, 5, 6, 10 or 1+0");
	g_clear_error(&e);
	assert_false(ab_mdadm_geometry("6", 3, 0, NULL, &g, &e));
	assert_string_equal(e->message, "too few devices for RAID level 6: got '3', need at least 4");
	g_clear_error(&e);
	assert_false(ab_mdadm_geometry("5", 3, 96 * 1024, NULL, &g, &e));
	assert_string_equal(e->message, "invalid chunk size '98304': RAID level 5 needs a power of two");
	g_clear_error(&e);
}

static void test_mkfs_no_hint(void **state)
{
	(void)state;
	const struct ab_array_geometry known = { 512 * 1024, 4 };
	const struct ab_array_geometry unstriped = { 0, 1 };
	const struct ab_array_geometry no_width = { 512 * 1024, 0 };
	const struct ab_array_geometry odd_chunk = { 6 * 1024, 2 };
	const struct ab_array_geometry *no[] = { NULL, &unstriped, &no_width, &odd_chunk };
	for (size_t i = 0; i < G_N_ELEMENTS(no); i++) {
		assert_mkfs(AB_FS_EXT4, no[i], FALSE, NULL, "mkfs.ext4 -F -q " EXT_E " /dev/loop3");
		assert_mkfs(AB_FS_XFS, no[i], FALSE, NULL, "mkfs.xfs -f -q -K /dev/loop3");
	}
	assert_mkfs(AB_FS_EXT4, &known, TRUE, NULL, "mkfs.ext4 -F -q " EXT_E " /dev/loop3");
	assert_mkfs(AB_FS_EXT3, &known, TRUE, NULL, "mkfs.ext3 -F -q " EXT_E " /dev/loop3");
	assert_mkfs(AB_FS_XFS, &known, TRUE, NULL, "mkfs.xfs -f -q -K /dev/loop3");
}

static void test_mkfs_extra_options(void **state)
{
	(void)state;
	const struct ab_array_geometry geo = { 512 * 1024, 4 };
	/* Appended before the device, split like a shell. */
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mkfs_plan(&plan, AB_FS_EXT4, "/dev/loop3", NULL, FALSE, "-L 'my label' -O ^has_journal",
				 NULL));
	const char *want[] = { "mkfs.ext4", "-F", "-q", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
			       "-L", "my label", "-O", "^has_journal", "/dev/loop3", NULL };
	char **got = ((struct ab_plan_step *)g_ptr_array_index(plan.steps, 0))->argv;
	assert_int_equal(g_strv_length(got), G_N_ELEMENTS(want) - 1);
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(got[i], want[i]);
	ab_plan_clear(&plan);

	assert_mkfs(AB_FS_XFS, &geo, FALSE, "-m crc=1 -L x", "mkfs.xfs -f -q -K -d su=512k,sw=4 -m crc=1 -L x /dev/loop3");
	assert_mkfs(AB_FS_BTRFS, NULL, FALSE, "--csum xxhash", "mkfs.btrfs -f -q -K --csum xxhash /dev/loop3");
	/* mke2fs keeps only the last -E: the user's joins ours, after it. */
	assert_mkfs(AB_FS_EXT4, &geo, FALSE, "-E stride=16 -m 0",
		    "mkfs.ext4 -F -q -b 4096 " EXT_E ",stride=128,stripe_width=512,stride=16 -m 0 /dev/loop3");
	assert_mkfs(AB_FS_EXT4, NULL, FALSE, "-qEdiscard -Lx -E '' -T news",
		    "mkfs.ext4 -F -q " EXT_E ",discard -q -Lx -T news /dev/loop3");
	/* The user's block size is the stride's unit, and no -b of ours. */
	assert_mkfs(AB_FS_EXT4, &geo, FALSE, "-b 1024",
		    "mkfs.ext4 -F -q " EXT_E ",stride=512,stripe_width=2048 -b 1024 /dev/loop3");
	assert_mkfs(AB_FS_EXT4, &geo, FALSE, "-b -1", "mkfs.ext4 -F -q " EXT_E " -b -1 /dev/loop3");
	/* -E taken as a label's value is not an -E. */
	assert_mkfs(AB_FS_EXT4, NULL, FALSE, "-L -E", "mkfs.ext4 -F -q " EXT_E " -L -E /dev/loop3");
	/* A user's own xfs stripe geometry replaces ours (twice is an error). */
	assert_mkfs(AB_FS_XFS, &geo, FALSE, "-d su=64k,sw=2", "mkfs.xfs -f -q -K -d su=64k,sw=2 /dev/loop3");
	assert_mkfs(AB_FS_XFS, &geo, FALSE, "-dnoalign", "mkfs.xfs -f -q -K -dnoalign /dev/loop3");
	assert_mkfs(AB_FS_XFS, &geo, FALSE, "-d agcount=8",
		    "mkfs.xfs -f -q -K -d su=512k,sw=4 -d agcount=8 /dev/loop3");
}

static void test_mkfs_bad_input(void **state)
{
	(void)state;
	struct ab_plan plan;
	ab_plan_init(&plan);
	const char *bad[] = { "-L 'unterminated", "-L \"x", "trailing\\" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		for (int fs = 0; fs < AB_FS_COUNT; fs++) {
			GError *e = NULL;
			assert_false(ab_mkfs_plan(&plan, fs, "/dev/loop3", NULL, FALSE, bad[i], &e));
			assert_non_null(strstr(e->message, "invalid mkfs options"));
			assert_usage(&e, bad[i]);
		}
	}
	GError *e = NULL;
	assert_false(ab_mkfs_plan(&plan, AB_FS_EXT4, "", NULL, FALSE, NULL, &e));
	assert_int_equal(e->code, AB_ERROR_USAGE);
	g_error_free(e);
	assert_int_equal(plan.steps->len, 0);
	ab_plan_clear(&plan);
}

static void assert_btrfs(const char *profile, const char *const *members, const char *extra,
			 const char *expected)
{
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_btrfs_plan(&plan, profile, members, extra, NULL));
	g_autofree char *got = dump(&plan);
	g_autofree char *want = g_strconcat(expected, "\n", NULL);
	assert_string_equal(got, want);
	ab_plan_clear(&plan);
}

static const char *const four[] = { "/dev/loop4", "/dev/loop5", "/dev/loop6", "/dev/loop7", NULL };

static void test_btrfs_plan(void **state)
{
	(void)state;
	const char *profiles[] = { "single", "raid0", "raid1", "raid10", "raid5", "raid6" };
	for (size_t i = 0; i < G_N_ELEMENTS(profiles); i++) {
		g_autofree char *want =
			g_strdup_printf("mkfs.btrfs -f -q -K -d %s -m %s /dev/loop4 /dev/loop5 /dev/loop6 /dev/loop7",
					profiles[i], profiles[i]);
		assert_btrfs(profiles[i], four, NULL, want);
	}
	assert_btrfs("raid10", four, "-L 'bench fs' --csum=xxhash",
		     "mkfs.btrfs -f -q -K -d raid10 -m raid10 -L 'bench fs' --csum=xxhash "
		     "/dev/loop4 /dev/loop5 /dev/loop6 /dev/loop7");
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_btrfs_plan(&plan, "raid1", four, NULL, NULL));
	const struct ab_plan_step *s = g_ptr_array_index(plan.steps, 0);
	assert_string_equal(s->what, "create btrfs raid1 file system on 4 devices");
	assert_int_equal(s->undo, AB_UNDO_KIND_COUNT);
	ab_plan_clear(&plan);
}

static void test_btrfs_member_counts(void **state)
{
	(void)state;
	/* mkfs.btrfs(8) 6.2, PROFILES: the minimum devices of each profile. */
	const struct {
		const char *profile;
		guint min;
	} mins[] = { { "single", 1 }, { "raid0", 1 }, { "raid1", 2 }, { "raid10", 2 }, { "raid5", 2 }, { "raid6", 3 } };
	for (size_t i = 0; i < G_N_ELEMENTS(mins); i++) {
		struct ab_plan plan;
		ab_plan_init(&plan);
		const char *members[5] = { NULL };
		for (guint n = 0; n < mins[i].min; n++)
			members[n] = four[n];
		assert_true(ab_btrfs_plan(&plan, mins[i].profile, members, NULL, NULL));
		members[mins[i].min - 1] = NULL;
		GError *e = NULL;
		assert_false(ab_btrfs_plan(&plan, mins[i].profile, members, NULL, &e));
		assert_non_null(strstr(e->message, mins[i].profile));
		g_autofree char *count = g_strdup_printf("%u", mins[i].min - 1);
		assert_usage(&e, count);
		assert_int_equal(plan.steps->len, 1);
		ab_plan_clear(&plan);
	}
}

static void test_btrfs_bad_input(void **state)
{
	(void)state;
	struct ab_plan plan;
	ab_plan_init(&plan);
	const char *bad_profiles[] = { "dup", "raid3", "RAID1x", "" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad_profiles); i++) {
		GError *e = NULL;
		assert_false(ab_btrfs_plan(&plan, bad_profiles[i], four, NULL, &e));
		assert_non_null(strstr(e->message, "invalid btrfs profile"));
		assert_usage(&e, bad_profiles[i]);
	}
	GError *e = NULL;
	assert_false(ab_btrfs_plan(&plan, "raid1", NULL, NULL, &e));
	assert_usage(&e, "0");
	const char *comma[] = { "/dev/loop4", "/tmp/a,b", NULL };
	assert_false(ab_btrfs_plan(&plan, "raid1", comma, NULL, &e));
	assert_usage(&e, "/tmp/a,b");
	assert_false(ab_btrfs_plan(&plan, "raid1", four, "-L 'x", &e));
	assert_usage(&e, "-L 'x");
	assert_int_equal(plan.steps->len, 0);
	ab_plan_clear(&plan);
}

static void test_btrfs_mount_data(void **state)
{
	(void)state;
	g_autofree char *a = ab_btrfs_mount_data(four, NULL);
	assert_string_equal(a, "device=/dev/loop4,device=/dev/loop5,device=/dev/loop6,device=/dev/loop7");
	const char *two[] = { "/dev/a", "/dev/b", NULL };
	g_autofree char *b = ab_btrfs_mount_data(two, "compress=zstd,space_cache=v2");
	assert_string_equal(b, "device=/dev/a,device=/dev/b,compress=zstd,space_cache=v2");
	g_autofree char *c = ab_btrfs_mount_data(two, "");
	assert_string_equal(c, "device=/dev/a,device=/dev/b");
}

/* mdadm ---------------------------------------------------------------- */

#define CREATE "mdadm --create /dev/md/t-0 --run --assume-clean --metadata=1.2"
#define ZERO(dev) "- => mdadm-zero-superblock " dev "\n"
#define ZERO4 ZERO("/dev/loop4") ZERO("/dev/loop5") ZERO("/dev/loop6") ZERO("/dev/loop7")
#define MEMBERS4 " /dev/loop4 /dev/loop5 /dev/loop6 /dev/loop7"

static void assert_md(const char *level, const char *const *members, uint32_t chunk, const char *layout,
		      const char *expected, uint32_t want_chunk, uint32_t want_disks, const char *want_dev)
{
	struct ab_plan plan;
	ab_plan_init(&plan);
	struct ab_array_geometry geo = { 1, 1 };
	char *dev = NULL;
	assert_true(ab_mdadm_plan(&plan, level, members, chunk, layout, "/dev/md/t-", &geo, &dev, NULL));
	g_autofree char *got = dump(&plan);
	assert_string_equal(got, expected);
	if (geo.chunk_bytes != want_chunk || geo.data_disks != want_disks)
		fail_msg("level %s layout %s: geometry %u/%u, want %u/%u", level, layout ? layout : "-",
			 geo.chunk_bytes, geo.data_disks, want_chunk, want_disks);
	assert_string_equal(dev, want_dev);
	g_free(dev);
	ab_plan_clear(&plan);
	/* The geometry alone (the tuner's) is the one the plan gives. */
	struct ab_array_geometry alone = { 1, 1 };
	assert_true(ab_mdadm_geometry(level, g_strv_length((char **)members), chunk, layout, &alone, NULL));
	assert_int_equal(alone.chunk_bytes, want_chunk);
	assert_int_equal(alone.data_disks, want_disks);
}

static void test_mdadm_levels(void **state)
{
	(void)state;
	const uint32_t k512 = 512 * 1024, k64 = 64 * 1024;
	assert_md("0", four, 0, NULL,
		  ZERO4 CREATE " --level=0 --raid-devices=4 --chunk=512K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n", k512, 4,
		  "/dev/md/t-0");
	assert_md("raid0", four, 12 * 1024, NULL,
		  ZERO4 CREATE " --level=0 --raid-devices=4 --chunk=12K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n",
		  12 * 1024, 4, "/dev/md/t-0");
	/* RAID1 has no chunk, given or not, and no stripe to hint. */
	assert_md("1", four, k64, NULL, ZERO4 CREATE " --level=1 --raid-devices=4" MEMBERS4 " => mdadm-stop /dev/md/t-0\n",
		  0, 1, "/dev/md/t-0");
	assert_md("raid1", four, 0, "", ZERO4 CREATE " --level=1 --raid-devices=4" MEMBERS4 " => mdadm-stop /dev/md/t-0\n",
		  0, 1, "/dev/md/t-0");
	assert_md("4", four, k64, NULL,
		  ZERO4 CREATE " --level=4 --raid-devices=4 --chunk=64K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n", k64, 3,
		  "/dev/md/t-0");
	assert_md("raid5", four, k64, NULL,
		  ZERO4 CREATE " --level=5 --raid-devices=4 --chunk=64K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n", k64, 3,
		  "/dev/md/t-0");
	assert_md("6", four, 0, NULL,
		  ZERO4 CREATE " --level=6 --raid-devices=4 --chunk=512K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n", k512, 2,
		  "/dev/md/t-0");
	assert_md("raid10", four, 0, NULL,
		  ZERO4 CREATE " --level=10 --raid-devices=4 --chunk=512K" MEMBERS4 " => mdadm-stop /dev/md/t-0\n", k512,
		  2, "/dev/md/t-0");
}

static void test_mdadm_raid10_layouts(void **state)
{
	(void)state;
	const uint32_t k256 = 256 * 1024;
	/* Stripe width as drivers/md/raid10.c reports it: devices / near copies
	 * when that divides, else all devices; f2 and o2 have one near copy. */
	assert_md("10", four, k256, "n2",
		  ZERO4 CREATE " --level=10 --raid-devices=4 --chunk=256K --layout=n2" MEMBERS4
			       " => mdadm-stop /dev/md/t-0\n",
		  k256, 2, "/dev/md/t-0");
	assert_md("10", four, k256, "f2",
		  ZERO4 CREATE " --level=10 --raid-devices=4 --chunk=256K --layout=f2" MEMBERS4
			       " => mdadm-stop /dev/md/t-0\n",
		  k256, 4, "/dev/md/t-0");
	assert_md("10", four, k256, "o2",
		  ZERO4 CREATE " --level=10 --raid-devices=4 --chunk=256K --layout=o2" MEMBERS4
			       " => mdadm-stop /dev/md/t-0\n",
		  k256, 4, "/dev/md/t-0");
	const char *three[] = { "/dev/loop4", "/dev/loop5", "/dev/loop6", NULL };
	assert_md("10", three, k256, NULL,
		  ZERO("/dev/loop4") ZERO("/dev/loop5") ZERO("/dev/loop6") CREATE
		  " --level=10 --raid-devices=3 --chunk=256K /dev/loop4 /dev/loop5 /dev/loop6 => mdadm-stop /dev/md/t-0\n",
		  k256, 3, "/dev/md/t-0");
	const char *two[] = { "/dev/loop4", "/dev/loop5", NULL };
	assert_md("10", two, k256, "n2",
		  ZERO("/dev/loop4") ZERO("/dev/loop5") CREATE
		  " --level=10 --raid-devices=2 --chunk=256K --layout=n2 /dev/loop4 /dev/loop5 => mdadm-stop /dev/md/t-0\n",
		  k256, 1, "/dev/md/t-0");
}

static void test_mdadm_nested_1_0(void **state)
{
	(void)state;
	const char *six[] = { "/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e", "/dev/f", NULL };
	const char *want =
		ZERO("/dev/a") ZERO("/dev/b")
		"mdadm --create /dev/md/t-0 --run --assume-clean --metadata=1.2 --level=1 --raid-devices=2 /dev/a /dev/b"
		" => mdadm-stop /dev/md/t-0\n"
		ZERO("/dev/c") ZERO("/dev/d")
		"mdadm --create /dev/md/t-1 --run --assume-clean --metadata=1.2 --level=1 --raid-devices=2 /dev/c /dev/d"
		" => mdadm-stop /dev/md/t-1\n"
		ZERO("/dev/e") ZERO("/dev/f")
		"mdadm --create /dev/md/t-2 --run --assume-clean --metadata=1.2 --level=1 --raid-devices=2 /dev/e /dev/f"
		" => mdadm-stop /dev/md/t-2\n"
		ZERO("/dev/md/t-0") ZERO("/dev/md/t-1") ZERO("/dev/md/t-2")
		"mdadm --create /dev/md/t-3 --run --assume-clean --metadata=1.2 --level=0 --raid-devices=3 --chunk=128K"
		" /dev/md/t-0 /dev/md/t-1 /dev/md/t-2 => mdadm-stop /dev/md/t-3\n";
	assert_md("1+0", six, 128 * 1024, NULL, want, 128 * 1024, 3, "/dev/md/t-3");
	assert_md("raid1+0", six, 128 * 1024, "", want, 128 * 1024, 3, "/dev/md/t-3");

	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mdadm_plan(&plan, "1+0", four, 0, NULL, "/dev/md/t-", NULL, NULL, NULL));
	const struct ab_plan_step *last = g_ptr_array_index(plan.steps, plan.steps->len - 1);
	assert_string_equal(last->what, "create raid0 array /dev/md/t-2");
	ab_plan_clear(&plan);
}

static GString *trace;

static enum ab_undo_outcome record(const struct ab_undo_step *step, GError **error)
{
	g_string_append_printf(trace, "%s %s%s%s\n", ab_undo_kind_name(step->kind), step->path,
			       step->detail ? " of " : "", step->detail ? step->detail : "");
	return AB_UNDO_UNDONE;
}

/* Journaling each step's undo as the builder does, the unwind stops every
 * array before wiping its members, the stripe before the mirrors, and wipes
 * a member only of the array it belongs to. */
static void test_mdadm_undo_order(void **state)
{
	(void)state;
	struct ab_plan plan;
	ab_plan_init(&plan);
	assert_true(ab_mdadm_plan(&plan, "1+0", four, 0, NULL, "/dev/md/t-", NULL, NULL, NULL));
	struct ab_undo u;
	assert_true(ab_undo_open(&u, NULL, NULL, NULL));
	u.exec = record;
	for (guint i = 0; i < plan.steps->len; i++) {
		const struct ab_plan_step *s = g_ptr_array_index(plan.steps, i);
		assert_non_null(ab_undo_intend(&u, s->undo, s->undo_arg, s->undo_detail, NULL, NULL));
	}
	trace = g_string_new(NULL);
	assert_true(ab_undo_unwind(&u, NULL, NULL));
	assert_string_equal(trace->str, "mdadm-stop /dev/md/t-2\n"
					"mdadm-zero-superblock /dev/md/t-1 of t-2\n"
					"mdadm-zero-superblock /dev/md/t-0 of t-2\n"
					"mdadm-stop /dev/md/t-1\n"
					"mdadm-zero-superblock /dev/loop7 of t-1\n"
					"mdadm-zero-superblock /dev/loop6 of t-1\n"
					"mdadm-stop /dev/md/t-0\n"
					"mdadm-zero-superblock /dev/loop5 of t-0\n"
					"mdadm-zero-superblock /dev/loop4 of t-0\n");
	g_string_free(trace, TRUE);
	ab_undo_clear(&u);
	ab_plan_clear(&plan);
}

static void test_mdadm_member_counts(void **state)
{
	(void)state;
	const char *six[] = { "/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e", "/dev/f", NULL };
	const struct {
		const char *level;
		guint min;
	} mins[] = { { "0", 2 }, { "1", 2 }, { "4", 3 }, { "5", 3 }, { "6", 4 }, { "10", 2 }, { "1+0", 4 } };
	for (size_t i = 0; i < G_N_ELEMENTS(mins); i++) {
		struct ab_plan plan;
		ab_plan_init(&plan);
		const char *members[7] = { NULL };
		for (guint n = 0; n < mins[i].min; n++)
			members[n] = six[n];
		assert_true(ab_mdadm_plan(&plan, mins[i].level, members, 0, NULL, "/dev/md/t-", NULL, NULL, NULL));
		guint steps = plan.steps->len;
		members[mins[i].min - 1] = NULL;
		GError *e = NULL;
		assert_false(ab_mdadm_plan(&plan, mins[i].level, members, 0, NULL, "/dev/md/t-", NULL, NULL, &e));
		assert_non_null(strstr(e->message, mins[i].level));
		g_autofree char *count = g_strdup_printf("%u", mins[i].min - 1);
		assert_usage(&e, count);
		assert_int_equal(plan.steps->len, steps);
		ab_plan_clear(&plan);
	}
}

static void assert_md_fails(const char *level, const char *const *members, uint32_t chunk, const char *layout,
			    const char *prefix, const char *bad)
{
	struct ab_plan plan;
	ab_plan_init(&plan);
	struct ab_array_geometry geo = { 7, 7 };
	char *dev = NULL;
	GError *e = NULL;
	assert_false(ab_mdadm_plan(&plan, level, members, chunk, layout, prefix, &geo, &dev, &e));
	assert_usage(&e, bad);
	/* Nothing half-built, nothing handed out. */
	assert_int_equal(plan.steps->len, 0);
	assert_null(dev);
	assert_int_equal(geo.chunk_bytes, 7);
	ab_plan_clear(&plan);
}

static void test_mdadm_bad_input(void **state)
{
	(void)state;
	const char *five[] = { "/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e", NULL };
	const char *p = "/dev/md/t-";
	assert_md_fails("3", four, 0, NULL, p, "3");
	assert_md_fails("raid", four, 0, NULL, p, "raid");
	assert_md_fails("linear", four, 0, NULL, p, "linear");
	assert_md_fails("", four, 0, NULL, p, "");
	assert_md_fails("1+0", five, 0, NULL, p, "5");
	assert_md_fails("10", four, 0, "n3", p, "n3");
	assert_md_fails("10", four, 0, "far2", p, "far2");
	assert_md_fails("5", four, 0, "left-symmetric", p, "left-symmetric");
	assert_md_fails("1", four, 0, "n2", p, "n2");
	assert_md_fails("1+0", four, 0, "f2", p, "f2");
	/* Chunks: a multiple of 4 KiB, a power of two but for RAID0. */
	assert_md_fails("0", four, 6 * 1024, NULL, p, "6144");
	assert_md_fails("0", four, 512, NULL, p, "512");
	assert_md_fails("5", four, 12 * 1024, NULL, p, "12288");
	assert_md_fails("10", four, 96 * 1024, NULL, p, "98304");
	assert_md_fails("1+0", four, 1000, NULL, p, "1000");
	/* Names: a prefix is needed; mdadm keeps 32 characters of NAME. */
	assert_md_fails("0", four, 0, NULL, "", "");
	assert_md_fails("0", four, 0, NULL, "/dev/md/abcdefghijklmnopqrstuvwxyz123456",
			"abcdefghijklmnopqrstuvwxyz1234560");
	struct ab_plan plan;
	ab_plan_init(&plan);
	/* 32 characters exactly is fine. */
	assert_true(ab_mdadm_plan(&plan, "0", four, 0, NULL, "/dev/md/abcdefghijklmnopqrstuvwxyz12345", NULL, NULL,
				  NULL));
	/* Names outside /dev/md/ are mdadm's /dev/mdN style, not stored. */
	char *dev = NULL;
	assert_true(ab_mdadm_plan(&plan, "0", four, 0, NULL, "/dev/md", NULL, &dev, NULL));
	assert_string_equal(dev, "/dev/md0");
	g_free(dev);
	ab_plan_clear(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_types),
		cmocka_unit_test(test_step_command_quoting),
		cmocka_unit_test(test_mkfs_defaults),
		cmocka_unit_test(test_mkfs_stripe_hints),
		cmocka_unit_test(test_stripe_hint),
		cmocka_unit_test(test_mkfs_no_hint),
		cmocka_unit_test(test_mkfs_extra_options),
		cmocka_unit_test(test_mkfs_bad_input),
		cmocka_unit_test(test_btrfs_plan),
		cmocka_unit_test(test_btrfs_member_counts),
		cmocka_unit_test(test_btrfs_bad_input),
		cmocka_unit_test(test_btrfs_mount_data),
		cmocka_unit_test(test_mdadm_levels),
		cmocka_unit_test(test_mdadm_raid10_layouts),
		cmocka_unit_test(test_mdadm_nested_1_0),
		cmocka_unit_test(test_mdadm_undo_order),
		cmocka_unit_test(test_mdadm_member_counts),
		cmocka_unit_test(test_mdadm_bad_input),
	};
	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
