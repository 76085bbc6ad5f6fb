/* ds-cli.c: diskscope-cli's command dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ds-bench.h"
#include "ds-cli.h"
#include "ds-error.h"

static void
print_usage (FILE *out)
{
  fprintf (out,
           "Usage:\n"
           "  diskscope-cli list [--json]\n"
           "  diskscope-cli info TARGET [--json]\n"
           "  diskscope-cli benchmark TARGET [--write --destroy-data=TARGET] [OPTIONS]\n"
           "  diskscope-cli workload TARGET --pattern P [OPTIONS]\n"
           "  diskscope-cli extra TARGET [OPTIONS]\n"
           "  diskscope-cli random-access TARGET [OPTIONS]\n"
           "  diskscope-cli block-size TARGET [OPTIONS]\n"
           "  diskscope-cli file [DIR] [OPTIONS]\n"
           "  diskscope-cli report RESULT.json...\n"
           "\n"
           "Measures block devices and files with O_DIRECT I/O: HD Tune's tests\n"
           "and fio-style workloads.  `diskscope-cli COMMAND --help` lists a\n"
           "command's options.\n"
           "\n"
           "Exit status: 0 done, 1 the run failed, 2 bad usage, 3 refused for\n"
           "safety, 130 interrupted (the partial result is still printed).\n");
}

int
ds_cli_status_for_error (const GError *error)
{
  if (error == NULL)
    return DS_CLI_OK;
  if (error->domain == G_OPTION_ERROR)
    return DS_CLI_USAGE;
  if (error->domain != DS_ERROR)
    return DS_CLI_FAILED;

  switch (error->code)
    {
    case DS_ERROR_INVALID:
      return DS_CLI_USAGE;
    case DS_ERROR_REFUSED:
    case DS_ERROR_BUSY:     /* only a write open is exclusive */
      return DS_CLI_REFUSED;
    case DS_ERROR_CANCELLED:
      return DS_CLI_INTERRUPTED;
    default:
      return DS_CLI_FAILED;
    }
}

int
ds_cli_main (int    argc,
             char **argv)
{
  const char *command;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("diskscope-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return DS_CLI_USAGE;
    }

  command = argv[1];
  if (strcmp (command, "--help") == 0 || strcmp (command, "-h") == 0 ||
      strcmp (command, "help") == 0)
    {
      print_usage (stdout);
      return DS_CLI_OK;
    }
  if (strcmp (command, "--version") == 0)
    {
      printf ("diskscope-cli %s\n", PACKAGE_VERSION);
      return DS_CLI_OK;
    }
  if (strcmp (command, "list") == 0)
    return ds_cli_list (argc - 1, argv + 1);
  if (strcmp (command, "info") == 0)
    return ds_cli_info (argc - 1, argv + 1);
  if (strcmp (command, "report") == 0 || ds_bench_lookup (command) != NULL)
    return ds_cli_run (argc - 1, argv + 1);

  fprintf (stderr, "diskscope-cli: unknown command “%s”\n\n", command);
  print_usage (stderr);
  return DS_CLI_USAGE;
}
