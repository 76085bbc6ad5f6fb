/* ds-cli-sustain.c: `diskscope-cli sustain`, a sustained write with its
 * cliff, floor and dips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-sustain.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-measures.h"
#include "ds-error.h"

typedef struct {
  char    *destroy_data;
  char    *size;
  char    *duration;
  char    *block_size;
  char    *queue_depth;
  char    *pause;
  char    *interval;
  char    *offset;
  char    *engine;
  char    *seed;
  char    *align;
  gboolean random;
} Options;

static void
options_clear (Options *o)
{
  char **strings[] = { &o->destroy_data, &o->size, &o->duration, &o->block_size,
                       &o->queue_depth, &o->pause, &o->interval, &o->offset,
                       &o->engine, &o->seed, &o->align };

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
  /* "N%" is a share of the device past --offset, resolved once the device
   * is open; "100%" the whole of it, as the spec's 0. */
  gboolean percent = o->size != NULL && g_str_has_suffix (o->size, "%");
  const char *size = percent ? NULL : o->size;
  const DsCliMeasure measures[] = {
    { "size", size, DS_CLI_SIZE, &spec->span_bytes },
    { "duration", o->duration, DS_CLI_TIME, &spec->duration_ns },
    { "block-size", o->block_size, DS_CLI_SIZE, &spec->block_size_bytes },
    { "pause", o->pause, DS_CLI_TIME, &ds_sustain_options (spec)->pause_ns },
    { "interval", o->interval, DS_CLI_TIME, &spec->interval_ns },
    { "offset", o->offset, DS_CLI_SIZE, &spec->offset_bytes },
    { "queue-depth", o->queue_depth, DS_CLI_COUNT, .count = &spec->queue_depth },
    { "align", o->align, DS_CLI_ALIGN, &spec->random_align_bytes },
  };

  spec->destroy_data = g_strdup (o->destroy_data);
  spec->pattern = o->random ? DS_PATTERN_RANDWRITE : DS_PATTERN_WRITE;
  if (percent)
    {
      g_autofree char *number = g_strndup (o->size, strlen (o->size) - 1);
      char *end = NULL;
      double p;

      g_strstrip (number);
      p = g_ascii_strtod (number, &end);
      if (*number == '\0' || end == NULL || *end != '\0' || !(p > 0 && p <= 100))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("--size: a percentage of the device above 0 and up to 100%% (e.g. 25%%) "
                       "or a size (e.g. 64G), not “%s”"), o->size);
          return FALSE;
        }
      ds_sustain_options (spec)->span_percent = p < 100 ? p : 0;
    }
  if (!ds_cli_parse_measures (measures, G_N_ELEMENTS (measures), error))
    return FALSE;
  if (size != NULL && spec->span_bytes == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--size 0 writes nothing: give a size or a percentage"));
      return FALSE;
    }
  if (o->duration != NULL && !ds_bench_spec_set_duration (spec, spec->duration_ns, error))
    return FALSE;
  return ds_cli_finish_spec (spec, o->engine, o->seed, error);
}

int
ds_cli_sustain (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context =
    g_option_context_new (N_("TARGET — a long write: the write cache's cliff, the floor after it, the dips"));
  g_auto (Options) o = { 0 };
  g_auto (DsCliJobArgs) job = { 0 };
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o.destroy_data, N_("Confirm by naming TARGET again: it is overwritten (DESTROYS ITS DATA)"), N_("TARGET") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o.size, N_("How much to write from --offset: a percentage of the device past it (100%, the default, is all of it; 25% a quarter) or SIZE (64G, 512M)"), N_("N%|SIZE") },
    { "duration", 'd', 0, G_OPTION_ARG_STRING, &o.duration, N_("Stop after TIME even before --size is written (default: no limit)"), N_("TIME") },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o.block_size, N_("Transfer size (default 1M)"), N_("SIZE") },
    { "queue-depth", 'q', 0, G_OPTION_ARG_STRING, &o.queue_depth, N_("I/Os in flight (default 32)"), "N" },
    { "random", 0, 0, G_OPTION_ARG_NONE, &o.random, N_("Random offsets instead of sequential (as many bytes)"), NULL },
    { "pause", 0, 0, G_OPTION_ARG_STRING, &o.pause, N_("Then stay idle for TIME and write the cliff's bytes again: how much the cache recovered"), N_("TIME") },
    { "interval", 0, 0, G_OPTION_ARG_STRING, &o.interval, N_("Series: one point per TIME (default 1s, at least 100ms)"), N_("TIME") },
    { "offset", 0, 0, G_OPTION_ARG_STRING, &o.offset, N_("Start of the region (default 0)"), N_("SIZE") },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o.engine, N_("I/O engine: auto (default), sync, io_uring, threads"), N_("ENGINE") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, N_("Seed for random offsets and data (repeatable runs)"), "N" },
    { "align", 0, 0, G_OPTION_ARG_STRING, &o.align, DS_CLI_ALIGN_HELP, N_("block|SIZE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("Writes incompressible data (O_DIRECT) from --offset to the end of TARGET or\n"
    "--size (N% of what lies past --offset, or a size), recording the rate and\n"
    "p99 latency per --interval.  The start rate is the rate of the first 10 %\n"
    "of the bytes; the cliff is the bytes written\n"
    "before the rate fell below 50 % of it and stayed there (a write cache's or\n"
    "SLC cache's size as the host sees it); the floor is the rate after it; dips\n"
    "are intervals below 70 % of the median rate (a cache flushing).  Rates are\n"
    "MB/s = 10^6 bytes per second unless --units MiB.\n"
    "It overwrites TARGET: it runs only with --destroy-data=TARGET, and is\n"
    "refused on a mounted or busy device, as every write test.  Ctrl-C stops it\n"
    "and prints what was measured (exit 130)."));
  return ds_cli_run_one_target (context, &job, "sustain", DS_BENCH_SUSTAIN, build_spec, &o,
                                argc, argv);
}
