/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench raw`: each block device's own sequential throughput, read
 * (and with --write written) in O_DIRECT blocks from byte 0, as
 * `dd if=DEV of=/dev/null bs=4M iflag=direct` measures it: the baseline a
 * file system on those devices is judged against.  One run, one result per
 * device and direction, written as the table and --json. */
#include "../options/cmd-options.h"
#include "commands.h"
#include "../base/error.h"
#include "outfile.h"
#include "../base/parse.h"
#include "../suite/rawdev.h"
#include "../base/runid.h"
#include "../runner/runner.h"
#include "../base/sysinfo.h"
#include "../../fs-setup/safety.h"
#include "../../fs-setup/target.h"
#include "../../reports/report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct raw_opts {
	GPtrArray *devices; /* char *, as given, in order */
	struct ab_raw_params params;
	gboolean write;
	char **confirmed;   /* --yes-destroy, canonical */
	char *json_path;
	gboolean extra_arg;
	char *extra;
};

static gboolean opt_device(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)error;
	g_ptr_array_add(((struct raw_opts *)data)->devices, g_strdup(value));
	return TRUE;
}

static gboolean opt_block(const char *name, const char *value, void *data, GError **error)
{
	(void)name;
	return ab_rawdev_parse_block(value, &((struct raw_opts *)data)->params.block, error);
}

static gboolean opt_bytes(const char *name, const char *value, void *data, GError **error)
{
	struct raw_opts *o = data;
	if (g_str_equal(value, "all")) {
		o->params.bytes = UINT64_MAX;
		return TRUE;
	}
	uint64_t v;
	if (!ab_parse_size(value, 1, &v, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (v == 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': must be more than 0 (or 'all')", name,
			    value);
		return FALSE;
	}
	o->params.bytes = v;
	return TRUE;
}

static gboolean opt_seconds(const char *name, const char *value, void *data, GError **error)
{
	uint64_t *out = &((struct raw_opts *)data)->params.seconds;
	char *end = NULL;
	errno = 0;
	guint64 v = g_ascii_isdigit(value[0]) ? g_ascii_strtoull(value, &end, 10) : 0;
	if (!end || *end || errno || v > AB_RAW_MAX_SECONDS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid %s '%s': a whole number of seconds from 0 (no cap) to %d (a week)", name, value,
			    AB_RAW_MAX_SECONDS);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

static gboolean opt_yes_destroy(const char *name, const char *value, void *data, GError **error)
{
	return ab_safety_replace_confirmed(name, value, &((struct raw_opts *)data)->confirmed, error);
}

static gboolean opt_json(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)error;
	struct raw_opts *o = data;
	g_free(o->json_path);
	o->json_path = g_strdup(value);
	return TRUE;
}

static gboolean opt_rest(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)error;
	struct raw_opts *o = data;
	if (!o->extra_arg)
		o->extra = g_strdup(value);
	o->extra_arg = TRUE;
	return TRUE;
}

#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)
#define FILENAME .flags = AB_OPTION_FILENAME

static const struct ab_option_row rows[] = {
	{ "device", 0, CUSTOM(opt_device), .family = AB_OPTION_TARGET, FILENAME,
	  .help = "Block device to measure (repeat for more)", .arg = "DEV" },
	{ "block-size", 0, CUSTOM(opt_block),
	  .help = "Bytes per read or write: a multiple of 4k up to 256m (default 4m)", .arg = "SIZE" },
	{ "bytes", 0, CUSTOM(opt_bytes), .help = "Bytes from the start of each device, or 'all' (default 1g)",
	  .arg = "SIZE" },
	{ "seconds", 0, CUSTOM(opt_seconds), .help = "At most this long per device and direction; 0: no cap (default 60)",
	  .arg = "N" },
	{ "write", 0, .kind = AB_OPTION_SWITCH, AB_OPTION_FIELD(struct raw_opts, write),
	  .help = "Also write random data over that range (destroys it)" },
	{ "yes-destroy", 0, CUSTOM(opt_yes_destroy), .family = AB_OPTION_TARGET, FILENAME,
	  .help = "With --write: every device it writes, confirmed", .arg = "DEV,..." },
	{ "json", 0, CUSTOM(opt_json), .family = AB_OPTION_OUTPUT, FILENAME,
	  .help = "Append the run as one JSON line to FILE", .arg = "FILE" },
	{ G_OPTION_REMAINING, 0, CUSTOM(opt_rest), FILENAME },
};

static const char raw_description[] =
	"Reads each DEV sequentially from byte 0 in O_DIRECT blocks, as 'dd if=DEV of=/dev/null bs=4M\n"
	"iflag=direct' does, up to --bytes or --seconds, whichever comes first, one device after\n"
	"another, and prints one row per device and direction (raw-read, raw-write).  A device in use\n"
	"(mounted, held by an array) is still read, with a warning: its own I/O disturbs the figure.\n"
	"--write then writes random data over the same range: every DEV must be named in --yes-destroy,\n"
	"and one that is mounted, held or in use is refused whatever it says.\n"
	"Exit status: 0 ok, 1 bad input (no block device, a bad size), 2 an I/O error,\n"
	"3 no permission, 4 unsafe (a write unconfirmed or in use, a --json FILE that is a symbolic\n"
	"link), 5 output not written, 130 interrupted.\n"
	"See arraybench-raw(1).";

static void warn(const char *text)
{
	g_autofree char *line = ab_one_line(text);
	fprintf(stderr, "arraybench: warning: %s\n", line);
}

static gboolean usage_error(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean usage_error(GError **error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, AB_ERROR, AB_ERROR_USAGE, text);
	return FALSE;
}

static gboolean parse(int argc, char **argv, struct raw_opts *o, GError **error)
{
	if (!ab_cmd_options_parse("raw", "--device DEV [--device DEV...]",
				  "Measure block devices' raw sequential throughput (the dd baseline).", raw_description,
				  rows, G_N_ELEMENTS(rows), o, argc, argv, error))
		return FALSE;
	if (o->extra_arg)
		return usage_error(error, "raw: unexpected argument '%s' (devices go with --device)", o->extra);
	if (!o->devices->len)
		return usage_error(error, "raw: no device given (%s)", "--device DEV");
	if (o->confirmed && !o->write)
		return usage_error(error, "%s only goes with --write: reading destroys nothing", "--yes-destroy");
	return TRUE;
}

/* Every device a block device, none named twice (under another name
 * either); a confirmed one must be one of them.  rdevs gets their numbers. */
static gboolean check_devices(const struct raw_opts *o, GArray *rdevs, GError **error)
{
	for (guint i = 0; i < o->devices->len; i++) {
		const char *dev = g_ptr_array_index(o->devices, i);
		struct stat st;
		if (stat(dev, &st) != 0) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use device '%s'", dev);
			return FALSE;
		}
		if (!S_ISBLK(st.st_mode)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot use device '%s': not a block device%s", dev,
				    S_ISDIR(st.st_mode) ? " (a directory: run -d measures a file system)" : "");
			return FALSE;
		}
		for (guint k = 0; k < rdevs->len; k++)
			if (g_array_index(rdevs, dev_t, k) == st.st_rdev) {
				const char *other = g_ptr_array_index(o->devices, k);
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "device '%s' is named twice%s%s%s", dev,
					    g_str_equal(dev, other) ? "" : " (as '", g_str_equal(dev, other) ? "" : other,
					    g_str_equal(dev, other) ? "" : "')");
				return FALSE;
			}
		g_array_append_val(rdevs, st.st_rdev);
	}
	for (char **c = o->confirmed; c && *c; c++) {
		struct stat st;
		gboolean named = FALSE;
		for (guint k = 0; stat(*c, &st) == 0 && k < rdevs->len; k++)
			named = named || (S_ISBLK(st.st_mode) && g_array_index(rdevs, dev_t, k) == st.st_rdev);
		if (!named)
			return usage_error(error, "--yes-destroy names '%s', which is no --device", *c);
	}
	return TRUE;
}

/* A reader is warned, a writer refused (exit 4): in use, unconfirmed. */
static gboolean check_safety(const struct raw_opts *o, GError **error)
{
	for (guint i = 0; i < o->devices->len; i++) {
		const char *dev = g_ptr_array_index(o->devices, i);
		if (o->write) {
			g_autofree char *canonical = realpath(dev, NULL);
			if (!ab_safety_check_device("", dev, (const char *const *)o->confirmed, error))
				return FALSE;
			/* Stricter than run --device: a raw write leaves nothing of
			 * what was there, and a device without a signature may
			 * still hold data. */
			if (!canonical || !o->confirmed || !g_strv_contains((const char *const *)o->confirmed, canonical)) {
				g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
					    "refusing to write '%s': name it in --yes-destroy to overwrite it", dev);
				return FALSE;
			}
			continue;
		}
		g_autofree char *why = NULL;
		g_autoptr(GError) local = NULL;
		if (!ab_safety_device_in_use("", dev, &why, &local)) {
			g_autofree char *text = g_strdup_printf("cannot tell whether '%s' is in use: %s", dev,
								local->message);
			warn(text);
		} else if (why) {
			g_autofree char *text = g_strdup_printf("'%s' is in use (%s): its own I/O competes with the "
								"raw read, whose figure may be low", dev, why);
			warn(text);
		}
	}
	return TRUE;
}

static struct ab_run *new_run(const struct raw_opts *o, const char *run_id)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup(AB_VERSION);
	run->run_id = g_strdup(run_id);
	run->repeat = 1;
	run->seed = o->write ? o->params.seed : AB_UNSET;
	run->start_unix = g_get_real_time() / G_USEC_PER_SEC;
	run->concurrency = 1;
	run->machine = g_strdup(g_get_host_name());
	run->kernel = ab_sysinfo_kernel();
	run->cpus = ab_sysinfo_cpu_count();
	run->ram_bytes = ab_sysinfo_ram_bytes();
	run->cache_desc = g_strdup("bypassed (O_DIRECT)");
	run->cache_controlled = TRUE;
	run->cond.file_size = 0; /* no test file: each result's key holds its bytes */
	run->cond.io_chunk = o->params.block;
	run->cond.repeats = 1;
	run->cond.data = o->write ? g_strdup("random") : NULL;
	run->cond.direct = TRUE;
	run->cond.cache_mode = g_strdup("direct");
	run->target.backend = g_strdup("raw");
	for (guint i = 0; i < o->devices->len; i++) {
		const char *dev = g_ptr_array_index(o->devices, i);
		g_ptr_array_add(run->target.members, g_strdup(dev));
		g_autofree char *real = realpath(dev, NULL);
		g_autofree char *name = real ? g_path_get_basename(real) : NULL;
		struct ab_queue_info q;
		if (name && ab_queue_info_read("", name, &q)) {
			struct ab_queue_desc d = {
				.name = g_strdup(q.name), .scheduler = g_strdup(q.scheduler),
				.read_ahead_kb = q.read_ahead_kb, .rotational = q.rotational,
				.logical_block_size = q.logical_block_size, .physical_block_size = q.physical_block_size,
			};
			g_array_append_val(run->target.queues, d);
		}
	}
	run->target.image_count = 0;
	return run;
}

/* The table on standard output, the JSON line appended to --json. */
static gboolean deliver(const struct ab_run *run, FILE *json, const char *json_path, GError **error)
{
	g_autofree char *table = ab_writer_format_run(&ab_writer_text, run, NULL);
	errno = 0;
	gboolean table_ok = fputs(table, stdout) >= 0 && fflush(stdout) == 0 && !ferror(stdout) && !ab_stdout_closed;
	int table_errno = ab_stdout_closed ? EBADF : errno ? errno : EIO;
	gboolean json_ok = TRUE;
	int json_errno = 0;
	if (json) {
		g_autofree char *line = ab_writer_format_run(&ab_writer_json, run, NULL);
		errno = 0;
		json_ok = ab_outfile_append(json, line);
		json_errno = errno ? errno : EIO;
	}
	if (!table_ok)
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the results to standard output: %s%s%s%s",
			    g_strerror(table_errno), json && json_ok ? "; they are whole in '" : "",
			    json && json_ok ? json_path : "", json && json_ok ? "'" : "");
	else if (!json_ok)
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the results to '%s': %s", json_path,
			    g_strerror(json_errno));
	return table_ok && json_ok;
}

static gboolean measure_all(const struct raw_opts *o, GArray *rdevs, struct ab_run *run, GError **error)
{
	for (guint i = 0; i < o->devices->len; i++) {
		const char *dev = g_ptr_array_index(o->devices, i);
		for (int write = 0; write <= o->write; write++) {
			struct ab_result *res =
				ab_rawdev_measure(dev, g_array_index(rdevs, dev_t, i), write, &o->params, error);
			if (!res)
				return FALSE;
			ab_run_add_result(run, res);
		}
	}
	return TRUE;
}

/* --json as run's outputs are opened (src/cmd/outfile.c). */
static gboolean open_json(const struct raw_opts *o, struct ab_outfile *json, GError **error)
{
	json->path = o->json_path;
	return ab_outfiles_open(json, 1, FALSE, error);
}

int ab_cmd_raw(int argc, char **argv, GError **error)
{
	g_autoptr(GPtrArray) devices = g_ptr_array_new_with_free_func(g_free);
	struct raw_opts o = {
		.devices = devices,
		.params = { AB_RAW_DEFAULT_BYTES, AB_RAW_DEFAULT_BLOCK, AB_RAW_DEFAULT_SECONDS, 0 },
	};
	g_autoptr(GArray) rdevs = g_array_new(FALSE, FALSE, sizeof(dev_t));
	int status = 0;
	struct ab_outfile json = { "--json", NULL, NULL };
	g_autofree char *run_id = NULL;
	if (!parse(argc, argv, &o, error) || !check_devices(&o, rdevs, error) || !check_safety(&o, error) ||
	    !(run_id = ab_run_id_new(error)) || !open_json(&o, &json, error)) {
		status = ab_error_exit_status(*error);
	} else {
		ab_sysinfo_init();
		ab_runner_install_signals();
		o.params.seed = (uint64_t)g_random_int();
		g_autoptr(ab_run) run = new_run(&o, run_id);
		if (!measure_all(&o, rdevs, run, error) || !deliver(run, json.f, o.json_path, error))
			status = ab_error_exit_status(*error);
	}
	ab_outfiles_close(&json, 1);
	g_strfreev(o.confirmed);
	g_free(o.json_path);
	g_free(o.extra);
	return status;
}
