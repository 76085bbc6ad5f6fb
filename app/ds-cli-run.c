/* ds-cli-run.c: diskscope-cli's benchmark commands (every kind)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-bench.h"
#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-units.h"

/* Which commands an option belongs to. */
enum {
  K_TRANSFER = 1 << DS_BENCH_TRANSFER,
  K_EXTRA = 1 << DS_BENCH_EXTRA,
  K_RANDOM = 1 << DS_BENCH_RANDOM_ACCESS,
  K_BLOCK = 1 << DS_BENCH_BLOCK_SIZE,
  K_FILE = 1 << DS_BENCH_FILE,
  K_WORKLOAD = 1 << DS_BENCH_WORKLOAD,
  K_DEVICE_KINDS = K_TRANSFER | K_EXTRA | K_RANDOM | K_BLOCK,
  K_ALL = (1 << DS_BENCH_N_KINDS) - 1,
};

typedef struct {
  gboolean json;
  char    *output;
  char    *units;
  gboolean write;
  char    *destroy_data;
  char    *engine;
  char    *block_size;
  char    *capacity;
  int      accuracy;
  char    *pattern;
  int      queue_depth;
  int      threads;
  int      read_mix;
  char    *duration;
  char    *ramp;
  char    *offset;
  char    *span;
  char    *size;
  gboolean buffered;
  gint64   seed;
  gboolean no_progress;
  gboolean no_library;
} Options;

typedef struct {
  GOptionEntry entry;
  unsigned     kinds;
} KindEntry;

static gint cancel_flag;

static void
on_sigint (int signo)
{
  /* Async-signal-safe: one atomic store.  The run stops within 100 ms and
   * the partial result is printed; a second Ctrl-C kills as usual. */
  g_atomic_int_set (&cancel_flag, 1);
  signal (signo, SIG_DFL);
}

/* ---- progress on stderr ------------------------------------------------- */

typedef struct {
  gboolean    enabled;
  uint64_t    last_ns;
  const char *phase;
  unsigned    points;
  double      last_value;
  gboolean    value_is_rate;
  DsUnits     units;
} Progress;

static void
progress_sink (const DsSample *sample,
               gpointer        user_data)
{
  Progress *p = user_data;
  uint64_t now;
  char bar[31];
  unsigned filled;

  switch (sample->kind)
    {
    case DS_SAMPLE_PHASE:
      p->phase = sample->name;
      break;
    case DS_SAMPLE_POINT:
      p->points++;
      p->last_value = sample->value;
      p->value_is_rate = TRUE;
      break;
    case DS_SAMPLE_ROW:
      p->phase = sample->name;
      break;
    case DS_SAMPLE_ACCESS:
    case DS_SAMPLE_PROGRESS:
    default:
      break;
    }

  if (!p->enabled)
    return;

  now = ds_clock_ns ();
  if (now - p->last_ns < 100 * DS_NS_PER_MSEC && sample->progress < 1.0)
    return;
  p->last_ns = now;

  filled = (unsigned) (sample->progress * 30.0 + 0.5);
  for (unsigned i = 0; i < 30; i++)
    bar[i] = i < filled ? '#' : '.';
  bar[30] = '\0';

  fprintf (stderr, "\r[%s] %3.0f%%", bar, sample->progress * 100.0);
  if (p->phase != NULL)
    fprintf (stderr, "  %-12s", p->phase);
  if (p->value_is_rate && p->points > 0)
    {
      g_autofree char *rate = ds_format_rate (p->last_value, p->units);
      fprintf (stderr, "  point %3u  %-14s", p->points, rate);
    }
  fflush (stderr);
}

static void
progress_finish (Progress *p)
{
  if (p->enabled && p->last_ns != 0)
    fprintf (stderr, "\r%*s\r", 79, "");
}

/* ---- options ------------------------------------------------------------ */

