/* ds-library-history.c: a library's results by physical device, over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-compare.h"
#include "ds-library-history.h"
#include "ds-units.h"

void
ds_library_device_free (DsLibraryDevice *device)
{
  if (device == NULL)
    return;
  g_free (device->key);
  g_free (device->model);
  g_free (device->serial);
  g_free (device->wwn);
  g_free (device->path);
  g_free (device->hostname);
  g_ptr_array_unref (device->entries);
  g_free (device);
}

static int
oldest_first (gconstpointer a,
              gconstpointer b)
{
  DsLibraryEntry *ea = *(DsLibraryEntry *const *) a;
  DsLibraryEntry *eb = *(DsLibraryEntry *const *) b;

  return g_date_time_compare (ds_library_entry_get_date (ea), ds_library_entry_get_date (eb));
}

static int
newest_device_first (gconstpointer a,
                     gconstpointer b)
{
  const DsLibraryDevice *da = *(DsLibraryDevice *const *) a;
  const DsLibraryDevice *db = *(DsLibraryDevice *const *) b;
  DsLibraryEntry *la = da->entries->pdata[da->entries->len - 1];
  DsLibraryEntry *lb = db->entries->pdata[db->entries->len - 1];

  return g_date_time_compare (ds_library_entry_get_date (lb), ds_library_entry_get_date (la));
}

/* "@prefix:@name" with the blanks around @name dropped (and a leading
 * "0x" and the case, for a WWN: "wwn:5000c500a1b2c3d4"); NULL where @name
 * is NULL or blank. */
static char *
name_key (const char *prefix,
          const char *name,
          gboolean    hex)
{
  g_autofree char *trimmed = NULL;
  const char *start;

  if (name == NULL)
    return NULL;
  trimmed = g_strstrip (hex ? g_ascii_strdown (name, -1) : g_strdup (name));
  start = trimmed;
  if (hex && g_str_has_prefix (start, "0x"))
    start += 2;
  if (*start == '\0')
    return NULL;
  return g_strconcat (prefix, ":", start, NULL);
}

/* The names an entry's drive is known by, in the order they are trusted:
 * its WWN, its serial, else its own fallback key
 * (ds_library_entry_dup_device_key: model, size and host). */
static char *
wwn_key (DsLibraryEntry *e)
{
  return name_key ("wwn", ds_library_entry_get_wwn (e), TRUE);
}

static char *
serial_key (DsLibraryEntry *e)
{
  return name_key ("serial", ds_library_entry_get_serial (e), FALSE);
}

/* @name without the blanks around it; NULL where it is NULL or blank
 * (or, for a WWN, a bare "0x"): what name_key() sees of it. */
static char *
name_trimmed (const char *name,
              gboolean    hex)
{
  g_autofree char *key = name_key ("", name, hex);

  return key != NULL ? g_strstrip (g_strdup (name)) : NULL;
}

/* @device, or a new one in @devices, with @e added: the newest entry
 * (the library is newest first) names the device; later ones fill what it
 * did not record. */
static DsLibraryDevice *
add_to_device (GPtrArray       *devices,
               DsLibraryDevice *device,
               DsLibraryEntry  *e)
{
  if (device == NULL)
    {
      device = g_new0 (DsLibraryDevice, 1);
      device->key = ds_library_entry_dup_device_key (e);
      device->entries = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (devices, device);
    }
  if (device->model == NULL)
    device->model = g_strdup (ds_library_entry_get_model (e));
  if (device->serial == NULL)
    device->serial = name_trimmed (ds_library_entry_get_serial (e), FALSE);
  if (device->wwn == NULL)
    device->wwn = name_trimmed (ds_library_entry_get_wwn (e), TRUE);
  if (device->path == NULL)
    device->path = g_strdup (ds_library_entry_get_device_path (e));
  if (device->hostname == NULL)
    device->hostname = g_strdup (ds_library_entry_get_hostname (e));
  if (device->size_bytes == 0)
    device->size_bytes = ds_library_entry_get_size_bytes (e);
  g_ptr_array_add (device->entries, g_object_ref (e));

  return device;
}

/* A serial that one WWN's device was seen with leads to that device; one
 * seen with two WWNs (two disks behind a USB bridge that reports its own
 * serial for both) leads nowhere. */
#define AMBIGUOUS ((DsLibraryDevice *) GINT_TO_POINTER (1))

