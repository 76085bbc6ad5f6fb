/* ds-cli-results.c: `diskscope-cli results`, the results library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   results [list] [--json] [--kind K] [--tag T] [--search TEXT]
 *   results show ID [--json] [--units MiB]
 *   results label ID [LABEL] [--notes TEXT]
 *   results tag ID [TAG...] [--remove TAG]...
 *   results rm ID...
 *   results import FILE...
 *   results history [DEVICE] [--json]
 *   results dir
 * each with --results-dir DIR.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-annotation.h"
#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-units.h"

typedef struct {
  char     *results_dir;
  gboolean  json;
  char     *kind;
  char     *tag;
  char     *search;
  char     *units;
  char     *notes;
  char    **remove;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->results_dir);
  g_free (o->kind);
  g_free (o->tag);
  g_free (o->search);
  g_free (o->units);
  g_free (o->notes);
  g_strfreev (o->remove);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

#define RESULTS_DIR_ENTRY(o) \
  { "results-dir", 0, 0, G_OPTION_ARG_FILENAME, &(o)->results_dir, \
    N_("The library folder (default $DISKSCOPE_RESULTS_DIR or ~/.local/share/diskscope/results)"), N_("DIR") }

void
ds_cli_print_cell (const char *text,
                   glong       width)
{
  g_autofree char *clean = ds_printable_text (text);
  glong len = g_utf8_strlen (clean, -1);

  fputs (clean, stdout);
  for (; len < width; len++)
    fputc (' ', stdout);
}

static int
results_show (DsLibrary  *library,
              Options    *o,
              int         argc,
              char      **argv)
{
  g_autoptr (DsLibraryEntry) entry = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autoptr (GError) error = NULL;
  DsUnits units;

  if (argc != 2)
    return ds_cli_complain (DS_CLI_USAGE, _("results show needs one result id"));
  if (!ds_units_from_string (o->units, &units, &error))
    return ds_cli_fail (error);

  entry = ds_library_lookup (library, argv[1], &error);
  if (entry == NULL)
    return ds_cli_fail (error);
  if (!ds_library_entry_is_readable (entry))
    return ds_cli_complain (DS_CLI_FAILED, "%s", ds_library_entry_get_error_message (entry));
  result = ds_library_entry_load (entry, &error);
  if (result == NULL)
    return ds_cli_fail (error);

  if (o->json)
    {
      g_autofree char *data = ds_result_to_data (result, NULL);
      fputs (data, stdout);
    }
  else
    {
      g_autofree char *text = ds_report_text (result, units);
      const char *const *tags = ds_library_entry_get_tags (entry);

      printf (_("Result:  %s\nFile:    %s\nLabel:   "), ds_library_entry_get_id (entry),
              ds_library_entry_get_path (entry));
      ds_cli_print_cell (ds_library_entry_get_label (entry), 0);
      printf ("\n");
      if (tags[0] != NULL)
        {
          g_autofree char *joined = g_strjoinv (", ", (char **) tags);
          printf (_("Tags:    "));
          ds_cli_print_cell (joined, 0);
          printf ("\n");
        }
      if (ds_library_entry_get_notes (entry) != NULL)
        {
          g_autofree char *notes = g_strdup (ds_library_entry_get_notes (entry));
          g_auto (GStrv) lines = g_strsplit (notes, "\n", -1);

          for (guint i = 0; lines[i] != NULL; i++)
            {
              printf (i == 0 ? _("Notes:   ") : "         ");
              ds_cli_print_cell (lines[i], 0);
              printf ("\n");
            }
        }
      printf ("\n%s", text);
    }

  return DS_CLI_OK;
}

/* Applies @edit to @entry's result, under its lock (two edits at
 * once both count; a result deleted meanwhile stays deleted). */
static DsLibraryEntry *
edit_result (DsLibrary            *library,
             DsLibraryEntry       *entry,
             const DsLibraryEdit  *edit,
             GError              **error)
{
  DsLibraryEntry *updated = NULL;
  const char *id = ds_library_entry_get_id (entry);

  if (!ds_library_annotate (library, id, edit, &updated, error))
    {
      if (!g_error_matches (*error, DS_ERROR, DS_ERROR_NOT_FOUND))
        g_prefix_error (error, "%s: ", id);
      return NULL;
    }
  return g_object_ref (updated);
}

