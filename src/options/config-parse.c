/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++'s colon-separated specs (-s, -n), -u and -m, each into the
 * config (declared in src/options/config.h), through src/base/parse.c's parsers. */
#include "config.h"
#include "../base/error.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>

static gboolean prefixed(GError **error, gboolean ok, const char *option)
{
	if (!ok)
		g_prefix_error(error, "%s: ", option);
	return ok;
}

gboolean ab_parse_size_spec(const char *text, struct ab_config *cfg, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ":", 0);
	guint n = g_strv_length(parts);
	if (n == 0 || n > 4)
		return ab_parse_refuse(error, "-s value", text, "expected SIZE[:CHUNK[:SEEKS[:SEEKERS]]]");
	uint64_t size;
	if (!prefixed(error, ab_parse_size(parts[0], AB_MIB, &size, error), "-s"))
		return FALSE;
	if (size % AB_MIB)
		return ab_parse_refuse(error, "-s size", parts[0], "must be a whole number of MiB");
	cfg->file_size = size;
	cfg->file_size_given = TRUE;
	if (n > 1 && *parts[1] && !prefixed(error, ab_parse_chunk(parts[1], &cfg->io_chunk, error), "-s"))
		return FALSE;
	if (n > 2 && *parts[2]) {
		uint64_t seeks;
		if (!prefixed(error, ab_parse_count(parts[2], 1ull << 40, &seeks, error), "-s seeks"))
			return FALSE;
		if (seeks == 0)
			return ab_parse_refuse(error, "-s seeks", parts[2], "must be at least 1");
		cfg->seeks = seeks;
		cfg->seeks_given = TRUE;
	}
	if (n > 3 && *parts[3]) {
		uint64_t seekers;
		if (!prefixed(error, ab_parse_count(parts[3], AB_MAX_SEEKERS, &seekers, error), "-s seekers"))
			return FALSE;
		if (seekers == 0)
			return ab_parse_refuse(error, "-s seekers", parts[3], "must be at least 1");
		cfg->seekers = (uint32_t)seekers;
	}
	g_free(cfg->size_text);
	cfg->size_text = g_strdup(text);
	return TRUE;
}

gboolean ab_parse_files_spec(const char *text, struct ab_config *cfg, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ":", 0);
	guint n = g_strv_length(parts);
	if (n == 0 || n > 5)
		return ab_parse_refuse(error, "-n value", text, "expected NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]");
	uint64_t num;
	/* bonnie++ counts files in units of 1024; 'm' multiplies by 1024 again. */
	if (!prefixed(error, ab_parse_scaled("file count", parts[0], "m", 1, &num, error), "-n"))
		return FALSE;
	if (num > 65536)
		return ab_parse_refuse(error, "-n file count", parts[0], "must be at most 65536 (units of 1024 files)");
	cfg->num_files = (uint32_t)num;
	cfg->file_max = 0;
	cfg->file_min = 0;
	if (n > 1 && *parts[1]) {
		if (g_str_equal(parts[1], "-1"))
			cfg->file_max = AB_FILES_HARDLINK;
		else if (g_str_equal(parts[1], "-2"))
			cfg->file_max = AB_FILES_SYMLINK;
		else {
			uint64_t max;
			if (!prefixed(error, ab_parse_size(parts[1], 1, &max, error), "-n max"))
				return FALSE;
			if (max > 1ull << 40)
				return ab_parse_refuse(error, "-n max size", parts[1], "too large");
			cfg->file_max = (int64_t)max;
		}
	}
	if (n > 2 && *parts[2]) {
		if (!prefixed(error, ab_parse_size(parts[2], 1, &cfg->file_min, error), "-n min"))
			return FALSE;
		if (cfg->file_max < 0 && cfg->file_min)
			return ab_parse_refuse(error, "-n min size", parts[2], "links have no size");
		if (cfg->file_max >= 0 && cfg->file_min > (uint64_t)cfg->file_max)
			return ab_parse_refuse(error, "-n min size", parts[2], "larger than the max size");
	}
	if (n > 3 && *parts[3]) {
		uint64_t dirs;
		if (!prefixed(error, ab_parse_count(parts[3], 99999, &dirs, error), "-n dirs"))
			return FALSE;
		if (dirs == 0)
			return ab_parse_refuse(error, "-n directory count", parts[3], "must be at least 1");
		cfg->num_dirs = (uint32_t)dirs;
	}
	if (n > 4 && *parts[4] && !prefixed(error, ab_parse_chunk(parts[4], &cfg->file_chunk, error), "-n"))
		return FALSE;
	g_free(cfg->files_text);
	cfg->files_text = g_strdup(text);
	return TRUE;
}

/* A numeric id, below (uid_t)-1: setuid(-1) would change nothing. */
static gboolean parse_id(const char *text, guint32 *out)
{
	guint64 n;
	if (!g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT32 - 1, &n, NULL))
		return FALSE;
	*out = (guint32)n;
	return TRUE;
}

gboolean ab_parse_user_spec(const char *text, struct ab_config *cfg, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ":", 2);
	if (!parts[0] || !*parts[0])
		return ab_parse_refuse(error, "-u value", text, "expected USER[:GROUP]");
	guint32 id;
	if (ab_parse_all_digits(parts[0])) {
		if (!parse_id(parts[0], &id))
			return ab_parse_refuse(error, "user id", parts[0], "out of range");
		struct passwd *pw = getpwuid((uid_t)id);
		cfg->uid = (uid_t)id;
		cfg->gid = pw ? pw->pw_gid : (gid_t)id;
	} else {
		struct passwd *pw = getpwnam(parts[0]);
		if (!pw)
			return ab_parse_refuse(error, "user", parts[0], "no such user");
		cfg->uid = pw->pw_uid;
		cfg->gid = pw->pw_gid;
	}
	if (parts[1] && *parts[1]) {
		if (ab_parse_all_digits(parts[1])) {
			if (!parse_id(parts[1], &id))
				return ab_parse_refuse(error, "group id", parts[1], "out of range");
			cfg->gid = (gid_t)id;
		} else {
			struct group *gr = getgrnam(parts[1]);
			if (!gr)
				return ab_parse_refuse(error, "group", parts[1], "no such group");
			cfg->gid = gr->gr_gid;
		}
	}
	cfg->user_given = TRUE;
	return TRUE;
}

gboolean ab_parse_machine_name(const char *text, struct ab_config *cfg, GError **error)
{
	size_t len = strlen(text);
	if (len == 0 || len > 64)
		return ab_parse_refuse(error, "machine name", text, "must be 1 to 64 characters");
	for (const char *p = text; *p; p++)
		if (*p == ',' || !g_ascii_isgraph(*p))
			return ab_parse_refuse(error, "machine name", text,
				   "must be printable ASCII without commas or spaces (it is a CSV field)");
	g_free(cfg->machine_name);
	cfg->machine_name = g_strdup(text);
	cfg->machine_given = TRUE;
	return TRUE;
}
