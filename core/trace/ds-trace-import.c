/* ds-trace-import.c: traces production servers already have: blktrace's
 * binary files (blkparse's input) and fio's write_iolog (versions 2, 3)
 *
 * blktrace: struct blk_io_trace (include/uapi/linux/blktrace_api.h), 48
 * bytes in the writer's byte order, then pdu_len bytes; one file per CPU,
 * merged here in time order.
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

#define BLK_MAGIC        0x65617400u   /* BLK_IO_TRACE_MAGIC, version in the low byte */
#define BLK_TRACE_SIZE   48
#define BLK_TC_SHIFT     16
#define BLK_TC_READ      (1u << 0)
#define BLK_TC_WRITE     (1u << 1)
#define BLK_TC_FLUSH     (1u << 2)
#define BLK_TC_SYNC      (1u << 3)
#define BLK_TC_NOTIFY    (1u << 10)
#define BLK_TC_AHEAD     (1u << 11)
#define BLK_TC_META      (1u << 12)
#define BLK_TC_DISCARD   (1u << 13)
#define BLK_TC_FUA       (1u << 15)
#define TA_QUEUE         1
#define TA_ISSUE         7
#define TA_COMPLETE      8
#define TA_INSERT        12
#define TN_PROCESS       0
#define MAX_PDU          4096
#define MAX_FILES        1024

typedef struct {
  FILE        *file;
  const char  *path;
  gboolean     swap;
  gboolean     have;      /* @cur holds the next trace */
  uint32_t     action, pid, bytes, device;
  uint64_t     time, sector;
  int16_t      error;
  char         comm[16];
} BlkFile;

static uint32_t sw32 (uint32_t v, gboolean s) { return s ? GUINT32_SWAP_LE_BE (v) : v; }
static uint64_t sw64 (uint64_t v, gboolean s) { return s ? GUINT64_SWAP_LE_BE (v) : v; }

/* Reads the next trace of @f into it; FALSE at the end. */
static gboolean
blk_next (BlkFile  *f,
          GError  **error)
{
  uint8_t b[BLK_TRACE_SIZE], pdu[MAX_PDU];
  uint32_t magic;
  uint16_t pdu_len, err;
  size_t n = fread (b, 1, sizeof b, f->file);

  f->have = FALSE;
  if (n == 0 && feof (f->file))
    return TRUE;
  if (n != sizeof b)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: cut short inside a trace"), f->path);
      return FALSE;
    }
  memcpy (&magic, b, 4);
  if ((magic & 0xffffff00u) == BLK_MAGIC)
    f->swap = FALSE;
  else if ((GUINT32_SWAP_LE_BE (magic) & 0xffffff00u) == BLK_MAGIC)
    f->swap = TRUE;
  else
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: not a blktrace file (bad magic)"), f->path);
      return FALSE;
    }
  memcpy (&f->time, b + 8, 8);
  f->time = sw64 (f->time, f->swap);
  memcpy (&f->sector, b + 16, 8);
  f->sector = sw64 (f->sector, f->swap);
  memcpy (&f->bytes, b + 24, 4);
  f->bytes = sw32 (f->bytes, f->swap);
  memcpy (&f->action, b + 28, 4);
  f->action = sw32 (f->action, f->swap);
  memcpy (&f->pid, b + 32, 4);
  f->pid = sw32 (f->pid, f->swap);
  memcpy (&f->device, b + 36, 4);
  f->device = sw32 (f->device, f->swap);
  memcpy (&err, b + 44, 2);
  memcpy (&pdu_len, b + 46, 2);
  if (f->swap)
    {
      err = GUINT16_SWAP_LE_BE (err);
      pdu_len = GUINT16_SWAP_LE_BE (pdu_len);
    }
  f->error = (int16_t) err;
  if (pdu_len > MAX_PDU || fread (pdu, 1, pdu_len, f->file) != pdu_len)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: cut short inside a trace"), f->path);
      return FALSE;
    }
  memset (f->comm, 0, sizeof f->comm);
  if (f->action == (TN_PROCESS | (BLK_TC_NOTIFY << BLK_TC_SHIFT)))
    memcpy (f->comm, pdu, MIN (pdu_len, sizeof f->comm - 1));
  f->have = TRUE;
  return TRUE;
}