static GOptionEntry *
entries_for (DsBenchKind  kind,
             Options     *o)
{
  const KindEntry all[] = {
    { { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the result as JSON on stdout", NULL }, K_ALL },
    { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, "Also save the JSON result to FILE", "FILE" }, K_ALL },
    { { "units", 0, 0, G_OPTION_ARG_STRING, &o->units, "Rates in MB/s (10^6, default) or MiB/s", "MB|MiB" }, K_ALL },
    { { "write", 0, 0, G_OPTION_ARG_NONE, &o->write, "Write test: DESTROYS ALL DATA on the target (needs --destroy-data)", NULL }, K_DEVICE_KINDS },
    { { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o->destroy_data, "Confirm a write test by naming the target again", "TARGET" }, K_DEVICE_KINDS | K_WORKLOAD },
    { { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine, "I/O engine: auto (default), sync, io_uring, threads", "ENGINE" }, K_ALL },
    { { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o->block_size, "Transfer size (benchmark: 64K, workload: 4K)", "SIZE" }, K_TRANSFER | K_WORKLOAD },
    { { "capacity", 0, 0, G_OPTION_ARG_STRING, &o->capacity, "Test only the first SIZE bytes (short stroke)", "SIZE" }, K_DEVICE_KINDS },
    { { "accuracy", 'a', 0, G_OPTION_ARG_INT, &o->accuracy, "1 (fast) to 5 (slow); each step doubles the time per point or row (default 3)", "N" }, K_DEVICE_KINDS | K_FILE },
    { { "pattern", 'p', 0, G_OPTION_ARG_STRING, &o->pattern, "read, write, randread, randwrite or randrw", "P" }, K_WORKLOAD },
    { { "queue-depth", 'q', 0, G_OPTION_ARG_INT, &o->queue_depth, "I/Os in flight per thread (default 1)", "N" }, K_WORKLOAD },
    { { "threads", 't', 0, G_OPTION_ARG_INT, &o->threads, "Threads, each with its own queue (default 1)", "N" }, K_WORKLOAD },
    { { "read-mix", 0, 0, G_OPTION_ARG_INT, &o->read_mix, "randrw: percent reads (default 70)", "PERCENT" }, K_WORKLOAD },
    { { "duration", 'd', 0, G_OPTION_ARG_STRING, &o->duration, "Run time (workload, default 10s) or time per row", "TIME" }, K_WORKLOAD | K_EXTRA | K_RANDOM | K_BLOCK | K_FILE },
    { { "ramp", 0, 0, G_OPTION_ARG_STRING, &o->ramp, "Warm-up time excluded from the results", "TIME" }, K_WORKLOAD },
    { { "offset", 0, 0, G_OPTION_ARG_STRING, &o->offset, "Start of the region (default 0)", "SIZE" }, K_WORKLOAD },
    { { "span", 0, 0, G_OPTION_ARG_STRING, &o->span, "Length of the region (default: to the end)", "SIZE" }, K_WORKLOAD },
    { { "size", 's', 0, G_OPTION_ARG_STRING, &o->size, "Test file size (default 1G, clamped to the free space)", "SIZE" }, K_FILE },
    { { "buffered", 0, 0, G_OPTION_ARG_NONE, &o->buffered, "Run through the page cache where O_DIRECT is refused (reported)", NULL }, K_FILE },
    { { "seed", 0, 0, G_OPTION_ARG_INT64, &o->seed, "Seed for random offsets and data (repeatable runs)", "N" }, K_ALL },
    { { "no-progress", 0, 0, G_OPTION_ARG_NONE, &o->no_progress, "No progress line on stderr", NULL }, K_ALL },
    { { "no-library", 0, 0, G_OPTION_ARG_NONE, &o->no_library, "Do not save the result in the results library ($DISKSCOPE_RESULTS_DIR or ~/.local/share/diskscope/results)", NULL }, K_ALL },
  };
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (all) + 1);
  unsigned n = 0;

  for (unsigned i = 0; i < G_N_ELEMENTS (all); i++)
    if (all[i].kinds & (1u << kind))
      entries[n++] = all[i].entry;

  return entries;
}

typedef gboolean (*ParseFunc) (const char *text, uint64_t *ret, GError **error);

/* Parses option --@name's @text with @parse, naming the option in errors;
 * an option not given (NULL) leaves *@ret alone. */
static gboolean
parse_option (ParseFunc    parse,
              const char  *text,
              const char  *name,
              uint64_t    *ret,
              GError     **error)
{
  g_autoptr (GError) local = NULL;

  if (text == NULL)
    return TRUE;
  if (!parse (text, ret, &local))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--%s: %s", name, local->message);
      return FALSE;
    }

  return TRUE;
}

static gboolean
build_spec (const DsBenchOps  *ops,
            Options           *o,
            const char        *target,
            DsBenchSpec       *spec,
            GError           **error)
{
  ds_bench_spec_init (spec, ops->kind);
  spec->target_path = g_strdup (target);
  spec->write = o->write;
  spec->destroy_data = g_strdup (o->destroy_data);
  if (o->engine != NULL)
    {
      g_free (spec->engine);
      spec->engine = g_strdup (o->engine);
    }

  if (o->accuracy != 0)
    {
      if (o->accuracy < 1 || o->accuracy > 5)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--accuracy must be 1 to 5");
          return FALSE;
        }
      ds_bench_spec_set_accuracy (spec, (unsigned) o->accuracy);
    }

  if (!parse_option (ds_parse_size, o->block_size, "block-size", &spec->block_size_bytes, error) ||
      !parse_option (ds_parse_size, o->capacity, "capacity", &spec->capacity_bytes, error) ||
      !parse_option (ds_parse_size, o->offset, "offset", &spec->offset_bytes, error) ||
      !parse_option (ds_parse_size, o->span, "span", &spec->span_bytes, error) ||
      !parse_option (ds_parse_size, o->size, "size", &spec->file_size_bytes, error) ||
      !parse_option (ds_parse_duration, o->duration, "duration", &spec->duration_ns, error) ||
      !parse_option (ds_parse_duration, o->ramp, "ramp", &spec->ramp_ns, error))
    return FALSE;

  if (ops->kind == DS_BENCH_WORKLOAD)
    {
      if (o->pattern == NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       "workload needs --pattern: read, write, randread, randwrite or randrw");
          return FALSE;
        }
      if (!ds_pattern_from_string (o->pattern, &spec->pattern))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       "--pattern “%s” is unknown: use read, write, randread, randwrite or randrw",
                       o->pattern);
          return FALSE;
        }
      if (o->duration != NULL && spec->duration_ns == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--duration must be longer than 0");
          return FALSE;
        }
    }

  if (o->queue_depth != 0)
    {
      if (o->queue_depth < 1 || o->queue_depth > 4096)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--queue-depth must be 1 to 4096");
          return FALSE;
        }
      spec->queue_depth = (unsigned) o->queue_depth;
    }
  if (o->threads != 0)
    {
      if (o->threads < 1 || o->threads > 1024)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--threads must be 1 to 1024");
          return FALSE;
        }
      spec->threads = (unsigned) o->threads;
    }
  if (o->read_mix != -1)
    {
      if (o->read_mix < 0 || o->read_mix > 100)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--read-mix is a percentage: 0 to 100");
          return FALSE;
        }
      spec->read_mix_percent = (unsigned) o->read_mix;
    }

  spec->buffered = o->buffered;
  spec->seed = (uint64_t) o->seed;

  return ds_bench_spec_validate (spec, error);
}

