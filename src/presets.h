/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PRESETS_H
#define AB_PRESETS_H

/*
 * Built-in workloads (`run --workload NAME`): a named list of run options
 * that reproduces what people ran by hand, parsed before the user's own
 * options, which may change any of them.  (Profiles in files come later;
 * these stay the built-in ones.)
 */

struct ab_preset {
	const char *name;
	const char *summary;   /* one line for `arraybench list` */
	const char *const *args; /* run options, NULL-terminated */
};

/* NULL-terminated. */
extern const struct ab_preset *const ab_presets[];
const struct ab_preset *ab_preset_by_name(const char *name);
/* "mirror, lab": for messages. */
char *ab_preset_names(void);

#endif
