/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Search spaces of mount-option tuning (src/tune/): the INI parse (the
 * built-in spaces, a user's file, each fault at its line naming the value),
 * the values the array's geometry gives, unsafe values left out, the
 * candidates (product, labels, run words, the one-at-a-time set) and the
 * winner's fstab line and mkfs command. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "../../src/base/error.h"
#include "../../src/model/race-screen.h"
#include "../../src/tune/candidates.h"
#include "../../src/tune/fstab.h"
#include "../../src/tune/space.h"
#include "../../src/tune/tune-screen.h"

static struct ab_space *parse(const char *text)
{
	GError *e = NULL;
	struct ab_space *s = ab_space_parse("t.ini", "t", text, strlen(text), &e);
	if (!s)
		fail_msg("'%s' refused: %s", text, e->message);
	return s;
}

static void expect_error(const char *text, int code, const char *want)
{
	GError *e = NULL;
	struct ab_space *s = ab_space_parse("t.ini", "t", text, strlen(text), &e);
	if (s)
		fail_msg("'%s' parsed; expected '%s'", text, want);
	assert_int_equal(ab_error_exit_status(e), code);
	if (!g_str_equal(e->message, want))
		fail_msg("error '%s', expected '%s'", e->message, want);
	g_error_free(e);
}

static const struct ab_space_key *key_named(const struct ab_space *s, const char *name)
{
	for (guint k = 0; k < s->keys->len; k++) {
		const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
		if (g_str_equal(key->name, name))
			return key;
	}
	return NULL;
}

static const struct ab_space_value *value_of(const struct ab_space *s, const char *key, guint v)
{
	const struct ab_space_key *k = key_named(s, key);
	assert_non_null(k);
	assert_true(v < k->values->len);
	return g_ptr_array_index(k->values, v);
}

/* Every built-in space parses, is its file system's, and keeps the rules:
 * the default first with no word, every unsafe value with its reason. */
static void test_builtin_spaces(void **state)
{
	(void)state;
	const char *const *names = ab_space_builtin_names();
	g_autofree char *joined = g_strjoinv(" ", (char **)names);
	assert_string_equal(joined, "ext4 xfs btrfs");
	for (const char *const *n = names; *n; n++) {
		GError *e = NULL;
		g_autoptr(ab_space_auto) s = ab_space_load(*n, &e);
		if (!s)
			fail_msg("built-in space %s: %s", *n, e->message);
		assert_string_equal(ab_fs_type_name(s->fs), *n);
		assert_non_null(s->summary);
		assert_true(s->keys->len >= 5);
		for (guint k = 0; k < s->keys->len; k++) {
			const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
			const struct ab_space_value *def = g_ptr_array_index(key->values, 0);
			assert_null(def->words);
			assert_null(def->unsafe);
			assert_non_null(key->note);
		}
		assert_non_null(key_named(s, "atime"));
	}
	g_autoptr(ab_space_auto) ext4 = ab_space_load("ext4", NULL);
	assert_string_equal(value_of(ext4, "data", 0)->text, "ordered");
	assert_string_equal(value_of(ext4, "data", 3)->words, "data=writeback");
	assert_non_null(value_of(ext4, "data", 3)->unsafe);
	assert_null(value_of(ext4, "data", 2)->unsafe); /* journal,journal_async_commit */
	assert_string_equal(value_of(ext4, "data", 2)->words, "data=journal,journal_async_commit");
	assert_non_null(value_of(ext4, "barrier", 1)->unsafe);
	assert_string_equal(value_of(ext4, "commit", 0)->text, "5");
	assert_string_equal(value_of(ext4, "inode-size", 1)->label, "inode-size=512");
	assert_string_equal(value_of(ext4, "inode-size", 1)->words, "-I 512");
	assert_string_equal(value_of(ext4, "stripe-hint", 1)->words, "--no-stripe-hint");
	assert_true(value_of(ext4, "stripe", 1)->geometry);
	g_autoptr(ab_space_auto) xfs = ab_space_load("xfs", NULL);
	assert_null(key_named(xfs, "barrier")); /* gone since Linux 4.19 */
	assert_string_equal(value_of(xfs, "logbufs", 0)->text, "8");
	g_autoptr(ab_space_auto) btrfs = ab_space_load("btrfs", NULL);
	assert_null(key_named(btrfs, "stripe-hint")); /* btrfs stripes its own chunks */
	assert_string_equal(value_of(btrfs, "compress", 1)->words, "compress=zstd");
	assert_string_equal(value_of(btrfs, "commit", 0)->text, "30");
	assert_int_equal(key_named(btrfs, "space-cache")->values->len, 1);
	GError *e = NULL;
	assert_null(ab_space_load("zfs", &e));
	assert_string_equal(e->message, "invalid --space 'zfs': no such built-in space (ext4, xfs, btrfs); a space "
					"file's name has a '/' or ends in .ini");
	g_error_free(e);
}

static const char good[] = "# a space\n"
			   "[space]\n"
			   "fs = ext4\n"
			   "summary = two keys\n"
			   "\n"
			   "[key atime]\n"
			   "mount = {}\n"
			   "values = relatime; noatime ;lazytime\n"
			   "note = timestamps\n"
			   "[key data]\n"
			   "mount = data={}\n"
			   "values = ordered; writeback\n"
			   "unsafe = writeback\n"
			   "why-unsafe = stale data after a crash\n"
			   "[key inode-size]\n"
			   "mkfs = -I {}\n"
			   "values = 256; 512\n"
			   "[key stripe-hint]\n"
			   "switch = no-stripe-hint\n"
			   "values = geometry; none\n"
			   "[key stripe]\n"
			   "mount = stripe={}\n"
			   "values = superblock; @stripe-width\n";

static void test_parse_good(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) s = parse(good);
	assert_string_equal(s->name, "t");
	assert_int_equal(s->fs, AB_FS_EXT4);
	assert_string_equal(s->summary, "two keys");
	assert_int_equal(s->keys->len, 5);
	const struct ab_space_key *atime = key_named(s, "atime");
	assert_int_equal(atime->place, AB_SPACE_MOUNT);
	assert_int_equal(atime->line, 6);
	assert_int_equal(atime->values->len, 3);
	assert_string_equal(atime->note, "timestamps");
	assert_string_equal(value_of(s, "atime", 0)->label, "relatime");
	assert_null(value_of(s, "atime", 0)->words);
	assert_string_equal(value_of(s, "atime", 1)->words, "noatime"); /* trimmed */
	assert_string_equal(value_of(s, "data", 1)->label, "data=writeback");
	assert_string_equal(value_of(s, "data", 1)->unsafe, "stale data after a crash");
	assert_int_equal(key_named(s, "inode-size")->place, AB_SPACE_MKFS);
	assert_string_equal(value_of(s, "stripe-hint", 1)->label, "stripe-hint=none");
	assert_string_equal(value_of(s, "stripe", 1)->label, "stripe=@stripe-width");
	assert_true(value_of(s, "stripe", 1)->geometry);
	assert_false(value_of(s, "stripe", 0)->geometry);
}

