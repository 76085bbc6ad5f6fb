/* ds-trace-file.c: the capture file (docs/trace-format.md): a versioned
 * header, fixed-size little-endian records, a process table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-trace.h"

/* An unfinished file's count: the writer died before finishing. */
#define COUNT_UNFINISHED UINT64_MAX

const char *
ds_trace_op_name (unsigned op)
{
  static const char *const names[] = { "read", "write", "flush", "discard", "other" };

  return op < G_N_ELEMENTS (names) ? names[op] : "other";
}

static void put32 (uint8_t *p, uint32_t v) { v = GUINT32_TO_LE (v); memcpy (p, &v, 4); }
static void put64 (uint8_t *p, uint64_t v) { v = GUINT64_TO_LE (v); memcpy (p, &v, 8); }
static uint32_t get32 (const uint8_t *p) { uint32_t v; memcpy (&v, p, 4); return GUINT32_FROM_LE (v); }
static uint64_t get64 (const uint8_t *p) { uint64_t v; memcpy (&v, p, 8); return GUINT64_FROM_LE (v); }

static void
encode_header (const DsTraceHeader *h,
               uint64_t             count,
               uint8_t             *b)
{
  memset (b, 0, DS_TRACE_HEADER_SIZE);
  memcpy (b, DS_TRACE_MAGIC, 8);
  put32 (b + 8, DS_TRACE_VERSION);
  put32 (b + 12, DS_TRACE_HEADER_SIZE);
  put32 (b + 16, DS_TRACE_RECORD_SIZE);
  put32 (b + 20, h->source);
  put64 (b + 24, count);
  put64 (b + 32, h->lost_events);
  put64 (b + 40, h->start_unix_ns);
  put64 (b + 48, h->duration_ns);
  put64 (b + 56, h->device_bytes);
  put32 (b + 64, h->dev_major);
  put32 (b + 68, h->dev_minor);
  put32 (b + 72, h->process_count);
  put32 (b + 76, h->flags);
  memcpy (b + 80, h->device, strnlen (h->device, sizeof h->device - 1));
}

static gboolean
decode_header (const uint8_t  *b,
               DsTraceHeader  *h,
               GError        **error)
{
  if (memcmp (b, DS_TRACE_MAGIC, 8) != 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("not a Diskscope trace"));
      return FALSE;
    }
  memset (h, 0, sizeof *h);
  h->version = get32 (b + 8);
  if (h->version != DS_TRACE_VERSION || get32 (b + 12) != DS_TRACE_HEADER_SIZE ||
      get32 (b + 16) != DS_TRACE_RECORD_SIZE)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("a Diskscope trace of version %u (header %u, records %u bytes): this "
                     "version reads version %u"), h->version, get32 (b + 12), get32 (b + 16),
                   DS_TRACE_VERSION);
      return FALSE;
    }
  h->source = get32 (b + 20);
  h->record_count = get64 (b + 24);
  h->lost_events = get64 (b + 32);
  h->start_unix_ns = get64 (b + 40);
  h->duration_ns = get64 (b + 48);
  h->device_bytes = get64 (b + 56);
  h->dev_major = get32 (b + 64);
  h->dev_minor = get32 (b + 68);
  h->process_count = get32 (b + 72);
  h->flags = get32 (b + 76);
  memcpy (h->device, b + 80, sizeof h->device - 1);
  h->device[sizeof h->device - 1] = 0;
  return TRUE;
}

static void
encode_record (const DsTraceRecord *r,
               uint8_t             *b)
{
  put64 (b, r->issue_ns);
  put64 (b + 8, r->complete_ns);
  put64 (b + 16, r->queue_ns);
  put64 (b + 24, r->offset);
  put32 (b + 32, r->bytes);
  put32 (b + 36, r->pid);
  b[40] = r->op;
  b[41] = r->flags;
  put32 (b + 42, 0);
  b[42] = (uint8_t) ((uint16_t) r->error & 0xff);
  b[43] = (uint8_t) ((uint16_t) r->error >> 8);
  memset (b + 44, 0, 4);
}

