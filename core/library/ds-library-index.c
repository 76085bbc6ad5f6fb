/* ds-library-index.c: the library's index, a cache of what its files hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The files stay the truth: the index (SQLite, WAL) holds, for each file
 * of the folder, what a list shows of it (an entry's fields) and the
 * file's size, mtime, ctime and inode when they were read.  A listing
 * stats every file and takes the entry from the index when those match,
 * so it reads no file that did not change; a file that is new (dropped in
 * by hand, saved by another host), changed (edited by hand or by another
 * program) or replaced is loaded and its row written; rows of files gone
 * are deleted.  An index that cannot be opened, is not a database or is
 * corrupt is deleted and made again; one that cannot be made at all (a
 * read-only cache folder) is done without: every file is loaded, as
 * before the index existed.
 *
 * The index lives in $XDG_CACHE_HOME/diskscope/library/, one per host and
 * folder ("HOST-HASH.sqlite", HASH of the folder's canonical path), never
 * in the results folder: a folder on NFS shared by several hosts holds
 * only result files, and each host keeps its own index of it.  Writes are
 * transactions, so several CLIs and the app at once each see a whole
 * index; and since every row is checked against its file each time, a row
 * written by a listing that raced an edit is reloaded on the next one.
 *
 * $DISKSCOPE_LIBRARY_INDEX=off lists without the index (for measuring it).
 *
 * This file is the index itself (where it lives, its schema, its rows
 * read and written); ds-library-scan.c is the listing that checks each
 * file against its row.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-library-index-private.h"

/* Bump when the rows' meaning changes: an older index is then rebuilt. */
#define INDEX_VERSION "3"   /* 2: Health's headline is reallocated sectors;
                                * 3: the replay kind (an older build listed
                                * its files as unreadable) */

#define COLUMNS \
  "name, file_size, mtime_ns, ctime_ns, inode, status, error, kind, label, " \
  "custom_label, notes, tags, device, device_path, model, serial, wwn, " \
  "size_bytes, date_us, hostname, summary, n_warnings, headline_key, " \
  "headline_name, headline_unit, headline_value"
#define N_COLUMNS 26

static const char schema[] =
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
  "CREATE TABLE IF NOT EXISTS results ("
  " name TEXT PRIMARY KEY, file_size INTEGER, mtime_ns INTEGER, ctime_ns INTEGER,"
  " inode INTEGER, status INTEGER, error TEXT, kind INTEGER, label TEXT,"
  " custom_label INTEGER, notes TEXT, tags TEXT, device TEXT, device_path TEXT,"
  " model TEXT, serial TEXT, wwn TEXT, size_bytes INTEGER, date_us INTEGER,"
  " hostname TEXT, summary TEXT, n_warnings INTEGER, headline_key TEXT,"
  " headline_name TEXT, headline_unit INTEGER, headline_value REAL);";

static void
row_free (Row *row)
{
  g_clear_object (&row->entry);
  g_free (row);
}

/* ---- where -------------------------------------------------------------- */

char *
ds_library_index_path (const char *dir)
{
  g_autofree char *real = realpath (dir, NULL);
  g_autofree char *canonical = real != NULL ? g_strdup (real) : g_canonicalize_filename (dir, NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical, -1);
  g_autofree char *host = g_strdup (g_get_host_name ());
  g_autofree char *name = NULL;

  /* A host name is a file name, but keep it one whatever it is. */
  g_strdelimit (host, "/\\ ", '_');
  hash[16] = '\0';
  name = g_strdup_printf ("%s-%s.sqlite", host, hash);

  return g_build_filename (g_get_user_cache_dir (), "diskscope", "library", name, NULL);
}

/* ---- opening ------------------------------------------------------------ */

/* An error that making the index again cures (not a database, corrupt,
 * another schema, a folder where the file should be); not one of the
 * moment (busy for 10 s, out of memory or space, read-only). */
static gboolean
is_corrupt (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_OK:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_NOMEM:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_IOERR:
    case SQLITE_INTERRUPT:
    case SQLITE_AUTH:
      return FALSE;
    default:
      return TRUE;
    }
}

static void
remove_index (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  g_debug ("library index %s is unusable: making it again", path);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
}

/* The version the index was made for; NULL if none. */
static char *
index_version (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  char *version = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = 'version'", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    version = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return version;
}

/* Makes the tables (or, for an index of another version, makes them
 * again); SQLite's result code. */