static gboolean
blk_event (const BlkFile *f,
           DsTraceEvent  *e)
{
  uint32_t cat = f->action >> BLK_TC_SHIFT;

  memset (e, 0, sizeof *e);
  switch (f->action & 0xffff)
    {
    case TA_QUEUE: e->kind = DS_TRACE_EV_QUEUE; break;
    case TA_INSERT: e->kind = DS_TRACE_EV_INSERT; break;
    case TA_ISSUE: e->kind = DS_TRACE_EV_ISSUE; break;
    case TA_COMPLETE: e->kind = DS_TRACE_EV_COMPLETE; break;
    default: return FALSE;
    }
  if (cat & BLK_TC_NOTIFY)
    return FALSE;
  e->ts_ns = f->time;
  e->sector = f->sector;
  e->bytes = f->bytes;
  e->pid = f->pid;
  e->error = f->error;
  if (cat & BLK_TC_DISCARD)
    e->op = DS_TRACE_OP_DISCARD;
  else if (f->bytes == 0 && (cat & BLK_TC_FLUSH))
    e->op = DS_TRACE_OP_FLUSH;
  else if (cat & BLK_TC_WRITE)
    e->op = DS_TRACE_OP_WRITE;
  else
    e->op = DS_TRACE_OP_READ;
  e->flags = ((cat & BLK_TC_FUA) ? DS_TRACE_FLAG_FUA : 0) |
             ((cat & BLK_TC_SYNC) ? DS_TRACE_FLAG_SYNC : 0) |
             ((cat & BLK_TC_META) ? DS_TRACE_FLAG_META : 0) |
             ((cat & BLK_TC_AHEAD) ? DS_TRACE_FLAG_AHEAD : 0) |
             ((cat & BLK_TC_FLUSH) && f->bytes > 0 ? DS_TRACE_FLAG_PREFLUSH : 0);
  return TRUE;
}

/* The merge: the file whose next trace is the oldest, each time. */
static gboolean
blk_merge (BlkFile        *files,
           guint           n,
           DsTraceWriter  *writer,
           DsTraceHeader  *h,
           GError        **error)
{
  DsTraceMatcher *m = NULL;
  GHashTable *names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  uint64_t first = 0, last = 0;
  gboolean ok = TRUE;

  for (;;)
    {
      BlkFile *best = NULL;
      DsTraceEvent e;

      for (guint i = 0; i < n; i++)
        if (files[i].have && (best == NULL || files[i].time < best->time))
          best = &files[i];
      if (best == NULL)
        break;
      if (best->comm[0] != 0)
        g_hash_table_replace (names, GUINT_TO_POINTER (best->pid), g_strdup (best->comm));
      else if (blk_event (best, &e))
        {
          const char *comm = g_hash_table_lookup (names, GUINT_TO_POINTER (e.pid));

          if (m == NULL)
            {
              m = ds_trace_matcher_new (writer, best->time, 0, 0);
              first = best->time;
              h->dev_major = best->device >> 20;
              h->dev_minor = best->device & 0xfffff;
            }
          if (comm != NULL)
            g_strlcpy (e.comm, comm, sizeof e.comm);
          last = best->time;
          if (!(ok = ds_trace_matcher_feed (m, &e, error)))
            break;
        }
      if (!(ok = blk_next (best, error)))
        break;
    }
  if (ok && m != NULL)
    ok = ds_trace_matcher_flush (m, error);
  h->duration_ns = last - first;
  if (m != NULL)
    ds_trace_matcher_free (m);
  g_hash_table_unref (names);
  return ok;
}

gboolean
ds_trace_import_blktrace (const char *const *paths,
                          const char        *output,
                          DsTraceHeader     *ret_header,
                          GError           **error)
{
  guint n = g_strv_length ((char **) paths);
  g_autofree BlkFile *files = NULL;
  DsTraceHeader h = { 0 };
  DsTraceWriter *w;
  gboolean ok = TRUE;

  if (n == 0 || n > MAX_FILES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("between 1 and %d blktrace files"), MAX_FILES);
      return FALSE;
    }
  files = g_new0 (BlkFile, n);
  for (guint i = 0; i < n && ok; i++)
    {
      files[i].path = paths[i];
      files[i].file = fopen (paths[i], "rb");
      if (files[i].file == NULL)
        {
          ds_set_error_from_errno (error, -errno, paths[i]);
          ok = FALSE;
        }
      else if ((ok = blk_next (&files[i], error)) && !files[i].have)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: empty (not a blktrace file)"), paths[i]);
          ok = FALSE;
        }
    }
  h.source = DS_TRACE_SOURCE_BLKTRACE;
  h.flags = DS_TRACE_HAS_COMPLETIONS | DS_TRACE_HAS_TIMES;
  g_strlcpy (h.device, paths[0], sizeof h.device);
  w = ok ? ds_trace_writer_new (output, &h, error) : NULL;
  ok = w != NULL && blk_merge (files, n, w, &h, error);
  for (guint i = 0; i < n; i++)
    if (files[i].file != NULL)
      fclose (files[i].file);
  if (!ok)
    {
      if (w != NULL)
        ds_trace_writer_abandon (w);
      return FALSE;
    }
  if (!ds_trace_writer_finish (w, &h, error))
    return FALSE;
  *ret_header = h;
  return TRUE;
}

