/* ds-cli.c: diskscope-cli's command table and dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ds-cli.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *synopsis;    /* what follows the name in the usage line */
} Command;

/* Every command, in the order the usage lists them. */
static const Command commands[] = {
  { "list",          ds_cli_list,   "[--json]" },
  { "info",          ds_cli_info,   "TARGET [--json]" },
  { "benchmark",     ds_cli_run,    "TARGET [--write --destroy-data=TARGET] [OPTIONS]" },
  { "extra",         ds_cli_run,    "TARGET [--write --destroy-data=TARGET] [OPTIONS]" },
  { "random-access", ds_cli_run,    "TARGET [--write --destroy-data=TARGET] [OPTIONS]" },
  { "block-size",    ds_cli_run,    "TARGET [--write --destroy-data=TARGET] [OPTIONS]" },
  { "file",          ds_cli_run,    "[DIR] [OPTIONS]" },
  { "workload",      ds_cli_run,    "TARGET --pattern P [--destroy-data=TARGET] [OPTIONS]" },
  { "report",        ds_cli_report, "RESULT.json..." },
  { "health",        ds_cli_health, "TARGET [--json] [--self-test short|long [--wait]] | --from-json FILE" },
  { "scan",          ds_cli_scan,   "TARGET [--quick] [--range A-B] [--json]" },
  { "erase",         ds_cli_erase,  "TARGET --destroy-data=TARGET [--zeros|--random|--discard|--secure] [--verify]" },
  { "monitor",       ds_cli_monitor, "[DEVICE] [--interval 1s] [--count N] [--json-lines]" },
  { "compare",       ds_cli_compare, "A B [C...] [--json|--csv|--markdown] [--svg|--pdf|--png FILE]" },
  { "export-fio",    ds_cli_export_fio, "RESULT [-o JOB.fio] [--filename PATH]" },
  { "import-fio",    ds_cli_import_fio, "FIO.json... [--results-dir DIR] [--no-library] [--json]" },
  { "results",       ds_cli_results, "[list|show|label|tag|rm|import|dir] [ID...] [--results-dir DIR]" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage:\n");
  for (unsigned i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  diskscope-cli %s %s\n", commands[i].name, commands[i].synopsis);
  fprintf (out,
           "\n"
           "Measures block devices and files with O_DIRECT I/O: HD Tune's tests\n"
           "and fio-style workloads.  `diskscope-cli COMMAND --help` lists a\n"
           "command's options.\n"
           "\n"
           "Exit status: 0 done, 1 the run failed, 2 bad usage, 3 refused for\n"
           "safety, 130 interrupted (the partial result is still printed).\n");
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

  for (unsigned i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (command, commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, "diskscope-cli: unknown command “%s”\n\n", command);
  print_usage (stderr);
  return DS_CLI_USAGE;
}
