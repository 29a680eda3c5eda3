/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PROFILE_H
#define AB_PROFILE_H

/*
 * Workload profiles (`run --workload NAME|FILE`, arraybench-workload(5)):
 * GKeyFile text of a [workload] group and ordered [step NAME] groups whose
 * keys are run options by their long names.  A profile parses into option
 * words: the run-wide ones of [workload] and one list per step, each word
 * already checked by the run options' own parser.  run-options.c turns each
 * step into a config of its own (profile words, then the user's options).
 */

#include <glib.h>

/* A profile file bigger than this is refused unread. */
#define AB_PROFILE_MAX_BYTES (1u << 20)
/* [step NAME] groups of one profile. */
#define AB_PROFILE_MAX_STEPS 64u

struct ab_profile_step {
	char *name;       /* NAME of [step NAME] */
	char *where;      /* "mirror.ini:5: [step mirror]", for the errors of its checks */
	GPtrArray *words; /* "--key=value" run option words, in file order */
};

struct ab_profile {
	char *name;        /* "mirror", or a file's base name without .ini */
	char *summary;     /* NULL when the file has none */
	char *description;
	GPtrArray *run_words; /* [workload]'s run-wide options (cache, cold-metadata) */
	GPtrArray *steps;     /* struct ab_profile_step *, in file order */
};

/* Parse `text` (`len` bytes) named `where` in messages ("mirror.ini", or
 * the path given): every error is AB_ERROR_USAGE and starts "where:LINE: ". */
struct ab_profile *ab_profile_parse(const char *where, const char *name, const char *text, gsize len,
				    GError **error);
/* A built-in profile by NAME, or a file when `spec` has a '/' or ends in
 * .ini. */
struct ab_profile *ab_profile_load(const char *spec, GError **error);
/* The text ab_profile_load() would parse for `spec`: a built-in profile's
 * (a copy) or the file's bytes, read with the same checks; *len its length. */
char *ab_profile_text(const char *spec, gsize *len, GError **error);
void ab_profile_free(struct ab_profile *p);
typedef struct ab_profile ab_profile_auto;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_profile_auto, ab_profile_free)

/* The built-in profiles' names, in `arraybench list` order (NULL-ended). */
const char *const *ab_profile_builtin_names(void);
/* Those names joined for messages ("bonnie, database, iozone-auto, ..."). */
char *ab_profile_builtin_list(void);

/* Every key the parser knows, [workload]'s first (NULL-ended): the man
 * page's PROFILE FILES section documents exactly these (test-profile). */
const char *const *ab_profile_keys(void);

#endif
