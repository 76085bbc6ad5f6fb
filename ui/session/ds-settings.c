/* ds-settings.c: the app's GSettings, installed or from the build tree
 *
 * GSettings aborts when a schema is missing, and the schema is only found
 * where glib-compile-schemas put it when installing (or where
 * GSETTINGS_SCHEMA_DIR says).  Run uninstalled, the binary looks in the
 * build tree it was built in: DS_BUILD_ROOT and DS_BUILD_SCHEMA_DIR come
 * from ui/meson.build.  The build tree is only trusted by a binary that
 * runs from inside it, so an installed copy never picks up a stale schema
 * from a checkout; and a binary in the build tree takes its own before an
 * installed one (which may be older), unless GSETTINGS_SCHEMA_DIR names
 * one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-settings.h"

static gboolean
running_from_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  return exe != NULL && g_str_has_prefix (exe, DS_BUILD_ROOT G_DIR_SEPARATOR_S);
}

static GSettingsSchema *
lookup_schema (void)
{
  GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchemaSource) build = NULL;
  GSettingsSchema *schema = NULL;

  /* The build tree's own first: an installed copy (the quick start's, in
   * /usr/local) may be of an older schema than the binary built here.
   * GSETTINGS_SCHEMA_DIR still wins: it is part of @installed, which the
   * build tree's source falls back on only for other schemas. */
  if (running_from_build_tree () && g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    {
      build = g_settings_schema_source_new_from_directory (DS_BUILD_SCHEMA_DIR, installed, FALSE, NULL);
      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, APPLICATION_ID, FALSE);
      if (schema != NULL)
        return schema;
    }

  if (installed != NULL)
    schema = g_settings_schema_source_lookup (installed, APPLICATION_ID, TRUE);

  return schema;
}

GSettings *
ds_settings_new (GSettingsBackend  *backend,
                 GError           **error)
{
  g_autoptr(GSettingsSchema) schema = lookup_schema ();

  if (schema == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The settings schema %s is not installed: install Diskscope "
                     "(meson install), or run it from its build tree."),
                   APPLICATION_ID);
      return NULL;
    }

  return g_settings_new_full (schema, backend, NULL);
}
