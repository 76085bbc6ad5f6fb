/* ds-cli-job.c: running one spec from a command, with a progress line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-library.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-interval.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-save.h"

static gint *cancel_flag;

/* What stops a run and keeps its partial result: Ctrl-C, kill, and the
 * terminal or ssh session going away. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void
on_stop_signal (int signo)
{
  /* Async-signal-safe: one atomic store.  The run stops within 100 ms and
   * the partial result is printed and saved; a second signal kills as
   * usual. */
  g_atomic_int_set (cancel_flag, 1);
  signal (signo, SIG_DFL);
}

void
ds_cli_catch_stop_signals (gint *flag)
{
  cancel_flag = flag;
  g_atomic_int_set (flag, 0);
  for (unsigned i = 0; i < G_N_ELEMENTS (stop_signals); i++)
    signal (stop_signals[i], on_stop_signal);
}

void
ds_cli_release_stop_signals (void)
{
  for (unsigned i = 0; i < G_N_ELEMENTS (stop_signals); i++)
    signal (stop_signals[i], SIG_DFL);
}

gboolean
ds_cli_check_output (const char *output,
                     const char *target,
                     int        *ret_status)
{
  g_autoptr (GError) error = NULL;

  if (output == NULL || ds_save_check_destination (output, target, &error))
    return TRUE;

  *ret_status = ds_cli_complain (DS_CLI_FAILED, _("--output: %s; nothing was run"), error->message);
  return FALSE;
}

char *
ds_cli_format_duration (double seconds)
{
  uint64_t s = seconds > 0 ? (uint64_t) (seconds + 0.5) : 0;

  if (s >= 3600)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "h%02" G_GUINT64_FORMAT "m", s / 3600, s / 60 % 60);
  if (s >= 60)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "m%02" G_GUINT64_FORMAT "s", s / 60, s % 60);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "s", s);
}

/* ---- progress on stderr (every command's run) ---------------------------- */

typedef struct {
  gboolean    enabled;
  DsUnits     units;
  uint64_t    start_ns;
  uint64_t    last_ns;
  const char *phase;
  unsigned    points;
  double      last_value;    /* the last point's bytes/s */
  double      rate;          /* a phase's bytes/s, from its progress */
  double      iops;          /* a workload's last interval (0: none yet) */
  uint64_t    p99_ns;
  guint       io_errors;     /* points that failed (a scan's bad cells) */
  int         width;         /* of the last line, to blank it */
} Progress;

static void
progress_take (Progress       *p,
               const DsSample *sample)
{
  switch (sample->kind)
    {
    case DS_SAMPLE_PHASE:
    case DS_SAMPLE_ROW:
      p->phase = sample->name;
      break;
    case DS_SAMPLE_POINT:
      p->points++;
      p->last_value = sample->value;
      if (sample->error != 0)
        p->io_errors++;
      break;
    case DS_SAMPLE_PROGRESS:
      if (sample->value > 0)
        p->rate = sample->value;
      break;
    case DS_SAMPLE_INTERVAL:
      /* A workload's last interval (the series point it just recorded). */
      if (sample->interval != NULL)
        {
          const DsIntervalPoint *pt = sample->interval;

          p->last_value = pt->read.bytes_per_s + pt->write.bytes_per_s;
          p->iops = pt->read.iops + pt->write.iops;
          p->p99_ns = (uint64_t) (MAX (pt->read.p99_s, pt->write.p99_s) * 1e9);
        }
      else if (sample->value > 0)
        p->rate = sample->value;
      break;
    case DS_SAMPLE_ACCESS:
    case DS_SAMPLE_NOTICE:
    default:
      break;
    }
}

/* What was measured last: a workload's MB/s, IOPS and p99 as fio's status
 * line has them, or the last point's rate, or the phase's. */
static void
progress_figures (const Progress *p,
                  GString        *line)
{
  if (p->iops > 0)
    {
      g_autofree char *rate = ds_format_rate (p->last_value, p->units);

      g_string_append_printf (line, "  %s  %.0f IOPS", rate, p->iops);
      if (p->p99_ns > 0)
        {
          g_autofree char *p99 = ds_format_ms ((double) p->p99_ns / 1e9);

          g_string_append_printf (line, "  p99 %s", p99);
        }
    }
  else if (p->points > 0)
    {
      g_autofree char *rate = ds_format_rate (p->last_value, p->units);

      g_string_append_printf (line, "  point %u  %s", p->points, rate);
    }
  else if (p->rate > 0)
    {
      g_autofree char *rate = ds_format_rate (p->rate, p->units);

      g_string_append_printf (line, "  %s", rate);
    }
  if (p->io_errors > 0)
    g_string_append_printf (line, ngettext ("  %u I/O error", "  %u I/O errors", p->io_errors),
                            p->io_errors);
}

/* One status line, rewritten in place at most ten times a second: a bar,
 * the time elapsed and left, the phase and its figures. */
