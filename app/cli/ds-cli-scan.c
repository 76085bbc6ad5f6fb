/* ds-cli-scan.c: `diskscope-cli scan`, HD Tune's Error Scan
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ds-bench-error-scan.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-error.h"

int
ds_cli_scan (int    argc,
             char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TARGET — HD Tune's Error Scan"));
  g_autoptr (GError) error = NULL;
  g_autofree char *range = NULL;
  g_autofree char *block = NULL;
  gboolean quick = FALSE;
  g_auto (DsCliJobArgs) job = { 0 };
  DsCliJobOptions options;
  DsBenchSpec spec;
  int status;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, N_("Read one block per map cell instead of every block: one block in 16 at least (16384 samples spread over a range above 32 GiB)"), NULL },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range, N_("Scan only START-END (e.g. 0-10G; START- to the end)"), "A-B" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &block, N_("Block read and timed at once (default 128K, as MHDD)"), N_("SIZE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("Reads the device block by block (O_DIRECT, read only) and times each block:\n"
    "< 5, < 20, < 50, < 150, < 500 ms, >= 500 ms, or error.  A block that fails\n"
    "is read again sector by sector, so the bad ranges are exact; the scan goes\n"
    "on past them.  Ctrl-C stops it and prints what was read."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("scan needs exactly one device or file (see --help)"));
  if (!ds_cli_job_args_finish (&job, &options, &error))
    return ds_cli_fail (error);

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  spec.target_path = g_strdup (argv[1]);
  ds_error_scan_options (&spec)->quick = quick;
  if ((range != NULL && !ds_parse_range (range, &spec.offset_bytes, &spec.span_bytes, &error)) ||
      (block != NULL && !ds_parse_size (block, &spec.block_size_bytes, &error)))
    {
      ds_bench_spec_clear (&spec);
      return ds_cli_fail (error);
    }

  status = ds_cli_job_run (&spec, &options);
  ds_bench_spec_clear (&spec);

  return status;
}