GPtrArray *
ds_library_get_devices (DsLibrary *library)
{
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) without_wwn = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_library_device_free);
  GListModel *model = G_LIST_MODEL (library);
  guint n = g_list_model_get_n_items (model);

  /* First the runs that recorded a WWN: one device per WWN, and what
   * serial each was seen with. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DsLibraryEntry) e = g_list_model_get_item (model, i);
      g_autofree char *wwn = NULL;
      g_autofree char *serial = NULL;
      DsLibraryDevice *device, *by_serial;

      if (!ds_library_entry_is_readable (e))
        continue;
      wwn = wwn_key (e);
      if (wwn == NULL)
        {
          g_ptr_array_add (without_wwn, g_steal_pointer (&e));
          continue;
        }

      device = add_to_device (devices, g_hash_table_lookup (by_key, wwn), e);
      if (!g_hash_table_contains (by_key, wwn))
        g_hash_table_insert (by_key, g_steal_pointer (&wwn), device);
      serial = serial_key (e);
      if (serial == NULL)
        continue;
      by_serial = g_hash_table_lookup (by_key, serial);
      if (by_serial == NULL)
        g_hash_table_insert (by_key, g_steal_pointer (&serial), device);
      else if (by_serial != device)
        g_hash_table_replace (by_key, g_steal_pointer (&serial), AMBIGUOUS);
    }

  /* Then the others, newest first still: by serial (joining the one WWN
   * it was seen with), else by model, size and host, or path (a blank
   * WWN or serial is none: two drives that both report one are not one). */
  for (guint i = 0; i < without_wwn->len; i++)
    {
      DsLibraryEntry *e = without_wwn->pdata[i];
      g_autofree char *serial = serial_key (e);
      g_autofree char *key = NULL;
      DsLibraryDevice *device;

      key = serial != NULL ? g_strdup (serial) : ds_library_entry_dup_device_key (e);
      device = g_hash_table_lookup (by_key, key);
      if (device == AMBIGUOUS)
        {
          /* Its own device, under a key no WWN's device holds. */
          g_free (key);
          key = g_strconcat ("ambiguous-", serial, NULL);
          device = g_hash_table_lookup (by_key, key);
        }
      device = add_to_device (devices, device, e);
      if (!g_hash_table_contains (by_key, key))
        g_hash_table_insert (by_key, g_steal_pointer (&key), device);
    }

  for (guint i = 0; i < devices->len; i++)
    g_ptr_array_sort (((DsLibraryDevice *) devices->pdata[i])->entries, oldest_first);
  g_ptr_array_sort (devices, newest_device_first);
  return devices;
}

static gboolean
contains_casefold (const char *haystack,
                   const char *needle)
{
  g_autofree char *h = NULL;
  g_autofree char *n = NULL;

  if (haystack == NULL || needle == NULL || *needle == '\0')
    return FALSE;
  h = g_utf8_casefold (haystack, -1);
  n = g_utf8_casefold (needle, -1);
  return strstr (h, n) != NULL;
}

gboolean
ds_library_device_matches (const DsLibraryDevice *device,
                           const char            *text)
{
  if (text == NULL)
    return TRUE;
  if ((device->wwn != NULL && g_ascii_strcasecmp (device->wwn, text) == 0) ||
      (device->serial != NULL && g_ascii_strcasecmp (device->serial, text) == 0) ||
      strcmp (device->key, text) == 0)
    return TRUE;

  return contains_casefold (device->model, text) || contains_casefold (device->path, text);
}

char *
ds_library_device_describe (const DsLibraryDevice *device)
{
  g_autofree char *size = ds_format_size (device->size_bytes);
  g_autoptr (GString) out = g_string_new (device->model != NULL ? device->model :
                                          device->path != NULL ? device->path : "?");

  g_string_append (out, " (");
  if (device->wwn != NULL)
    g_string_append_printf (out, "WWN %s, ", device->wwn);
  else if (device->serial != NULL)
    g_string_append_printf (out, "serial %s, ", device->serial);
  else if (device->model != NULL && device->path != NULL)
    g_string_append_printf (out, "%s, ", device->path);
  g_string_append (out, size);
  if (device->wwn == NULL && device->serial == NULL && device->hostname != NULL)
    g_string_append_printf (out, ", on %s", device->hostname);
  g_string_append (out, ")");

  return g_string_free (g_steal_pointer (&out), FALSE);
}

DsLibraryDevice *
ds_library_device_of (GPtrArray      *devices,
                      DsLibraryEntry *entry)
{
  const char *id;

  if (!ds_library_entry_is_readable (entry))
    return NULL;
  /* A device holds the entries it was grouped from (ds_library_get_devices):
   * an entry's own key may be another name of the same drive. */
  id = ds_library_entry_get_id (entry);
  for (guint i = 0; i < devices->len; i++)
    {
      DsLibraryDevice *device = devices->pdata[i];

      for (guint j = 0; j < device->entries->len; j++)
        {
          DsLibraryEntry *e = device->entries->pdata[j];

          if (e == entry || g_strcmp0 (ds_library_entry_get_id (e), id) == 0)
            return device;
        }
    }

  return NULL;
}