static void
progress_sink (const DsSample *sample,
               gpointer        user_data)
{
  Progress *p = user_data;
  g_autoptr (GString) line = NULL;
  g_autofree char *elapsed_text = NULL;
  uint64_t now;
  double elapsed;
  char bar[21];
  unsigned filled;

  if (sample->kind == DS_SAMPLE_NOTICE)
    {
      ds_cli_notice (sample->name, p->enabled ? p->width : 0);
      return;
    }
  progress_take (p, sample);

  if (!p->enabled)
    return;
  now = ds_clock_ns ();
  if (now - p->last_ns < 100 * DS_NS_PER_MSEC && sample->progress < 1.0)
    return;
  p->last_ns = now;

  filled = (unsigned) (sample->progress * 20.0 + 0.5);
  for (unsigned i = 0; i < 20; i++)
    bar[i] = i < filled ? '#' : '.';
  bar[20] = '\0';

  line = g_string_new (NULL);
  elapsed = (double) (now - p->start_ns) / 1e9;
  elapsed_text = ds_cli_format_duration (elapsed);
  g_string_append_printf (line, "[%s] %3.0f%% %s", bar, sample->progress * 100.0, elapsed_text);
  if (sample->progress > 0.005 && sample->progress < 1.0)
    {
      g_autofree char *left = ds_cli_format_duration (elapsed * (1.0 - sample->progress) / sample->progress);

      g_string_append_printf (line, " (%s left)", left);
    }
  if (p->phase != NULL)
    g_string_append_printf (line, "  %s", p->phase);
  progress_figures (p, line);

  fprintf (stderr, "\r%-*s", p->width, line->str);
  p->width = MAX (p->width, (int) line->len);
  fflush (stderr);
}

/* Blanks the line once the run is over. */
static void
progress_finish (Progress *p)
{
  if (p->enabled && p->last_ns != 0)
    fprintf (stderr, "\r%*s\r", p->width, "");
}

void
ds_cli_job_args_add (DsCliJobArgs   *args,
                     GOptionContext *context)
{
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &args->json, N_("Print the result as JSON on stdout"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &args->output, N_("Also save the JSON result to FILE"), N_("FILE") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &args->units, N_("Rates in MB/s (10^6 bytes, default) or MiB/s (2^20 bytes: HD Tune's \"MB/s\")"), N_("MB|MiB") },
    { "no-progress", 0, 0, G_OPTION_ARG_NONE, &args->no_progress, N_("No progress line on stderr"), NULL },
    { "no-library", 0, 0, G_OPTION_ARG_NONE, &args->no_library, N_("Do not save the result in the results library"), NULL },
    { NULL }
  };

  /* The group copies the entries; only their targets must live on. */
  g_option_context_add_main_entries (context, entries, NULL);
}

gboolean
ds_cli_job_args_finish (DsCliJobArgs     *args,
                        DsCliJobOptions  *ret_options,
                        GError          **error)
{
  *ret_options = (DsCliJobOptions) {
    .json = args->json,
    .output = args->output,
    .progress = !args->no_progress,
    .no_library = args->no_library,
  };

  return ds_units_from_string (args->units, &ret_options->units, error);
}

void
ds_cli_job_args_clear (DsCliJobArgs *args)
{
  g_clear_pointer (&args->output, g_free);
  g_clear_pointer (&args->units, g_free);
}

/* Prints @text on stdout, or says why it could not: a result nobody
 * received is a failed run. */
static gboolean
print_result (const char *text)
{
  g_autoptr (GError) error = NULL;

  if (ds_save_contents_atomic ("-", text, strlen (text), &error))
    return TRUE;

  ds_cli_fail (error);
  return FALSE;
}

int
ds_cli_job_print (const DsResult        *result,
                  const DsCliJobOptions *options)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean json = options->json;
  gboolean delivered = TRUE;
  int status = DS_CLI_OK;

  /* The result, partial or not, is always saved and printed; failing
   * either fails the run.  "-o -" is --json: stdout holds the JSON alone. */
  if (g_strcmp0 (options->output, "-") == 0)
    json = TRUE;
  else if (options->output != NULL &&
           !ds_result_save_from (result, options->output, options->inputs, &error))
    {
      ds_cli_fail (error);
      delivered = FALSE;
    }

  if (json)
    text = ds_result_to_data (result, NULL);
  else if (ds_result_has_measurements (result))
    /* A refused or impossible run, or one whose target would not open,
     * measured nothing: only its reason, on stderr (not a table of
     * dashes).  A stopped or failed one that measured is reported. */
    text = options->text != NULL ? options->text (result, options->text_data) :
                                   ds_report_text (result, options->units);
  if (text != NULL && !print_result (text))
    delivered = FALSE;

  if (result->cancelled)
    status = ds_cli_complain (DS_CLI_INTERRUPTED, text != NULL ?
                              _("stopped; the partial result was printed") :
                              _("stopped before anything was measured"));
  else if (result->error != NULL)
    {
      status = ds_cli_fail (result->error);
      if (status == DS_CLI_OK)
        status = DS_CLI_FAILED;
    }
  if (!delivered && (status == DS_CLI_OK || status == DS_CLI_INTERRUPTED))
    status = DS_CLI_FAILED;

  /* Every run is kept in the results library too (--no-library not). */
  ds_cli_library_save_run (result, options->no_library);

  return status;
}

int
ds_cli_job_run (const DsBenchSpec     *spec,
                const DsCliJobOptions *options)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;
  Progress progress = {
    .enabled = options->progress && isatty (STDERR_FILENO),
    .units = options->units,
    .start_ns = ds_clock_ns (),
  };
  gint cancel = 0;
  int status;

  if (!ds_bench_spec_validate (spec, &error))
    return ds_cli_fail (error);
  if (!ds_cli_check_output (options->output, spec->target_path, &status))
    return status;

  ds_cli_catch_stop_signals (&cancel);
  result = ds_run_full (spec, &(DsRunOptions) { .sink = progress_sink, .sink_data = &progress,
                                                .cancel = &cancel,
                                                .access = *ds_cli_target_access (),
                                                .validated = TRUE });
  ds_cli_release_stop_signals ();
  progress_finish (&progress);

  return ds_cli_job_print (result, options);
}
