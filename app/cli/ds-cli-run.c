/* ds-cli-run.c: diskscope-cli's benchmark commands (every kind)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-bench.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-library.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-interval.h"
#include "ds-run.h"
#include "ds-units.h"

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
  char    *interval;
  char    *offset;
  char    *span;
  char    *size;
  gboolean buffered;
  char    *seed;
  char    *align;
  gboolean no_progress;
  char    *create;
  gboolean keep;
  char    *duration_help;  /* the --duration line, with this kind's default */
  gboolean no_library;
} Options;

/* An integer option the user did not give (G_OPTION_ARG_INT leaves the
 * variable alone): anything typed, 0 and negative numbers included, goes
 * into the spec for the core's validator to judge. */
#define NOT_GIVEN G_MININT

typedef struct {
  GOptionEntry entry;
  gboolean     offered;
} KindEntry;

/* ---- options ------------------------------------------------------------ */

/* The options @ops's command takes: its table says which. */
static GOptionEntry *
entries_for (const DsBenchOps *ops,
             Options          *o)
{
  const gboolean k_all = TRUE;
  const gboolean k_write = ops->writes == DS_BENCH_WRITES_OPTION;
  const gboolean k_confirm = k_write || ops->writes == DS_BENCH_WRITES_PATTERN;
  const gboolean k_create = ops->opens_target && k_confirm;
  const gboolean k_capacity = ops->takes_capacity;
  const gboolean k_block = (ops->cli_options & DS_BENCH_CLI_BLOCK_SIZE) != 0;
  const gboolean k_accuracy = (ops->cli_options & DS_BENCH_CLI_ACCURACY) != 0;
  const gboolean k_shape = (ops->cli_options & DS_BENCH_CLI_SHAPE) != 0;
  const gboolean k_buffered = (ops->cli_options & DS_BENCH_CLI_BUFFERED) != 0;
  const gboolean k_duration = ops->duration_help != NULL;
  const gboolean k_size = ops->file_size != NULL;
  const gboolean k_align = ops->random_offsets != NULL;
  const KindEntry all[] = {
    { { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, N_("Print the result as JSON on stdout"), NULL }, k_all },
    { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, N_("Also save the JSON result to FILE (a regular file, replaced atomically; - for stdout)"), N_("FILE") }, k_all },
    { { "units", 0, 0, G_OPTION_ARG_STRING, &o->units, N_("Rates in MB/s (10^6 bytes, default) or MiB/s (2^20 bytes: HD Tune's \"MB/s\")"), N_("MB|MiB") }, k_all },
    { { "write", 0, 0, G_OPTION_ARG_NONE, &o->write, N_("Write test: overwrites TARGET with random data (needs --destroy-data=TARGET, or --create)"), NULL }, k_write },
    { { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o->destroy_data, N_("Confirm a write test on an existing device or file by naming it again"), N_("TARGET") }, k_confirm },
    { { "create", 0, 0, G_OPTION_ARG_STRING, &o->create, N_("Make TARGET (which must not exist) as a test file of SIZE filled with random data, test it, delete it"), N_("SIZE") }, k_create },
    { { "keep", 0, 0, G_OPTION_ARG_NONE, &o->keep, N_("Keep the --create test file after the run"), NULL }, k_create },
    { { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine, N_("I/O engine: auto (default), sync, io_uring, threads"), N_("ENGINE") }, k_all },
    { { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o->block_size, N_("Transfer size (benchmark: 64K, workload: 4K)"), N_("SIZE") }, k_block },
    { { "capacity", 0, 0, G_OPTION_ARG_STRING, &o->capacity, N_("Test only the first SIZE bytes (short stroke)"), N_("SIZE") }, k_capacity },
    { { "accuracy", 'a', 0, G_OPTION_ARG_INT, &o->accuracy, N_("1 (fast) to 5 (slow); each step doubles the time per point or row (default 3)"), "N" }, k_accuracy },
    { { "pattern", 'p', 0, G_OPTION_ARG_STRING, &o->pattern, N_("read, write, randread, randwrite, randrw or rw"), "P" }, k_shape },
    { { "queue-depth", 'q', 0, G_OPTION_ARG_INT, &o->queue_depth, N_("I/Os in flight per thread (default 1)"), "N" }, k_shape },
    { { "threads", 't', 0, G_OPTION_ARG_INT, &o->threads, N_("Threads, each with its own queue (default 1)"), "N" }, k_shape },
    { { "read-mix", 0, 0, G_OPTION_ARG_INT, &o->read_mix, N_("randrw: percent reads (default 70)"), N_("PERCENT") }, k_shape },
    { { "duration", 'd', 0, G_OPTION_ARG_STRING, &o->duration, o->duration_help, N_("TIME") }, k_duration },
    { { "ramp", 0, 0, G_OPTION_ARG_STRING, &o->ramp, N_("Warm-up time excluded from the results"), N_("TIME") }, k_shape },
    { { "interval", 0, 0, G_OPTION_ARG_STRING, &o->interval, N_("Time series: one point per TIME (default 1s, at least 100ms)"), N_("TIME") }, k_shape },
    { { "offset", 0, 0, G_OPTION_ARG_STRING, &o->offset, N_("Start of the region (default 0)"), N_("SIZE") }, k_shape },
    { { "span", 0, 0, G_OPTION_ARG_STRING, &o->span, N_("Length of the region (default: to the end)"), N_("SIZE") }, k_shape },
    { { "size", 's', 0, G_OPTION_ARG_STRING, &o->size, N_("Test file size (default 1G, clamped to the free space)"), N_("SIZE") }, k_size },
    { { "buffered", 0, 0, G_OPTION_ARG_NONE, &o->buffered, N_("Run through the page cache where O_DIRECT is refused (reported)"), NULL }, k_buffered },
    { { "seed", 0, 0, G_OPTION_ARG_STRING, &o->seed, N_("Seed for random offsets and data, 1 to 2^64-1 (default 0: drawn from the clock; the result keeps the seed used, to repeat the run)"), "N" }, k_all },
    { { "align", 0, 0, G_OPTION_ARG_STRING, &o->align, DS_CLI_ALIGN_HELP, N_("block|SIZE") }, k_align },
    { { "no-progress", 0, 0, G_OPTION_ARG_NONE, &o->no_progress, N_("No progress line on stderr"), NULL }, k_all },
    { { "no-library", 0, 0, G_OPTION_ARG_NONE, &o->no_library, N_("Do not save the result in the results library ($DISKSCOPE_RESULTS_DIR or ~/.local/share/diskscope/results)"), NULL }, k_all },
  };
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (all) + 1);
  unsigned n = 0;

  for (unsigned i = 0; i < G_N_ELEMENTS (all); i++)
    if (all[i].offered)
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
  uint64_t duration_ns = 0;
  uint64_t create_bytes = 0;
  uint64_t size_bytes = 0;

  ds_bench_spec_init (spec, ops->kind);
  spec->target_path = g_strdup (target);
  spec->write = o->write;
  spec->destroy_data = g_strdup (o->destroy_data);
  spec->keep = o->keep;
  if (o->engine != NULL)
    {
      g_free (spec->engine);
      spec->engine = g_strdup (o->engine);
    }

  /* What was typed goes into the spec as it is: the ranges are the
   * core's (ds_bench_spec_validate), and so are the messages. */
  if (o->accuracy != NOT_GIVEN)
    ds_bench_spec_set_accuracy (spec, (unsigned) o->accuracy);
  if (o->queue_depth != NOT_GIVEN)
    spec->queue_depth = (unsigned) o->queue_depth;
  if (o->threads != NOT_GIVEN)
    spec->threads = (unsigned) o->threads;
  if (o->read_mix != NOT_GIVEN)
    spec->read_mix_percent = (unsigned) o->read_mix;

  if (!parse_option (ds_parse_size, o->block_size, "block-size", &spec->block_size_bytes, error) ||
      !parse_option (ds_parse_size, o->capacity, "capacity", &spec->capacity_bytes, error) ||
      !parse_option (ds_parse_size, o->offset, "offset", &spec->offset_bytes, error) ||
      !parse_option (ds_parse_size, o->span, "span", &spec->span_bytes, error) ||
      !parse_option (ds_parse_size, o->size, "size", &size_bytes, error) ||
      !parse_option (ds_parse_size, o->create, "create", &create_bytes, error) ||
      !parse_option (ds_parse_duration, o->duration, "duration", &duration_ns, error) ||
      !parse_option (ds_parse_duration, o->ramp, "ramp", &spec->ramp_ns, error) ||
      !parse_option (ds_parse_duration, o->interval, "interval", &spec->interval_ns, error) ||
      !parse_option (ds_parse_random_align, o->align, "align", &spec->random_align_bytes, error))
    return FALSE;
  /* --size is offered only to a kind that makes a test file. */
  if (o->size != NULL)
    *ops->file_size (spec) = size_bytes;
  /* The spec keeps 0 for "not given" in these two: the setters refuse a
   * typed 0 with the validator's words. */
  if (o->duration != NULL && !ds_bench_spec_set_duration (spec, duration_ns, error))
    return FALSE;
  if (o->create != NULL && !ds_bench_spec_set_create (spec, create_bytes, error))
    return FALSE;

  /* A kind that takes an I/O shape has no pattern of its own. */
  if (ops->cli_options & DS_BENCH_CLI_SHAPE)
    {
      if (o->pattern == NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("%s needs --pattern: read, write, randread, randwrite or randrw"),
                       ops->name);
          return FALSE;
        }
      if (!ds_pattern_from_string (o->pattern, &spec->pattern))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("--pattern “%s” is unknown: use read, write, randread, randwrite or randrw"),
                       o->pattern);
          return FALSE;
        }
    }

  spec->buffered = o->buffered;
  if (o->seed != NULL && !ds_parse_seed (o->seed, &spec->seed, error))
    return FALSE;

  /* ds_cli_job_run() validates it, once. */
  return TRUE;
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
  g_free (o->interval);
  g_free (o->offset);
  g_free (o->span);
  g_free (o->size);
  g_free (o->create);
  g_free (o->seed);
  g_free (o->align);
  g_free (o->duration_help);
}


