/* ds-cli-synth.c: `diskscope-cli synthesize`, a workload made from a
 * trace's profile (its phases) that runs without the trace: a fio job
 * file, custom rows for `mark --rows`, or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-cli.h"
#include "ds-error.h"
#include "ds-preset.h"
#include "ds-save.h"
#include "ds-trace.h"
#include "ds-units.h"

/* Rows as `mark --rows` reads them, checked by its own parser. */
static int
print_rows (const DsTraceSynth *synth)
{
  g_autofree char *rows = ds_trace_synth_rows (synth), *caveats = ds_trace_synth_caveats (synth, TRUE);
  g_autofree char *normal = NULL;
  g_autoptr (GError) error = NULL;

  if (rows[0] == '\0')
    return ds_cli_complain (DS_CLI_FAILED, _("every phase is idle: no rows"));
  normal = ds_preset_rows_normalize (rows, &error);
  if (normal == NULL)
    return ds_cli_fail (error);
  printf ("%s\n", normal);
  fprintf (stderr, _("Not expressed by the rows:\n%s"), caveats);
  return ds_cli_flush_stdout (DS_CLI_OK);
}

/* Never over the trace it is made from nor the job's target (ds-save.h). */
static int
write_job (const DsTraceSynth *synth,
           const char         *path,
           const char         *target,
           const DsSaveKeep   *keep)
{
  g_autofree char *job = ds_trace_synth_fio_job (synth, target);
  g_autoptr (GError) error = NULL;

  if (strcmp (path, "-") == 0)
    {
      fputs (job, stdout);
      return ds_cli_flush_stdout (DS_CLI_OK);
    }
  if (!ds_save_file (path, job, strlen (job), keep, &error))
    return ds_cli_complain (DS_CLI_FAILED, "%s", error->message);
  printf (_("Wrote %s: %u phases, run in order (fio %s)\n"), path, synth->phases->len, path);
  if (target == NULL)
    printf (_("Set the target first: TARGET=/dev/sdX fio %s\n"), path);
  return ds_cli_flush_stdout (DS_CLI_OK);
}

/* Captures are read as they are; blktrace files and fio iologs through a
 * temporary capture (*@ret_tmp, for the caller to remove). */
static gboolean
open_input (int          argc,
            char       **argv,
            const char **ret_path,
            char       **ret_tmp,
            GError     **error)
{
  DsTraceHeader h;
  int fd;

  *ret_path = argv[1];
  *ret_tmp = NULL;
  if (argc == 2 && ds_trace_file_is_capture (argv[1]))
    return TRUE;
  fd = g_file_open_tmp ("diskscope-trace-XXXXXX", ret_tmp, error);
  if (fd < 0)
    return FALSE;
  close (fd);
  *ret_path = *ret_tmp;
  return ds_trace_import_any ((const char *const *) argv + 1, DS_TRACE_FIO_UNITS_AUTO, *ret_tmp, &h, error);
}

int
ds_cli_synthesize (int    argc,
                   char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TRACE — a workload like the trace's, without it"));
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceSynth) synth = NULL;
  g_autofree char *interval = NULL, *process = NULL, *job = NULL, *target = NULL, *tmp = NULL;
  gboolean json = FALSE, rows = FALSE;
  uint64_t interval_ns = 1000000000;
  int phases = 0, status;
  DsSaveKeep keep = { 0 };
  const char *path;
  GOptionEntry entries[] = {
    { "fio-job", 'o', 0, G_OPTION_ARG_FILENAME, &job, N_("Write a fio job file (\"-\": standard output)"), N_("FILE") },
    { "target", 0, 0, G_OPTION_ARG_FILENAME, &target, N_("The job's filename (default: ${TARGET}, set when fio runs)"), N_("PATH") },
    { "rows", 0, 0, G_OPTION_ARG_NONE, &rows, N_("Print custom rows for `mark --rows`"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("The phases as JSON"), NULL },
    { "phases", 'n', 0, G_OPTION_ARG_INT, &phases, N_("At most N phases (default 16)"), N_("N") },
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &interval, N_("The stretches compared and merged (default 1s)"), N_("TIME") },
    { "process", 'p', 0, G_OPTION_ARG_STRING, &process, N_("Only the requests of processes of this name"), N_("NAME") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("TRACE: a capture (diskscope-cli capture), blktrace's per-CPU files, or a fio\n"
    "iolog.  Cuts the trace into phases where its workload pauses or changes\n"
    "beyond chance in mix, block size, randomness or rate, and gives each its\n"
    "duration, read share, block sizes, sequential share, depth, read and write\n"
    "IOPS, flush rate and region: as a fio job (one section per phase, run in order, direct,\n"
    "incompressible, each direction's rate limited apart), as custom rows, or as\n"
    "JSON.  Each output says what it cannot express.  Nothing is run or written\n"
    "but the job file."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("synthesize takes a trace file"));
  if (phases < 0 || phases > (int) DS_TRACE_SYNTH_PHASES_MAX)
    return ds_cli_complain (DS_CLI_USAGE, _("--phases takes 1 to %u"), DS_TRACE_SYNTH_PHASES_MAX);
  if (interval != NULL && (!ds_parse_duration (interval, &interval_ns, &error) || interval_ns < 1000000))
    return error ? ds_cli_fail (error) : ds_cli_complain (DS_CLI_USAGE, _("--interval must be at least 1ms"));
  if ((json ? 1 : 0) + (rows ? 1 : 0) + (job != NULL && strcmp (job, "-") == 0) > 1)
    return ds_cli_complain (DS_CLI_USAGE, _("--json, --rows and --fio-job - all print: choose one"));
  keep.target = target;
  keep.inputs = (const char *const *) argv + 1;
  if (job != NULL && strcmp (job, "-") != 0 && !ds_save_check (job, &keep, &error))
    return ds_cli_complain (DS_CLI_FAILED, _("--fio-job: %s; nothing was written"), error->message);
  if (!open_input (argc, argv, &path, &tmp, &error))
    {
      if (tmp != NULL)
        g_unlink (tmp);
      return ds_cli_fail (error);
    }
  synth = ds_trace_synth_new (path, interval_ns, (unsigned) phases, process, &error);
  if (tmp != NULL)
    g_unlink (tmp);
  if (synth == NULL)
    return ds_cli_fail (error);
  if (tmp != NULL)
    {
      g_free (synth->trace);
      synth->trace = g_strdup (argv[1]);
    }
  if (job != NULL && (status = write_job (synth, job, target, &keep)) != DS_CLI_OK)
    return status;
  if (rows)
    return print_rows (synth);
  if (json)
    {
      g_autoptr (JsonNode) node = ds_trace_synth_to_json (synth);
      g_autofree char *text = json_to_string (node, TRUE);

      printf ("%s\n", text);
      return ds_cli_flush_stdout (DS_CLI_OK);
    }
  if (job == NULL)
    ds_trace_synth_print (synth, stdout);
  return ds_cli_flush_stdout (DS_CLI_OK);
}
