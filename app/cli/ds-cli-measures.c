/* ds-cli-measures.c: options typed as sizes, times and counts (see
 * ds-cli-measures.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-cli-common.h"
#include "ds-cli-measures.h"
#include "ds-error.h"
#include "ds-units.h"

static gboolean
parse_count (const char  *text,
             unsigned    *ret,
             GError     **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT, &v, NULL))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("a whole number, not “%s”"), text);
      return FALSE;
    }
  *ret = (unsigned) v;
  return TRUE;
}

gboolean
ds_cli_parse_measures (const DsCliMeasure *measures,
                       unsigned            n_measures,
                       GError            **error)
{
  for (unsigned i = 0; i < n_measures; i++)
    {
      const DsCliMeasure *m = &measures[i];
      g_autoptr (GError) local = NULL;
      gboolean ok;

      if (m->text == NULL)
        continue;
      switch (m->kind)
        {
        case DS_CLI_SIZE:
          ok = ds_parse_size (m->text, m->field, &local);
          break;
        case DS_CLI_TIME:
          ok = ds_parse_duration (m->text, m->field, &local);
          break;
        case DS_CLI_ALIGN:
          ok = ds_parse_random_align (m->text, m->field, &local);
          break;
        case DS_CLI_COUNT:
        default:
          ok = parse_count (m->text, m->count, &local);
          break;
        }
      if (!ok)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, "--%s: %s", m->option, local->message);
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
ds_cli_finish_spec (DsBenchSpec  *spec,
                    const char   *engine,
                    const char   *seed,
                    GError      **error)
{
  if (engine != NULL)
    {
      g_free (spec->engine);
      spec->engine = g_strdup (engine);
    }
  if (seed != NULL && !ds_parse_seed (seed, &spec->seed, error))
    return FALSE;

  /* ds_cli_job_run() validates the spec, once. */
  return TRUE;
}

int
ds_cli_run_one_target (GOptionContext *context,
                       DsCliJobArgs   *job,
                       const char     *name,
                       DsBenchKind     kind,
                       DsCliBuildFunc  build,
                       gpointer        data,
                       int             argc,
                       char          **argv)
{
  g_autoptr (GError) error = NULL;
  DsCliJobOptions options;
  DsBenchSpec spec;
  int status;

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("%s needs exactly one device or file (see --help)"), name);
  if (!ds_cli_job_args_finish (job, &options, &error))
    return ds_cli_fail (error);

  ds_bench_spec_init (&spec, kind);
  spec.target_path = g_strdup (argv[1]);
  if (!build (data, &spec, &error))
    {
      ds_bench_spec_clear (&spec);
      return ds_cli_fail (error);
    }

  status = ds_cli_job_run (&spec, &options);
  ds_bench_spec_clear (&spec);

  return status;
}
