/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Refusals: never touch a device that is in use or holds data nobody
 * confirmed.  sysfs gives the device's family (partitions, the devices
 * stacked on it, the loop devices it backs); mountinfo says which of them
 * is mounted; libblkid reads signatures. */
#include "safety.h"
#include "loop-backing.h"
#include "../src/base/error.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* ROLE_UNDER: a device a write to it reaches (what backs a loop device,
 * the disk of that partition); ROLE_BESIDE: built on one of those. */
enum role { ROLE_SELF, ROLE_PARTITION, ROLE_DISK, ROLE_STACKED, ROLE_UNDER, ROLE_BESIDE };

/* One device whose use would also be a use of the named one. */
struct related {
	char *name;       /* kernel name: "loop3", "loop3p1", "md0" */
	char *node;       /* canonical sysfs directory, NULL if not found */
	dev_t devno;
	gboolean has_devno;
	enum role role;
	const struct related *backed_by; /* a loop device: the one of the set behind it */
	gboolean whole;                  /* ROLE_UNDER: written over whole, not the disk of a partition */
};

static void related_free(gpointer p)
{
	struct related *r = p;
	g_free(r->name);
	g_free(r->node);
	g_free(r);
}

/* "its partition 'loop3p1'": the subject of every refusal message. */
static char *related_subject(const struct related *r)
{
	switch (r->role) {
	case ROLE_SELF:
		return g_strdup("it");
	case ROLE_PARTITION:
		return g_strdup_printf("its partition '%s'", r->name);
	case ROLE_DISK:
		return g_strdup_printf("its disk '%s'", r->name);
	case ROLE_UNDER:
		return g_strdup_printf("its backing device '%s'", r->name);
	default:
		return g_strdup_printf("%s'%s' (%s)", r->backed_by ? "the loop device " : "", r->name,
				       r->role == ROLE_BESIDE ? "on its backing device" : "built on it");
	}
}

static gboolean read_devno(const char *node, dev_t *out)
{
	g_autofree char *path = g_build_filename(node, "dev", NULL);
	g_autofree char *text = NULL;
	unsigned maj, min;
	if (!g_file_get_contents(path, &text, NULL, NULL) || sscanf(text, "%u:%u", &maj, &min) != 2)
		return FALSE;
	*out = makedev(maj, min);
	return TRUE;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Entry names of a sysfs directory; a missing one is empty (fake trees
 * leave out what they do not need, partitions have no holders/ on some
 * kernels), anything else is an error: we refuse what we cannot check. */
static GPtrArray *list_dir(const char *path, GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) dir = g_dir_open(path, 0, &local);
	if (!dir) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return g_steal_pointer(&names);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "cannot list '%s': %s", path, local->message);
		return NULL;
	}
	const char *n;
	while ((n = g_dir_read_name(dir)))
		g_ptr_array_add(names, g_strdup(n));
	g_ptr_array_sort(names, compare_names); /* stable messages */
	return g_steal_pointer(&names);
}

/* What collect() walks: the set it fills and the loop devices to look up. */
struct walk {
	const char *root;
	GPtrArray *set;         /* struct related * */
	const GPtrArray *loops; /* struct ab_loop_backing * */
};

static gboolean add_stacked(const struct walk *w, const char *node, const char *name, enum role role,
			    const struct related *on, GError **error);

/* Add `node` and, recursively, its partitions (if asked) and everything
 * stacked on it: its holders and the loop devices it backs.  Names are
 * unique in the set, which also stops cycles. */
