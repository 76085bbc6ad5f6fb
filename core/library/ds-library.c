/* ds-library.c: the results library, a folder of saved results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-library.h"
#include "ds-library-private.h"
#include "ds-library-write.h"
#include "ds-result-json.h"

static void ds_library_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsLibrary, ds_library, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, ds_library_list_model_init))

/* ---- GListModel --------------------------------------------------------- */

static GType
ds_library_get_item_type (GListModel *model)
{
  return DS_TYPE_LIBRARY_ENTRY;
}

static guint
ds_library_get_n_items (GListModel *model)
{
  return DS_LIBRARY (model)->items->len;
}

static gpointer
ds_library_get_item (GListModel *model,
                     guint       position)
{
  DsLibrary *self = DS_LIBRARY (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (self->items->pdata[position]);
}

static void
ds_library_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = ds_library_get_item_type;
  iface->get_n_items = ds_library_get_n_items;
  iface->get_item = ds_library_get_item;
}

/* ---- object ------------------------------------------------------------- */

static void
ds_library_finalize (GObject *object)
{
  DsLibrary *self = DS_LIBRARY (object);

  g_free (self->dir);
  g_ptr_array_unref (self->items);

  G_OBJECT_CLASS (ds_library_parent_class)->finalize (object);
}

static void
ds_library_class_init (DsLibraryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ds_library_finalize;
}

static void
ds_library_init (DsLibrary *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

char *
ds_library_default_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "diskscope", "results", NULL);
}

DsLibrary *
ds_library_new (const char *dir)
{
  DsLibrary *self = g_object_new (DS_TYPE_LIBRARY, NULL);

  self->dir = dir != NULL ? g_strdup (dir) : ds_library_default_dir ();
  return self;
}

const char *
ds_library_get_dir (DsLibrary *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);
  return self->dir;
}

/* Newest first; the id breaks ties (and orders results of one second). */
int
ds_library_compare_entries (gconstpointer a,
                 gconstpointer b)
{
  DsLibraryEntry *ea = *(DsLibraryEntry *const *) a;
  DsLibraryEntry *eb = *(DsLibraryEntry *const *) b;
  int c = g_date_time_compare (ds_library_entry_get_date (eb), ds_library_entry_get_date (ea));

  if (c != 0)
    return c;
  return strcmp (ds_library_entry_get_id (eb), ds_library_entry_get_id (ea));
}

/* A read-only folder is no safety refusal: the user can fix it. */
static DsError
error_code (int e)
{
  return e == EROFS ? DS_ERROR_PERMISSION : ds_error_from_errno (e);
}

/* ---- loading one file (also on a worker thread: touches no DsLibrary) -- */

DsLibraryEntry *
ds_library_load_entry (const char        *dir,
                       const char        *name,
                       const struct stat *st)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *id = g_strndup (name, strlen (name) - strlen (".json"));
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;

  /* A FIFO or a device named *.json would block or read forever. */
  if (!S_ISREG (st->st_mode))
    {
      error = g_error_new (DS_ERROR, DS_ERROR_CORRUPT, "%s: not a regular file", path);
      return ds_library_entry_new_unreadable (id, path, error, st->st_mtime);
    }

  result = ds_result_load (path, &error);
  if (result == NULL)
    return ds_library_entry_new_unreadable (id, path, error, st->st_mtime);

  return ds_library_entry_new_for_result (id, path, result);
}

static void
replace_all (DsLibrary *self,
             GPtrArray *entries)
{
  guint removed = self->items->len;

  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (self->items, g_object_ref (entries->pdata[i]));
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->items->len);
}

gboolean
ds_library_reload (DsLibrary     *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr (GPtrArray) entries = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);

  entries = ds_library_scan (self->dir, cancellable, error);
  if (entries == NULL)
    return FALSE;

  self->generation++;
  replace_all (self, entries);
  return TRUE;
}

typedef struct {
  char  *dir;
  guint  generation;
} ReloadData;

static void
reload_data_free (ReloadData *data)
{
  g_free (data->dir);
  g_free (data);
}

static void
reload_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ReloadData *data = task_data;
  GError *error = NULL;
  GPtrArray *entries = ds_library_scan (data->dir, cancellable, &error);

  if (entries == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, entries, (GDestroyNotify) g_ptr_array_unref);
}