static int
results_label (DsLibrary  *library,
               Options    *o,
               int         argc,
               char      **argv)
{
  g_auto (DsLibraryEdit) edit = { 0 };
  g_autoptr (DsLibraryEntry) entry = NULL;
  g_autoptr (DsLibraryEntry) updated = NULL;
  g_autoptr (GError) error = NULL;

  if (argc < 2 || argc > 3)
    return ds_cli_complain (DS_CLI_USAGE, _("results label needs a result id and a label (\"\" for the default)"));

  entry = ds_library_lookup (library, argv[1], &error);
  if (entry == NULL)
    return ds_cli_fail (error);
  if (!ds_library_entry_is_readable (entry))
    return ds_cli_complain (DS_CLI_FAILED, "%s", ds_library_entry_get_error_message (entry));

  if (argc == 2 && o->notes == NULL)
    {
      ds_cli_print_cell (ds_library_entry_get_label (entry), 0);
      printf ("\n");
      return DS_CLI_OK;
    }
  edit.set_label = argc == 3;
  edit.label = g_strdup (argc == 3 ? argv[2] : NULL);
  edit.set_notes = o->notes != NULL;
  edit.notes = g_strdup (o->notes);

  updated = edit_result (library, entry, &edit, &error);
  if (updated == NULL)
    return ds_cli_fail (error);

  printf ("%s: ", ds_library_entry_get_id (updated));
  ds_cli_print_cell (ds_library_entry_get_label (updated), 0);
  printf ("\n");
  return DS_CLI_OK;
}

static int
results_tag (DsLibrary  *library,
             Options    *o,
             int         argc,
             char      **argv)
{
  g_auto (DsLibraryEdit) edit = { 0 };
  g_autoptr (DsLibraryEntry) entry = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *joined = NULL;

  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("results tag needs a result id, then tags to add (--remove TAG to remove)"));

  entry = ds_library_lookup (library, argv[1], &error);
  if (entry == NULL)
    return ds_cli_fail (error);
  if (!ds_library_entry_is_readable (entry))
    return ds_cli_complain (DS_CLI_FAILED, "%s", ds_library_entry_get_error_message (entry));

  if (argc > 2 || o->remove != NULL)
    {
      g_autoptr (DsLibraryEntry) updated = NULL;
      g_autoptr (GStrvBuilder) add = g_strv_builder_new ();

      for (int i = 2; i < argc; i++)
        g_strv_builder_add (add, argv[i]);
      edit.add_tags = g_strv_builder_end (add);
      edit.remove_tags = g_strdupv (o->remove);
      edit.require_tags = TRUE;
      updated = edit_result (library, entry, &edit, &error);
      if (updated == NULL)
        return ds_cli_fail (error);
      g_set_object (&entry, updated);
    }

  joined = g_strjoinv (", ", (char **) ds_library_entry_get_tags (entry));
  printf ("%s: ", ds_library_entry_get_id (entry));
  ds_cli_print_cell (*joined ? joined : "(no tags)", 0);
  printf ("\n");
  return DS_CLI_OK;
}

static int
results_rm (DsLibrary  *library,
            int         argc,
            char      **argv)
{
  int status = DS_CLI_OK;

  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("results rm needs the ids of the results to delete"));

  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsLibraryEntry) entry = ds_library_lookup (library, argv[i], &error);

      if (entry == NULL || !ds_library_remove (library, ds_library_entry_get_id (entry), &error))
        {
          status = ds_cli_fail (error);
          continue;
        }
      printf (_("deleted %s\n"), ds_library_entry_get_id (entry));
    }

  return status;
}

static int
results_import (DsLibrary  *library,
                int         argc,
                char      **argv)
{
  int status = DS_CLI_OK;

  if (argc < 2)
    return ds_cli_complain (DS_CLI_USAGE, _("results import needs result files to copy into the library"));

  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) result = ds_result_load (argv[i], &error);
      DsLibraryEntry *entry = result ? ds_library_find_run (library, result) : NULL;

      /* A copy of a result already there: one is kept, and said so. */
      if (entry != NULL)
        {
          g_autofree char *file = ds_printable_text (argv[i]);

          printf (_("%s  already in the library (%s): not imported again\n"),
                  ds_library_entry_get_id (entry), file);
          continue;
        }
      entry = result ? ds_library_save (library, result, NULL, &error) : NULL;
      if (entry == NULL)
        {
          status = ds_cli_fail (error);
          continue;
        }
      printf ("%s  ", ds_library_entry_get_id (entry));
      ds_cli_print_cell (ds_library_entry_get_label (entry), 0);
      printf ("\n");
    }

  return status;
}