static gboolean collect(const struct walk *w, const char *node, enum role role, gboolean with_partitions,
			GError **error)
{
	const char *root = w->root;
	GPtrArray *set = w->set;
	g_autofree char *name = g_path_get_basename(node);
	for (guint i = 0; i < set->len; i++)
		if (g_str_equal(((struct related *)set->pdata[i])->name, name))
			return TRUE;
	struct related *r = g_new0(struct related, 1);
	r->name = g_steal_pointer(&name);
	r->node = g_strdup(node);
	r->role = role;
	r->has_devno = read_devno(node, &r->devno);
	g_ptr_array_add(set, r);
	/* What is built on a device under it is beside it, not on it. */
	enum role stacked = role == ROLE_UNDER || role == ROLE_BESIDE ? ROLE_BESIDE : ROLE_STACKED;
	enum role child = role == ROLE_SELF ? ROLE_PARTITION : stacked;

	if (with_partitions) {
		g_autoptr(GPtrArray) entries = list_dir(node, error);
		if (!entries)
			return FALSE;
		for (guint i = 0; i < entries->len; i++) {
			g_autofree char *sub = g_build_filename(node, entries->pdata[i], NULL);
			g_autofree char *mark = g_build_filename(sub, "partition", NULL);
			if (g_file_test(mark, G_FILE_TEST_EXISTS) && !collect(w, sub, child, FALSE, error))
				return FALSE;
		}
	}
	g_autofree char *hdir = g_build_filename(node, "holders", NULL);
	g_autoptr(GPtrArray) holders = list_dir(hdir, error);
	if (!holders)
		return FALSE;
	for (guint i = 0; i < holders->len; i++) {
		const char *h = holders->pdata[i];
		g_autofree char *link = g_strconcat(root, "/sys/class/block/", h, NULL);
		g_autofree char *hnode = realpath(link, NULL);
		if (!add_stacked(w, hnode, h, stacked, NULL, error))
			return FALSE;
	}
	/* A loop device on it is no holder, yet reads every write to it, at
	 * any offset: so do what is mounted from it and loops on that loop. */
	for (guint i = 0; r->has_devno && i < w->loops->len; i++) {
		const struct ab_loop_backing *l = w->loops->pdata[i];
		if (l->backing != r->devno)
			continue;
		g_autofree char *link = g_strconcat(root, "/sys/class/block/", l->name, NULL);
		g_autofree char *lnode = realpath(link, NULL);
		if (!add_stacked(w, lnode, l->name, stacked, r, error))
			return FALSE;
	}
	return TRUE;
}

/* A device built on one of the set, found as sysfs directory `node` (NULL
 * when it could not be resolved) with kernel name `name`. */
static gboolean add_stacked(const struct walk *w, const char *node, const char *name, enum role role,
			    const struct related *on, GError **error)
{
	guint at = w->set->len;
	if (node) {
		if (!collect(w, node, role, TRUE, error))
			return FALSE;
	} else {
		/* Still worth a name: mountinfo may show it as /dev/NAME. */
		struct related *lone = g_new0(struct related, 1);
		lone->name = g_strdup(name);
		lone->role = role;
		g_ptr_array_add(w->set, lone);
	}
	if (on && w->set->len > at)
		((struct related *)w->set->pdata[at])->backed_by = on;
	return TRUE;
}

static gboolean collect_under(const struct walk *w, const struct related *r, GError **error);

/* Add `node` as under the device, and what is under it in turn.  What
 * backs a loop device is written over whole, partitions and all; the disk
 * of a partition only in that partition. */
static gboolean add_under(const struct walk *w, const char *node, gboolean whole, GError **error)
{
	guint at = w->set->len;
	if (!collect(w, node, ROLE_UNDER, whole, error))
		return FALSE;
	if (w->set->len == at)
		return TRUE;
	struct related *r = w->set->pdata[at];
	r->whole = whole;
	return collect_under(w, r, error);
}

/* A write to a loop device is a write to the device behind it, and one to
 * a partition is one to its disk: whatever uses those uses `r` too. */
static gboolean collect_under(const struct walk *w, const struct related *r, GError **error)
{
	for (guint i = 0; i < w->loops->len; i++) {
		const struct ab_loop_backing *l = w->loops->pdata[i];
		if (l->backing == 0 || !g_str_equal(l->name, r->name))
			continue;
		g_autofree char *link = g_strdup_printf("%s/sys/dev/block/%u:%u", w->root, major(l->backing),
							minor(l->backing));
		g_autofree char *node = realpath(link, NULL);
		if (!node) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "cannot tell what '%s' is written to: its backing device %u:%u is not in sysfs",
				    r->name, major(l->backing), minor(l->backing));
			return FALSE;
		}
		if (!add_under(w, node, TRUE, error))
			return FALSE;
	}
	if (r->role != ROLE_UNDER || !r->node)
		return TRUE; /* the named device's disk is its own role */
	g_autofree char *mark = g_build_filename(r->node, "partition", NULL);
	if (!g_file_test(mark, G_FILE_TEST_EXISTS))
		return TRUE;
	g_autofree char *disk = g_path_get_dirname(r->node);
	return add_under(w, disk, FALSE, error);
}

/* btrfs mounts show an anonymous 0:NN device, so the source path counts too,
 * by name or by the device number of the node it names. */