static void
decode_record (const uint8_t *b,
               DsTraceRecord *r)
{
  r->issue_ns = get64 (b);
  r->complete_ns = get64 (b + 8);
  r->queue_ns = get64 (b + 16);
  r->offset = get64 (b + 24);
  r->bytes = get32 (b + 32);
  r->pid = get32 (b + 36);
  r->op = b[40] < DS_TRACE_N_OPS ? b[40] : DS_TRACE_OP_OTHER;
  r->flags = b[41];
  r->error = (int16_t) (uint16_t) (b[42] | (b[43] << 8));
}

struct _DsTraceWriter {
  FILE       *file;
  char       *path;
  uint64_t    count;
  GHashTable *processes;    /* pid -> comm */
  uint8_t     buf[DS_TRACE_RECORD_SIZE * 256];
  size_t      used;
};

static gboolean
writer_fail (DsTraceWriter *w,
             GError       **error)
{
  int e = errno ? errno : EIO;

  ds_set_error_from_errno (error, -e, w->path);
  return FALSE;
}

DsTraceWriter *
ds_trace_writer_new (const char           *path,
                     const DsTraceHeader  *header,
                     GError              **error)
{
  DsTraceWriter *w;
  uint8_t b[DS_TRACE_HEADER_SIZE];
  FILE *file = fopen (path, "wb");

  if (file == NULL)
    {
      ds_set_error_from_errno (error, -errno, path);
      return NULL;
    }
  w = g_new0 (DsTraceWriter, 1);
  w->file = file;
  w->path = g_strdup (path);
  w->processes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  encode_header (header, COUNT_UNFINISHED, b);
  /* On disk at once: a writer killed later leaves a file that says it is
   * unfinished, not an empty one. */
  if (fwrite (b, 1, sizeof b, file) != sizeof b || fflush (file) != 0)
    {
      writer_fail (w, error);
      ds_trace_writer_abandon (w);
      return NULL;
    }
  return w;
}

static gboolean
writer_drain (DsTraceWriter *w,
              GError       **error)
{
  if (w->used > 0 && fwrite (w->buf, 1, w->used, w->file) != w->used)
    return writer_fail (w, error);
  w->used = 0;
  return TRUE;
}

gboolean
ds_trace_writer_add (DsTraceWriter        *w,
                     const DsTraceRecord  *record,
                     GError              **error)
{
  if (w->used + DS_TRACE_RECORD_SIZE > sizeof w->buf && !writer_drain (w, error))
    return FALSE;
  encode_record (record, w->buf + w->used);
  w->used += DS_TRACE_RECORD_SIZE;
  w->count++;
  return TRUE;
}

void
ds_trace_writer_process (DsTraceWriter *w,
                         uint32_t       pid,
                         const char    *comm)
{
  if (comm[0] != 0 && !g_hash_table_contains (w->processes, GUINT_TO_POINTER (pid)) &&
      g_hash_table_size (w->processes) < 65536)
    g_hash_table_insert (w->processes, GUINT_TO_POINTER (pid), g_strndup (comm, 15));
}

uint64_t
ds_trace_writer_count (const DsTraceWriter *w)
{
  return w->count;
}

gboolean
ds_trace_writer_finish (DsTraceWriter  *w,
                        DsTraceHeader  *header,
                        GError        **error)
{
  GHashTableIter iter;
  gpointer key, value;
  uint8_t b[DS_TRACE_HEADER_SIZE];
  gboolean ok = writer_drain (w, error);

  g_hash_table_iter_init (&iter, w->processes);
  while (ok && g_hash_table_iter_next (&iter, &key, &value))
    {
      uint8_t p[DS_TRACE_PROCESS_SIZE] = { 0 };

      put32 (p, GPOINTER_TO_UINT (key));
      memcpy (p + 8, value, strlen (value));
      if (fwrite (p, 1, sizeof p, w->file) != sizeof p)
        ok = writer_fail (w, error);
    }
  header->record_count = w->count;
  header->process_count = g_hash_table_size (w->processes);
  header->version = DS_TRACE_VERSION;
  encode_header (header, w->count, b);
  if (ok && (fseek (w->file, 0, SEEK_SET) != 0 || fwrite (b, 1, sizeof b, w->file) != sizeof b))
    ok = writer_fail (w, error);
  if (fclose (w->file) != 0 && ok)
    ok = writer_fail (w, error);
  w->file = NULL;
  g_hash_table_unref (w->processes);
  g_free (w->path);
  g_free (w);
  return ok;
}

