/* ds-trace-ring.c: tracefs's binary ring-buffer pages (trace_pipe_raw) and
 * the event format files that say where each field is
 *
 * A page: u64 timestamp, u64 commit (the data's length; bit 31: events
 * were lost before this page), then events, each a 32-bit header
 * (type_len: 5 bits, time_delta: 27 bits) and its data (events/header_page
 * and events/header_event say so).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-trace.h"

#define PAGE_HEADER   16
#define TYPE_PADDING  29
#define TYPE_EXTEND   30
#define TYPE_STAMP    31
#define MISSED_EVENTS (UINT64_C (1) << 31)
#define MISSED_STORED (UINT64_C (1) << 30)
#define TS_SHIFT      27

static uint32_t
rd32 (const uint8_t *p)
{
  uint32_t v;

  memcpy (&v, p, 4);
  return v;     /* the kernel's own order: we run on it */
}

gboolean
ds_trace_ring_page (const uint8_t  *page,
                    size_t          len,
                    DsTraceRawFunc  func,
                    gpointer        user_data,
                    gboolean       *ret_missed)
{
  uint64_t ts, commit;
  size_t pos = PAGE_HEADER, end;

  *ret_missed = FALSE;
  if (len < PAGE_HEADER)
    return FALSE;
  memcpy (&ts, page, 8);
  memcpy (&commit, page + 8, 8);
  *ret_missed = (commit & MISSED_EVENTS) != 0;
  end = PAGE_HEADER + (size_t) (commit & ~(MISSED_EVENTS | MISSED_STORED) & 0xfffffff);
  if (end > len)
    return FALSE;
  while (pos + 4 <= end)
    {
      uint32_t h = rd32 (page + pos);
      uint32_t type_len = h & 0x1f, delta = h >> 5;
      size_t data_len;

      pos += 4;
      switch (type_len)
        {
        case TYPE_PADDING:
          if (delta == 0)
            return TRUE;        /* the rest of the page */
          if (pos + 4 > end)
            return FALSE;
          pos += rd32 (page + pos);   /* its length, the header's word after */
          continue;
        case TYPE_EXTEND:
          if (pos + 4 > end)
            return FALSE;
          ts += delta | ((uint64_t) rd32 (page + pos) << TS_SHIFT);
          pos += 4;
          continue;
        case TYPE_STAMP:
          if (pos + 4 > end)
            return FALSE;
          {
            /* Absolute: the low 59 bits, the high ones the page's. */
            uint64_t abs = delta | ((uint64_t) rd32 (page + pos) << TS_SHIFT);

            ts = (ts & ~((UINT64_C (1) << 59) - 1)) | abs;
          }
          pos += 4;
          continue;
        case 0:
          if (pos + 4 > end)
            return FALSE;
          data_len = rd32 (page + pos);
          if (data_len < 4)
            return FALSE;
          data_len -= 4;
          pos += 4;
          break;
        default:
          data_len = (size_t) type_len * 4;
          break;
        }
      ts += delta;
      if (pos + data_len > end)
        return FALSE;
      func (ts, page + pos, data_len, user_data);
      pos += (data_len + 3) & ~(size_t) 3;
    }
  return TRUE;
}

static void
set_field (DsTraceFormat *f,
           const char    *name,
           int            offset,
           int            size)
{
  if (strcmp (name, "dev") == 0)
    f->off_dev = offset;
  else if (strcmp (name, "sector") == 0)
    f->off_sector = offset;
  else if (strcmp (name, "nr_sector") == 0)
    f->off_nr_sector = offset;
  else if (strcmp (name, "bytes") == 0)
    f->off_bytes = offset;
  else if (strcmp (name, "error") == 0)
    f->off_error = offset;
  else if (strcmp (name, "common_pid") == 0)
    f->off_pid = offset;
  else if (strcmp (name, "rwbs") == 0)
    {
      f->off_rwbs = offset;
      f->size_rwbs = size;
    }
  else if (strcmp (name, "comm") == 0)
    {
      f->off_comm = offset;
      f->size_comm = size;
    }
}

gboolean
ds_trace_format_load (const char     *path,
                      DsTraceFormat  *ret_format,
                      GError        **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  DsTraceFormat f = { 0 };
  gboolean have_id = FALSE;

  f.off_dev = f.off_sector = f.off_nr_sector = f.off_bytes = f.off_error = -1;
  f.off_rwbs = f.off_comm = f.off_pid = -1;
  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = g_strstrip (lines[i]);
      const char *semi, *name, *off, *size;
      g_autofree char *decl = NULL;

      if (g_str_has_prefix (l, "name: "))
        g_strlcpy (f.name, l + 6, sizeof f.name);
      else if (g_str_has_prefix (l, "ID: "))
        {
          f.id = (uint16_t) g_ascii_strtoull (l + 4, NULL, 10);
          have_id = TRUE;
        }
      if (!g_str_has_prefix (l, "field:") || (semi = strchr (l, ';')) == NULL ||
          (off = strstr (l, "offset:")) == NULL || (size = strstr (l, "size:")) == NULL)
        continue;
      decl = g_strndup (l + 6, (gsize) (semi - l - 6));
      /* "unsigned int nr_sector", "char rwbs[10]": the last word, without [..] */
      if (strchr (decl, '[') != NULL)
        *strchr (decl, '[') = 0;
      g_strchomp (decl);
      name = strrchr (decl, ' ');
      name = name ? name + 1 : decl;
      set_field (&f, name, (int) g_ascii_strtoll (off + 7, NULL, 10),
                 (int) g_ascii_strtoll (size + 5, NULL, 10));
    }
  if (!have_id || f.off_dev < 0 || f.off_sector < 0 || f.off_nr_sector < 0 || f.off_rwbs < 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("%s: the event has no dev, sector, nr_sector or rwbs field"), path);
      return FALSE;
    }
  *ret_format = f;
  return TRUE;
}

void
ds_trace_format_decode (const DsTraceFormat *f,
                        const uint8_t       *data,
                        size_t               len,
                        DsTraceEvent        *e,
                        uint32_t            *ret_dev)
{
  char rwbs[16] = { 0 };
  uint32_t nr = 0;

  memset (e, 0, sizeof *e);
  *ret_dev = 0;
  if ((size_t) f->off_sector + 8 > len || (size_t) f->off_nr_sector + 4 > len ||
      (size_t) f->off_dev + 4 > len || (size_t) (f->off_rwbs + f->size_rwbs) > len)
    return;
  memcpy (ret_dev, data + f->off_dev, 4);
  memcpy (&e->sector, data + f->off_sector, 8);
  memcpy (&nr, data + f->off_nr_sector, 4);
  e->bytes = nr * 512u;
  if (f->off_error >= 0 && (size_t) f->off_error + 4 <= len)
    memcpy (&e->error, data + f->off_error, 4);
  if (f->off_pid >= 0 && (size_t) f->off_pid + 4 <= len)
    memcpy (&e->pid, data + f->off_pid, 4);
  memcpy (rwbs, data + f->off_rwbs, MIN ((size_t) f->size_rwbs, sizeof rwbs - 1));
  ds_trace_parse_rwbs (rwbs, &e->op, &e->flags);
  if (f->off_comm >= 0 && (size_t) (f->off_comm + f->size_comm) <= len)
    memcpy (e->comm, data + f->off_comm, MIN ((size_t) f->size_comm, sizeof e->comm - 1));
}