/* Each fault: one line, the file and line, the bad value named. */
static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int code;
		const char *want;
	} cases[] = {
		{ "", 1, "t.ini:1: no [space] group: a space names its file system (fs = ext4, xfs or btrfs)" },
		{ "[space]\nsummary = x\n", 1, "t.ini:1: [space] has no 'fs': the file system (ext4, xfs or btrfs)" },
		{ "[space]\nfs = zfs\n", 1, "t.ini:2: invalid file system 'zfs': expected ext3, ext4, xfs or btrfs" },
		{ "[space]\nfs = ext4\n", 1, "t.ini:1: no [key NAME] group: nothing to try" },
		{ "[space]\nfs = ext4\nflavour = hot\n", 1, "t.ini:3: unknown key 'flavour' in [space]: expected fs or summary" },
		{ "[space]\nfs = ext4\n[options]\n", 1, "t.ini:3: unknown group [options]: expected [space] or [key NAME]" },
		{ "[space]\nfs = ext4\n[key Commit]\n", 1,
		  "t.ini:3: invalid key name 'Commit' in [key Commit]: lowercase letters, digits and '-'" },
		{ "fs = ext4\n", 1, "t.ini:1: key 'fs' outside a group: a space starts with [space] or [key NAME]" },
		{ "[space]\nfs = ext4\nfs = xfs\n", 1, "t.ini:3: duplicate key 'fs' in [space] (first at line 2)" },
		{ "[space]\nfs = ext4\n[key a]\nvalues = x; y\n", 1,
		  "t.ini:3: [key a] has no 'mount', 'mkfs' or 'switch': where its option goes" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nmkfs = -I {}\nvalues = x; y\n", 1,
		  "t.ini:5: [key a] has both 'mount' and 'mkfs': one place for its option" },
		{ "[space]\nfs = ext4\n[key a]\nmount = commit=\nvalues = 5; 30\n", 1,
		  "t.ini:4: invalid template 'commit=' of [key a]: '{}' once, where the value goes" },
		{ "[space]\nfs = ext4\n[key a]\nswitch = yes-destroy\nvalues = x; y\n", 1,
		  "t.ini:4: invalid switch 'yes-destroy' of [key a]: expected no-stripe-hint" },
		{ "[space]\nfs = ext4\n[key a]\nswitch = no-stripe-hint\nvalues = a; b; c\n", 1,
		  "t.ini:5: invalid value 'c' of [key a]: a switch has two values, without and with --no-stripe-hint" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\n", 1,
		  "t.ini:3: [key a] has no 'values': the values to try, the default first" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = x;;y\n", 1, "t.ini:5: empty value in the list" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = relatime; noatime; noatime\n", 1,
		  "t.ini:5: duplicate value 'noatime' in [key a]" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = relatime; noatime\n[key b]\nmount = {}\n"
		  "values = x; noatime\n",
		  1, "t.ini:8: value 'noatime' of [key b] gives 'noatime', as [key a] does" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = relatime; no atime\n", 1,
		  "t.ini:5: invalid value 'no atime' of [key a]: a mount option has no spaces" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = relatime; noauto\n", 1,
		  "t.ini:5: invalid value 'noauto' of [key a]: invalid mount options 'noauto': 'noauto' is for fstab, "
		  "not mount(2)" },
		{ "[space]\nfs = ext4\n[key a]\nmount = journal_path={}\nvalues = none; /dev/null\n", 4,
		  "t.ini:5: invalid value '/dev/null' of [key a]: refusing --mount-opts '/dev/null': it names an existing "
		  "path (devices come only from --device, --members and --loop, after their safety checks)" },
		{ "[space]\nfs = ext4\n[key a]\nmkfs = -L {}\nvalues = none; \"x\n", 1,
		  "t.ini:5: invalid value '\"x' of [key a]: invalid mkfs options '-L \"x': unmatched quote or trailing "
		  "backslash" },
		{ "[space]\nfs = ext4\n[key a]\nmount = stripe={}\nvalues = sb; @stripes\n", 1,
		  "t.ini:5: invalid value '@stripes' of [key a]: unknown geometry word '@stripes': expected @stride, "
		  "@stripe-width, @sunit or @swidth" },
		{ "[space]\nfs = ext4\n[key a]\nmount = stripe={}\nvalues = @stride; 8\n", 1,
		  "t.ini:5: invalid default '@stride' of [key a]: the first value adds no option, so it cannot name the "
		  "geometry" },
		{ "[space]\nfs = ext4\n[key a]\nmount = data={}\nvalues = ordered; writeback\nunsafe = writeback\n", 1,
		  "t.ini:6: [key a] has 'unsafe' without 'why-unsafe': an unsafe value needs its reason, and a reason "
		  "its values" },
		{ "[space]\nfs = ext4\n[key a]\nmount = data={}\nvalues = ordered; writeback\nunsafe = journal\n"
		  "why-unsafe = x\n",
		  1, "t.ini:6: invalid unsafe value 'journal' of [key a]: not one of its values" },
		{ "[space]\nfs = ext4\n[key a]\nmount = data={}\nvalues = ordered; writeback\nunsafe = ordered\n"
		  "why-unsafe = x\n",
		  1, "t.ini:6: invalid unsafe value 'ordered' of [key a]: the default is what the file system does anyway" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = a; b\nnote =\n", 1, "t.ini:6: empty note" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = a; b\ncolour = red\n", 1,
		  "t.ini:6: unknown key 'colour' in [key a]: expected mount, mkfs or switch, values, unsafe, why-unsafe or "
		  "note" },
		{ "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = a; b\n[key a]\n", 1,
		  "t.ini:6: duplicate group [key a] (first at line 3)" },
		{ "[space]\nfs = ext4\nsummary = caf\xe9\n", 1, "t.ini:3: bytes that are not UTF-8" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		expect_error(cases[i].text, cases[i].code, cases[i].want);
	/* Refused unread: more than a space's size. */
	g_autofree char *big = g_strnfill(AB_SPACE_MAX_BYTES + 1, '#');
	GError *e = NULL;
	assert_null(ab_space_parse("big.ini", "big", big, strlen(big), &e));
	assert_string_equal(e->message, "big.ini: 65537 bytes, more than a space's 65536");
	g_error_free(e);
}

/* A file: base name for its name, its path in messages. */
static void test_load_file(void **state)
{
	(void)state;
	g_autofree char *dir = g_dir_make_tmp("tune-space-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "mine.ini", NULL);
	assert_true(g_file_set_contents(path, good, -1, NULL));
	g_autoptr(ab_space_auto) s = ab_space_load(path, NULL);
	assert_non_null(s);
	assert_string_equal(s->name, "mine");
	assert_string_equal(s->where, path);
	assert_true(g_file_set_contents(path, "[space]\nfs = ext4\n[key a]\nmount = {}\nvalues = a; b c\n", -1, NULL));
	GError *e = NULL;
	assert_null(ab_space_load(path, &e));
	g_autofree char *want = g_strdup_printf("%s:5: invalid value 'b c' of [key a]: a mount option has no spaces", path);
	assert_string_equal(e->message, want);
	g_error_free(e);
	g_unlink(path);
	g_rmdir(dir);
}

static struct ab_space *resolve_on(const char *space, const char *level, guint members, uint32_t chunk,
				   gboolean allow_unsafe, GPtrArray *omitted)
{
	g_autoptr(ab_space_auto) s = ab_space_load(space, NULL);
	struct ab_array_geometry geo = { 0, 0 };
	if (level)
		assert_true(ab_mdadm_geometry(level, members, chunk, NULL, &geo, NULL));
	GError *e = NULL;
	struct ab_space *r = ab_space_resolve(s, level ? &geo : NULL, allow_unsafe, omitted, &e);
	if (!r)
		fail_msg("resolve %s: %s", space, e->message);
	return r;
}

static char *mkfs_on(enum ab_fs_type fs, const char *level, guint members, uint32_t chunk)
{
	struct ab_array_geometry geo;
	assert_true(ab_mdadm_geometry(level, members, chunk, NULL, &geo, NULL));
	const char *dev[] = { "/dev/md0", NULL };
	return ab_fstab_mkfs_command(fs, &geo, NULL, dev, NULL, NULL);
}

#define EXT_E "-E nodiscard,lazy_itable_init=0,lazy_journal_init=0"

/* The alignment values are the array's own: the chunk and its data
 * members (raid0 n, raid10 n/2, raid5 n-1, raid6 n-2, raid1 none). */
static void test_geometry_values(void **state)
{
	(void)state;
	static const struct {
		const char *level;
		guint members;
		uint32_t chunk;
		const char *stripe;      /* ext4's stripe= value */
		const char *ext4_hint;   /* ext4's -E, after our own */
		const char *xfs_hint;    /* xfs's -d */
	} cases[] = {
		{ "raid10", 4, 512 * 1024, "stripe=256", ",stride=128,stripe_width=256", "su=512k,sw=2" },
		{ "raid0", 4, 64 * 1024, "stripe=64", ",stride=16,stripe_width=64", "su=64k,sw=4" },
		{ "raid5", 4, 512 * 1024, "stripe=384", ",stride=128,stripe_width=384", "su=512k,sw=3" },
		{ "raid6", 6, 64 * 1024, "stripe=64", ",stride=16,stripe_width=64", "su=64k,sw=4" },
		{ "raid10", 6, 0, "stripe=384", ",stride=128,stripe_width=384", "su=512k,sw=3" }, /* mdadm's 512k */
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ab_space_auto) ext4 = resolve_on("ext4", cases[i].level, cases[i].members, cases[i].chunk,
							   FALSE, NULL);
		assert_string_equal(value_of(ext4, "stripe", 1)->words, cases[i].stripe);
		assert_string_equal(value_of(ext4, "stripe", 1)->label, cases[i].stripe);
		assert_string_equal(value_of(ext4, "stripe-hint", 1)->words, "--no-stripe-hint");
		g_autofree char *ext = mkfs_on(AB_FS_EXT4, cases[i].level, cases[i].members, cases[i].chunk);
		g_autofree char *want_ext = g_strdup_printf("mkfs.ext4 -F -q -b 4096 " EXT_E "%s /dev/md0", cases[i].ext4_hint);
		assert_string_equal(ext, want_ext);
		g_autofree char *xfs = mkfs_on(AB_FS_XFS, cases[i].level, cases[i].members, cases[i].chunk);
		g_autofree char *want_xfs = g_strdup_printf("mkfs.xfs -f -q -K -d %s /dev/md0", cases[i].xfs_hint);
		assert_string_equal(xfs, want_xfs);
	}
	/* A mirror, one device: no stripe, so neither alignment key is tried,
	 * and the reader is told why. */
	const char *flat[] = { "raid1", NULL };
	for (size_t i = 0; i < G_N_ELEMENTS(flat); i++) {
		g_autoptr(GPtrArray) omitted = g_ptr_array_new_with_free_func(ab_space_omission_free);
		g_autoptr(ab_space_auto) ext4 = resolve_on("ext4", flat[i], 2, 0, FALSE, omitted);
		assert_null(key_named(ext4, "stripe"));
		assert_null(key_named(ext4, "stripe-hint"));
		assert_non_null(key_named(ext4, "commit"));
		gboolean said = FALSE;
		for (guint o = 0; o < omitted->len; o++) {
			const struct ab_space_omission *om = g_ptr_array_index(omitted, o);
			if (g_str_equal(om->what, "stripe=@stripe-width")) {
				said = TRUE;
				assert_false(om->unsafe);
				assert_string_equal(om->why, "no stripe to align to (one device, a mirror, or btrfs, which "
							     "stripes its own chunks)");
			}
		}
		assert_true(said);
	}
	/* xfs's sunit and swidth count 512-byte sectors. */
	struct ab_stripe_hint h;
	struct ab_array_geometry geo;
	assert_true(ab_mdadm_geometry("raid10", 4, 512 * 1024, NULL, &geo, NULL));
	assert_true(ab_stripe_hint(&geo, 4096, &h));
	g_autofree char *filled = ab_space_fill_geometry("sunit=@sunit,swidth=@swidth,@stride", &h, NULL);
	assert_string_equal(filled, "sunit=1024,swidth=2048,128");
}

/* Unsafe values are left out unless allowed, and the result says which,
 * with the reason. */
static void test_unsafe(void **state)
{
	(void)state;
	g_autoptr(GPtrArray) omitted = g_ptr_array_new_with_free_func(ab_space_omission_free);
	g_autoptr(ab_space_auto) safe = resolve_on("ext4", "raid10", 4, 0, FALSE, omitted);
	const struct ab_space_key *data = key_named(safe, "data");
	assert_int_equal(data->values->len, 3); /* ordered, journal, journal,journal_async_commit */
	assert_null(key_named(safe, "barrier")); /* nobarrier gone: nothing left to try */
	g_autoptr(GString) said = g_string_new(NULL);
	for (guint o = 0; o < omitted->len; o++) {
		const struct ab_space_omission *om = g_ptr_array_index(omitted, o);
		assert_true(om->unsafe);
		assert_true(strlen(om->why) > 20);
		g_string_append_printf(said, "%s;", om->what);
	}
	assert_string_equal(said->str, "data=writeback;data=writeback,journal_async_commit;nobarrier;");
	g_autoptr(GPtrArray) product = ab_candidates_product(safe, NULL, NULL);
	for (guint i = 0; i < product->len; i++)
		assert_false(((struct ab_candidate *)g_ptr_array_index(product, i))->unsafe);

	g_ptr_array_set_size(omitted, 0);
	g_autoptr(ab_space_auto) all = resolve_on("ext4", "raid10", 4, 0, TRUE, omitted);
	assert_int_equal(omitted->len, 0);
	assert_int_equal(key_named(all, "data")->values->len, 5);
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(all);
	gboolean found = FALSE;
	for (guint i = 0; i < one->len; i++) {
		const struct ab_candidate *c = g_ptr_array_index(one, i);
		if (g_str_equal(c->label, "nobarrier")) {
			found = TRUE;
			assert_true(c->unsafe);
		}
	}
	assert_true(found);
}

static char *argv_line(const struct ab_candidate *c)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < c->argv->len; i++)
		g_string_append_printf(s, "%s[%s]", i ? " " : "", (const char *)g_ptr_array_index(c->argv, i));
	return g_string_free(s, FALSE);
}