/* ---- the benchmark commands --------------------------------------------- */

static const char run_description[] = N_(
  "Sizes: 512, 4K, 64K, 1M, 1G (powers of 1024). Times: 500ms, 5s, 1m.\n"
  "Rates are MB/s = 10^6 bytes per second unless --units MiB; HD Tune's\n"
  "\"MB\" is 2^20 bytes: use --units MiB to compare with an HD Tune report.\n"
  "\n"
  "Read tests open TARGET (a block device or a regular file) read-only and\n"
  "never write to it.  A write test overwrites TARGET with random data:\n"
  "  - on a block device or an existing regular file it runs only when you\n"
  "    name it again: --destroy-data=TARGET;\n"
  "  - it is refused, whatever you confirm, when TARGET is read-only,\n"
  "    mounted or otherwise in use (holders, swap), the backing file of a\n"
  "    loop device, locked by another program (a virtual machine's disk),\n"
  "    or a file that holds a filesystem or partition table (a disk image);\n"
  "  - with --create SIZE, TARGET must not exist: Diskscope makes it as a\n"
  "    test file of SIZE filled with random data (no confirmation needed),\n"
  "    tests it, and deletes it when the run ends however it ends (unless\n"
  "    --keep).  Read tests take --create too.\n"
  "--output saves only to a regular file (replaced atomically), never over\n"
  "a device, FIFO, socket or folder, nor over TARGET.  Exit statuses:\n"
  "diskscope-cli --help.");

