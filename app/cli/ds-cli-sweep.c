/* ds-cli-sweep.c: `diskscope-cli sweep`, a saturation sweep with its knee
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-sweep.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-measures.h"
#include "ds-error.h"

typedef struct {
  char    *pattern;
  char    *block_size;
  char    *read_mix;
  char    *over;
  char    *from;
  char    *to;
  char    *levels;
  char    *step_time;
  char    *ramp;
  char    *interval;
  char    *queue_depth;
  char    *threads;
  char    *offset;
  char    *span;
  char    *destroy_data;
  char    *engine;
  char    *seed;
  char    *align;
  gboolean steady;
} Options;

static void
options_clear (Options *o)
{
  char **strings[] = { &o->pattern, &o->block_size, &o->read_mix, &o->over, &o->from,
                       &o->to, &o->levels, &o->step_time, &o->ramp, &o->interval,
                       &o->queue_depth, &o->threads, &o->offset, &o->span,
                       &o->destroy_data, &o->engine, &o->seed, &o->align };

  for (unsigned i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static gboolean
build_spec (gpointer      data,
            DsBenchSpec  *spec,
            GError      **error)
{
  Options *o = data;
  DsSweepOptions *sweep = ds_sweep_options (spec);
  const DsCliMeasure measures[] = {
    { "block-size", o->block_size, DS_CLI_SIZE, &spec->block_size_bytes },
    { "offset", o->offset, DS_CLI_SIZE, &spec->offset_bytes },
    { "span", o->span, DS_CLI_SIZE, &spec->span_bytes },
    { "step-time", o->step_time, DS_CLI_TIME, &spec->duration_ns },
    { "ramp", o->ramp, DS_CLI_TIME, &spec->ramp_ns },
    { "interval", o->interval, DS_CLI_TIME, &spec->interval_ns },
    { "from", o->from, DS_CLI_COUNT, .count = &sweep->from },
    { "to", o->to, DS_CLI_COUNT, .count = &sweep->to },
    { "read-mix", o->read_mix, DS_CLI_COUNT, .count = &spec->read_mix_percent },
    { "queue-depth", o->queue_depth, DS_CLI_COUNT, .count = &spec->queue_depth },
    { "threads", o->threads, DS_CLI_COUNT, .count = &spec->threads },
    { "align", o->align, DS_CLI_ALIGN, &spec->random_align_bytes },
  };

  spec->destroy_data = g_strdup (o->destroy_data);
  sweep->steady = o->steady;
  sweep->levels = g_strdup (o->levels);

  if (o->pattern == NULL || !ds_pattern_from_string (o->pattern, &spec->pattern))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("sweep needs --pattern: read, write, randread, randwrite, randrw or rw%s%s%s"),
                   o->pattern ? " (not “" : "", o->pattern ? o->pattern : "", o->pattern ? "”)" : "");
      return FALSE;
    }
  if (o->over != NULL && strcmp (o->over, "qd") != 0 && strcmp (o->over, "threads") != 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--over is qd (the queue depth) or threads, not “%s”"), o->over);
      return FALSE;
    }
  sweep->over_threads = o->over != NULL && strcmp (o->over, "threads") == 0;
  if ((o->from != NULL || o->to != NULL) && o->levels != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("give --levels or --from/--to, not both"));
      return FALSE;
    }
  if (sweep->over_threads && o->threads != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--over threads sweeps the threads: --threads does not apply"));
      return FALSE;
    }
  if (!sweep->over_threads && o->queue_depth != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--over qd sweeps the queue depth: --queue-depth does not apply"));
      return FALSE;
    }
  if (sweep->over_threads)
    sweep->to = 64;

  if (!ds_cli_parse_measures (measures, G_N_ELEMENTS (measures), error))
    return FALSE;
  return ds_cli_finish_spec (spec, o->engine, o->seed, error);
}

int
ds_cli_sweep (int    argc,
              char **argv)
{
  g_autoptr (GOptionContext) context =
    g_option_context_new (N_("TARGET — IOPS and latency at growing queue depths, and the knee"));
  g_auto (Options) o = { 0 };
  g_auto (DsCliJobArgs) job = { 0 };
  GOptionEntry entries[] = {
    { "pattern", 'p', 0, G_OPTION_ARG_STRING, &o.pattern, N_("read, write, randread, randwrite, randrw or rw (required)"), "P" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o.block_size, N_("Transfer size (default 4K)"), N_("SIZE") },
    { "read-mix", 0, 0, G_OPTION_ARG_STRING, &o.read_mix, N_("randrw, rw: percent reads (default 70)"), N_("PERCENT") },
    { "over", 0, 0, G_OPTION_ARG_STRING, &o.over, N_("What grows: qd (the queue depth, default) or threads"), N_("qd|threads") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o.from, N_("First level (default 1)"), "N" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, N_("Last level: the levels double from --from up to it (default 256; threads: 64)"), "N" },
    { "levels", 0, 0, G_OPTION_ARG_STRING, &o.levels, N_("These levels instead (e.g. 1,2,3,4,6,8)"), N_("LIST") },
    { "step-time", 'd', 0, G_OPTION_ARG_STRING, &o.step_time, N_("Time per level (default 10s)"), N_("TIME") },
    { "steady", 0, 0, G_OPTION_ARG_NONE, &o.steady, N_("End a level early once its IOPS is steady (the last 5 intervals within 5 %)"), NULL },
    { "ramp", 0, 0, G_OPTION_ARG_STRING, &o.ramp, N_("Warm-up per level, not counted (default 0)"), N_("TIME") },
    { "interval", 0, 0, G_OPTION_ARG_STRING, &o.interval, N_("Series interval, the steady rule's unit (default 1s, at least 100ms)"), N_("TIME") },
    { "queue-depth", 'q', 0, G_OPTION_ARG_STRING, &o.queue_depth, N_("--over threads: the queue depth of each thread (default 1)"), "N" },
    { "threads", 't', 0, G_OPTION_ARG_STRING, &o.threads, N_("--over qd: the threads, each at the level's depth (default 1)"), "N" },
    { "offset", 0, 0, G_OPTION_ARG_STRING, &o.offset, N_("Start of the region (default 0)"), N_("SIZE") },
    { "span", 0, 0, G_OPTION_ARG_STRING, &o.span, N_("Length of the region (default: to the end)"), N_("SIZE") },
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o.destroy_data, N_("Confirm a writing pattern on TARGET by naming it again (DESTROYS ITS DATA)"), N_("TARGET") },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o.engine, N_("I/O engine: auto (default), sync, io_uring, threads"), N_("ENGINE") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, N_("Seed for random offsets and data (repeatable runs)"), "N" },
    { "align", 0, 0, G_OPTION_ARG_STRING, &o.align, DS_CLI_ALIGN_HELP, N_("block|SIZE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("Runs the workload at each level (queue depth 1, 2, 4 … or threads) for\n"
    "--step-time and prints, per level, IOPS, the rate (MB/s = 10^6 bytes per\n"
    "second unless --units MiB), mean, p50, p99 and p99.9 latency, and\n"
    "Little's law (IOPS × mean latency: the I/Os really in flight, flagged\n"
    "when it differs from the level by more than 10 %).  The knee is the\n"
    "first level past which no level gains more than 10 % IOPS while the\n"
    "next level's p99 grows by more than 20 %: where more load only buys\n"
    "latency.  Writing patterns need --destroy-data=TARGET, as `workload`.\n"
    "Ctrl-C stops the sweep and prints the levels measured (exit 130)."));
  return ds_cli_run_one_target (context, &job, "sweep", DS_BENCH_SWEEP, build_spec, &o,
                                argc, argv);
}