/* The product: defaults first, the last key fastest, each candidate's label
 * and run words; `keep` narrows a key; too many is refused. */
static void test_product(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) s = parse(good);
	struct ab_array_geometry geo = { 512 * 1024, 2 };
	g_autoptr(ab_space_auto) r = ab_space_resolve(s, &geo, TRUE, NULL, NULL);
	assert_non_null(r);
	assert_int_equal(ab_candidates_count(r, NULL), 3 * 2 * 2 * 2 * 2);
	g_autoptr(GPtrArray) all = ab_candidates_product(r, NULL, NULL);
	assert_int_equal(all->len, 48);
	const struct ab_candidate *first = g_ptr_array_index(all, 0);
	assert_string_equal(first->label, "defaults");
	assert_int_equal(first->argv->len, 0);
	assert_null(first->mount_opts);
	assert_null(first->mkfs_opts);
	assert_false(first->no_stripe_hint);
	const struct ab_candidate *second = g_ptr_array_index(all, 1);
	assert_string_equal(second->label, "stripe=256");
	const struct ab_candidate *last = g_ptr_array_index(all, 47);
	assert_string_equal(last->label, "lazytime,data=writeback,inode-size=512,stripe-hint=none,stripe=256");
	assert_string_equal(last->mount_opts, "lazytime,data=writeback,stripe=256");
	assert_string_equal(last->mkfs_opts, "-I 512");
	assert_true(last->no_stripe_hint);
	assert_true(last->unsafe);
	g_autofree char *words = argv_line(last);
	assert_string_equal(words, "[--mkfs-opts] [-I 512] [--mount-opts] [lazytime,data=writeback,stripe=256] "
				   "[--no-stripe-hint]");
	assert_int_equal(last->n_keys, 5);
	assert_int_equal(last->choice[0], 2);
	/* Every label once: a label says what a candidate runs. */
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < all->len; i++)
		assert_true(g_hash_table_add(seen, ((struct ab_candidate *)g_ptr_array_index(all, i))->label));
	/* The same space gives the same list. */
	g_autoptr(GPtrArray) again = ab_candidates_product(r, NULL, NULL);
	for (guint i = 0; i < all->len; i++)
		assert_string_equal(((struct ab_candidate *)g_ptr_array_index(all, i))->label,
				    ((struct ab_candidate *)g_ptr_array_index(again, i))->label);

	/* keep: atime's noatime only, data's default only (its mask empty),
	 * the rest whole. */
	const guint32 keep[] = { 1u << 1, 0, ~0u, ~0u, ~0u };
	assert_int_equal(ab_candidates_count(r, keep), 2 * 1 * 2 * 2 * 2);
	g_autoptr(GPtrArray) some = ab_candidates_product(r, keep, NULL);
	assert_int_equal(some->len, 16);
	assert_string_equal(((struct ab_candidate *)g_ptr_array_index(some, 0))->label, "defaults");
	assert_string_equal(((struct ab_candidate *)g_ptr_array_index(some, 8))->label, "noatime");
	assert_string_equal(((struct ab_candidate *)g_ptr_array_index(some, 15))->label,
			    "noatime,inode-size=512,stripe-hint=none,stripe=256");

	/* The one-at-a-time set: the defaults and each single change. */
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(r);
	g_autoptr(GString) labels = g_string_new(NULL);
	for (guint i = 0; i < one->len; i++)
		g_string_append_printf(labels, "%s;", ((struct ab_candidate *)g_ptr_array_index(one, i))->label);
	assert_string_equal(labels->str, "defaults;noatime;lazytime;data=writeback;inode-size=512;stripe-hint=none;"
					 "stripe=256;");
	const struct ab_candidate *hint = g_ptr_array_index(one, 5);
	g_autofree char *hint_words = argv_line(hint);
	assert_string_equal(hint_words, "[--no-stripe-hint]");

	/* The built-in ext4 space on a raid10 is more than three rounds of a
	 * budget allow: the screening step's case. */
	g_autoptr(ab_space_auto) ext4 = resolve_on("ext4", "raid10", 4, 0, FALSE, NULL);
	assert_true(ab_candidates_count(ext4, NULL) > 1000);
	/* Beyond AB_CANDIDATES_MAX the product is refused, before it is made. */
	g_autoptr(GString) text = g_string_new("[space]\nfs = ext4\n");
	for (int k = 0; k < 14; k++)
		g_string_append_printf(text, "[key k%d]\nmount = commit={}\nvalues = %d; %d\n", k, 1000 + k, 2000 + k);
	g_autoptr(ab_space_auto) many = parse(text->str);
	g_autoptr(ab_space_auto) many_r = ab_space_resolve(many, NULL, FALSE, NULL, NULL);
	assert_int_equal(ab_candidates_count(many_r, NULL), 16384);
	GError *e = NULL;
	assert_null(ab_candidates_product(many_r, NULL, &e));
	/* Only fewer keys or values help: no option screens a space that large. */
	assert_string_equal(e->message, "space 't' makes 16384 candidates, more than 10000: try fewer keys (--keys) or "
					"values");
	g_error_free(e);
}

