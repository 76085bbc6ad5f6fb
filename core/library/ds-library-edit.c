/* ds-library-edit.c: changing a saved result's file (its annotation, or
 * deleting it) while other programs may change it too
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An edit is a read-modify-write of one file, and two of them at once lose
 * one (20 `results tag` in parallel left 6 tags), as does an edit racing a
 * deletion: the edit's rename brought the deleted file back.  So:
 *
 *  1. the file is loaded, the edit applied and the new text written to a
 *     synced temporary file beside it, all without a lock (a large result
 *     takes seconds to load);
 *  2. then, under the result's lock (ds-library-lock.c), the entry must
 *     still exist and still be the version that was loaded (same inode,
 *     size and times); if it changed, all of it is done again, this time
 *     under the lock from the start, so it cannot change again;
 *  3. the new file takes the old one's place with RENAME_EXCHANGE, which
 *     fails when the old one is gone: even a deletion by a program that
 *     does not take the lock (rm(1)) is never undone.  Where the
 *     filesystem has no RENAME_EXCHANGE (NFS), a plain rename under the
 *     lock, right after the check, does the same for every Diskscope.
 *
 * A deletion takes the same lock.  An entry that is a symbolic link is
 * edited in the file it points to, so the link (and whoever else reads
 * that file) sees the edit; deleting it removes the link only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-library-private.h"
#include "ds-result-json.h"
#include "ds-text.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/* Tries before giving up on a file that keeps changing: the first without
 * the lock, the others under it (only a program that ignores the lock
 * can change the file then). */
#define EDIT_ATTEMPTS 5

/* ---- DsLibraryEdit ------------------------------------------------------ */

void
ds_library_edit_clear (DsLibraryEdit *edit)
{
  g_clear_pointer (&edit->label, g_free);
  g_clear_pointer (&edit->notes, g_free);
  g_clear_pointer (&edit->add_tags, g_strfreev);
  g_clear_pointer (&edit->remove_tags, g_strfreev);
  edit->set_label = edit->set_notes = edit->require_tags = FALSE;
}

void
ds_library_edit_copy (DsLibraryEdit       *dst,
                      const DsLibraryEdit *src)
{
  *dst = (DsLibraryEdit) {
    .set_label = src->set_label,
    .label = g_strdup (src->label),
    .set_notes = src->set_notes,
    .notes = g_strdup (src->notes),
    .add_tags = g_strdupv (src->add_tags),
    .remove_tags = g_strdupv (src->remove_tags),
    .require_tags = src->require_tags,
  };
}

/* The tags of @a that @b does not have; NULL when none. */
static GStrv
tags_missing (const DsAnnotation *a,
              const DsAnnotation *b)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;

  for (guint i = 0; a->tags != NULL && a->tags[i] != NULL; i++)
    if (!ds_annotation_has_tag (b, a->tags[i]))
      {
        g_strv_builder_add (builder, a->tags[i]);
        n++;
      }

  return n > 0 ? g_strv_builder_end (builder) : NULL;
}

void
ds_library_edit_init_diff (DsLibraryEdit      *edit,
                           const DsAnnotation *before,
                           const DsAnnotation *after)
{
  *edit = (DsLibraryEdit) {
    .set_label = g_strcmp0 (before->label, after->label) != 0,
    .label = g_strdup (after->label),
    .set_notes = g_strcmp0 (before->notes, after->notes) != 0,
    .notes = g_strdup (after->notes),
    .add_tags = tags_missing (after, before),
    .remove_tags = tags_missing (before, after),
  };
}

gboolean
ds_library_edit_apply (const DsLibraryEdit *edit,
                       DsAnnotation        *annotation,
                       GError             **error)
{
  g_auto (DsAnnotation) changed = { 0 };

  ds_annotation_copy (&changed, annotation);
  if (edit->set_label && !ds_annotation_set_label (&changed, edit->label, error))
    return FALSE;
  if (edit->set_notes && !ds_annotation_set_notes (&changed, edit->notes, error))
    return FALSE;

  /* Removals first: a full list of tags makes room for the new ones. */
  for (guint i = 0; edit->remove_tags != NULL && edit->remove_tags[i] != NULL; i++)
    if (!ds_annotation_remove_tag (&changed, edit->remove_tags[i]) && edit->require_tags)
      {
        g_autofree char *quoted = ds_text_sanitize_short (edit->remove_tags[i], 40);

        g_set_error (error, DS_ERROR, DS_ERROR_FAILED, _("it has no tag “%s”"), quoted);
        return FALSE;
      }
  for (guint i = 0; edit->add_tags != NULL && edit->add_tags[i] != NULL; i++)
    if (!ds_annotation_add_tag (&changed, edit->add_tags[i], error))
      return FALSE;

  ds_annotation_clear (annotation);
  *annotation = changed;
  changed = (DsAnnotation) { 0 };
  return TRUE;
}

/* ---- the file ----------------------------------------------------------- */

/* One version of a file: an edit replaces it (another inode); a change in
 * place moves its size or its times. */
static gboolean
same_version (const struct stat *a,
              const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static void
set_gone_error (GError     **error,
                const char  *dir,
                const char  *id)
{
  g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
               _("%s is no longer in %s: it was deleted"), id, dir);
}

/* The file behind the entry @path: @path itself, or the file its link
 * points to.  DS_ERROR_NOT_FOUND when the entry is gone. */
