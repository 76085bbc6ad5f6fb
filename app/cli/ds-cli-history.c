/* ds-cli-history.c: `diskscope-cli results history [DEVICE]`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Without DEVICE: the library's devices, each with its number of results
 * and the dates of its first and last.  With one (a /dev path, a WWN, a
 * serial, a part of a model or path, or a result id): each kind's headline
 * figure of that device over time, oldest first, with its change since
 * the first run.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <json-glib/json-glib.h>

#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-compare.h"
#include "ds-device.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-library-history.h"
#include "ds-result.h"

static char *
local_date (DsLibraryEntry *e)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (ds_library_entry_get_date (e));

  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

/* The devices @text names: a block device on this host by its WWN or
 * serial (else its model and size), a result's device, or what
 * ds_library_device_matches() takes. */
static GPtrArray *
find_devices (DsLibrary  *library,
              GPtrArray  *devices,
              const char *text)
{
  GPtrArray *found = g_ptr_array_new ();
  g_autoptr (DsDevice) dev = NULL;
  g_autoptr (DsLibraryEntry) entry = NULL;
  DsLibraryDevice *of_entry = NULL;
  struct stat st;

  if (text[0] == '/' && stat (text, &st) == 0 && S_ISBLK (st.st_mode))
    dev = ds_device_lookup_identity (text, NULL);
  else if ((entry = ds_library_lookup (library, text, NULL)) != NULL)
    of_entry = ds_library_device_of (devices, entry);

  for (guint i = 0; i < devices->len; i++)
    {
      DsLibraryDevice *d = devices->pdata[i];
      gboolean match;

      if (dev != NULL)
        match = (dev->wwn != NULL && g_strcmp0 (d->wwn, dev->wwn) == 0) ||
                (dev->serial != NULL && g_strcmp0 (d->serial, dev->serial) == 0) ||
                (d->wwn == NULL && d->serial == NULL && dev->model != NULL &&
                 g_strcmp0 (d->model, dev->model) == 0 && d->size_bytes == dev->size_bytes);
      else if (entry != NULL)
        match = d == of_entry;
      else
        match = ds_library_device_matches (d, text);
      if (match)
        g_ptr_array_add (found, d);
    }

  return found;
}

static void
list_devices (GPtrArray *devices)
{
  printf (ngettext ("%u device\n", "%u devices\n", devices->len), devices->len);
  for (guint i = 0; i < devices->len; i++)
    {
      DsLibraryDevice *d = devices->pdata[i];
      g_autofree char *what = ds_library_device_describe (d);
      g_autofree char *clean = ds_printable_text (what);
      g_autofree char *first = local_date (d->entries->pdata[0]);
      g_autofree char *last = local_date (d->entries->pdata[d->entries->len - 1]);

      printf ("\n%s\n  ", clean);
      printf (ngettext ("%u result, %s to %s\n", "%u results, %s to %s\n", d->entries->len),
              d->entries->len, first, last);
    }
}

static void
device_history (DsLibraryDevice *d,
                DsUnits          units)
{
  g_autofree char *text = ds_library_device_history (d, units);
  g_autofree char *clean = NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  /* Line by line: what the files said has its control characters escaped. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_free (clean);
      clean = ds_printable_text (lines[i]);
      printf ("%s%s", clean, lines[i + 1] != NULL ? "\n" : "");
    }
}

static void
device_to_json (JsonBuilder *b,
                gpointer     item)
{
  DsLibraryDevice *d = item;
#define STR(k, v) G_STMT_START { json_builder_set_member_name (b, k); \
  if ((v) != NULL) json_builder_add_string_value (b, v); else json_builder_add_null_value (b); } G_STMT_END
  json_builder_begin_object (b);
  STR ("key", d->key);
  STR ("model", d->model);
  STR ("serial", d->serial);
  STR ("wwn", d->wwn);
  STR ("path", d->path);
  STR ("hostname", d->hostname);
  json_builder_set_member_name (b, "size_bytes");
  json_builder_add_int_value (b, (gint64) d->size_bytes);
  json_builder_set_member_name (b, "results");
  json_builder_begin_array (b);
  for (guint i = 0; i < d->entries->len; i++)
    {
      DsLibraryEntry *e = d->entries->pdata[i];
      g_autofree char *date = g_date_time_format_iso8601 (ds_library_entry_get_date (e));
      const char *key = NULL, *name = NULL;
      double value = NAN;

      ds_library_entry_get_headline (e, &key, &name, NULL, &value);
      json_builder_begin_object (b);
      STR ("id", ds_library_entry_get_id (e));
      STR ("test", ds_library_entry_get_kind_name (e));
      STR ("started_at", date);
      STR ("label", ds_library_entry_get_label (e));
      STR ("headline_key", key);
      STR ("headline", name);
      json_builder_set_member_name (b, "value");
      if (key != NULL && !isnan (value))
        json_builder_add_double_value (b, value);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
#undef STR
}

static void
print_json (DsLibrary *library,
            GPtrArray *devices)
{
  ds_cli_print_library_json (library, "diskscope-history/1", "devices", devices, device_to_json);
}

int
ds_cli_results_history (DsLibrary  *library,
                        const char *device,
                        gboolean    json,
                        const char *units_text)
{
  g_autoptr (GPtrArray) devices = ds_library_get_devices (library);
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GError) error = NULL;
  DsUnits units;

  if (!ds_units_from_string (units_text, &units, &error))
    return ds_cli_fail (error);

  found = device != NULL ? find_devices (library, devices, device) : g_ptr_array_ref (devices);
  if (found->len == 0 && device != NULL)
    return ds_cli_complain (DS_CLI_FAILED, _("no results of a device “%s” in %s "
                                             "(`results history` lists the devices)"),
                            device, ds_library_get_dir (library));

  if (json)
    print_json (library, found);
  else if (device == NULL)
    list_devices (found);
  else
    for (guint i = 0; i < found->len; i++)
      {
        if (i > 0)
          printf ("\n\n");
        device_history (found->pdata[i], units);
      }

  return DS_CLI_OK;
}