/* The one-at-a-time set is the screening's candidates in the screening's
 * order (src/model/race-screen.h: the defaults, then key 0's other values,
 * then key 1's...), each key's default its value 0; a screening's kept
 * values, as masks, give the combination race its count. */
static void test_screening_order(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) r = resolve_on("ext4", "raid10", 4, 0, FALSE, NULL);
	size_t values[AB_SPACE_MAX_KEYS], defaults[AB_SPACE_MAX_KEYS] = { 0 };
	for (guint k = 0; k < r->keys->len; k++)
		values[k] = ((const struct ab_space_key *)g_ptr_array_index(r->keys, k))->values->len;
	struct ab_race_screen_space space = { r->keys->len, values, defaults };
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(r);
	assert_int_equal(ab_race_screen_candidates(&space), one->len);
	size_t key, value;
	assert_false(ab_race_screen_change_of(&space, 0, &key, &value));
	for (guint c = 1; c < one->len; c++) {
		const struct ab_candidate *cand = g_ptr_array_index(one, c);
		assert_true(ab_race_screen_change_of(&space, c, &key, &value));
		for (guint k = 0; k < cand->n_keys; k++)
			assert_int_equal(cand->choice[k], k == key ? value : 0);
	}
	/* Kept values as the screening gives them (bool per value) -> masks. */
	bool keep0[8] = { true, true }, keep1[8] = { true };
	struct ab_race_screen_key keys[AB_SPACE_MAX_KEYS] = { 0 };
	guint32 masks[AB_SPACE_MAX_KEYS] = { 0 };
	for (guint k = 0; k < r->keys->len; k++) {
		keys[k].keep = k == 0 ? keep0 : keep1;
		keys[k].kept = k == 0 ? 2 : 1;
		for (size_t v = 0; v < values[k] && v < 8; v++)
			masks[k] |= (guint32)keys[k].keep[v] << v;
	}
	struct ab_race_screen screen = { .keys = r->keys->len, .key = keys };
	assert_int_equal(ab_candidates_count(r, masks), ab_race_screen_combinations(&screen));
	assert_int_equal(ab_candidates_count(r, masks), 2);
}

