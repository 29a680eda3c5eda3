/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_BACKEND_LIST_H
#define AB_BACKEND_LIST_H

/*
 * Every kind of target fs-setup builds (its backends), one row each:
 *
 *   X(name, raid1 writes, own device)
 *
 * name: what a run records as its target's backend, and the ops
 *   `ab_backend_<name>` that one file fs-setup/backend-*.c defines;
 *   fs-setup/backends.c makes its table from these rows, in this order,
 *   which is also the order the default --array backend is picked in.
 * raid1 writes: what a mirror's write costs its members
 *   (enum ab_mirror_writes), for run --raw-baseline's efficiency ceiling.
 * own device: 1 when the file system goes on a device of its own made
 *   from the members (md's array), which --raw-baseline reads raw too.
 *
 * The last two are what reports/efficiency.c needs to know of a backend:
 * they are here, in a header that includes nothing, so that reports/ learns
 * them by the name a run records (a run read back from a file included)
 * without including fs-setup/.
 */
enum ab_mirror_writes {
	AB_MIRROR_TWO_COPIES,   /* raid1 keeps two copies whatever the member count:
				 * writes may have half the members' sum */
	AB_MIRROR_EVERY_MEMBER, /* raid1 writes each block on every member: the
				 * slowest member bounds the writes */
};

#define AB_BACKEND_LIST(X)                           \
	X(dir, AB_MIRROR_TWO_COPIES, 0)              \
	X(device, AB_MIRROR_TWO_COPIES, 0)           \
	X(mdadm, AB_MIRROR_EVERY_MEMBER, 1)          \
	X(btrfs, AB_MIRROR_TWO_COPIES, 0)

#endif