static void
options_clear (Options *o)
{
  g_free (o->output);
  g_free (o->units);
  g_free (o->destroy_data);
  g_free (o->engine);
  g_free (o->block_size);
  g_free (o->capacity);
  g_free (o->pattern);
  g_free (o->duration);
  g_free (o->ramp);
  g_free (o->offset);
  g_free (o->span);
  g_free (o->size);
}


/* ---- the benchmark commands --------------------------------------------- */

int
ds_cli_run (int    argc,
            char **argv)
{
  const DsBenchOps *ops;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autofree GOptionEntry *entries = NULL;
  g_autofree char *parameter = NULL;
  Options o = { .read_mix = -1 };
  DsBenchSpec spec;
  Progress progress = { 0 };
  const char *target;
  DsUnits units;
  int status;

  ops = ds_bench_lookup (argv[0]);
  g_assert (ops != NULL);

  parameter = g_strdup_printf (ops->kind == DS_BENCH_FILE ? "[DIR] — HD Tune's %s" :
                               "TARGET — %s", ops->title);
  context = g_option_context_new (parameter);
  entries = entries_for (ops->kind, &o);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Sizes: 512, 4K, 64K, 1M, 1G (powers of 1024). Times: 500ms, 5s, 1m.\n"
    "Rates are MB/s = 10^6 bytes per second unless --units MiB.\n"
    "Write tests destroy all data on the target and need --destroy-data=TARGET.");

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    {
      options_clear (&o);
      return status;
    }

  if (ops->kind == DS_BENCH_FILE)
    target = argc >= 2 ? argv[1] : ".";
  else if (argc >= 2)
    target = argv[1];
  else
    target = NULL;

  if (target == NULL || argc > 2)
    {
      options_clear (&o);
      return ds_cli_complain (DS_CLI_USAGE, "%s needs exactly one %s (see --help)",
                              ops->name, ops->kind == DS_BENCH_FILE ? "folder" : "device or file");
    }

  if (!ds_units_from_string (o.units, &units, &error))
    {
      options_clear (&o);
      return ds_cli_fail (error);
    }
  if (!build_spec (ops, &o, target, &spec, &error))
    {
      ds_bench_spec_clear (&spec);
      options_clear (&o);
      return ds_cli_fail (error);
    }

  progress.enabled = !o.no_progress && isatty (STDERR_FILENO);
  progress.units = units;

  g_atomic_int_set (&cancel_flag, 0);
  signal (SIGINT, on_sigint);
  signal (SIGTERM, on_sigint);

  result = ds_run (&spec, progress_sink, &progress, &cancel_flag);

  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  progress_finish (&progress);
  ds_bench_spec_clear (&spec);

  /* The result, partial or not, is always printed and saved. */
  if (o.output != NULL && !ds_result_save (result, o.output, &error))
    {
      ds_cli_fail (error);
      g_clear_error (&error);
    }

  if (o.json)
    {
      g_autofree char *data = ds_result_to_data (result, NULL);
      fputs (data, stdout);
    }
  else if (result->data != NULL && (result->complete || result->target.size_bytes != 0))
    {
      g_autofree char *text = ds_report_text (result, units);
      fputs (text, stdout);
    }
  fflush (stdout);
  ds_cli_library_save_run (result, o.no_library);

  status = DS_CLI_OK;
  if (result->cancelled)
    {
      status = ds_cli_complain (DS_CLI_INTERRUPTED, "stopped; the partial result was printed");
    }
  else if (result->error != NULL)
    {
      status = ds_cli_fail (result->error);
      if (status == DS_CLI_OK)
        status = DS_CLI_FAILED;
    }

  options_clear (&o);

  return status;
}
