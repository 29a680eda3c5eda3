/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench list`: bonnie++'s phases in run order, the phases beyond
 * them (named only), the raw device phases, the built-in workloads and
 * the built-in search spaces of mount-option tuning, each with what it
 * does. */
#include "commands.h"
#include "../base/error.h"
#include "../options/profile.h"
#include "../model/result.h"
#include "../tune/space.h"

#include <stdio.h>

static char *join(const GPtrArray *words)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < words->len; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", (const char *)g_ptr_array_index(words, i));
	return g_string_free(s, FALSE);
}

/* "relatime | noatime | data=writeback (unsafe)": the default as the file
 * names it, then each other value as it is passed. */
static char *values_line(const struct ab_space_key *k)
{
	GString *s = g_string_new(NULL);
	for (guint v = 0; v < k->values->len; v++) {
		const struct ab_space_value *val = g_ptr_array_index(k->values, v);
		g_string_append_printf(s, "%s%s%s%s", v ? " | " : "", v ? val->words : val->text,
				       k->place == AB_SPACE_SWITCH && v ? " (" : "",
				       k->place == AB_SPACE_SWITCH && v ? val->text : "");
		if (k->place == AB_SPACE_SWITCH && v)
			g_string_append_c(s, ')');
		if (val->unsafe)
			g_string_append(s, " (unsafe)");
	}
	return g_string_free(s, FALSE);
}

static gboolean list_spaces(GError **error)
{
	printf("\nBuilt-in search spaces of mount-option tuning, one per file system: each key an option with\n"
	       "the values to try, the first what the file system does without it (no option added);\n"
	       "@words take their number from the array's geometry; unsafe values can lose data on power loss:\n");
	for (const char *const *name = ab_space_builtin_names(); *name; name++) {
		g_autoptr(ab_space_auto) s = ab_space_load(*name, error);
		if (!s)
			return FALSE; /* a broken build: test-tune-space parses them all */
		printf("%-15s %s\n", s->name, s->summary ? s->summary : "");
		for (guint k = 0; k < s->keys->len; k++) {
			const struct ab_space_key *key = g_ptr_array_index(s->keys, k);
			static const char *const places[] = { "mount", "mkfs", "run" };
			g_autofree char *values = values_line(key);
			printf("%-15s   %-13s %-5s %s\n", "", key->name, places[key->place], values);
		}
	}
	return TRUE;
}

int ab_cmd_list(int argc, char **argv, GError **error)
{
	if (argc > 1 && (g_str_equal(argv[1], "--help") || g_str_equal(argv[1], "-h"))) {
		printf("Usage: arraybench list\n\nList the phases in the order they run, with the bonnie++ "
		       "CSV column, the unit, and what each does, the built-in workload profiles with their summaries and "
		       "steps, and the built-in search spaces of mount-option tuning with their keys and values.\n");
		return 0;
	}
	if (argc > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "list: unexpected argument '%s'", argv[1]);
		return AB_ERROR_USAGE;
	}
	printf("%-15s %-11s %-9s %s\n", "PHASE", "CSV", "UNIT", "WHAT IT DOES");
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		printf("%-15s %-11s %-9s %s%s\n", ph->name, ph->csv_name, ab_rate_unit_name(ph->unit), ph->summary,
		       (ph->flags & AB_PHASE_MULTI) ? " (--seekers processes)" : "");
	}
	printf("\nRun only when named in --phases (not in 'all', not in the bonnie++ CSV line):\n");
	for (unsigned id = AB_PHASE_COUNT; id < AB_PHASE_ID_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph && !(ph->flags & AB_PHASE_DEVICE))
			printf("%-15s %-11s %-9s %s\n", ph->name, "-", ab_rate_unit_name(ph->unit), ph->summary);
	}
	/* A device's own rows: never a --phases step (AB_PHASE_DEVICE). */
	printf("\nMeasured on block devices by 'arraybench raw' and run --raw-baseline, never in --phases:\n");
	for (unsigned id = AB_PHASE_COUNT; id < AB_PHASE_ID_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph && (ph->flags & AB_PHASE_DEVICE))
			printf("%-15s %-11s %-9s %s\n", ph->name, "-", ab_rate_unit_name(ph->unit), ph->summary);
	}
	printf("\nBuilt-in workload profiles (run --workload NAME; options given with it change every step;\n"
	       "arraybench-workload(5) says how to write your own):\n");
	for (const char *const *name = ab_profile_builtin_names(); *name; name++) {
		g_autoptr(ab_profile_auto) p = ab_profile_load(*name, error);
		if (!p)
			return AB_ERROR_USAGE; /* a broken build: test-profile parses them all */
		printf("%-15s %s\n", p->name, p->summary ? p->summary : "");
		g_autofree char *run_words = join(p->run_words);
		for (guint i = 0; i < p->steps->len; i++) {
			const struct ab_profile_step *st = g_ptr_array_index(p->steps, i);
			g_autofree char *words = join(st->words);
			printf("%-15s   [step %s] %s%s%s\n", "", st->name, *run_words ? run_words : "",
			       *run_words && *words ? " " : "", *words ? words : "(the default phases and sizes)");
		}
	}
	return list_spaces(error) ? 0 : AB_ERROR_USAGE;
}
