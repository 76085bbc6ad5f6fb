/* ds-cli-health.c: `diskscope-cli health`, SMART through smartctl
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-bench-health.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-save.h"
#include "ds-smartctl.h"

static gint stop_waiting;

static void
on_signal (int signo)
{
  g_atomic_int_set (&stop_waiting, 1);
  signal (signo, SIG_DFL);
}

/* Polls the drive until its self-test is no longer running; the last
 * reading is returned.  A Ctrl-C stops the waiting, not the test. */
static DsHealth *
wait_for_self_test (const char  *device,
                    uint64_t     poll_ns,
                    GError     **error)
{
  g_autoptr (DsHealth) h = NULL;
  gboolean tty = isatty (STDERR_FILENO);

  g_atomic_int_set (&stop_waiting, 0);
  signal (SIGINT, on_signal);
  for (;;)
    {
      g_clear_pointer (&h, ds_health_free);
      h = ds_smartctl_read_health (device, DS_SMARTCTL_TIMEOUT_NS, NULL, error);
      if (h == NULL || !h->self_test_running)
        break;
      if (h->self_test_remaining_percent != DS_HEALTH_UNKNOWN)
        fprintf (stderr, _("%sself-test running: %d %% left%s"),
                 tty ? "\r" : "", (int) h->self_test_remaining_percent, tty ? "   " : "\n");
      else
        fprintf (stderr, _("%sself-test running%s"), tty ? "\r" : "", tty ? "   " : "\n");
      fflush (stderr);
      for (uint64_t slept = 0; slept < poll_ns && !g_atomic_int_get (&stop_waiting);
           slept += 50 * DS_NS_PER_MSEC)
        g_usleep (50000);
      if (g_atomic_int_get (&stop_waiting))
        {
          fprintf (stderr, _("\nstopped waiting; the drive goes on with its self-test\n"));
          break;
        }
    }
  signal (SIGINT, SIG_DFL);
  if (tty)
    fprintf (stderr, "\r%*s\r", 40, "");

  return g_steal_pointer (&h);
}

int
ds_cli_health (int    argc,
               char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TARGET — SMART health through smartctl"));
  g_autoptr (GError) error = NULL;
  g_autofree char *from_json = NULL;
  g_autofree char *self_test = NULL;
  g_autofree char *poll = NULL;
  gboolean abort_test = FALSE, wait = FALSE;
  g_auto (DsCliJobArgs) job = { 0 };
  DsCliJobOptions options;
  uint64_t poll_ns = 10 * DS_NS_PER_SEC;
  DsBenchSpec spec;
  int status;
  GOptionEntry entries[] = {
    { "from-json", 0, 0, G_OPTION_ARG_FILENAME, &from_json, N_("Read a saved `smartctl --json --xall` output instead of a drive"), N_("FILE") },
    { "self-test", 0, 0, G_OPTION_ARG_STRING, &self_test, N_("Start the drive's short or long (extended) self-test"), N_("short|long") },
    { "wait", 0, 0, G_OPTION_ARG_NONE, &wait, N_("With --self-test: show its progress until it ends, then the health"), NULL },
    { "poll", 0, 0, G_OPTION_ARG_STRING, &poll, N_("With --wait: how often to ask the drive (default 10s)"), N_("TIME") },
    { "abort-self-test", 0, 0, G_OPTION_ARG_NONE, &abort_test, N_("Stop the drive's running self-test"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_job_args_add (&job, context);
  g_option_context_set_description (context,
    _("Runs `smartctl --json --xall TARGET` (smartmontools; reading SMART needs root)\n"
    "and says whether the drive is good, needs watching (warning) or is failing,\n"
    "with the reasons.  Exit status 0 whatever the verdict: read results.verdict."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (poll != NULL && (!ds_parse_duration (poll, &poll_ns, &error) || poll_ns == 0))
    return error ? ds_cli_fail (error) : ds_cli_complain (DS_CLI_USAGE, _("--poll must be longer than 0"));
  if (!ds_cli_job_args_finish (&job, &options, &error))
    return ds_cli_fail (error);

  if (from_json != NULL)
    {
      g_autoptr (DsResult) result = NULL;
      const char *inputs[] = { from_json, NULL };
      const DsSaveKeep keep = { .inputs = inputs };

      if (argc > 1 || self_test != NULL || abort_test)
        return ds_cli_complain (DS_CLI_USAGE, _("--from-json reads a file: it takes no device and no self-test"));
      /* --output never replaces the smartctl output it is read from. */
      if (options.output != NULL && !ds_save_check (options.output, &keep, &error))
        return ds_cli_complain (DS_CLI_FAILED, _("--output: %s; nothing was read"), error->message);
      options.inputs = inputs;
      result = ds_health_result_from_file (from_json, &error);
      if (result == NULL)
        return ds_cli_fail (error);
      return ds_cli_job_print (result, &options);
    }

  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("health needs exactly one device (or --from-json FILE)"));
  if (self_test != NULL && strcmp (self_test, "short") != 0 && strcmp (self_test, "long") != 0)
    return ds_cli_complain (DS_CLI_USAGE, _("--self-test is short or long, not “%s”"), self_test);
  if (self_test != NULL && abort_test)
    return ds_cli_complain (DS_CLI_USAGE, _("--self-test and --abort-self-test exclude each other"));
  if (wait && self_test == NULL)
    return ds_cli_complain (DS_CLI_USAGE, _("--wait goes with --self-test"));

  if (abort_test)
    {
      if (!ds_smartctl_abort_self_test (argv[1], &error))
        return ds_cli_fail (error);
      printf (_("Asked %s to stop its self-test.\n"), argv[1]);
      return DS_CLI_OK;
    }

  if (self_test != NULL)
    {
      gboolean is_long = strcmp (self_test, "long") == 0;

      if (!ds_smartctl_start_self_test (argv[1], is_long ? DS_SELF_TEST_LONG : DS_SELF_TEST_SHORT, &error))
        return ds_cli_fail (error);
      if (!wait)
        {
          printf (_("Started a %s self-test on %s: the drive runs it in the background.\n"
                  "`diskscope-cli health %s` shows its progress and, when it is done, "
                  "the self-test log.\n"), is_long ? "long" : "short", argv[1], argv[1]);
          return DS_CLI_OK;
        }
      {
        g_autoptr (DsHealth) last = wait_for_self_test (argv[1], poll_ns, &error);

        if (last == NULL)
          return ds_cli_fail (error);
      }
    }

  ds_bench_spec_init (&spec, DS_BENCH_HEALTH);
  spec.target_path = g_strdup (argv[1]);
  status = ds_cli_job_run (&spec, &options);
  ds_bench_spec_clear (&spec);

  return status;
}
