/* ds-cli-report.c: `diskscope-cli report`, the text report of saved results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "ds-cli.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-units.h"

int
ds_cli_report (int    argc,
               char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("RESULT.json… — print the text report of saved results");
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *units_text = NULL;
  g_autofree char *text = NULL;
  gboolean session_order = FALSE;
  DsUnits units;
  int status;
  GOptionEntry entries[] = {
    { "units", 0, 0, G_OPTION_ARG_STRING, &units_text, "Rates in MB/s (default) or MiB/s", "MB|MiB" },
    { "session-order", 0, 0, G_OPTION_ARG_NONE, &session_order,
      "HD Tune's session order (read tests, write tests, File Benchmark, workloads) instead of the order given", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (!ds_units_from_string (units_text, &units, &error))
    return ds_cli_fail (error);
  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, "report needs at least one result file");

  for (int i = 1; i < argc; i++)
    {
      DsResult *result = ds_result_load (argv[i], &error);

      if (result == NULL)
        return ds_cli_fail (error);
      g_ptr_array_add (results, result);
    }

  if (session_order)
    {
      text = ds_report_session_text ((DsResult *const *) results->pdata, results->len, units);
      fputs (text, stdout);
      return DS_CLI_OK;
    }

  /* The files in the order they were named. */
  for (guint i = 0; i < results->len; i++)
    {
      g_autofree char *one = ds_report_text (results->pdata[i], units);

      if (i > 0)
        fputs ("\n\n", stdout);
      fputs (one, stdout);
    }

  return DS_CLI_OK;
}
