/* ds-cli-report.c: `diskscope-cli report`, the text report of saved results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ds-cli.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-units.h"

int
ds_cli_report (int    argc,
               char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("RESULT.json… — print the text report of saved results"));
  g_autoptr (GError) error = NULL;
  g_autofree char *units_text = NULL;
  DsUnits units;
  int status;
  guint printed = 0;
  guint failed = 0;
  GOptionEntry entries[] = {
    { "units", 0, 0, G_OPTION_ARG_STRING, &units_text,
      N_("Rates in MB/s (10^6 bytes, the default, as CrystalDiskMark and fio) "
      "or MiB/s (2^20 bytes: HD Tune's \"MB/s\")"), N_("MB|MiB") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("Prints each file's report in the order given; a file that cannot be\n"
    "read is named on stderr, the others are still printed, and the exit\n"
    "status is then 1.\n"
    "Rates are MB/s = 10^6 bytes per second unless --units MiB. HD Tune's\n"
    "\"MB\" is 2^20 bytes: use --units MiB to compare with an HD Tune report."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (!ds_units_from_string (units_text, &units, &error))
    return ds_cli_fail (error);
  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("report needs at least one result file"));

  /* One at a time, in the user's order: a session written in HD Tune's
   * order stays so, and a bad file costs only its own report. */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) load_error = NULL;
      g_autoptr (DsResult) result = ds_result_load (argv[i], &load_error);
      g_autofree char *text = NULL;

      if (result == NULL)
        {
          /* The message starts with the file's name (escaped). */
          ds_cli_fail (load_error);
          failed++;
          continue;
        }

      text = ds_report_text (result, units);
      if (printed > 0)
        fputs (ds_report_separator (), stdout);
      fputs (text, stdout);
      printed++;
    }

  if (fflush (stdout) != 0 || ferror (stdout))
    return ds_cli_complain (DS_CLI_FAILED, _("could not write the report: %s"), g_strerror (errno));

  if (failed > 0)
    {
      if (argc > 2)
        ds_cli_complain (DS_CLI_FAILED, _("%u of %d result files could not be read"), failed, argc - 1);
      return DS_CLI_FAILED;
    }

  return DS_CLI_OK;
}
