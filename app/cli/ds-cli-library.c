/* ds-cli-library.c: the results library from the command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-cli-common.h"
#include "ds-cli-library.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-result-json.h"

char *
ds_cli_results_dir (const char *option)
{
  const char *env = g_getenv (DS_CLI_RESULTS_DIR_ENV);

  if (option != NULL && *option != '\0')
    return g_strdup (option);
  if (env != NULL && *env != '\0')
    return g_strdup (env);

  return ds_library_default_dir ();
}

DsLibrary *
ds_cli_library_open (const char  *option,
                     GError     **error)
{
  g_autofree char *dir = ds_cli_results_dir (option);
  g_autoptr (DsLibrary) library = ds_library_new (dir);

  if (!ds_library_reload (library, NULL, error))
    return NULL;

  return g_steal_pointer (&library);
}

/* "./x.json" or "/shared/x.json" is never taken for an id. */
static gboolean
names_a_file (const char *arg)
{
  return g_file_test (arg, G_FILE_TEST_EXISTS) || strchr (arg, '/') != NULL;
}

char *
ds_cli_result_file (const char *arg,
                    DsLibrary  *library)
{
  g_autoptr (DsLibraryEntry) entry = NULL;

  if (names_a_file (arg) || library == NULL)
    return g_strdup (arg);
  entry = ds_library_lookup (library, arg, NULL);

  return g_strdup (entry != NULL ? ds_library_entry_get_path (entry) : arg);
}

DsResult *
ds_cli_load_result (const char  *arg,
                    const char  *dir_option,
                    DsLibrary  **library,
                    char       **ret_source,
                    GError     **error)
{
  g_autoptr (DsLibraryEntry) entry = NULL;
  DsResult *result;

  /* A path wins. */
  if (names_a_file (arg))
    {
      result = ds_result_load (arg, error);
      if (result != NULL && ret_source != NULL)
        *ret_source = g_strdup (arg);
      return result;
    }

  if (*library == NULL && (*library = ds_cli_library_open (dir_option, error)) == NULL)
    return NULL;

  entry = ds_library_lookup (*library, arg, error);
  if (entry == NULL)
    {
      if (error != NULL && *error != NULL && (*error)->code == DS_ERROR_NOT_FOUND)
        g_prefix_error (error, _("“%s” is neither a file nor a saved result: "), arg);
      return NULL;
    }

  result = ds_library_entry_load (entry, error);
  if (result != NULL && ret_source != NULL)
    *ret_source = g_strdup (ds_library_entry_get_id (entry));
  return result;
}

void
ds_cli_library_save_run (const DsResult *result,
                         gboolean        skip)
{
  g_autoptr (DsLibrary) library = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  DsLibraryEntry *entry;

  /* Refused before the target was opened: nothing was measured. */
  if (skip || result->data == NULL || (!result->complete && result->target.size_bytes == 0))
    return;

  dir = ds_cli_results_dir (NULL);
  library = ds_library_new (dir);
  entry = ds_library_save (library, result, NULL, &error);
  if (entry == NULL)
    {
      ds_cli_complain (DS_CLI_FAILED, _("the result was not saved in the library: %s. "
                                         "--output FILE saves it elsewhere, $%s moves the "
                                         "library, --no-library skips it"),
                       error->message, DS_CLI_RESULTS_DIR_ENV);
      return;
    }

  /* Always (a script learns the id too; stdout holds only the result). */
  fprintf (stderr, _("Saved in the results library as %s\n"), ds_library_entry_get_id (entry));
}

void
ds_cli_print_library_json (DsLibrary         *library,
                           const char        *schema,
                           const char        *member,
                           GPtrArray         *items,
                           DsCliJsonItemFunc  add)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "schema");
  json_builder_add_string_value (b, schema);
  json_builder_set_member_name (b, "dir");
  json_builder_add_string_value (b, ds_library_get_dir (library));
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < items->len; i++)
    add (b, items->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = ds_json_to_generator_text (root);
  fputs (text, stdout);
}
