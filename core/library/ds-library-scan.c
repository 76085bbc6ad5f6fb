/* ds-library-scan.c: listing the library's folder, through its index
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A listing stats every file of the folder and takes its entry from the
 * index (ds-library-index.c) when the file's size, mtime, ctime and inode
 * are those of its row; the other files are loaded (on several threads
 * when there are many) and their rows written, and rows of files gone
 * are deleted, in one transaction.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-library-index-private.h"

static FileStamp
stamp_of (const struct stat *st)
{
  FileStamp s = {
    .size = (gint64) st->st_size,
    .mtime_ns = (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec,
    .ctime_ns = (gint64) st->st_ctim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_ctim.tv_nsec,
    .inode = (gint64) st->st_ino,
  };
  return s;
}

static gboolean
stamp_equal (const FileStamp *a,
             const FileStamp *b)
{
  return a->size == b->size && a->mtime_ns == b->mtime_ns &&
         a->ctime_ns == b->ctime_ns && a->inode == b->inode;
}

static void
change_free (Change *change)
{
  g_free (change->name);
  g_clear_object (&change->entry);
  g_free (change);
}

/* ---- loading ------------------------------------------------------------ */

typedef struct {
  const char   *dir;
  GCancellable *cancellable;
} LoadJob;

static void
load_one (gpointer data,
          gpointer user_data)
{
  Change *change = data;
  LoadJob *job = user_data;

  if (!g_cancellable_is_cancelled (job->cancellable))
    change->entry = ds_library_load_entry (job->dir, change->name, &change->st);
}

/* Loads the files of @changes, on up to 4 threads when there are many (a
 * library listed for the first time, a folder copied in). */
static gboolean
load_changes (const char    *dir,
              GPtrArray     *changes,
              GCancellable  *cancellable,
              GError       **error)
{
  guint threads = MIN (4, g_get_num_processors ());
  LoadJob job = { dir, cancellable };
  GThreadPool *pool = NULL;

  if (changes->len >= 64 && threads > 1)
    pool = g_thread_pool_new (load_one, &job, (int) threads, FALSE, NULL);
  for (guint i = 0; i < changes->len; i++)
    {
      if (pool == NULL || !g_thread_pool_push (pool, changes->pdata[i], NULL))
        load_one (changes->pdata[i], &job);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);

  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* ---- the scan ----------------------------------------------------------- */

/* The listing of @dir in @ret_d; TRUE with none when there is no folder
 * (nothing saved yet). */
static gboolean
folder_open (const char  *dir,
             GDir       **ret_d,
             GError     **error)
{
  g_autoptr (GError) local = NULL;

  *ret_d = g_dir_open (dir, 0, &local);
  if (*ret_d != NULL || g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;

  g_set_error (error, DS_ERROR,
               g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ACCES) ?
               DS_ERROR_PERMISSION : DS_ERROR_FAILED,
               _("cannot read the results folder: %s"), local->message);
  return FALSE;
}

/* One file of the folder: its entry in @entries when its row is current
 * (or when it cannot be stat'ed: an unreadable one), else a Change in
 * @changes to load. */
static void
scan_file (const char *dir,
           const char *name,
           GHashTable *rows,
           GPtrArray  *entries,
           GPtrArray  *changes)
{
  g_autofree char *path = NULL;
  struct stat st;
  Change *change;
  Row *row;

  /* Hidden: the lock, temporary files (those a killed save left go). */
  if (name[0] == '.')
    {
      ds_library_remove_stale_temp (dir, name);
      return;
    }
  if (!g_str_has_suffix (name, ".json") || strlen (name) == strlen (".json"))
    return;

  path = g_build_filename (dir, name, NULL);
  if (stat (path, &st) < 0)
    {
      int e = errno;
      g_autofree char *id = g_strndup (name, strlen (name) - strlen (".json"));
      g_autoptr (GError) why = g_error_new (DS_ERROR, ds_error_from_errno (e), "%s: %s",
                                            path, g_strerror (e));

      g_ptr_array_add (entries, ds_library_entry_new_unreadable (id, path, why, 0));
      return;
    }

  row = rows != NULL ? g_hash_table_lookup (rows, name) : NULL;
  if (row != NULL)
    {
      FileStamp now = stamp_of (&st);

      row->seen = TRUE;
      if (stamp_equal (&now, &row->stamp))
        {
          g_ptr_array_add (entries, g_object_ref (row->entry));
          return;
        }
    }

  /* The stamp before the load: a file replaced while it is read is read
   * again next time, never taken for the older one. */
  change = g_new0 (Change, 1);
  change->name = g_strdup (name);
  change->stamp = stamp_of (&st);
  change->st = st;
  g_ptr_array_add (changes, change);
}

/* Every file of @d, by scan_file(); FALSE when cancelled. */
static gboolean
scan_folder (GDir          *d,
             const char    *dir,
             GHashTable    *rows,
             GPtrArray     *entries,
             GPtrArray     *changes,
             GCancellable  *cancellable,
             GError       **error)
{
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      scan_file (dir, name, rows, entries, changes);
    }

  return TRUE;
}

/* Adds the loaded entries of @changes to @entries, and keeps in @changes
 * only those to put in the index. */
static void
take_loaded (GPtrArray *entries,
             GPtrArray *changes)
{
  for (guint i = 0; i < changes->len; )
    {
      Change *change = changes->pdata[i];

      g_ptr_array_add (entries, g_object_ref (change->entry));
      /* Not a regular file (a FIFO, ...): listed as such, not cached. */
      if (S_ISREG (change->st.st_mode))
        i++;
      else
        g_ptr_array_remove_index_fast (changes, i);
    }
}

/* Writes the rows of @changes and deletes those of files gone, if any. */
static void
index_update (sqlite3    *db,
              const char *index_path,
              GPtrArray  *changes,
              GHashTable *rows)
{
  guint gone = 0;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    gone += ((Row *) value)->seen ? 0 : 1;
  if (changes->len > 0 || gone > 0)
    ds_library_index_write (db, index_path, changes, gone > 0 ? rows : NULL);
}

GPtrArray *
ds_library_scan (const char    *dir,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) change_free);
  g_autoptr (GHashTable) rows = NULL;
  g_autoptr (GDir) d = NULL;
  g_autofree char *index_path = NULL;
  sqlite3 *db = NULL;

  if (!folder_open (dir, &d, error))
    return NULL;
  if (d == NULL)
    return g_steal_pointer (&entries);   /* nothing saved yet */

  rows = ds_library_index_rows (dir, &db, &index_path);

  if (!scan_folder (d, dir, rows, entries, changes, cancellable, error) ||
      !load_changes (dir, changes, cancellable, error))
    {
      sqlite3_close (db);
      return NULL;
    }
  take_loaded (entries, changes);

  if (db != NULL)
    {
      index_update (db, index_path, changes, rows);
      sqlite3_close (db);
    }

  g_ptr_array_sort (entries, ds_library_compare_entries);
  return g_steal_pointer (&entries);
}