void
ds_trace_writer_abandon (DsTraceWriter *w)
{
  if (w->file != NULL)
    fclose (w->file);
  g_unlink (w->path);
  g_hash_table_unref (w->processes);
  g_free (w->path);
  g_free (w);
}

struct _DsTraceReader {
  FILE         *file;
  char         *path;
  DsTraceHeader header;
  uint64_t      next;
};

gboolean
ds_trace_file_is_capture (const char *path)
{
  char b[8];
  FILE *f = fopen (path, "rb");
  gboolean yes;

  if (f == NULL)
    return FALSE;
  yes = fread (b, 1, 8, f) == 8 && memcmp (b, DS_TRACE_MAGIC, 8) == 0;
  fclose (f);
  return yes;
}

DsTraceReader *
ds_trace_reader_open (const char  *path,
                      GError     **error)
{
  g_autoptr (DsTraceReader) r = g_new0 (DsTraceReader, 1);
  uint8_t b[DS_TRACE_HEADER_SIZE];
  GStatBuf st;
  uint64_t room;

  r->path = g_strdup (path);
  r->file = fopen (path, "rb");
  if (r->file == NULL)
    {
      ds_set_error_from_errno (error, -errno, path);
      return NULL;
    }
  if (fread (b, 1, sizeof b, r->file) != sizeof b)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: not a Diskscope trace (too short)"), path);
      return NULL;
    }
  if (!decode_header (b, &r->header, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  if (fstat (fileno (r->file), &st) != 0)
    {
      ds_set_error_from_errno (error, -errno, path);
      return NULL;
    }
  room = (uint64_t) st.st_size - DS_TRACE_HEADER_SIZE;
  if (r->header.record_count == COUNT_UNFINISHED)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: an unfinished capture (the capture was killed before it wrote its end)"),
                   path);
      return NULL;
    }
  if (r->header.record_count > room / DS_TRACE_RECORD_SIZE ||
      (uint64_t) r->header.process_count * DS_TRACE_PROCESS_SIZE >
      room - r->header.record_count * DS_TRACE_RECORD_SIZE)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: cut short (its header counts %" PRIu64 " records)"),
                   path, r->header.record_count);
      return NULL;
    }
  return g_steal_pointer (&r);
}

const DsTraceHeader *
ds_trace_reader_header (const DsTraceReader *r)
{
  return &r->header;
}

gboolean
ds_trace_reader_next (DsTraceReader  *r,
                      DsTraceRecord  *ret_record,
                      GError        **error)
{
  uint8_t b[DS_TRACE_RECORD_SIZE];

  if (r->next >= r->header.record_count)
    return FALSE;
  if (fread (b, 1, sizeof b, r->file) != sizeof b)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: cut short"), r->path);
      return FALSE;
    }
  decode_record (b, ret_record);
  r->next++;
  return TRUE;
}

gboolean
ds_trace_reader_rewind (DsTraceReader  *r,
                        GError        **error)
{
  if (fseek (r->file, DS_TRACE_HEADER_SIZE, SEEK_SET) != 0)
    {
      ds_set_error_from_errno (error, -errno, r->path);
      return FALSE;
    }
  r->next = 0;
  return TRUE;
}

GArray *
ds_trace_reader_processes (DsTraceReader  *r,
                           GError        **error)
{
  g_autoptr (GArray) list = g_array_new (FALSE, TRUE, sizeof (DsTraceProcess));
  long at = DS_TRACE_HEADER_SIZE + (long) (r->header.record_count * DS_TRACE_RECORD_SIZE);

  if (fseek (r->file, at, SEEK_SET) != 0)
    {
      ds_set_error_from_errno (error, -errno, r->path);
      return NULL;
    }
  for (uint32_t i = 0; i < r->header.process_count; i++)
    {
      uint8_t b[DS_TRACE_PROCESS_SIZE];
      DsTraceProcess p = { 0 };

      if (fread (b, 1, sizeof b, r->file) != sizeof b)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: cut short"), r->path);
          return NULL;
        }
      p.pid = get32 (b);
      memcpy (p.comm, b + 8, 15);
      g_array_append_val (list, p);
    }
  r->next = r->header.record_count;
  return g_steal_pointer (&list);
}

void
ds_trace_reader_free (DsTraceReader *r)
{
  if (r->file != NULL)
    fclose (r->file);
  g_free (r->path);
  g_free (r);
}
