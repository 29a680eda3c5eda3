/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OPTWORDS_H
#define AB_OPTWORDS_H

#include <glib.h>

/*
 * Devices reach mkfs, mdadm and mount only through --device, --members and
 * --loop, whose every device passed the safety checks.  So a word of the
 * user's --mkfs-opts or --mount-opts that could bring another device in is
 * refused (AB_ERROR_UNSAFE): a word, a comma-separated piece of one, the
 * value after its '=' or after a one-letter option ("-J device=/dev/sdb",
 * "logdev=/dev/sdb", "device=/dev/sdb", "-L/dev/sdb") that names an existing
 * path (relative ones from "/", where the tools and the mount run) or a
 * device by tag (LABEL=, UUID=, PARTUUID=, PARTLABEL=, ID=); and mke2fs's -z,
 * which writes a file.  `option` names the option in the message.
 */
gboolean ab_option_words_check(const char *option, const char *const *words, GError **error);
/* The same on an option string, split as the builders split it
 * (g_shell_parse_argv); a string that does not split is bad input. */
gboolean ab_option_string_check(const char *option, const char *text, GError **error);

#endif