/* Screening's verdict when no key is told to matter for the better: the
 * kept product is the defaults alone, so the race takes the best one-key
 * changes by their screening ratio beside them (never a change worse
 * than the defaults), up to the number asked; screening's lines come best
 * ratio first. */
static void test_race_after_screening(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) s = parse("[space]\nfs = ext4\n"
					   "[key atime]\nmount = {}\nvalues = relatime; noatime; lazytime\n"
					   "[key commit]\nmount = commit={}\nvalues = 5; 30\n"
					   "[key data]\nmount = data={}\nvalues = ordered; journal\n");
	g_autoptr(ab_space_auto) r = ab_space_resolve(s, NULL, FALSE, NULL, NULL);
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(r);
	assert_int_equal(one->len, 5); /* defaults, noatime, lazytime, commit=30, data=journal */
	/* Each change's ratio to the defaults, under a noise of +-8 % that
	 * no 4 rounds tell apart, except data=journal's half. */
	const double ratio[5] = { 1, 0.97, 1.05, 1.02, 0.5 };
	const double noise[4][5] = {
		{ 1.00, 1.08, 0.93, 1.07, 1.01 },
		{ 1.00, 0.92, 1.08, 0.94, 0.99 },
		{ 1.00, 1.07, 0.94, 1.06, 1.02 },
		{ 1.00, 0.95, 1.06, 0.95, 0.98 },
	};
	struct ab_tune_stage st = { .stage = "screen", .candidates = 5, .rounds = 4 };
	ab_race_params_init(&st.params);
	st.y = g_array_new(FALSE, FALSE, sizeof(double));
	for (size_t round = 0; round < 4; round++)
		for (size_t c = 0; c < 5; c++) {
			double y = 1000 * (1 + 0.1 * (double)round) * ratio[c] * noise[round][c];
			g_array_append_val(st.y, y);
		}
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
	GError *e = NULL;
	g_autoptr(GPtrArray) race = ab_tune_screened(r, &st, AB_TUNE_RACE_AFTER_SCREEN_MIN, lines, &e);
	assert_non_null(race);
	g_autoptr(GString) labels = g_string_new(NULL);
	for (guint i = 0; i < race->len; i++)
		g_string_append_printf(labels, "%s;", ((struct ab_candidate *)g_ptr_array_index(race, i))->label);
	assert_string_equal(labels->str, "defaults;lazytime;commit=30;noatime;");
	/* Best first: lazytime (1.05) leads, data=journal (worse) comes last. */
	assert_true(g_str_has_prefix(g_ptr_array_index(lines, 0), "lazytime: 1.0"));
	assert_true(g_str_has_prefix(g_ptr_array_index(lines, 3), "data=journal: 0.5"));
	assert_non_null(strstr(g_ptr_array_index(lines, 3), ": worse"));
	const char *joined = g_ptr_array_index(lines, lines->len - 1);
	assert_string_equal(joined, "the race also takes the best one-key changes by their ratio, lazytime, commit=30, "
				    "noatime: the values kept made 1 candidate, too few to rank");

	/* Fewer asked (a budget of visits that pays for fewer): the best alone. */
	g_autoptr(GPtrArray) lines2 = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) two = ab_tune_screened(r, &st, 2, lines2, &e);
	assert_int_equal(two->len, 2);
	assert_string_equal(((struct ab_candidate *)g_ptr_array_index(two, 1))->label, "lazytime");
	/* None asked: the defaults alone, and no line says a change joined. */
	g_autoptr(GPtrArray) lines1 = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) alone = ab_tune_screened(r, &st, 1, lines1, &e);
	assert_int_equal(alone->len, 1);
	for (guint i = 0; i < lines1->len; i++)
		assert_null(strstr(g_ptr_array_index(lines1, i), "also takes"));
	g_array_unref(st.y);
}