static gboolean
fio_action (const char *word,
            uint8_t    *ret_op)
{
  if (strcmp (word, "read") == 0)
    *ret_op = DS_TRACE_OP_READ;
  else if (strcmp (word, "write") == 0)
    *ret_op = DS_TRACE_OP_WRITE;
  else if (strcmp (word, "sync") == 0 || strcmp (word, "datasync") == 0)
    *ret_op = DS_TRACE_OP_FLUSH;
  else if (strcmp (word, "trim") == 0)
    *ret_op = DS_TRACE_OP_DISCARD;
  else
    return FALSE;
  return TRUE;
}

/* One line of a v2 or v3 log; @time_ns advances with v2's waits. */
static gboolean
fio_line (char          *line,
          int            version,
          double         unit_ns,
          uint64_t      *time_ns,
          DsTraceRecord *r)
{
  g_auto (GStrv) w = g_strsplit_set (g_strstrip (line), " \t", -1);
  guint n = g_strv_length (w), at = version == 3 ? 1 : 0;
  char *end;

  if (version == 3)
    {
      double t;

      if (n < 3)
        return FALSE;
      t = g_ascii_strtod (w[0], &end);
      if (*end != 0 || t < 0)
        return FALSE;
      *time_ns = (uint64_t) (t * unit_ns);
    }
  if (version == 2 && n == 4 && strcmp (w[1], "wait") == 0)
    {
      *time_ns += g_ascii_strtoull (w[2], NULL, 10) * 1000;   /* µs, docs */
      return FALSE;
    }
  if (n < at + 4 || !fio_action (w[at + 1], &r->op))
    return FALSE;
  memset (r, 0, sizeof *r);
  fio_action (w[at + 1], &r->op);
  r->issue_ns = *time_ns;
  r->complete_ns = DS_TRACE_NO_TIME;
  r->queue_ns = DS_TRACE_NO_TIME;
  r->offset = g_ascii_strtoull (w[at + 2], NULL, 10);
  r->bytes = (uint32_t) MIN (g_ascii_strtoull (w[at + 3], NULL, 10), G_MAXUINT32);
  return TRUE;
}

gboolean
ds_trace_import_fio_iolog (const char       *path,
                           DsTraceFioUnits   units,
                           const char       *output,
                           DsTraceHeader    *ret_header,
                           GError          **error)
{
  FILE *f = fopen (path, "r");
  char line[4096];
  int version;
  DsTraceHeader h = { 0 };
  DsTraceWriter *w;
  uint64_t t = 0, last = 0;
  /* fio 3.31-3.33 write v3 stamps in microseconds (and replay them so);
   * --fio-units ns reads a writer that stamps nanoseconds. */
  double unit_ns = units == DS_TRACE_FIO_UNITS_NS ? 1.0 : 1000.0;
  gboolean ok = TRUE;

  if (f == NULL)
    {
      ds_set_error_from_errno (error, -errno, path);
      return FALSE;
    }
  if (fgets (line, sizeof line, f) == NULL ||
      (version = g_str_has_prefix (line, "fio version 3 iolog") ? 3 :
                 g_str_has_prefix (line, "fio version 2 iolog") ? 2 : 0) == 0)
    {
      fclose (f);
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: not a fio iolog of version 2 or 3"), path);
      return FALSE;
    }
  h.source = version == 3 ? DS_TRACE_SOURCE_FIO_V3 : DS_TRACE_SOURCE_FIO_V2;
  h.flags = version == 3 ? DS_TRACE_HAS_TIMES : 0;
  g_strlcpy (h.device, path, sizeof h.device);
  w = ds_trace_writer_new (output, &h, error);
  if (w == NULL)
    {
      fclose (f);
      return FALSE;
    }
  while (ok && fgets (line, sizeof line, f) != NULL)
    {
      DsTraceRecord r;

      if (fio_line (line, version, unit_ns, &t, &r))
        {
          last = MAX (last, r.issue_ns);
          ok = ds_trace_writer_add (w, &r, error);
        }
    }
  fclose (f);
  h.duration_ns = last;
  if (!ok)
    {
      ds_trace_writer_abandon (w);
      return FALSE;
    }
  if (!ds_trace_writer_finish (w, &h, error))
    return FALSE;
  *ret_header = h;
  return TRUE;
}

gboolean
ds_trace_import_any (const char *const *paths,
                     DsTraceFioUnits    units,
                     const char        *output,
                     DsTraceHeader     *ret_header,
                     GError           **error)
{
  char head[20] = { 0 };
  FILE *f;

  if (paths[0] == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("no trace file given"));
      return FALSE;
    }
  f = fopen (paths[0], "rb");
  if (f == NULL)
    {
      ds_set_error_from_errno (error, -errno, paths[0]);
      return FALSE;
    }
  if (fread (head, 1, sizeof head - 1, f) == 0)
    head[0] = 0;
  fclose (f);
  if (g_str_has_prefix (head, "fio version "))
    {
      if (paths[1] != NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("one fio iolog at a time"));
          return FALSE;
        }
      return ds_trace_import_fio_iolog (paths[0], units, output, ret_header, error);
    }
  return ds_trace_import_blktrace (paths, output, ret_header, error);
}
