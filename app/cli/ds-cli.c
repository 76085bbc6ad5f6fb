/* ds-cli.c: diskscope-cli's command table and dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
  { "workload",      ds_cli_workload, "TARGET --pattern P [--destroy-data=TARGET] [OPTIONS]" },
  { "workload",      ds_cli_workload, "TARGET|DIR --preset NAME [--destroy-data=TARGET] [OPTIONS]" },
  { "workload",      ds_cli_workload, "--list-presets [--json]" },
  { "mark",          ds_cli_mark,   "TARGET|DIR [--preset cdm-default] [--units MB|GB|IOPS|us] [OPTIONS]" },
  { "report",        ds_cli_report, "RESULT.json..." },
  { "health",        ds_cli_health, "TARGET [--json] [--self-test short|long [--wait]] | --from-json FILE" },
  { "scan",          ds_cli_scan,   "TARGET [--quick] [--range A-B] [--json]" },
  { "erase",         ds_cli_erase,  "TARGET --destroy-data=TARGET [--zeros|--random|--discard|--secure] [--verify|--no-verify]" },
  { "monitor",       ds_cli_monitor, "[DEVICE] [--interval 1s] [--count N] [--json-lines]" },
  { "compare",       ds_cli_compare, "A B [C...] [--json|--csv|--markdown] [--svg|--pdf|--png FILE]" },
  { "export-fio",    ds_cli_export_fio, "RESULT [-o JOB.fio] [--filename PATH]" },
  { "import-fio",    ds_cli_import_fio, "FIO.json... [--results-dir DIR] [--no-library] [--json]" },
  { "results",       ds_cli_results, "[list|show|label|tag|rm|import|dir] [ID...] [--results-dir DIR]" },
  { "sweep",         ds_cli_sweep,  "TARGET --pattern P [--block-size B] [--over qd|threads] [--from 1 --to 256] [--step-time 10s] [--steady]" },
  { "sustain",       ds_cli_sustain, "TARGET --destroy-data=TARGET [--size 100%|SIZE] [--duration T] [--block-size 1M] [--queue-depth 32] [--random] [--pause T]" },
  { "cache",         ds_cli_cache,  "TARGET [--max SIZE] [--block-size 4K] [--set-time 5s]" },
  { "capture",       ds_cli_capture, "DEVICE -o FILE [--duration 10m] [--accept-lost] [--buffer KIB]" },
  { "profile",       ds_cli_profile, "FILE... [--json] [--interval 1s] [--process NAME] [--fio-units us|ns]" },
  { "import-trace",  ds_cli_import_trace, "FILE... -o FILE [--fio-units us|ns]" },
  { "replay",        ds_cli_replay, "TRACE TARGET --destroy-data=TARGET|--reads-only [--loop open|closed [--depth N]] [--speed X|X,Y,...|search [--p99 T] [--step-time T]] [--json] [-o FILE] [--no-library]" },
  { "synthesize",    ds_cli_synthesize, "TRACE [--fio-job FILE [--target PATH]] [--rows] [--json] [--phases N] [--interval 1s] [--process NAME]" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage:\n"));
  for (unsigned i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  diskscope-cli %s %s\n", commands[i].name, commands[i].synopsis);
  fprintf (out,
           _("\n"
           "Measures block devices and files with O_DIRECT I/O: HD Tune's tests\n"
           "and fio-style workloads.  `diskscope-cli COMMAND --help` lists a\n"
           "command's options and what its write tests do.\n"
           "\n"
           "Exit status (every command):\n"
           "  0    done\n"
           "  1    failed: the target (or a result file) does not exist or cannot\n"
           "       be opened, an I/O error, a refused thread, or the result could\n"
           "       not be saved (--output) or printed (stdout)\n"
           "  2    bad usage: an unknown command or option, a value out of range,\n"
           "       a target that is not a block device or regular file (info: not\n"
           "       a block device), or numbers that do not fit the target\n"
           "  3    refused for safety: a write test the gate does not allow\n"
           "  130  stopped by SIGINT, SIGTERM or SIGHUP: the partial result is\n"
           "       still printed and saved\n"));
}

/* A closed stdin, stdout or stderr would hand its number to the next file
 * opened: the target, or a result's temporary file, would then receive
 * what is printed.  Each is held by /dev/null, opened so that writes to a
 * closed stdout still fail (EBADF) and are reported. */
static void
hold_standard_fds (void)
{
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        int null = open ("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);

        if (null >= 0 && null != fd)
          {
            dup2 (null, fd);
            close (null);
          }
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
  hold_standard_fds ();
  /* A reader that went away (`| head`) is a write error to report, not a
   * silent death. */
  signal (SIGPIPE, SIG_IGN);

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
      {
        /* A command's --help then reads "diskscope-cli benchmark [OPTION…]
         * TARGET", a line that can be typed as it is. */
        g_autofree char *prgname = g_strdup_printf ("diskscope-cli %s", command);

        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }

  fprintf (stderr, _("diskscope-cli: unknown command “%s”\n\n"), command);
  print_usage (stderr);
  return DS_CLI_USAGE;
}