/* A space with nothing to try but its defaults: one candidate. */
static void test_nothing_to_try(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) s = parse("[space]\nfs = xfs\n[key stripe]\nmount = swidth={}\nvalues = sb; @swidth\n");
	g_autoptr(ab_space_auto) r = ab_space_resolve(s, NULL, FALSE, NULL, NULL);
	assert_int_equal(r->keys->len, 0);
	assert_int_equal(ab_candidates_count(r, NULL), 1);
	g_autoptr(GPtrArray) all = ab_candidates_product(r, NULL, NULL);
	assert_int_equal(all->len, 1);
	assert_string_equal(((struct ab_candidate *)g_ptr_array_index(all, 0))->label, "defaults");
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(r);
	assert_int_equal(one->len, 1);
}

static void test_fstab(void **state)
{
	(void)state;
	g_autofree char *line = ab_fstab_line(NULL, "/srv/data", AB_FS_EXT4, "noatime,commit=30", NULL);
	assert_string_equal(line, "UUID=<uuid> /srv/data ext4 noatime,commit=30 0 2\n");
	g_autofree char *xfs = ab_fstab_line("/dev/md0", "/srv/data", AB_FS_XFS, NULL, NULL);
	assert_string_equal(xfs, "/dev/md0 /srv/data xfs defaults 0 0\n");
	g_autofree char *btrfs = ab_fstab_line("LABEL=pool", "/srv/data", AB_FS_BTRFS, "", NULL);
	assert_string_equal(btrfs, "LABEL=pool /srv/data btrfs defaults 0 0\n");
	g_autofree char *ext3 = ab_fstab_line("/dev/sdb1", "/mnt", AB_FS_EXT3, "noatime", NULL);
	assert_string_equal(ext3, "/dev/sdb1 /mnt ext3 noatime 0 2\n");
	/* Spaces, tabs, newlines and backslashes escaped as getmntent(3) reads them. */
	g_autofree char *odd = ab_fstab_line("LABEL=my disk", "/srv/my data\\x\t\n", AB_FS_XFS, "noatime", NULL);
	assert_string_equal(odd, "LABEL=my\\040disk /srv/my\\040data\\134x\\011\\012 xfs noatime 0 0\n");
	GError *e = NULL;
	assert_null(ab_fstab_line(NULL, "srv/data", AB_FS_EXT4, NULL, &e));
	assert_string_equal(e->message, "invalid mount point 'srv/data': an absolute path");
	g_clear_error(&e);
	assert_null(ab_fstab_line("", "/srv", AB_FS_EXT4, NULL, &e));
	assert_string_equal(e->message, "invalid fstab source '': a device, UUID= or LABEL=");
	g_clear_error(&e);
	assert_int_equal(ab_fstab_pass(AB_FS_EXT4), 2);
	assert_int_equal(ab_fstab_pass(AB_FS_XFS), 0);
	assert_int_equal(ab_fstab_pass(AB_FS_BTRFS), 0);
}