void
ds_library_trend_free (DsLibraryTrend *trend)
{
  if (trend == NULL)
    return;
  g_ptr_array_unref (trend->entries);
  g_array_unref (trend->values);
  g_free (trend);
}

/* @kind's headline figures of @d, oldest first; NULL when none has one. */
static DsLibraryTrend *
kind_trend (const DsLibraryDevice *d,
            const char            *kind)
{
  DsLibraryTrend *trend = NULL;

  for (guint i = 0; i < d->entries->len; i++)
    {
      DsLibraryEntry *e = d->entries->pdata[i];
      const char *key, *name;
      int unit;
      double value;

      if (strcmp (ds_library_entry_get_kind_name (e), kind) != 0 ||
          !ds_library_entry_get_headline (e, &key, &name, &unit, &value))
        continue;
      if (trend == NULL)
        {
          trend = g_new0 (DsLibraryTrend, 1);
          trend->kind = kind;
          trend->name = name;
          trend->unit = unit;
          trend->entries = g_ptr_array_new ();
          trend->values = g_array_new (FALSE, FALSE, sizeof (double));
        }
      g_ptr_array_add (trend->entries, e);
      g_array_append_val (trend->values, value);
    }

  return trend;
}

GPtrArray *
ds_library_device_trends (const DsLibraryDevice *d)
{
  GPtrArray *trends = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_library_trend_free);
  g_autoptr (GPtrArray) kinds = g_ptr_array_new ();

  /* Kinds in the order they were first run. */
  for (guint i = 0; i < d->entries->len; i++)
    {
      const char *kind = ds_library_entry_get_kind_name (d->entries->pdata[i]);
      gboolean seen = FALSE;

      for (guint k = 0; k < kinds->len && !seen; k++)
        seen = strcmp (kinds->pdata[k], kind) == 0;
      if (!seen)
        g_ptr_array_add (kinds, (gpointer) kind);
    }
  for (guint k = 0; k < kinds->len; k++)
    {
      DsLibraryTrend *trend = kind_trend (d, kinds->pdata[k]);

      if (trend != NULL)
        g_ptr_array_add (trends, trend);
    }

  return trends;
}

static char *
local_date (DsLibraryEntry *e)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (ds_library_entry_get_date (e));

  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

/* One trend as text: each figure with its change since the first. */
static void
append_trend (GString              *out,
              const DsLibraryTrend *t,
              DsUnits               units)
{
  double first = NAN;

  g_string_append_printf (out, "\n%s — %s\n", t->kind, t->name);
  for (guint i = 0; i < t->entries->len; i++)
    {
      DsLibraryEntry *e = t->entries->pdata[i];
      double value = g_array_index (t->values, double, i);
      g_autofree char *date = local_date (e);
      g_autofree char *figure = ds_compare_format_value ((DsCompareUnit) t->unit, value, units);
      g_autofree char *change = NULL;

      if (isnan (first) && value != 0)
        first = value;
      change = !isnan (first) && value != first ?
        g_strdup_printf ("%+.1f%%", (value / first - 1) * 100) : g_strdup ("");
      g_string_append_printf (out, "  %s  %14s  %7s  %s  %s%s\n", date, figure, change,
                              ds_library_entry_get_id (e), ds_library_entry_get_label (e),
                              ds_library_entry_get_status (e) == DS_LIBRARY_STATUS_COMPLETE ? "" :
                              ds_library_entry_get_status (e) == DS_LIBRARY_STATUS_STOPPED ?
                              _(" (stopped)") : _(" (failed)"));
    }
}

char *
ds_library_device_history (const DsLibraryDevice *d,
                           DsUnits                units)
{
  g_autoptr (GPtrArray) trends = ds_library_device_trends (d);
  g_autofree char *what = ds_library_device_describe (d);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s\n", what);
  g_string_append_printf (out, ngettext ("%u result\n", "%u results\n", d->entries->len),
                          d->entries->len);
  for (guint k = 0; k < trends->len; k++)
    append_trend (out, trends->pdata[k], units);
  if (trends->len == 0)
    g_string_append (out, _("\nNo figures to follow over time (these tests have no headline figure).\n"));

  return g_string_free (out, FALSE);
}
