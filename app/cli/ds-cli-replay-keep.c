/* ds-cli-replay-keep.c: a replay's result kept, as every run's is: a
 * result of kind "replay" saved to --output and in the results library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-replay.h"
#include "ds-cli.h"
#include "ds-cli-job.h"
#include "ds-cli-library.h"
#include "ds-cli-replay-keep.h"
#include "ds-result-json.h"
#include "ds-save.h"

void
ds_cli_replay_keep_add (DsCliReplayKeep *keep,
                        GOptionContext  *context)
{
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &keep->output, N_("Also save the JSON result to FILE"), N_("FILE") },
    { "no-library", 0, 0, G_OPTION_ARG_NONE, &keep->no_library, N_("Do not save the result in the results library"), NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_context_get_main_group (context);

  if (group != NULL)
    g_option_group_add_entries (group, entries);
  else
    g_option_context_add_main_entries (context, entries, NULL);
}

void
ds_cli_replay_keep_clear (DsCliReplayKeep *keep)
{
  g_clear_pointer (&keep->output, g_free);
}

gboolean
ds_cli_replay_keep_check (const DsCliReplayKeep   *keep,
                          const DsTraceReplaySpec *spec,
                          int                     *ret_status)
{
  g_autoptr (GError) error = NULL;

  if (keep->output == NULL)
    return TRUE;
  if (g_strcmp0 (keep->output, "-") == 0)
    {
      *ret_status = ds_cli_complain (DS_CLI_USAGE, _("--output: replay prints its own figures on "
                                     "stdout (--json for them as JSON): name a file"));
      return FALSE;
    }
  if (g_strcmp0 (keep->output, spec->trace) == 0)
    {
      *ret_status = ds_cli_complain (DS_CLI_FAILED, _("--output: %s is the trace; nothing was run"),
                                     keep->output);
      return FALSE;
    }
  return ds_cli_check_output (keep->output, spec->target, ret_status);
}

int
ds_cli_replay_keep (const DsCliReplayKeep     *keep,
                    const DsTraceReplaySpec   *spec,
                    const DsTraceReplayResult *replay,
                    int                        status)
{
  g_auto (DsBenchSpec) bench = { 0 };
  g_autoptr (DsResult) result = NULL;
  g_autoptr (GError) error = NULL;
  const char *const inputs[] = { spec->trace, NULL };
  DsReplayOptions *o;

  ds_bench_spec_init (&bench, DS_BENCH_REPLAY);
  bench.target_path = g_strdup (spec->target);
  bench.destroy_data = g_strdup (spec->confirm);
  o = ds_replay_options (&bench);
  o->trace_path = g_strdup (spec->trace);
  o->speed = spec->speed;
  o->reads_only = spec->reads_only;
  o->loop = spec->loop;
  o->depth = spec->depth;
  result = ds_replay_result_new (&bench, replay);

  if (keep->output != NULL && !ds_result_save_from (result, keep->output, inputs, &error))
    {
      ds_cli_fail (error);
      if (status == DS_CLI_OK || status == DS_CLI_INTERRUPTED)
        status = DS_CLI_FAILED;
    }
  ds_cli_library_save_run (result, keep->no_library);
  return status;
}
