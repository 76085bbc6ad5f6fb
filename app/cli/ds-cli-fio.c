/* ds-cli-fio.c: `diskscope-cli export-fio` and `diskscope-cli import-fio`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-annotation.h"
#include "ds-bench-workload.h"
#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-json.h"
#include "ds-save.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-units.h"

int
ds_cli_export_fio (int    argc,
                   char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (DsLibrary) library = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *filename = NULL;
  g_autofree char *results_dir = NULL;
  g_autofree char *source = NULL;
  g_autofree char *job = NULL;
  g_autofree char *command = NULL;
  g_autofree char *json_out = NULL;
  g_autofree char *input = NULL;
  const char *inputs[2] = { NULL, NULL };
  DsSaveKeep keep = { .inputs = inputs };
  int status;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the job file to FILE (default: stdout)"), N_("FILE") },
    { "filename", 0, 0, G_OPTION_ARG_FILENAME, &filename, N_("Run it on this device or file instead of the one the result ran on"), N_("PATH") },
    { "results-dir", 0, 0, G_OPTION_ARG_FILENAME, &results_dir, N_("Where ids are looked up"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (N_("RESULT — a fio job file that reproduces a run"));
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("RESULT is a result file or a library id.  The job uses the same pattern, block size,\n"
    "queue depth, threads, mix, region, time and engine, with direct=1 and fresh random\n"
    "data for writes (refill_buffers); the command line to run it is printed.  Import\n"
    "fio's output with `diskscope-cli import-fio` and compare it with the run."));

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("export-fio needs one result (a file or a library id)"));

  result = ds_cli_load_result (argv[1], results_dir, &library, &source, &error);
  if (result == NULL)
    return ds_cli_fail (error);

  /* Never over the result it is made from, nor the device or file the job
   * runs on; checked before anything is made. */
  input = ds_cli_result_file (argv[1], library);
  inputs[0] = input;
  keep.target = filename != NULL ? filename : result->spec.target_path;
  if (output != NULL && !ds_save_check (output, &keep, &error))
    return ds_cli_complain (DS_CLI_FAILED, _("-o: %s; nothing was written"), error->message);

  job = ds_fio_job_from_result (result, filename, &error);
  if (job == NULL)
    return ds_cli_fail (error);

  /* "-o -" is stdout, as without -o: the job alone there. */
  if (output == NULL || strcmp (output, "-") == 0)
    {
      fputs (job, stdout);
      fflush (stdout);
      command = ds_fio_command_line ("JOB.fio", "fio.json");
      fprintf (stderr, _("Save this as JOB.fio and run: %s\n"), command);
      return DS_CLI_OK;
    }

  if (!ds_save_file (output, job, strlen (job), &keep, &error))
    return ds_cli_complain (DS_CLI_FAILED, "%s", error->message);

  {
    g_autofree char *stem = g_str_has_suffix (output, ".fio") ?
                            g_strndup (output, strlen (output) - 4) : g_strdup (output);
    json_out = g_strconcat (stem, "-fio.json", NULL);
  }
  command = ds_fio_command_line (output, json_out);
  printf ("%s\n", command);
  return DS_CLI_OK;
}

/* "fio-127.0.0.1-8765-randread" and the like, for the library's file name. */
static char *
name_hint (const DsFioJob *job)
{
  const char *jobname = job->name;

  if (job->aggregate)
    return g_strdup ("fio-all-clients");
  if (job->hostname != NULL)
    {
      /* job->name is "JOB on HOST:PORT" */
      g_autofree char *base = g_strndup (jobname, strcspn (jobname, " "));
      return job->port ? g_strdup_printf ("fio-%s-%d-%s", job->hostname, job->port, base)
                       : g_strdup_printf ("fio-%s-%s", job->hostname, base);
    }

  return g_strdup_printf ("fio-%.*s", (int) strcspn (jobname, " "), jobname);
}

