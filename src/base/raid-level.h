/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RAID_LEVEL_H
#define AB_RAID_LEVEL_H

/*
 * The md RAID level words --array (and a matrix level) take, in every
 * spelling mdadm(8) accepts: "10" and "raid10", "1+0" and "raid1+0".
 * fs-setup/mdadm.c parses the level with it and a run records the word as
 * typed, so reports/efficiency.c, which reads that record (a saved run's
 * too), turns it into the same canonical form here.  Like backend-list.h,
 * it includes nothing, so that both fs-setup/ and reports/ may include it.
 */

/* "0", "raid0" -> "raid0"; "10" -> "raid10"; "1+0" -> "raid1+0": always
 * "raid" and mdadm's own word (its --level argument, but for 1+0).  NULL
 * for a word that is no md level ("single", "raid7", NULL). */
const char *ab_raid_level_canonical(const char *word);

#endif
