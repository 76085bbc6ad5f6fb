/* ds-file-read.c: reading a file the user named (see ds-file-read.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thread safety: no global state; any of these may run on any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-error.h"
#include "ds-file-read.h"
#include "ds-text.h"

/* What a line reader reads at once. */
#define CHUNK_BYTES (64 * 1024)

static const char *
describe_file_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISFIFO (mode))
    return _("a FIFO (named pipe)");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");

  return _("not a regular file");
}

static void
set_too_large (GError     **error,
               const char  *name,
               uint64_t     size,
               const char  *what,
               uint64_t     max_bytes,
               const char  *cap_name)
{
  if (size > 0)
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                 _("%s: %" PRIu64 " bytes, larger than %s can be (%" PRIu64 " MiB, the cap %s)"),
                 name, size, what, max_bytes >> 20, cap_name);
  else
    g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                 _("%s: more than %" PRIu64 " MiB, larger than %s can be (the cap %s)"),
                 name, max_bytes >> 20, what, cap_name);
}

int
ds_file_open_bounded (const char  *path,
                      const char  *what,
                      uint64_t     max_bytes,
                      const char  *cap_name,
                      uint64_t    *ret_size,
                      GError     **error)
{
  g_autofree char *name = ds_text_sanitize (path);
  struct stat st;
  int flags;
  int fd;

  g_return_val_if_fail (path != NULL && what != NULL, -1);

  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
   * right after).  O_NOCTTY: a terminal named here must not become ours. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    {
      int e = errno;

      if (e == ENXIO)
        g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                     _("%s: not %s (a socket or a device that is not there)"), name, what);
      else
        g_set_error (error, DS_ERROR,
                     e == ENOENT || e == ENOTDIR ? DS_ERROR_NOT_FOUND :
                     e == EACCES || e == EPERM ? DS_ERROR_PERMISSION : DS_ERROR_FAILED,
                     "%s: %s", name, g_strerror (e));
      return -1;
    }

  if (fstat (fd, &st) < 0)
    {
      int e = errno;

      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "%s: %s", name, g_strerror (e));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s is %s, not %s"),
                   name, describe_file_type (st.st_mode), what);
      return -1;
    }
  if ((uint64_t) st.st_size > max_bytes)
    {
      close (fd);
      set_too_large (error, name, (uint64_t) st.st_size, what, max_bytes, cap_name);
      return -1;
    }

  /* A regular file: reads do not block anyway; say so plainly. */
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    (void) fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);

  if (ret_size != NULL)
    *ret_size = (uint64_t) st.st_size;
  return fd;
}

/* Reads @fd into a new buffer (NUL-terminated), never more than
 * @max_bytes + 1 bytes.  -errno, or -EFBIG past @max_bytes. */