static int
prepare_schema (sqlite3    *db,
                const char *dir)
{
  g_autofree char *version = NULL;
  g_autofree char *sql = NULL;
  int rc;

  rc = sqlite3_exec (db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return rc;
  rc = sqlite3_exec (db, schema, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return rc;

  version = index_version (db);
  if (g_strcmp0 (version, INDEX_VERSION) == 0)
    return SQLITE_OK;

  sql = sqlite3_mprintf ("BEGIN IMMEDIATE; DROP TABLE IF EXISTS results; %s"
                         "INSERT OR REPLACE INTO meta VALUES ('version', '%q');"
                         "INSERT OR REPLACE INTO meta VALUES ('dir', '%q'); COMMIT;",
                         schema, INDEX_VERSION, dir);
  rc = sqlite3_exec (db, sql, NULL, NULL, NULL);
  sqlite3_free (g_steal_pointer (&sql));
  if (rc != SQLITE_OK)
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

/* The index of @dir, made when missing and made again when unusable;
 * NULL when there can be none (the scan then loads every file). */
static sqlite3 *
index_open (const char *dir,
            char      **ret_path)
{
  g_autofree char *path = ds_library_index_path (dir);
  g_autofree char *folder = g_path_get_dirname (path);

  if (g_strcmp0 (g_getenv ("DISKSCOPE_LIBRARY_INDEX"), "off") == 0)
    return NULL;
  if (g_mkdir_with_parents (folder, 0700) < 0)
    return NULL;

  for (int attempt = 0; attempt < 2; attempt++)
    {
      sqlite3 *db = NULL;
      int rc = sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);

      if (rc == SQLITE_OK)
        {
          sqlite3_busy_timeout (db, 10000);
          rc = prepare_schema (db, dir);
        }
      if (rc == SQLITE_OK)
        {
          *ret_path = g_steal_pointer (&path);
          return db;
        }

      g_debug ("library index %s: %s", path, db ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_close (db);
      if (!is_corrupt (rc))
        return NULL;     /* busy for 10 s, out of space, ...: do without */
      remove_index (path);
    }

  return NULL;
}

/* ---- reading ------------------------------------------------------------ */

static const char *
text_at (sqlite3_stmt *stmt,
         int           col)
{
  return (const char *) sqlite3_column_text (stmt, col);
}

static Row *
row_read (sqlite3_stmt *stmt,
          const char   *dir)
{
  DsLibraryEntryFields f = { 0 };
  const char *name = text_at (stmt, 0);
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_auto (GStrv) tags = NULL;
  const char *tag_text = text_at (stmt, 11);
  Row *row;

  if (name == NULL || !g_str_has_suffix (name, ".json"))
    return NULL;
  id = g_strndup (name, strlen (name) - strlen (".json"));
  path = g_build_filename (dir, name, NULL);
  tags = tag_text != NULL && *tag_text != '\0' ? g_strsplit (tag_text, "\n", -1) : g_new0 (char *, 1);

  f.id = id;
  f.path = path;
  f.status = (DsLibraryStatus) sqlite3_column_int (stmt, 5);
  f.error_message = text_at (stmt, 6);
  f.kind = (DsBenchKind) sqlite3_column_int (stmt, 7);
  f.label = text_at (stmt, 8);
  f.custom_label = sqlite3_column_int (stmt, 9);
  f.notes = text_at (stmt, 10);
  f.tags = (const char *const *) tags;
  f.device = text_at (stmt, 12);
  f.device_path = text_at (stmt, 13);
  f.model = text_at (stmt, 14);
  f.serial = text_at (stmt, 15);
  f.wwn = text_at (stmt, 16);
  f.size_bytes = (uint64_t) sqlite3_column_int64 (stmt, 17);
  f.date_us = sqlite3_column_int64 (stmt, 18);
  f.hostname = text_at (stmt, 19);
  f.summary = text_at (stmt, 20);
  f.n_warnings = (guint) sqlite3_column_int (stmt, 21);
  f.headline_key = text_at (stmt, 22);
  f.headline_name = text_at (stmt, 23);
  f.headline_unit = sqlite3_column_int (stmt, 24);
  f.headline_value = sqlite3_column_double (stmt, 25);
  if (f.status > DS_LIBRARY_STATUS_UNREADABLE)
    return NULL;

  row = g_new0 (Row, 1);
  row->stamp.size = sqlite3_column_int64 (stmt, 1);
  row->stamp.mtime_ns = sqlite3_column_int64 (stmt, 2);
  row->stamp.ctime_ns = sqlite3_column_int64 (stmt, 3);
  row->stamp.inode = sqlite3_column_int64 (stmt, 4);
  row->entry = ds_library_entry_new_fields (&f);
  return row;
}

/* Every row, by file name; NULL (with SQLite's code) on an error. */
static GHashTable *
rows_read (sqlite3    *db,
           const char *dir,
           int        *ret_rc)
{
  g_autoptr (GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) row_free);
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, "SELECT " COLUMNS " FROM results", -1, &stmt, NULL);

  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      Row *row = row_read (stmt, dir);

      rc = SQLITE_OK;
      if (row != NULL)
        g_hash_table_replace (rows, g_strdup (text_at (stmt, 0)), row);
    }
  sqlite3_finalize (stmt);

  *ret_rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  return *ret_rc == SQLITE_OK ? g_steal_pointer (&rows) : NULL;
}