static gboolean mount_uses(struct libmnt_fs *fs, const struct related *r)
{
	if (r->has_devno && mnt_fs_get_devno(fs) == r->devno)
		return TRUE;
	const char *src = mnt_fs_get_source(fs);
	if (!src || src[0] != '/')
		return FALSE;
	if (g_str_has_prefix(src, "/dev/") && g_str_equal(src + 5, r->name))
		return TRUE;
	struct stat st;
	return r->has_devno && stat(src, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == r->devno;
}

static struct libmnt_table *read_mounts(const char *root, GError **error)
{
	g_autofree char *path = g_strconcat(root, "/proc/self/mountinfo", NULL);
	FILE *f = fopen(path, "re");
	if (!f) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, errno, "cannot read '%s'", path);
		return NULL;
	}
	struct libmnt_table *tb = mnt_new_table();
	int rc = tb ? mnt_table_parse_stream(tb, f, path) : -ENOMEM;
	fclose(f);
	if (rc != 0) {
		mnt_unref_table(tb);
		ab_set_error_errno(error, AB_ERROR_UNSAFE, -rc, "cannot parse '%s'", path);
		return NULL;
	}
	return tb;
}

/* Root first: of all the mounts, losing "/" is the worst. */
static char *mount_refusal(struct libmnt_table *tb, GPtrArray *set)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char *why = NULL;
	while (!why && mnt_table_next_fs(tb, it, &fs) == 0) {
		if (g_strcmp0(mnt_fs_get_target(fs), "/") != 0)
			continue;
		for (guint i = 0; !why && i < set->len; i++) {
			const struct related *r = set->pdata[i];
			if (!mount_uses(fs, r))
				continue;
			g_autofree char *via = related_subject(r);
			if (r->role == ROLE_SELF)
				why = g_strdup("it backs the root file system");
			else if (r->role == ROLE_UNDER || r->role == ROLE_BESIDE)
				why = g_strdup_printf("%s backs the root file system", via);
			else
				why = g_strdup_printf("it backs the root file system through %s", via);
		}
	}
	for (guint i = 0; !why && i < set->len; i++) {
		const struct related *r = set->pdata[i];
		mnt_reset_iter(it, MNT_ITER_FORWARD);
		while (!why && mnt_table_next_fs(tb, it, &fs) == 0) {
			if (!mount_uses(fs, r))
				continue;
			g_autofree char *who = related_subject(r);
			why = g_strdup_printf("%s is mounted at '%s'", who, mnt_fs_get_target(fs));
		}
	}
	mnt_free_iter(it);
	return why;
}

/* Members of a multi-device btrfs other than the one it was mounted from
 * are not in mountinfo at all; the kernel lists every member of a mounted
 * one under /sys/fs/btrfs/FSID/devices. */
static gboolean btrfs_refusal(const char *root, GPtrArray *set, char **why, GError **error)
{
	g_autofree char *btrfs = g_strconcat(root, "/sys/fs/btrfs", NULL);
	g_autoptr(GPtrArray) fsids = list_dir(btrfs, error);
	if (!fsids)
		return FALSE;
	for (guint i = 0; !*why && i < set->len; i++) {
		const struct related *r = set->pdata[i];
		for (guint j = 0; !*why && j < fsids->len; j++) {
			g_autofree char *member = g_build_filename(btrfs, fsids->pdata[j], "devices", r->name, NULL);
			if (!g_file_test(member, G_FILE_TEST_EXISTS))
				continue;
			g_autofree char *who = related_subject(r);
			*why = g_strdup_printf("%s is a member of the mounted btrfs file system '%s'", who,
					       (char *)fsids->pdata[j]);
		}
	}
	return TRUE;
}

/* Holders are md, dm and bcache: a write under them corrupts them.  Those
 * of stacked devices do not matter: the first holder already refuses. */
static gboolean holder_refusal(GPtrArray *set, char **why, GError **error)
{
	for (guint i = 0; !*why && i < set->len; i++) {
		const struct related *r = set->pdata[i];
		if (r->role == ROLE_STACKED || !r->node)
			continue;
		g_autofree char *hdir = g_build_filename(r->node, "holders", NULL);
		g_autoptr(GPtrArray) holders = list_dir(hdir, error);
		if (!holders)
			return FALSE;
		if (holders->len == 0)
			continue;
		g_autoptr(GString) names = g_string_new(NULL);
		for (guint j = 0; j < holders->len; j++)
			g_string_append_printf(names, "%s'%s'", j ? ", " : "", (char *)holders->pdata[j]);
		g_autofree char *who = related_subject(r);
		*why = g_strdup_printf("%s is held by %s (in use by an array or device mapper)", who, names->str);
	}
	return TRUE;
}

