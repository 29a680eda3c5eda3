/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OPTION_TABLE_H
#define AB_OPTION_TABLE_H

/* Options as data: a command's options are rows (names, kind, the field
 * they land in, limits, family, help), and one parser makes the GOption
 * entries from them and gives each value to its kind's handler.  A new
 * option is one row; --help, the profile keys and the "was it given" mask
 * all come from the rows. */

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

enum ab_option_kind {
	AB_OPTION_SWITCH, /* no value: the gboolean field becomes TRUE */
	AB_OPTION_COUNT,  /* a whole number from min to max, into a 4- or 8-byte field */
	AB_OPTION_SIZE,   /* a size with k/m/g/t (`unit` bytes without one), min to max */
	AB_OPTION_STRING, /* kept as given (a char *, replaced); empty refused as "empty <why>" */
	AB_OPTION_PATH,   /* a STRING that names a file (G_OPTION_FLAG_FILENAME) */
	AB_OPTION_LIST,   /* comma-separated counts, min to max, none twice: a GArray of `width`-byte items */
	AB_OPTION_ENUM,   /* one of `words`, into an int-sized enum field */
	AB_OPTION_CUSTOM, /* `parse` does it all, given the whole struct */
};

/* What an option is about; a phase family's rows are one array each. */
enum ab_option_family {
	AB_OPTION_GENERAL, /* the run as a whole: directory, repeats, phases, cache */
	AB_OPTION_TARGET,  /* what to build: device, array, file system */
	AB_OPTION_BONNIE,  /* bonnie++'s phases: sizes, seekers, per-char */
	AB_OPTION_OUTPUT,  /* what is written where */
	AB_OPTION_SWEEP,
	AB_OPTION_WAL,
	AB_OPTION_OLTP,
	AB_OPTION_CURVE,
	AB_OPTION_FAMILY_COUNT
};

/* May a workload profile set it, and where (arraybench-workload(5))? */
enum ab_option_profile {
	AB_OPTION_NO_PROFILE, /* a target, output or machine option: the command line's */
	AB_OPTION_PROFILE_RUN,  /* in [workload]: one value for the whole run */
	AB_OPTION_PROFILE_STEP, /* in a [step NAME] */
};

/* Row flags. */
/* A value the number or size parser refuses keeps that parser's message,
 * after "NAME: "; otherwise every refusal is "invalid NAME 'VALUE': why". */
#define AB_OPTION_OWN_ERROR (1u << 0)
#define AB_OPTION_POWER_OF_TWO (1u << 1) /* SIZE */
#define AB_OPTION_OPTIONAL_ARG (1u << 2) /* the value, if any, attached (-fSIZE) */
#define AB_OPTION_FILENAME (1u << 3)     /* a CUSTOM's value is a file name, as PATH's */
#define AB_OPTION_MATRIX_OWN (1u << 4)   /* a matrix sets it for each cell: no cell's options may */

/* An ENUM's word and the value it stores; the list ends with a NULL name. */
struct ab_option_word {
	const char *name;
	int value;
};

/* A CUSTOM row's parser: GOption's callback, with the whole struct. */
typedef gboolean (*ab_option_parse_fn)(const char *name, const char *value, void *data, GError **error);

struct ab_option_row {
	const char *long_name; /* G_OPTION_REMAINING: the words that are no option */
	char short_name;
	enum ab_option_kind kind;
	size_t offset; /* of the field in the parsed struct */
	size_t width;  /* of the field (LIST: of one item) */
	uint64_t min, max;
	uint64_t unit;     /* SIZE: bytes of a number without a suffix */
	uint64_t multiple; /* SIZE: a whole multiple of this (0: any) */
	/* What a refused value should be.  COUNT without AB_OPTION_OWN_ERROR
	 * and LIST: followed by `max` ("a writer count from 1 to " 256). */
	const char *why;
	const struct ab_option_word *words; /* ENUM */
	ab_option_parse_fn parse;            /* CUSTOM */
	enum ab_option_family family;
	enum ab_option_profile profile;
	unsigned flags;
	const char *help;
	const char *arg; /* the value's name in --help */
};

/* The field of struct T a row lands in. */
#define AB_OPTION_FIELD(T, f) .offset = offsetof(T, f), .width = sizeof(((T *)0)->f)

/* One array of rows; a command's options are a few of them, in --help's order. */
struct ab_option_set {
	const struct ab_option_row *rows;
	size_t n;
};

#define AB_OPTION_SET(rows) { rows, G_N_ELEMENTS(rows) }

/* The row of "--long", "-s" or (name NULL or "") the G_OPTION_REMAINING
 * one; which set it is in goes to *set_index. */
const struct ab_option_row *ab_option_find(const struct ab_option_set *sets, size_t n_sets, const char *name,
					   size_t *set_index);
/* The row of a long name (without "--") or a short letter (0: any). */
const struct ab_option_row *ab_option_find_long(const struct ab_option_set *sets, size_t n_sets,
						const char *long_name);
const struct ab_option_row *ab_option_find_short(const struct ab_option_set *sets, size_t n_sets, char short_name);

/* What --help says of a command besides its options. */
struct ab_option_command {
	const char *name;    /* "run": the group "run options" */
	const char *params;  /* after "[OPTION...]" in the usage line */
	const char *summary;
	const char *description;
};

/* Parse argv (argv[0] the command) into `data` as GOptionContext does
 * with the entries the rows make; the words left are back in argc/argv.
 * `given`, when not NULL, is one word per set: bit i of given[s] is set
 * when row i of sets[s] took a value.  FALSE with an AB_ERROR_USAGE error
 * (or a parser's own AB_ERROR) on a bad option. */
gboolean ab_option_parse(const struct ab_option_command *cmd, const struct ab_option_set *sets, size_t n_sets,
			 void *data, uint64_t *given, int *argc, char ***argv, GError **error);

/* The first row of `family` (in the sets' order) that `given` marks, or NULL. */
const struct ab_option_row *ab_option_first_given(const struct ab_option_set *sets, size_t n_sets,
						  const uint64_t *given, enum ab_option_family family);

/* "invalid NAME 'VALUE': WHY" (AB_ERROR_USAGE); FALSE. */
gboolean ab_option_refuse(GError **error, const char *name, const char *value, const char *why);

#endif