int
ds_cli_results (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (DsLibrary) library = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Options) o = { 0 };
  const char *sub = "list";
  int status;
  GOptionEntry entries[] = {
    RESULTS_DIR_ENTRY (&o),
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("list, show, history: JSON on stdout"), NULL },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &o.kind, N_("list: only results of this test (benchmark, workload, ...)"), N_("TEST") },
    { "tag", 0, 0, G_OPTION_ARG_STRING, &o.tag, N_("list: only results with this tag"), N_("TAG") },
    { "search", 0, 0, G_OPTION_ARG_STRING, &o.search, N_("list: only results with TEXT in the id, label, notes, tags, device or host"), N_("TEXT") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o.units, N_("show, history: rates in MB/s (default) or MiB/s"), N_("MB|MiB") },
    { "notes", 0, 0, G_OPTION_ARG_STRING, &o.notes, N_("label: set the notes too (\"\" clears them)"), N_("TEXT") },
    { "remove", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.remove, N_("tag: remove TAG (repeat for more)"), N_("TAG") },
    { NULL }
  };

  context = g_option_context_new (N_("[list|show|label|tag|rm|import|history|dir] [ID…] — the results library"));
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("  list                      every saved result, newest first\n"
    "  show ID                   its report (--json: the result file)\n"
    "  label ID [LABEL]          print or set its label (\"\" for the default: model and date)\n"
    "  label ID --notes TEXT     set its notes\n"
    "  tag ID [TAG…]             add tags (--remove TAG removes one)\n"
    "  rm ID…                    delete results\n"
    "  import FILE…              copy result files into the library\n"
    "  history [DEVICE]          the devices; with one (a /dev path, WWN, serial, model or\n"
    "                            result id), each test's headline figure over time\n"
    "  dir                       print the library folder\n"
    "\n"
    "An ID is a result's id from `results list`, or any part of one that names one result.\n"
    "Every run saves its result here unless --no-library is given; point all commands at a\n"
    "shared folder with --results-dir or $DISKSCOPE_RESULTS_DIR."));

  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;

  if (argc >= 2)
    {
      sub = argv[1];
      argc--;
      argv++;
    }

  if (strcmp (sub, "dir") == 0)
    {
      g_autofree char *dir = ds_cli_results_dir (o.results_dir);
      printf ("%s\n", dir);
      return DS_CLI_OK;
    }

  library = ds_cli_library_open (o.results_dir, &error);
  if (library == NULL)
    return ds_cli_fail (error);

  if (strcmp (sub, "list") == 0)
    {
      if (argc > 1)
        return ds_cli_complain (DS_CLI_USAGE, _("results list takes no ids (--search TEXT filters)"));
      return ds_cli_results_list (library, o.kind, o.tag, o.search, o.json);
    }
  if (strcmp (sub, "show") == 0)
    return results_show (library, &o, argc, argv);
  if (strcmp (sub, "label") == 0)
    return results_label (library, &o, argc, argv);
  if (strcmp (sub, "tag") == 0)
    return results_tag (library, &o, argc, argv);
  if (strcmp (sub, "rm") == 0)
    return results_rm (library, argc, argv);
  if (strcmp (sub, "import") == 0)
    return results_import (library, argc, argv);
  if (strcmp (sub, "history") == 0)
    {
      if (argc > 2)
        return ds_cli_complain (DS_CLI_USAGE, _("results history takes one device (a /dev path, WWN, serial, model or result id)"));
      return ds_cli_results_history (library, argc == 2 ? argv[1] : NULL, o.json, o.units);
    }

  return ds_cli_complain (DS_CLI_USAGE, _("results: unknown command “%s” (list, show, label, tag, rm, import, history, dir)"), sub);
}