void
ds_library_reload_async (DsLibrary          *self,
                         GCancellable       *cancellable,
                         GAsyncReadyCallback callback,
                         gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  ReloadData *data;

  g_return_if_fail (DS_IS_LIBRARY (self));

  data = g_new0 (ReloadData, 1);
  data->dir = g_strdup (self->dir);
  data->generation = self->generation;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ds_library_reload_async);
  g_task_set_task_data (task, data, (GDestroyNotify) reload_data_free);
  g_task_run_in_thread (task, reload_thread);
}

gboolean
ds_library_reload_finish (DsLibrary     *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_autoptr (GPtrArray) entries = NULL;
  ReloadData *data;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ds_library_reload_async, FALSE);

  entries = g_task_propagate_pointer (G_TASK (result), error);
  if (entries == NULL)
    return FALSE;

  data = g_task_get_task_data (G_TASK (result));
  if (data->generation == self->generation)
    {
      self->generation++;
      replace_all (self, entries);
    }

  return TRUE;
}

/* ---- finding ------------------------------------------------------------ */

static int
find_index (DsLibrary  *self,
            const char *id)
{
  for (guint i = 0; id != NULL && i < self->items->len; i++)
    if (strcmp (ds_library_entry_get_id (self->items->pdata[i]), id) == 0)
      return (int) i;

  return -1;
}

DsLibraryEntry *
ds_library_get_entry (DsLibrary  *self,
                      const char *id)
{
  int i;

  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);

  i = find_index (self, id);
  return i >= 0 ? self->items->pdata[i] : NULL;
}

DsLibraryEntry *
ds_library_find_run (DsLibrary      *self,
                     const DsResult *result)
{
  g_autoptr (GDateTime) when = NULL;

  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);

  if (result->started_at == NULL ||
      (when = g_date_time_new_from_iso8601 (result->started_at, NULL)) == NULL)
    return NULL;

  for (guint i = 0; i < self->items->len; i++)
    {
      DsLibraryEntry *e = self->items->pdata[i];

      if (ds_library_entry_is_readable (e) && ds_library_entry_get_kind (e) == result->kind &&
          g_date_time_equal (ds_library_entry_get_date (e), when) &&
          g_strcmp0 (ds_library_entry_get_hostname (e), result->hostname) == 0 &&
          g_strcmp0 (ds_library_entry_get_device_path (e), result->target.path) == 0 &&
          ds_library_entry_get_size_bytes (e) == result->target.size_bytes)
        return e;
    }

  return NULL;
}

DsLibraryEntry *
ds_library_lookup (DsLibrary   *self,
                   const char  *text,
                   GError     **error)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  g_autofree char *stripped = NULL;
  DsLibraryEntry *entry;

  g_return_val_if_fail (DS_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if ((entry = ds_library_get_entry (self, text)) != NULL)
    return g_object_ref (entry);
  if (g_str_has_suffix (text, ".json"))
    {
      stripped = g_strndup (text, strlen (text) - strlen (".json"));
      if ((entry = ds_library_get_entry (self, stripped)) != NULL)
        return g_object_ref (entry);
    }

  /* A beginning first (ids start with the date), then anywhere. */
  for (int pass = 0; pass < 2 && found->len == 0 && *text != '\0'; pass++)
    for (guint i = 0; i < self->items->len; i++)
      {
        const char *id = ds_library_entry_get_id (self->items->pdata[i]);

        if (pass == 0 ? g_str_has_prefix (id, text) : strstr (id, text) != NULL)
          g_ptr_array_add (found, self->items->pdata[i]);
      }

  if (found->len == 1)
    return g_object_ref (found->pdata[0]);

  if (found->len == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("no result “%s” in %s"), text, self->dir);
    }
  else
    {
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint i = 0; i < found->len && i < 5; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "",
                                ds_library_entry_get_id (found->pdata[i]));
      if (found->len > 5)
        g_string_append_printf (names, " and %u more", found->len - 5);
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("“%s” matches %u results (%s): give more of the id"),
                   text, found->len, names->str);
    }

  return NULL;
}

/* ---- changing ----------------------------------------------------------- */

static void
insert_sorted (DsLibrary      *self,
               DsLibraryEntry *entry)
{
  guint pos = 0;

  while (pos < self->items->len && ds_library_compare_entries (&self->items->pdata[pos], &entry) <= 0)
    pos++;
  g_ptr_array_insert (self->items, (gint) pos, g_object_ref (entry));
  g_list_model_items_changed (G_LIST_MODEL (self), pos, 0, 1);
}

