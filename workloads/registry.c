/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "phase.h"

#include <string.h>

#define AB_X(id, stem) extern const struct ab_phase ab_phase_##stem;
AB_PHASE_LIST(AB_X)
#undef AB_X

static const struct ab_phase *const registry[AB_PHASE_COUNT] = {
#define AB_X(id, stem) [AB_PHASE_##id] = &ab_phase_##stem,
	AB_PHASE_LIST(AB_X)
#undef AB_X
};

const struct ab_phase *ab_phase_by_id(unsigned id)
{
	return id < AB_PHASE_COUNT ? registry[id] : NULL;
}

const struct ab_phase *ab_phase_by_name(const char *name)
{
	for (unsigned i = 0; i < AB_PHASE_COUNT; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}
