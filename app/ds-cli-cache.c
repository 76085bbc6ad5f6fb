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

int
ds_cli_cache (int    argc,
              char **argv)
{
  g_autoptr (GOptionContext) context =
    g_option_context_new ("TARGET — random reads over growing working sets: where a read cache ends");
  g_autoptr (GError) error = NULL;
  g_autofree char *max = NULL;
  g_autofree char *block = NULL;
  g_autofree char *set_time = NULL;
  g_autofree char *queue_depth = NULL;
  g_autofree char *engine = NULL;
  g_autofree char *seed = NULL;
  g_auto (DsCliJobArgs) job = { 0 };
  DsCliJobOptions options;
  DsBenchSpec spec;
  int status;
  GOptionEntry entries[] = {
    { "max", 0, 0, G_OPTION_ARG_STRING, &max, "The largest working set (default: the whole device)", "SIZE" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &block, "Transfer size of the random reads (default 4K)", "SIZE" },
    { "set-time", 'd', 0, G_OPTION_ARG_STRING, &set_time, "Random reads per working set (default 5s)", "TIME" },
    { "queue-depth", 'q', 0, G_OPTION_ARG_STRING, &queue_depth, "I/Os in flight (default 1)", "N" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &engine, "I/O engine: auto (default), sync, io_uring, threads", "ENGINE" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed, "Seed for random offsets (repeatable runs)", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    "Reads (only) working sets of 16 MiB, 32 MiB, 64 MiB … from the start of\n"
    "TARGET up to its size or --max: each set once sequentially (so a read\n"
    "cache that can hold it does), then at random for --set-time.  A set is\n"
    "fast while its IOPS stay at least half the first set's; the cache holds\n"
    "the largest fast set at least, refined by how many reads of the first\n"
    "slow set still hit (its latency between hot and cold).  The prefill of\n"
    "a large device takes as long as reading it: --max limits it.");
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, "cache needs exactly one device or file (see --help)");
  if (!ds_cli_job_args_finish (&job, &options, &error))
    return ds_cli_fail (error);

  ds_bench_spec_init (&spec, DS_BENCH_CACHE);
  spec.target_path = g_strdup (argv[1]);
  if (engine != NULL)
    {
      g_free (spec.engine);
      spec.engine = g_strdup (engine);
    }
  {
    const DsCliMeasure measures[] = {
      { "max", max, DS_CLI_SIZE, &spec.span_bytes },
      { "block-size", block, DS_CLI_SIZE, &spec.block_size_bytes },
      { "set-time", set_time, DS_CLI_TIME, &spec.duration_ns },
      { "queue-depth", queue_depth, DS_CLI_COUNT, .count = &spec.queue_depth },
    };

    if (ds_cli_parse_measures (measures, G_N_ELEMENTS (measures), &error) &&
        max != NULL && spec.span_bytes < DS_CACHE_FIRST_SET_BYTES)
      g_set_error (&error, DS_ERROR, DS_ERROR_INVALID,
                   "--max must be at least 16M, the first working set");
    if (error == NULL && seed != NULL)
      ds_parse_seed (seed, &spec.seed, &error);
    if (error != NULL)
      {
        ds_bench_spec_clear (&spec);
        return ds_cli_fail (error);
      }
  }

  status = ds_cli_job_run (&spec, &options);
  ds_bench_spec_clear (&spec);

  return status;
}
