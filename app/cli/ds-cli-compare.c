/* ds-cli-compare.c: `diskscope-cli compare`, results side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-save.h"
#include "ds-units.h"
#ifdef HAVE_RENDER
#include "ds-render.h"
#endif

typedef struct {
  gboolean  json;
  gboolean  csv;
  gboolean  markdown;
  char     *output;
  char     *units;
  char     *results_dir;
  char     *svg;
  char     *pdf;
  char     *png;
  gboolean  no_access;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->output);
  g_free (o->units);
  g_free (o->results_dir);
  g_free (o->svg);
  g_free (o->pdf);
  g_free (o->png);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* The files compare writes, by option. */
typedef struct {
  const char *option;
  const char *path;
} Output;

static guint
list_outputs (const Options *o,
              Output         outputs[4])
{
  const Output all[] = {
    { "--output", o->output }, { "--svg", o->svg }, { "--pdf", o->pdf }, { "--png", o->png },
  };
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (all[i].path != NULL)
      outputs[n++] = all[i];

  return n;
}

/* Before anything is written: every output can be saved, none is one of
 * the results compared, and no two overwrite each other.  Exit 1 and
 * nothing written otherwise. */
static gboolean
check_outputs (const Options    *o,
               const DsSaveKeep *keep,
               int              *ret_status)
{
  Output outputs[4];
  guint n = list_outputs (o, outputs);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;

      if (!ds_save_check (outputs[i].path, keep, &error))
        {
          *ret_status = ds_cli_complain (DS_CLI_FAILED, _("%s: %s; nothing was written"),
                                         outputs[i].option, error->message);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (ds_save_same_file (outputs[i].path, outputs[j].path))
          {
            *ret_status = ds_cli_complain (DS_CLI_FAILED, _("%s and %s both name %s: give each "
                                           "its own file; nothing was written"),
                                           outputs[j].option, outputs[i].option, outputs[i].path);
            return FALSE;
          }
    }

  return TRUE;
}

static int
write_graphs (const DsComparison *cmp,
              const Options      *o,
              const DsSaveKeep   *keep,
              DsUnits             units)
{
  const struct { const char *path; const char *name; } files[] = {
    { o->svg, "svg" }, { o->pdf, "pdf" }, { o->png, "png" },
  };
  int status = DS_CLI_OK;

#if defined(HAVE_RENDER) && defined(M_ARENA_MAX)
  /* Pango's font threads would each take a malloc arena of their own,
   * 64 MiB of address space apiece: under `ulimit -v` that is what made a
   * picture abort.  This command does no I/O that a shared arena slows. */
  if (o->svg != NULL || o->pdf != NULL || o->png != NULL)
    mallopt (M_ARENA_MAX, 1);
#endif

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (GError) error = NULL;

      if (files[i].path == NULL)
        continue;
#ifdef HAVE_RENDER
      {
        DsRenderOptions ropts = {
          .units = units,
          .show_access = !o->no_access,
        };
        DsRenderFormat format = i == 0 ? DS_RENDER_SVG : i == 1 ? DS_RENDER_PDF : DS_RENDER_PNG;

        /* Every failure is exit 1: the tables were written. */
        if (!ds_render_comparison_to_file (cmp, &ropts, format, files[i].path, keep, &error))
          status = ds_cli_complain (DS_CLI_FAILED, "--%s: %s", files[i].name, error->message);
      }
#else
      (void) keep;
      status = ds_cli_complain (DS_CLI_FAILED, _("--%s: this diskscope-cli was built without "
                                "cairo, so it draws no graphs (tables only)"), files[i].name);
#endif
    }

  return status;
}

int
ds_cli_compare (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_result_free);
  g_autoptr (GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (DsComparison) cmp = NULL;
  g_autoptr (DsLibrary) library = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Options) o = { 0 };
  g_autofree char *text = NULL;
  DsSaveKeep keep = { 0 };
  DsUnits units;
  int status;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("The comparison as JSON (values in bytes/s, s, IOPS)"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &o.csv, N_("The comparison as CSV (for a spreadsheet)"), NULL },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &o.markdown, N_("The comparison as Markdown tables"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Write the table to FILE instead of stdout"), N_("FILE") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o.units, N_("Rates in MB/s (10^6, default) or MiB/s"), N_("MB|MiB") },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &o.svg, N_("Draw the overlaid curves or bars to FILE (SVG)"), N_("FILE") },
    { "pdf", 0, 0, G_OPTION_ARG_FILENAME, &o.pdf, N_("… to FILE (PDF)"), N_("FILE") },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o.png, N_("… to FILE (PNG)"), N_("FILE") },
    { "no-access", 0, 0, G_OPTION_ARG_NONE, &o.no_access, N_("Graphs: leave out the access-time dots"), NULL },
    { "results-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.results_dir, N_("Where ids are looked up (default $DISKSCOPE_RESULTS_DIR or ~/.local/share/diskscope/results)"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (N_("A B [C…] — results of one test side by side, with ratios to A"));
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("A, B, ... are result files or ids from the results library (`diskscope-cli results list`;\n"
    "any unique part of an id will do).  Each figure gets a column per result and a ratio to\n"
    "the first (B/A); * marks the better value (higher rates and IOPS, lower times).\n"
    "Transfer curves of disks of different sizes are compared by percentage of capacity."));

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (!ds_units_from_string (o.units, &units, &error))
    return ds_cli_fail (error);
  if (o.json + o.csv + o.markdown > 1)
    return ds_cli_complain (DS_CLI_USAGE, _("choose one of --json, --csv and --markdown"));
  if (argc < 3)
    return ds_cli_complain (DS_CLI_USAGE, _("compare needs at least two results (files or library ids)"));

  for (int i = 1; i < argc; i++)
    {
      char *source = NULL;
      DsResult *result = ds_cli_load_result (argv[i], o.results_dir, &library, &source, &error);

      if (result == NULL)
        return ds_cli_fail (error);
      g_ptr_array_add (results, result);
      g_ptr_array_add (sources, source);
      g_ptr_array_add (inputs, ds_cli_result_file (argv[i], library));
    }
  g_ptr_array_add (inputs, NULL);
  keep.inputs = (const char *const *) inputs->pdata;
  if (!check_outputs (&o, &keep, &status))
    return status;

  cmp = ds_comparison_new ((DsResult *const *) results->pdata, (const char *const *) sources->pdata,
                           results->len, &error);
  if (cmp == NULL)
    return ds_cli_fail (error);

  if (o.json)
    text = ds_comparison_to_json_data (cmp);
  else if (o.csv)
    text = ds_comparison_to_csv (cmp, units);
  else if (o.markdown)
    text = ds_comparison_to_markdown (cmp, units);
  else
    text = ds_comparison_to_text (cmp, units);

  /* The table to stdout ("-") or a file, then the pictures: each failure
   * is said, and the others are still written. */
  status = DS_CLI_OK;
  if (!ds_save_file (o.output != NULL ? o.output : "-", text, strlen (text), &keep, &error))
    status = ds_cli_complain (DS_CLI_FAILED, "%s", error->message);

  if (status == DS_CLI_OK)
    status = write_graphs (cmp, &o, &keep, units);
  else
    write_graphs (cmp, &o, &keep, units);

  return status;
}