/* A loop device on the device, one of its partitions or its disk: what it
 * reads would change under it.  The first in the set is the lowest, the
 * one backed by the device itself rather than by another loop. */
static char *loop_refusal(GPtrArray *set)
{
	for (guint i = 0; i < set->len; i++) {
		const struct related *r = set->pdata[i];
		if (!r->backed_by)
			continue;
		g_autofree char *who = related_subject(r->backed_by);
		return g_strdup_printf("%s backs the loop device '%s'", who, r->name);
	}
	return NULL;
}

/* Only EBUSY means another program holds it so. */
static gboolean opened_exclusively(const char *node)
{
	int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EBUSY;
}

/* The always-refused cases; the first found wins, worst first.  *why is
 * NULL when none applies. */
static gboolean find_use(const char *root, const char *device, GPtrArray *set, char **why, GError **error)
{
	struct libmnt_table *tb = read_mounts(root, error);
	if (!tb)
		return FALSE;
	*why = mount_refusal(tb, set);
	mnt_unref_table(tb);
	if (!*why && !btrfs_refusal(root, set, why, error))
		return FALSE;
	if (!*why && !holder_refusal(set, why, error))
		return FALSE;
	if (!*why)
		*why = loop_refusal(set);
	/* What the tables above do not show, the kernel knows: an active swap
	 * area, or a program that opened the device exclusively (mkfs, a
	 * database's raw device). */
	if (!*why && opened_exclusively(device))
		*why = g_strdup("it is in use: opened exclusively by another program (an active swap area, "
				"a mounted file system, an array)");
	/* The same for a device under it, found by its kernel name on the
	 * real system.  Not the disk of a partition under it: another
	 * partition of that disk in use makes the disk busy too. */
	for (guint i = 0; !*why && root[0] == '\0' && i < set->len; i++) {
		const struct related *r = set->pdata[i];
		g_autofree char *node = g_strconcat("/dev/", r->name, NULL);
		struct stat st;
		if (r->role != ROLE_UNDER || !r->whole || !r->has_devno || stat(node, &st) != 0 ||
		    !S_ISBLK(st.st_mode) || st.st_rdev != r->devno || !opened_exclusively(node))
			continue;
		g_autofree char *who = related_subject(r);
		*why = g_strdup_printf("%s is in use: opened exclusively by another program (an active swap area, "
				       "a mounted file system, an array)", who);
	}
	return TRUE;
}

static char *describe_signature(blkid_probe pr)
{
	const char *type = NULL, *usage = NULL;
	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		if (g_strcmp0(usage, "filesystem") == 0)
			return g_strdup_printf("it holds %s %s file system", strchr("aeiou", type[0]) ? "an" : "a",
					       type);
		if (g_strcmp0(usage, "raid") == 0)
			return g_strdup_printf("it is a RAID member ('%s')", type);
		return g_strdup_printf("it carries a '%s' signature", type);
	}
	if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
		return g_strdup_printf("it carries a partition table (%s)", type);
	return g_strdup("it carries a signature");
}

/* The overridable case: data is there, but the user may mean to lose it. */
static gboolean check_signature(const char *device, GError **error)
{
	errno = 0;
	blkid_probe pr = blkid_new_probe_from_filename(device);
	if (!pr) {
		int e = errno ? errno : EIO;
		ab_set_error_errno(error, e == EACCES || e == EPERM ? AB_ERROR_SKIPPED : AB_ERROR_USAGE, e,
				   "cannot open '%s'", device);
		return FALSE;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	errno = 0;
	int rc = blkid_do_safeprobe(pr);
	int e = errno ? errno : EIO;
	g_autofree char *why = NULL;
	if (rc == 0)
		why = describe_signature(pr);
	else if (rc == -2)
		why = g_strdup("it carries several conflicting signatures");
	blkid_free_probe(pr);
	if (rc == -1) {
		/* Unreadable is not proof of empty. */
		ab_set_error_errno(error, AB_ERROR_UNSAFE, e, "refusing '%s': cannot probe it for signatures", device);
		return FALSE;
	}
	if (why) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing '%s': %s; name it in --yes-destroy to overwrite",
			    device, why);
		return FALSE;
	}
	return TRUE;
}

