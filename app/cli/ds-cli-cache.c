/* ds-cli-cache.c: `diskscope-cli cache`, the cache probe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-cache.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-measures.h"
#include "ds-error.h"

typedef struct {
  char *max;
  char *block;
  char *set_time;
  char *queue_depth;
  char *engine;
  char *seed;
  char *align;
  char *destroy_data;
  gboolean write;
} Options;

static void
options_clear (Options *o)
{
  char **strings[] = { &o->max, &o->block, &o->set_time, &o->queue_depth, &o->engine, &o->seed,
                       &o->align, &o->destroy_data };

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
  const DsCliMeasure measures[] = {
    { "max", o->max, DS_CLI_SIZE, &spec->span_bytes },
    { "block-size", o->block, DS_CLI_SIZE, &spec->block_size_bytes },
    { "set-time", o->set_time, DS_CLI_TIME, &spec->duration_ns },
    { "queue-depth", o->queue_depth, DS_CLI_COUNT, .count = &spec->queue_depth },
    { "align", o->align, DS_CLI_ALIGN, &spec->random_align_bytes },
  };

  spec->write = o->write;
  spec->destroy_data = g_strdup (o->destroy_data);
  if (!ds_cli_parse_measures (measures, G_N_ELEMENTS (measures), error))
    return FALSE;
  if (o->max != NULL && spec->span_bytes < DS_CACHE_FIRST_SET_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--max must be at least 16M, the first working set"));
      return FALSE;
    }
  return ds_cli_finish_spec (spec, o->engine, o->seed, error);
}

int
ds_cli_cache (int    argc,
              char **argv)
{
  g_autoptr (GOptionContext) context =
    g_option_context_new (N_("TARGET — random reads over growing working sets: where a read cache ends"));
  g_auto (Options) o = { 0 };
  g_auto (DsCliJobArgs) job = { 0 };
  GOptionEntry entries[] = {
    { "max", 0, 0, G_OPTION_ARG_STRING, &o.max, N_("The largest working set (default: the whole device)"), N_("SIZE") },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o.block, N_("Transfer size of the random reads (default 4K)"), N_("SIZE") },
    { "set-time", 'd', 0, G_OPTION_ARG_STRING, &o.set_time, N_("Random reads per working set (default 5s)"), N_("TIME") },
    { "queue-depth", 'q', 0, G_OPTION_ARG_STRING, &o.queue_depth, N_("I/Os in flight (default 1)"), "N" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o.engine, N_("I/O engine: auto (default), sync, io_uring, threads"), N_("ENGINE") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &o.seed, N_("Seed for random offsets (repeatable runs)"), "N" },
    { "align", 0, 0, G_OPTION_ARG_STRING, &o.align, DS_CLI_ALIGN_HELP, N_("block|SIZE") },
    { "write", 'w', 0, G_OPTION_ARG_NONE, &o.write, N_("Probe a write-back cache: write each set, then read it (DESTROYS DATA; needs --destroy-data)"), NULL },
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &o.destroy_data, N_("With --write: confirm by naming TARGET again: it is overwritten"), N_("TARGET") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("Reads (only) working sets of 16 MiB, 32 MiB, 64 MiB … from the start of\n"
    "TARGET up to its size or --max: each set once sequentially (so a read\n"
    "cache that can hold it does), then at random for --set-time.  A set is\n"
    "fast while its IOPS stay at least half the first set's; the cache holds\n"
    "the largest fast set at least, refined by how many reads of the first\n"
    "slow set still hit (its latency between hot and cold).  The prefill of\n"
    "a large device takes as long as reading it: --max limits it.\n"
    "--write probes a write-back cache instead: each set is flushed (a FLUSH\n"
    "empties the cache), written once at random (the set's IOPS and latency\n"
    "are the writes') and then read at random for --set-time (what the media\n"
    "gives without the cache); the same rule on the writes finds the cache as\n"
    "the host sees it (it drains while it fills).  It overwrites TARGET: it\n"
    "runs only with --destroy-data=TARGET and is refused on a mounted or busy\n"
    "device, as every write test; each set is written in full, so --max\n"
    "limits the time (about twice --max is written)."));
  return ds_cli_run_one_target (context, &job, "cache", DS_BENCH_CACHE, build_spec, &o,
                                argc, argv);
}