static const char file_description[] = N_(
  "Sizes: 512, 4K, 64K, 1M, 1G (powers of 1024). Times: 500ms, 5s, 1m.\n"
  "Rates are MB/s = 10^6 bytes per second unless --units MiB; HD Tune's\n"
  "\"MB\" is 2^20 bytes: use --units MiB to compare with an HD Tune report.\n"
  "\n"
  "The file benchmark writes only to a test file of its own in DIR, which\n"
  "has no name (O_TMPFILE, or one removed at once) and so is gone when the\n"
  "run ends however it ends; it never touches the files already there.\n"
  "--output saves only to a regular file (replaced atomically).");

int
ds_cli_run (int    argc,
            char **argv)
{
  const DsBenchOps *ops;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree GOptionEntry *entries = NULL;
  g_autofree char *parameter = NULL;
  Options o = {
    .accuracy = NOT_GIVEN,
    .queue_depth = NOT_GIVEN,
    .threads = NOT_GIVEN,
    .read_mix = NOT_GIVEN,
  };
  DsBenchSpec spec;
  const char *target;
  DsUnits units;
  int status;

  ops = ds_bench_lookup (argv[0]);
  g_assert (ops != NULL);

  parameter = g_strdup_printf (ds_bench_kind_has_folder (ops->kind) ? _("[DIR] — HD Tune's %s") :
                               _("TARGET — %s"), _(ops->title));
  context = g_option_context_new (parameter);
  o.duration_help = ops->duration_help != NULL ? ops->duration_help () : NULL;
  entries = entries_for (ops, &o);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context, ops->opens_target ? run_description
                                                                : file_description);

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    {
      options_clear (&o);
      return status;
    }

  if (ds_bench_kind_has_folder (ops->kind))
    target = argc >= 2 ? argv[1] : ".";
  else if (argc >= 2)
    target = argv[1];
  else
    target = NULL;

  if (target == NULL || argc > 2)
    {
      options_clear (&o);
      return ds_cli_complain (DS_CLI_USAGE, _("%s needs exactly one %s (see --help)"),
                              ops->name, ds_bench_kind_has_folder (ops->kind) ? _("folder") :
                              _("device or file"));
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

  {
    DsCliJobOptions job = { .json = o.json, .output = o.output, .units = units,
                            .progress = !o.no_progress, .no_library = o.no_library };

    status = ds_cli_job_run (&spec, &job);
  }
  ds_bench_spec_clear (&spec);
  options_clear (&o);

  return status;
}