static char *
headline (const DsResult *r,
          DsUnits         units)
{
  const DsWorkloadData *d = r->data;
  GString *s = g_string_new (NULL);

  if (d->read.present)
    {
      g_autofree char *rate = ds_format_rate (d->read.bytes_per_s, units);
      g_string_append_printf (s, "read %s %.0f IOPS", rate, d->read.iops);
    }
  if (d->write.present)
    {
      g_autofree char *rate = ds_format_rate (d->write.bytes_per_s, units);
      g_string_append_printf (s, "%swrite %s %.0f IOPS", s->len ? ", " : "", rate, d->write.iops);
    }
  if (d->series != NULL && d->series->len > 0)
    g_string_append_printf (s, ", series of %u × %g s", d->series->len, d->interval_s);

  return g_string_free (s, FALSE);
}

/* import-fio's options, and what every file's jobs go to. */
typedef struct {
  char       *results_dir;
  char       *units_text;
  char       *logs;
  gboolean    no_library;
  gboolean    json;
  DsUnits     units;
  DsLibrary  *library;       /* NULL with --no-library */
  JsonArray  *docs;          /* --json: what is printed at the end */
} ImportFio;

static void
import_fio_clear (ImportFio *o)
{
  g_free (o->results_dir);
  g_free (o->units_text);
  g_free (o->logs);
  g_clear_object (&o->library);
  g_clear_pointer (&o->docs, json_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ImportFio, import_fio_clear)

/* Parses the command line into @o and opens the library; FALSE with
 * *ret_status the exit status if the command stops there. */
static gboolean
import_fio_parse (ImportFio   *o,
                  int         *argc,
                  char      ***argv,
                  int         *ret_status)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  GOptionEntry entries[] = {
    { "results-dir", 0, 0, G_OPTION_ARG_FILENAME, &o->results_dir, N_("Save into DIR instead of the library folder"), N_("DIR") },
    { "no-library", 0, 0, G_OPTION_ARG_NONE, &o->no_library, N_("Save nothing: print the results (text, or --json)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, N_("Print the imported results as a JSON list"), NULL },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o->units_text, N_("Rates in MB/s (default) or MiB/s"), N_("MB|MiB") },
    { "logs", 0, 0, G_OPTION_ARG_FILENAME, &o->logs, N_("Time series from fio's logs PREFIX_bw.N.log, PREFIX_iops.N.log, PREFIX_lat.N.log"), N_("PREFIX") },
    { NULL }
  };

  context = g_option_context_new (N_("FIO.json… — fio's JSON output as Diskscope workload results"));
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("Reads `fio --output-format=json` (fio 3.x), also of `fio --client=HOST1 --client=HOST2`\n"
    "runs: each job (or group) of each host becomes a workload result, and fio's \"All\n"
    "clients\" sum one more.  They are saved in the results library (--results-dir DIR for\n"
    "another folder) and compare like Diskscope's own runs:\n"
    "  diskscope-cli compare fio-host1 fio-host2 fio-all-clients\n"
    "--logs PREFIX adds each job's time series from the logs of the same run\n"
    "(fio --write_bw_log=PREFIX --write_iops_log=PREFIX --write_lat_log=PREFIX,\n"
    "with or without --log_avg_msec): job N of the JSON gets PREFIX_*.N.log\n"
    "(PREFIX_*.N.log.HOST for fio --client), a single job (group_reporting) all\n"
    "of them summed.  fio's bw logs are KiB/s (1024 bytes), latencies ns.  A log\n"
    "that is missing or not fio's is an error (exit 1), but the JSON's results\n"
    "are still saved, without a series."));

  if (!ds_cli_parse_options (context, argc, argv, ret_status))
    return FALSE;
  if (!ds_units_from_string (o->units_text, &o->units, &error))
    {
      *ret_status = ds_cli_fail (error);
      return FALSE;
    }
  if (*argc < 2)
    {
      *ret_status = ds_cli_complain (DS_CLI_USAGE, _("import-fio needs fio's JSON output (fio --output-format=json)"));
      return FALSE;
    }
  if (o->logs != NULL && *argc > 2)
    {
      *ret_status = ds_cli_complain (DS_CLI_USAGE, _("--logs PREFIX belongs to one run: give one FIO.json with it"));
      return FALSE;
    }

  if (!o->no_library)
    {
      g_autofree char *dir = ds_cli_results_dir (o->results_dir);
      o->library = ds_library_new (dir);
    }
  return TRUE;
}

/* --logs: each job's time series.  The JSON's results are kept (without
 * a series) whatever the logs hold. */
static void
import_fio_logs (GPtrArray  *jobs,
                 const char *logs,
                 const char *path,
                 int        *status)
{
  g_autoptr (GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  if (ds_fio_logs_attach (jobs, logs, missing, &error) < 0)
    {
      g_prefix_error (&error, _("%s: no time series imported: "), path);
      *status = ds_cli_fail (error);
    }
  for (guint w = 0; w < missing->len; w++)
    *status = ds_cli_complain (DS_CLI_FAILED, "%s: %s", path, (const char *) missing->pdata[w]);
}

/* Job @index of a file: saved in the library and its id printed (or
 * listed), else printed whole (text, or into the JSON list). */
static void
import_fio_job (ImportFio *o,
                DsFioJob  *job,
                guint      index,
                int       *status)
{
  g_autofree char *line = headline (job->result, o->units);
  g_autofree char *label = ds_printable_text (job->name);

  if (o->library != NULL)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *hint = name_hint (job);
      DsLibraryEntry *entry = ds_library_save (o->library, job->result, hint, &error);

      if (entry == NULL)
        {
          *status = ds_cli_fail (error);
          return;
        }
      if (o->json)
        {
          JsonObject *obj = json_object_new ();
          json_object_set_string_member (obj, "id", ds_library_entry_get_id (entry));
          json_object_set_string_member (obj, "path", ds_library_entry_get_path (entry));
          json_object_set_string_member (obj, "label", job->name);
          json_array_add_object_element (o->docs, obj);
        }
      else
        printf ("%s  %s: %s\n", ds_library_entry_get_id (entry), label, line);
    }
  else if (o->json)
    {
      json_array_add_element (o->docs, ds_result_to_json (job->result));
    }
  else
    {
      g_autofree char *text = ds_report_text (job->result, o->units);
      printf ("%s%s\n", index > 0 ? "\n" : "", text);
    }
}

/* One FIO.json: its warnings, --logs, then each of its jobs. */
static void
import_fio_file (ImportFio  *o,
                 const char *path,
                 int        *status)
{
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) jobs = ds_fio_import_file (path, &warnings, &error);

  if (jobs == NULL)
    {
      *status = ds_cli_fail (error);
      return;
    }
  for (guint w = 0; warnings != NULL && w < warnings->len; w++)
    *status = ds_cli_complain (DS_CLI_FAILED, "%s: %s", path, (const char *) warnings->pdata[w]);
  if (o->logs != NULL)
    import_fio_logs (jobs, o->logs, path, status);

  for (guint j = 0; j < jobs->len; j++)
    import_fio_job (o, jobs->pdata[j], j, status);
}

int
ds_cli_import_fio (int    argc,
                   char **argv)
{
  g_auto (ImportFio) o = { .docs = json_array_new () };
  int status;

  if (!import_fio_parse (&o, &argc, &argv, &status))
    return status;

  status = DS_CLI_OK;
  for (int i = 1; i < argc; i++)
    import_fio_file (&o, argv[i], &status);

  if (o.json)
    {
      g_autoptr (JsonNode) root = json_node_init_array (json_node_alloc (), o.docs);
      g_autofree char *text = ds_json_to_generator_text (root);

      fputs (text, stdout);
    }

  return status;
}