static int
read_all (int       fd,
          uint64_t  size_hint,
          uint64_t  max_bytes,
          char    **ret_data,
          gsize    *ret_length)
{
  gsize capacity = (gsize) MIN (size_hint, max_bytes) + 1;
  g_autofree char *data = g_malloc (capacity + 1);
  gsize length = 0;

  for (;;)
    {
      ssize_t n;

      if (length == capacity)
        {
          /* Longer than fstat() said (it grows, or a /proc file that says
           * 0): grow, up to the bound and one. */
          if (capacity > max_bytes)
            return -EFBIG;
          capacity = (gsize) MIN ((uint64_t) capacity * 2 + 4096, max_bytes + 1);
          data = g_realloc (data, capacity + 1);
        }

      n = read (fd, data + length, capacity - length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      if (n == 0)
        break;
      length += (gsize) n;
    }

  if (length > max_bytes)
    return -EFBIG;

  data[length] = '\0';
  *ret_data = g_steal_pointer (&data);
  *ret_length = length;
  return 0;
}

gboolean
ds_file_read_bounded (const char  *path,
                      const char  *what,
                      uint64_t     max_bytes,
                      const char  *cap_name,
                      char       **ret_data,
                      gsize       *ret_length,
                      GError     **error)
{
  uint64_t size = 0;
  int fd = ds_file_open_bounded (path, what, max_bytes, cap_name, &size, error);
  int r;

  if (fd < 0)
    return FALSE;

  r = read_all (fd, size, max_bytes, ret_data, ret_length);
  close (fd);
  if (r == 0)
    return TRUE;

  {
    g_autofree char *name = ds_text_sanitize (path);

    if (r == -EFBIG)
      set_too_large (error, name, 0, what, max_bytes, cap_name);
    else
      g_set_error (error, DS_ERROR, r == -EISDIR ? DS_ERROR_CORRUPT : DS_ERROR_FAILED,
                   "%s: %s", name, g_strerror (-r));
  }
  return FALSE;
}

/* ---- line by line ------------------------------------------------------- */

struct _DsLineReader {
  int       fd;
  char     *name;           /* sanitized, for messages */
  char     *what;
  char     *cap_name;
  uint64_t  max_bytes;
  uint64_t  read_bytes;
  gsize     max_line;
  char     *chunk;          /* CHUNK_BYTES */
  gsize     chunk_pos;
  gsize     chunk_len;
  GString  *line;
  guint64   line_no;
  gboolean  eof;
};

DsLineReader *
ds_line_reader_open (const char  *path,
                     const char  *what,
                     uint64_t     max_bytes,
                     const char  *cap_name,
                     gsize        max_line_bytes,
                     GError     **error)
{
  DsLineReader *reader;
  int fd = ds_file_open_bounded (path, what, max_bytes, cap_name, NULL, error);

  if (fd < 0)
    return NULL;

  reader = g_new0 (DsLineReader, 1);
  reader->fd = fd;
  reader->name = ds_text_sanitize (path);
  reader->what = g_strdup (what);
  reader->cap_name = g_strdup (cap_name);
  reader->max_bytes = max_bytes;
  reader->max_line = MAX (max_line_bytes, 1);
  reader->chunk = g_malloc (CHUNK_BYTES);
  reader->line = g_string_sized_new (256);
  return reader;
}

/* Refills the chunk; FALSE at the end or on an error. */
static gboolean
refill (DsLineReader  *reader,
        GError       **error)
{
  ssize_t n;

  do
    n = read (reader->fd, reader->chunk, CHUNK_BYTES);
  while (n < 0 && errno == EINTR);

  if (n < 0)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "%s: %s", reader->name, g_strerror (e));
      return FALSE;
    }
  if (n == 0)
    {
      reader->eof = TRUE;
      return FALSE;
    }

  reader->read_bytes += (uint64_t) n;
  if (reader->read_bytes > reader->max_bytes)
    {
      set_too_large (error, reader->name, 0, reader->what, reader->max_bytes, reader->cap_name);
      return FALSE;
    }
  reader->chunk_pos = 0;
  reader->chunk_len = (gsize) n;
  return TRUE;
}

gboolean
ds_line_reader_next (DsLineReader  *reader,
                     char         **ret_line,
                     GError       **error)
{
  GError *local = NULL;

  g_string_truncate (reader->line, 0);
  for (;;)
    {
      const char *start;
      const char *nl;
      gsize n;

      if (reader->chunk_pos == reader->chunk_len)
        {
          if (reader->eof || !refill (reader, &local))
            {
              if (local != NULL)
                {
                  g_propagate_error (error, local);
                  return FALSE;
                }
              /* The end: a last line without '\n' still counts. */
              if (reader->line->len == 0)
                return FALSE;
              break;
            }
        }

      start = reader->chunk + reader->chunk_pos;
      n = reader->chunk_len - reader->chunk_pos;
      nl = memchr (start, '\n', n);
      if (nl != NULL)
        n = (gsize) (nl - start);
      if (memchr (start, '\0', n) != NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s:%" PRIu64 ": not %s (a NUL byte: binary)"),
                       reader->name, (uint64_t) reader->line_no + 1, reader->what);
          return FALSE;
        }
      if (reader->line->len + n > reader->max_line)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s:%" PRIu64 ": a line longer than %zu bytes: not %s"),
                       reader->name, (uint64_t) reader->line_no + 1, reader->max_line, reader->what);
          return FALSE;
        }
      g_string_append_len (reader->line, start, (gssize) n);
      reader->chunk_pos += n;
      if (nl != NULL)
        {
          reader->chunk_pos++;
          break;
        }
    }

  reader->line_no++;
  *ret_line = reader->line->str;
  return TRUE;
}

guint64
ds_line_reader_line (const DsLineReader *reader)
{
  return reader->line_no;
}

void
ds_line_reader_free (DsLineReader *reader)
{
  if (reader == NULL)
    return;

  close (reader->fd);
  g_free (reader->name);
  g_free (reader->what);
  g_free (reader->cap_name);
  g_free (reader->chunk);
  g_string_free (reader->line, TRUE);
  g_free (reader);
}