static void
drop_index (DsLibrary *self,
            guint      pos)
{
  g_ptr_array_remove_index (self->items, pos);
  g_list_model_items_changed (G_LIST_MODEL (self), pos, 1, 0);
}

/* "KIND-DEVICE" or the hint, as [A-Za-z0-9._+-] only, at most 64
 * characters, no leading dot. */
static char *
file_tail (const DsResult *result,
           const char     *hint)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  g_autofree char *device = result->target.path ? g_path_get_basename (result->target.path) : g_strdup ("target");
  g_autofree char *raw = hint != NULL ? g_strdup (hint) :
                         g_strdup_printf ("%s-%s", ops ? ops->name : "result", device);
  GString *out = g_string_new (NULL);

  for (const char *p = raw; *p != '\0' && out->len < 64; p++)
    {
      char c = *p;

      if (!g_ascii_isalnum (c) && c != '.' && c != '_' && c != '+' && c != '-')
        c = '-';
      if (c == '-' && out->len > 0 && out->str[out->len - 1] == '-')
        continue;
      if (out->len == 0 && (c == '.' || c == '-'))
        continue;
      g_string_append_c (out, c);
    }
  while (out->len > 0 && out->str[out->len - 1] == '-')
    g_string_truncate (out, out->len - 1);
  if (out->len == 0)
    g_string_append (out, "result");

  return g_string_free (out, FALSE);
}

char *
ds_library_file_stem (const DsResult *result,
           const char     *hint)
{
  g_autoptr (GDateTime) when = NULL;
  g_autofree char *stamp = NULL;
  g_autofree char *tail = file_tail (result, hint);

  if (result->started_at != NULL)
    when = g_date_time_new_from_iso8601 (result->started_at, NULL);
  if (when == NULL)
    when = g_date_time_new_now_utc ();
  else
    {
      GDateTime *utc = g_date_time_to_utc (when);
      g_date_time_unref (when);
      when = utc;
    }
  stamp = g_date_time_format (when, "%Y%m%d-%H%M%S");

  return g_strdup_printf ("%s-%s", stamp, tail);
}

static gboolean
make_dir (const char  *dir,
          GError     **error)
{
  if (g_mkdir_with_parents (dir, 0755) == 0)
    return TRUE;

  {
    int e = errno;

    g_set_error (error, DS_ERROR, error_code (e),
                 _("cannot make the results folder %s: %s%s"), dir, g_strerror (e),
                 e == EROFS ? " (a read-only filesystem: choose another folder)" : "");
  }
  return FALSE;
}

/* Writes @data as a new file "STEM.json" (else "STEM-2.json", ...) in
 * @dir, never over another; the id and path it took come back. */
gboolean
ds_library_write_new (const char  *dir,
                      const char  *stem,
                      const char  *data,
                      gsize        length,
                      char       **ret_id,
                      char       **ret_path,
                      GError     **error)
{
  if (!make_dir (dir, error))
    return FALSE;

  /* Two runs of one second on one device: -2, -3, ... */
  for (unsigned n = 1; n < 1000; n++)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *id = n == 1 ? g_strdup (stem) : g_strdup_printf ("%s-%u", stem, n);
      g_autofree char *name = g_strconcat (id, ".json", NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (ds_library_write_file (path, data, length, DS_LIBRARY_WRITE_NO_REPLACE, &local))
        {
          *ret_id = g_steal_pointer (&id);
          *ret_path = g_steal_pointer (&path);
          return TRUE;
        }
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }

  g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
               _("could not find a free name for %s in %s"), stem, dir);
  return FALSE;
}

void
ds_library_replace_entry (DsLibrary      *self,
                          DsLibraryEntry *entry)
{
  int i = find_index (self, ds_library_entry_get_id (entry));

  self->generation++;
  if (i >= 0)
    drop_index (self, (guint) i);
  insert_sorted (self, entry);
}

DsLibraryEntry *
ds_library_require_entry (DsLibrary   *self,
                          const char  *id,
                          GError     **error)
{
  DsLibraryEntry *entry = ds_library_get_entry (self, id);

  if (entry == NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("no result “%s” in %s"), id, self->dir);

  return entry;
}

void
ds_library_drop_entry (DsLibrary  *self,
                       const char *id)
{
  int i = find_index (self, id);

  if (i < 0)
    return;
  self->generation++;
  drop_index (self, (guint) i);
}
