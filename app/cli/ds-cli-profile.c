/* ds-cli-profile.c: `diskscope-cli profile` (what a trace's workload is)
 * and `diskscope-cli import-trace` (blktrace files, fio iologs)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-cli.h"
#include "ds-error.h"
#include "ds-trace.h"
#include "ds-units.h"

static gboolean
parse_units (const char       *text,
             DsTraceFioUnits  *ret,
             GError          **error)
{
  if (text == NULL || strcmp (text, "auto") == 0)
    *ret = DS_TRACE_FIO_UNITS_AUTO;
  else if (strcmp (text, "us") == 0)
    *ret = DS_TRACE_FIO_UNITS_US;
  else if (strcmp (text, "ns") == 0)
    *ret = DS_TRACE_FIO_UNITS_NS;
  else
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--fio-units takes us or ns"));
      return FALSE;
    }
  return TRUE;
}

#define FIO_UNITS_HELP N_("fio iolog v3 time stamps: us (fio 3.31-3.33 write microseconds, the default) or ns")

int
ds_cli_import_trace (int    argc,
                     char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("FILE... -o TRACE — blktrace files or a fio iolog as a trace"));
  g_autoptr (GError) error = NULL;
  g_autofree char *output = NULL, *units_text = NULL;
  DsTraceFioUnits units;
  DsTraceHeader h;
  int status;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The trace file to write (required)"), N_("FILE") },
    { "fio-units", 0, 0, G_OPTION_ARG_STRING, &units_text, FIO_UNITS_HELP, N_("us|ns") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("blktrace: the per-CPU binary files (DEV.blktrace.0, .1, ...; blkparse's\n"
    "input), merged in time order.  fio: a write_iolog file, version 2 (no times)\n"
    "or 3."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2 || output == NULL)
    return ds_cli_complain (DS_CLI_USAGE, _("import-trace takes one or more files and -o FILE"));
  if (!parse_units (units_text, &units, &error) ||
      !ds_trace_import_any ((const char *const *) argv + 1, units, output, &h, &error))
    return ds_cli_fail (error);
  printf (_("Imported %" PRIu64 " requests into %s\n"), h.record_count, output);
  return ds_cli_flush_stdout (DS_CLI_OK);
}

int
ds_cli_profile (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("FILE... — what a trace's workload is"));
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceProfile) profile = NULL;
  g_autofree char *interval = NULL, *units_text = NULL, *tmp = NULL, *process = NULL;
  gboolean json = FALSE;
  uint64_t interval_ns = 1000000000;
  DsTraceFioUnits units;
  const char *path;
  int status;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("The profile as JSON"), NULL },
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &interval, N_("The time series' interval (default 1s)"), N_("TIME") },
    { "fio-units", 0, 0, G_OPTION_ARG_STRING, &units_text, FIO_UNITS_HELP, N_("us|ns") },
    { "process", 'p', 0, G_OPTION_ARG_STRING, &process, N_("Only the requests of processes of this name"), N_("NAME") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("FILE: a capture (diskscope-cli capture), blktrace's per-CPU files, or a fio\n"
    "iolog.  IOPS and MB/s over time, the read/write mix, block sizes, randomness\n"
    "(sequential runs, seek distances), in-flight depth, burstiness, hot regions,\n"
    "flushes, and the production latency per interval (p50, p99, p99.9)."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("profile takes a trace file"));
  if (interval != NULL && (!ds_parse_duration (interval, &interval_ns, &error) || interval_ns < 1000000))
    return error ? ds_cli_fail (error) : ds_cli_complain (DS_CLI_USAGE, _("--interval must be at least 1ms"));
  if (!parse_units (units_text, &units, &error))
    return ds_cli_fail (error);
  path = argv[1];
  if (argc > 2 || !ds_trace_file_is_capture (path))
    {
      DsTraceHeader h;
      int fd = g_file_open_tmp ("diskscope-trace-XXXXXX", &tmp, &error);

      if (fd < 0)
        return ds_cli_fail (error);
      close (fd);
      if (!ds_trace_import_any ((const char *const *) argv + 1, units, tmp, &h, &error))
        {
          g_unlink (tmp);
          return ds_cli_fail (error);
        }
      path = tmp;
    }
  profile = ds_trace_profile_new (path, interval_ns, process, &error);
  if (tmp != NULL)
    g_unlink (tmp);
  if (profile == NULL)
    return ds_cli_fail (error);
  if (json)
    {
      g_autoptr (JsonNode) node = ds_trace_profile_to_json (profile);
      g_autofree char *text = json_to_string (node, TRUE);

      printf ("%s\n", text);
    }
  else
    ds_trace_profile_print (profile, stdout);
  return ds_cli_flush_stdout (DS_CLI_OK);
}