/* ---- writing ------------------------------------------------------------ */

static void
bind_text (sqlite3_stmt *stmt,
           int           col,
           const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, col, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, col);
}

static int
change_write (sqlite3_stmt *stmt,
              const Change *c)
{
  DsLibraryEntryFields f;
  g_autofree char *tags = NULL;

  ds_library_entry_get_fields (c->entry, &f);
  tags = g_strjoinv ("\n", (char **) f.tags);

  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  bind_text (stmt, 1, c->name);
  sqlite3_bind_int64 (stmt, 2, c->stamp.size);
  sqlite3_bind_int64 (stmt, 3, c->stamp.mtime_ns);
  sqlite3_bind_int64 (stmt, 4, c->stamp.ctime_ns);
  sqlite3_bind_int64 (stmt, 5, c->stamp.inode);
  sqlite3_bind_int (stmt, 6, (int) f.status);
  bind_text (stmt, 7, f.error_message);
  sqlite3_bind_int (stmt, 8, (int) f.kind);
  bind_text (stmt, 9, f.label);
  sqlite3_bind_int (stmt, 10, f.custom_label);
  bind_text (stmt, 11, f.notes);
  bind_text (stmt, 12, tags);
  bind_text (stmt, 13, f.device);
  bind_text (stmt, 14, f.device_path);
  bind_text (stmt, 15, f.model);
  bind_text (stmt, 16, f.serial);
  bind_text (stmt, 17, f.wwn);
  sqlite3_bind_int64 (stmt, 18, (sqlite3_int64) f.size_bytes);
  sqlite3_bind_int64 (stmt, 19, f.date_us);
  bind_text (stmt, 20, f.hostname);
  bind_text (stmt, 21, f.summary);
  sqlite3_bind_int (stmt, 22, (int) f.n_warnings);
  bind_text (stmt, 23, f.headline_key);
  bind_text (stmt, 24, f.headline_name);
  sqlite3_bind_int (stmt, 25, f.headline_unit);
  sqlite3_bind_double (stmt, 26, f.headline_value);

  return sqlite3_step (stmt) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode (sqlite3_db_handle (stmt));
}

static int
rows_delete (sqlite3    *db,
             GHashTable *rows)
{
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  gpointer key, value;
  int rc = sqlite3_prepare_v2 (db, "DELETE FROM results WHERE name = ?", -1, &stmt, NULL);

  g_hash_table_iter_init (&iter, rows);
  while (rc == SQLITE_OK && g_hash_table_iter_next (&iter, &key, &value))
    {
      if (((Row *) value)->seen)
        continue;
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, key, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (stmt) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode (db);
    }
  sqlite3_finalize (stmt);
  return rc;
}

void
ds_library_index_write (sqlite3    *db,
                        const char *path,
                        GPtrArray  *changes,
                        GHashTable *rows)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (db, "INSERT OR REPLACE INTO results (" COLUMNS ") VALUES "
                             "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &stmt, NULL);
  for (guint i = 0; rc == SQLITE_OK && i < changes->len; i++)
    rc = change_write (stmt, changes->pdata[i]);
  sqlite3_finalize (stmt);
  if (rc == SQLITE_OK && rows != NULL)
    rc = rows_delete (db, rows);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      g_debug ("library index %s not written: %s", path, sqlite3_errmsg (db));
      sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
      if (is_corrupt (rc))
        remove_index (path);
    }
}

/* ---- the rows, for a listing -------------------------------------------- */

GHashTable *
ds_library_index_rows (const char *dir,
                       sqlite3   **ret_db,
                       char      **ret_path)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      g_autofree char *path = NULL;
      sqlite3 *db = index_open (dir, &path);
      GHashTable *rows;
      int rc;

      if (db == NULL)
        return NULL;
      rows = rows_read (db, dir, &rc);
      if (rows != NULL)
        {
          *ret_db = db;
          *ret_path = g_steal_pointer (&path);
          return rows;
        }
      sqlite3_close (db);
      if (!is_corrupt (rc))
        return NULL;
      remove_index (path);
    }

  return NULL;
}
