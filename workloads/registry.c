/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "phase.h"

#include <string.h>

#define AB_X(id, stem) extern const struct ab_phase ab_phase_##stem;
AB_PHASE_LIST(AB_X)
AB_EXTRA_PHASE_LIST(AB_X)
#undef AB_X

/* The layout's slot stays NULL: it is run by the suite, never named. */
static const struct ab_phase *const registry[AB_PHASE_ID_COUNT] = {
#define AB_X(id, stem) [AB_PHASE_##id] = &ab_phase_##stem,
	AB_PHASE_LIST(AB_X)
	AB_EXTRA_PHASE_LIST(AB_X)
#undef AB_X
};

const struct ab_phase *ab_phase_by_id(unsigned id)
{
	return id < AB_PHASE_ID_COUNT ? registry[id] : NULL;
}

const char *const *ab_phase_names(void)
{
	static const char *names[AB_PHASE_ID_COUNT + 1];
	if (!names[0]) {
		size_t n = 0;
		for (unsigned id = 0; id < AB_PHASE_ID_COUNT; id++) {
			const struct ab_phase *ph = ab_phase_by_id(id);
			if (ph && id != AB_PHASE_LAYOUT && !(ph->flags & AB_PHASE_DEVICE))
				names[n++] = ph->name;
		}
	}
	return names;
}

const struct ab_phase *ab_phase_by_name(const char *name)
{
	for (unsigned i = 0; i < AB_PHASE_ID_COUNT; i++)
		if (registry[i] && strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

gboolean ab_phase_in_memory_group(const struct ab_phase *phase)
{
	return (phase->flags & AB_PHASE_IO) && !(phase->flags & AB_PHASE_ONE_PASS);
}

uint64_t ab_phase_group_bytes(const struct ab_phase *phase, const struct ab_step *step)
{
	unsigned workers = phase->workers_at_most ? phase->workers_at_most(step)
			   : phase->worker_count ? phase->worker_count(step) : 1;
	uint64_t each = phase->worker_bytes ? phase->worker_bytes(step) : step->io_chunk;
	return (uint64_t)workers * (each + AB_WORKER_SLACK_BYTES);
}

const char *ab_rate_unit_name(enum ab_rate_unit unit)
{
	switch (unit) {
	case AB_UNIT_KIB_PER_SEC: return "KiB/s";
	case AB_UNIT_SEEKS_PER_SEC: return "seeks/s";
	case AB_UNIT_FILES_PER_SEC: return "files/s";
	case AB_UNIT_COMMITS_PER_SEC: return "commits/s";
	case AB_UNIT_IOPS: return "IOPS";
	}
	return "?";
}

double ab_phase_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s)
{
	if (elapsed_s <= 0)
		return 0;
	if (phase->unit == AB_UNIT_KIB_PER_SEC)
		return (double)bytes / 1024.0 / elapsed_s;
	return (double)ops / elapsed_s;
}