/* The device, its partitions, what is stacked on it and (for a partition)
 * its disk; *canonical its realpath. */
static GPtrArray *related_set(const char *root, const char *device, char **canonical, GError **error)
{
	struct stat st;
	if (stat(device, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use device '%s'", device);
		return NULL;
	}
	if (!S_ISBLK(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot use device '%s': not a block device", device);
		return NULL;
	}
	*canonical = realpath(device, NULL);
	if (!*canonical) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use device '%s'", device);
		return NULL;
	}
	g_autofree char *key = g_strdup_printf("%u:%u", major(st.st_rdev), minor(st.st_rdev));
	g_autofree char *link = g_strconcat(root, "/sys/dev/block/", key, NULL);
	g_autofree char *node = realpath(link, NULL);
	if (!node) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot use device '%s': no block device '%s' in sysfs",
			    device, key);
		return NULL;
	}

	g_autoptr(GPtrArray) loops = ab_loop_backings(root, error);
	if (!loops)
		return NULL;
	g_autoptr(GPtrArray) set = g_ptr_array_new_with_free_func(related_free);
	struct walk w = { .root = root, .set = set, .loops = loops };
	if (!collect(&w, node, ROLE_SELF, TRUE, error))
		return NULL;
	struct related *self = set->pdata[0];
	self->devno = st.st_rdev; /* the node is the authority, not sysfs's copy */
	self->has_devno = TRUE;
	/* Writing to a partition also writes into its disk. */
	g_autofree char *mark = g_build_filename(node, "partition", NULL);
	const struct related *disk_r = NULL;
	if (g_file_test(mark, G_FILE_TEST_EXISTS)) {
		g_autofree char *disk = g_path_get_dirname(node);
		guint at = set->len;
		if (!collect(&w, disk, ROLE_DISK, FALSE, error))
			return NULL;
		disk_r = set->len > at ? set->pdata[at] : NULL;
	}
	/* A loop device (or a partition of one) writes through to what backs it. */
	if (!collect_under(&w, self, error) || (disk_r && !collect_under(&w, disk_r, error)))
		return NULL;
	return g_steal_pointer(&set);
}

gboolean ab_safety_device_in_use(const char *root, const char *device, char **why, GError **error)
{
	g_autofree char *canonical = NULL;
	g_autoptr(GPtrArray) set = related_set(root ? root : "", device, &canonical, error);
	*why = NULL;
	return set && find_use(root ? root : "", device, set, why, error);
}

gboolean ab_safety_check_device(const char *root, const char *device, const char *const *confirmed,
				GError **error)
{
	if (!root)
		root = "";
	g_autofree char *canonical = NULL, *why = NULL;
	g_autoptr(GPtrArray) set = related_set(root, device, &canonical, error);
	if (!set || !find_use(root, device, set, &why, error))
		return FALSE;
	if (why) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing '%s': %s", device, why);
		return FALSE;
	}
	if (confirmed && g_strv_contains(confirmed, canonical))
		return TRUE;
	return check_signature(device, error);
}

gboolean ab_safety_parse_confirmed(const char *list, char ***out, GError **error)
{
	g_auto(GStrv) names = g_strsplit(list ? list : "", ",", -1);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	if (!names[0]) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "no device named in --yes-destroy");
		return FALSE;
	}
	for (guint i = 0; names[i]; i++) {
		if (!names[i][0]) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "empty device name in --yes-destroy '%s'", list);
			return FALSE;
		}
		char *path = realpath(names[i], NULL); /* malloc'd: g_free is free since glib 2.46 */
		if (!path) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot confirm device '%s'", names[i]);
			return FALSE;
		}
		g_ptr_array_add(paths, path);
	}
	g_ptr_array_add(paths, NULL);
	*out = (char **)g_ptr_array_free(g_steal_pointer(&paths), FALSE);
	return TRUE;
}

gboolean ab_safety_replace_confirmed(const char *option, const char *list, char ***confirmed, GError **error)
{
	g_strfreev(*confirmed);
	*confirmed = NULL;
	if (!ab_safety_parse_confirmed(list, confirmed, error)) {
		g_prefix_error(error, "%s: ", option);
		return FALSE;
	}
	return TRUE;
}