/* The winner's mkfs command: fs-setup's own, with the candidate's words. */
static void test_mkfs_command(void **state)
{
	(void)state;
	g_autoptr(ab_space_auto) s = parse(good);
	struct ab_array_geometry geo;
	assert_true(ab_mdadm_geometry("raid10", 4, 512 * 1024, NULL, &geo, NULL));
	g_autoptr(ab_space_auto) r = ab_space_resolve(s, &geo, FALSE, NULL, NULL);
	g_autoptr(GPtrArray) one = ab_candidates_one_at_a_time(r);
	const char *md[] = { "/dev/md0", NULL };
	const struct ab_candidate *inode = NULL, *nohint = NULL;
	for (guint i = 0; i < one->len; i++) {
		const struct ab_candidate *c = g_ptr_array_index(one, i);
		if (g_str_equal(c->label, "inode-size=512"))
			inode = c;
		if (g_str_equal(c->label, "stripe-hint=none"))
			nohint = c;
	}
	assert_non_null(inode);
	assert_non_null(nohint);
	g_autofree char *with = ab_fstab_mkfs_command(AB_FS_EXT4, &geo, NULL, md, inode, NULL);
	assert_string_equal(with, "mkfs.ext4 -F -q -b 4096 " EXT_E ",stride=128,stripe_width=256 -I 512 /dev/md0");
	g_autofree char *without = ab_fstab_mkfs_command(AB_FS_EXT4, &geo, NULL, md, nohint, NULL);
	assert_string_equal(without, "mkfs.ext4 -F -q " EXT_E " /dev/md0");
	const char *members[] = { "/dev/loop4", "/dev/loop5", "/dev/loop6", "/dev/loop7", NULL };
	g_autofree char *btrfs = ab_fstab_mkfs_command(AB_FS_BTRFS, NULL, "raid10", members, NULL, NULL);
	assert_string_equal(btrfs, "mkfs.btrfs -f -q -K -d raid10 -m raid10 /dev/loop4 /dev/loop5 /dev/loop6 /dev/loop7");
	GError *e = NULL;
	assert_null(ab_fstab_mkfs_command(AB_FS_XFS, NULL, NULL, members, NULL, &e));
	assert_string_equal(e->message, "4 devices for a xfs file system: one");
	g_error_free(e);
}