static char *
entry_file (const char  *dir,
            const char  *id,
            const char  *path,
            GError     **error)
{
  struct stat st;
  char *real;
  char *copy;

  if (lstat (path, &st) < 0)
    {
      int e = errno;

      if (e == ENOENT)
        set_gone_error (error, dir, id);
      else
        g_set_error (error, DS_ERROR, ds_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  if (!S_ISLNK (st.st_mode))
    return g_strdup (path);

  real = realpath (path, NULL);
  if (real == NULL)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, e == ENOENT ? DS_ERROR_NOT_FOUND : ds_error_from_errno (e),
                   _("%s is a link to a file that cannot be reached: %s"), path, g_strerror (e));
      return NULL;
    }
  copy = g_strdup (real);
  free (real);
  return copy;
}

/* Puts @tmp in the place of @file, which must still exist. */
static gboolean
replace_existing (const char  *tmp,
                  const char  *file,
                  const char  *dir,
                  const char  *id,
                  GError     **error)
{
  if (renameat2 (AT_FDCWD, tmp, AT_FDCWD, file, RENAME_EXCHANGE) == 0)
    {
      (void) unlink (tmp);   /* now the old version */
      return TRUE;
    }
  if (errno == ENOENT)
    {
      set_gone_error (error, dir, id);
      return FALSE;
    }
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
    {
      ds_library_set_write_error (error, errno, file);
      return FALSE;
    }

  /* No RENAME_EXCHANGE here (NFS): the lock and the check just made keep
   * this rename from bringing back a file another Diskscope deleted. */
  if (rename (tmp, file) < 0)
    {
      ds_library_set_write_error (error, errno, file);
      return FALSE;
    }
  return TRUE;
}

typedef enum {
  EDIT_DONE,
  EDIT_FAILED,
  EDIT_AGAIN,   /* the file changed under the edit */
} EditStatus;

static EditStatus
edit_once (const char           *dir,
           const char           *id,
           const char           *path,
           const DsLibraryEdit  *edit,
           gboolean              lock_first,
           DsLibraryEntry      **ret_entry,
           GError              **error)
{
  g_autoptr (DsLibraryLock) lock = NULL;
  g_autoptr (DsResult) result = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *file = NULL;
  g_autofree char *again = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *data = NULL;
  struct stat before, now;
  gsize length = 0;

  if (lock_first && (lock = ds_library_lock_entry (dir, id, error)) == NULL)
    return EDIT_FAILED;
  if ((file = entry_file (dir, id, path, error)) == NULL)
    return EDIT_FAILED;
  if (stat (file, &before) < 0)
    return EDIT_AGAIN;   /* gone since: the next try says so */

  result = ds_result_load (file, &local);
  if (result == NULL)
    {
      /* Deleted while it was read: say that, not "No such file". */
      if (lstat (path, &now) < 0 && errno == ENOENT)
        set_gone_error (error, dir, id);
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return EDIT_FAILED;
    }
  if (stat (file, &now) < 0 || !same_version (&before, &now))
    return EDIT_AGAIN;
  if (!ds_library_edit_apply (edit, &result->annotation, error))
    return EDIT_FAILED;

  data = ds_result_to_data (result, &length);
  tmp = ds_library_write_temp (file, data, length, &before, error);
  if (tmp == NULL)
    return EDIT_FAILED;

  if (lock == NULL && (lock = ds_library_lock_entry (dir, id, error)) == NULL)
    {
      (void) unlink (tmp);
      return EDIT_FAILED;
    }
  /* Under the lock: the entry is still there, as it was loaded. */
  again = entry_file (dir, id, path, error);
  if (again == NULL)
    {
      (void) unlink (tmp);
      return EDIT_FAILED;
    }
  if (strcmp (again, file) != 0 || stat (file, &now) < 0 || !same_version (&before, &now))
    {
      (void) unlink (tmp);
      return EDIT_AGAIN;
    }
  if (!replace_existing (tmp, file, dir, id, error))
    {
      (void) unlink (tmp);
      return EDIT_FAILED;
    }
  ds_library_fsync_dir (file);

  *ret_entry = ds_library_entry_new_for_result (id, path, result);
  return EDIT_DONE;
}

DsLibraryEntry *
ds_library_edit_file (const char           *dir,
                      const char           *id,
                      const char           *path,
                      const DsLibraryEdit  *edit,
                      GError              **error)
{
  for (guint attempt = 0; attempt < EDIT_ATTEMPTS; attempt++)
    {
      DsLibraryEntry *entry = NULL;

      switch (edit_once (dir, id, path, edit, attempt > 0, &entry, error))
        {
        case EDIT_DONE:
          return entry;
        case EDIT_FAILED:
          return NULL;
        case EDIT_AGAIN:
        default:
          break;
        }
    }

  g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
               _("%s kept changing while it was being edited (a program that does "
               "not take Diskscope's lock is writing it): try again"), path);
  return NULL;
}

gboolean
ds_library_remove (DsLibrary   *self,
                   const char  *id,
                   GError     **error)
{
  g_autoptr (DsLibraryLock) lock = NULL;
  DsLibraryEntry *entry;
  const char *path;

  g_return_val_if_fail (DS_IS_LIBRARY (self), FALSE);

  entry = ds_library_require_entry (self, id, error);
  if (entry == NULL)
    return FALSE;
  path = ds_library_entry_get_path (entry);

  lock = ds_library_lock_entry (ds_library_get_dir (self), id, error);
  if (lock == NULL)
    return FALSE;
  /* A link: the link goes, not the file it points to. */
  if (unlink (path) < 0 && errno != ENOENT)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, e == EROFS ? DS_ERROR_PERMISSION : ds_error_from_errno (e),
                   _("could not delete %s: %s%s"), path, g_strerror (e),
                   e == EROFS ? _(" (a read-only filesystem)") : "");
      return FALSE;
    }
  ds_library_fsync_dir (path);
  g_clear_pointer (&lock, ds_library_lock_release);

  ds_library_drop_entry (self, id);
  return TRUE;
}
