/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The same binary and arguments on every rank (same-run.h). */
#include "same-run.h"
#include "../base/error.h"

#include <string.h>

#define DIGEST_HEX 64

/* The digest of the running binary, as hex (or a word saying why not). */
static char *binary_digest(void)
{
	g_autofree char *data = NULL;
	gsize len = 0;
	if (!g_file_get_contents("/proc/self/exe", &data, &len, NULL))
		return g_strdup("unreadable");
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
}

/* What a rank sends: its digest, then its arguments, each ended by NUL. */
static GByteArray *describe(int argc, char **argv)
{
	GByteArray *b = g_byte_array_new();
	g_autofree char *digest = binary_digest();
	char head[DIGEST_HEX + 1] = "";
	g_strlcpy(head, digest, sizeof(head));
	g_byte_array_append(b, (const guint8 *)head, sizeof(head));
	for (int i = 1; i < argc; i++)
		g_byte_array_append(b, (const guint8 *)argv[i], (guint)strlen(argv[i]) + 1);
	return b;
}

/* The first difference between rank 0's description and rank r's. */
static char *difference(const guint8 *zero, size_t zero_len, const guint8 *theirs, size_t their_len, unsigned r)
{
	if (memcmp(zero, theirs, DIGEST_HEX + 1) != 0)
		return g_strdup_printf("rank %u runs another binary (SHA-256 %.12s...) than rank 0 (%.12s...): every "
				       "rank must run the same arraybench-mpi",
				       r, (const char *)theirs, (const char *)zero);
	size_t a = DIGEST_HEX + 1, b = DIGEST_HEX + 1;
	for (unsigned arg = 1;; arg++) {
		const char *x = a < zero_len ? (const char *)zero + a : NULL;
		const char *y = b < their_len ? (const char *)theirs + b : NULL;
		if (!x && !y)
			return NULL;
		if (!x || !y || strcmp(x, y) != 0)
			return g_strdup_printf("rank %u has other arguments than rank 0: argument %u is '%s' where rank 0 "
					       "has '%s': every rank must run the same command",
					       r, arg, y ? y : "(none)", x ? x : "(none)");
		a += strlen(x) + 1;
		b += strlen(y) + 1;
	}
}

gboolean ab_same_run_check(struct ab_cluster *c, int argc, char **argv, GError **error)
{
	g_autoptr(GByteArray) mine = describe(argc, argv);
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, c->size);
	if (!c->ops->allgather(c, mine->data, mine->len, TRUE, NULL, all, lens, error))
		return FALSE;
	const guint8 *zero = all->data;
	size_t at = lens[0];
	for (unsigned r = 1; r < c->size; r++) {
		g_autofree char *diff = difference(zero, lens[0], all->data + at, lens[r], r);
		at += lens[r];
		if (diff) {
			/* Only the rank that differs says it besides rank 0. */
			c->peer_fault = c->rank != r;
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s", diff);
			return FALSE;
		}
	}
	return TRUE;
}