/* arraybench-workload(5) documents every key a space file takes. */
static void test_man_page(void **state)
{
	(void)state;
	g_autofree char *path = g_build_filename(AB_FIXTURES, "..", "..", "man", "arraybench-workload.5", NULL);
	g_autofree char *man = NULL;
	assert_true(g_file_get_contents(path, &man, NULL, NULL));
	const char *section = strstr(man, ".SH SEARCH SPACE FILES");
	assert_non_null(section);
	const char *end = strstr(section + 1, "\n.SH ");
	g_autofree char *text = g_strndup(section, end ? (gsize)(end - section) : strlen(section));
	static const char *const keys[] = { "fs", "summary", "mount", "mkfs", "switch", "values",
					    "unsafe", "why\\-unsafe", "note" };
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_autofree char *entry = g_strdup_printf("\n.B %s\n", keys[i]);
		if (!strstr(text, entry))
			fail_msg("SEARCH SPACE FILES documents no key '%s'", keys[i]);
	}
	for (const char *const *n = ab_space_builtin_names(); *n; n++) {
		g_autofree char *entry = g_strdup_printf("\n.B %s\n", *n);
		if (!strstr(text, entry))
			fail_msg("SEARCH SPACE FILES documents no built-in space '%s'", *n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_spaces), cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_errors),   cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_geometry_values), cmocka_unit_test(test_unsafe),
		cmocka_unit_test(test_product),        cmocka_unit_test(test_screening_order),
		cmocka_unit_test(test_race_after_screening),
		cmocka_unit_test(test_nothing_to_try),
		cmocka_unit_test(test_fstab),          cmocka_unit_test(test_mkfs_command),
		cmocka_unit_test(test_man_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
