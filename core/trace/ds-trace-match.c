/* ds-trace-match.c: block-layer events in time order become requests in
 * issue order (a completion finds its issue by sector), written to a
 * capture file as they are known; bounded by what is in flight
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include "ds-trace.h"

/* A request issued this long ago without a completion is written as
 * incomplete (memory stays bounded by a stuck device's queue). */
#define STALE_NS (UINT64_C (120) * 1000000000)
/* Queue events of bios merged into other requests are never issued at
 * their sector: the table starts afresh past this size. */
#define MAX_QUEUED 65536

typedef struct {
  DsTraceRecord record;
  uint64_t      sector;
  gboolean      done;
} Pending;

typedef struct {
  uint64_t sector;          /* the key */
  GQueue   queue;           /* Pending*, oldest first */
} Slot;

typedef struct {
  uint64_t sector;          /* the key */
  uint64_t ts;
  uint32_t pid;
  char     comm[16];
} Queued;

struct _DsTraceMatcher {
  DsTraceWriter *writer;
  uint64_t       origin, first, n_sectors;
  GQueue         pending;   /* Pending*, in issue order */
  GHashTable    *in_flight; /* &sector -> Slot */
  GHashTable    *queued;    /* &sector -> Queued */
  uint64_t       unmatched, flying;
};

void
ds_trace_parse_rwbs (const char *rwbs,
                     uint8_t    *ret_op,
                     uint8_t    *ret_flags)
{
  uint8_t op = DS_TRACE_OP_OTHER, flags = 0;
  size_t i = 0;

  if (rwbs[0] == 'F')
    {
      flags |= DS_TRACE_FLAG_PREFLUSH;
      i = 1;
    }
  switch (rwbs[i])
    {
    case 'R': op = DS_TRACE_OP_READ; break;
    case 'W': op = DS_TRACE_OP_WRITE; break;
    case 'D': op = DS_TRACE_OP_DISCARD; break;
    case 'N': op = (flags & DS_TRACE_FLAG_PREFLUSH) ? DS_TRACE_OP_FLUSH : DS_TRACE_OP_OTHER; break;
    case 0: op = (flags & DS_TRACE_FLAG_PREFLUSH) ? DS_TRACE_OP_FLUSH : DS_TRACE_OP_OTHER; break;
    default: break;     /* E (secure erase), Z (write zeroes)... */
    }
  if (rwbs[i] != 0)
    i++;
  for (; rwbs[i] != 0 && i < 10; i++)
    switch (rwbs[i])
      {
      case 'F': flags |= DS_TRACE_FLAG_FUA; break;
      case 'S': flags |= DS_TRACE_FLAG_SYNC; break;
      case 'M': flags |= DS_TRACE_FLAG_META; break;
      case 'A': flags |= DS_TRACE_FLAG_AHEAD; break;
      default: break;
      }
  /* A preflush with data is a write with a flush before it; without, a
   * flush. */
  *ret_op = op;
  *ret_flags = flags;
}

DsTraceMatcher *
ds_trace_matcher_new (DsTraceWriter *writer,
                      uint64_t       origin_ns,
                      uint64_t       first_sector,
                      uint64_t       n_sectors)
{
  DsTraceMatcher *m = g_new0 (DsTraceMatcher, 1);

  m->writer = writer;
  m->origin = origin_ns;
  m->first = first_sector;
  m->n_sectors = n_sectors;
  g_queue_init (&m->pending);
  m->in_flight = g_hash_table_new (g_int64_hash, g_int64_equal);
  m->queued = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  return m;
}

static void
slot_drop (DsTraceMatcher *m,
           Pending        *p)
{
  Slot *slot = g_hash_table_lookup (m->in_flight, &p->sector);

  if (slot == NULL)
    return;
  g_queue_remove (&slot->queue, p);
  if (g_queue_is_empty (&slot->queue))
    {
      g_hash_table_remove (m->in_flight, &slot->sector);
      g_free (slot);
    }
}

/* Writes the done requests at the head, and those stale at @now. */
static gboolean
drain (DsTraceMatcher *m,
       uint64_t        now,
       gboolean        all,
       GError        **error)
{
  Pending *p;

  while ((p = g_queue_peek_head (&m->pending)) != NULL)
    {
      /* @now can be before the issue (an event stamped out of order, the
       * case on_complete() clamps): not stale then, not a wrapped age. */
      if (!p->done && !all && (now < p->record.issue_ns || now - p->record.issue_ns < STALE_NS))
        break;
      if (!p->done)
        {
          slot_drop (m, p);
          m->flying--;
        }
      g_queue_pop_head (&m->pending);
      if (!ds_trace_writer_add (m->writer, &p->record, error))
        {
          g_free (p);
          return FALSE;
        }
      g_free (p);
    }
  return TRUE;
}

static void
on_queue (DsTraceMatcher     *m,
          const DsTraceEvent *e,
          uint64_t            rel)
{
  Queued *q;

  if (g_hash_table_contains (m->queued, &e->sector))
    return;
  if (g_hash_table_size (m->queued) >= MAX_QUEUED)
    g_hash_table_remove_all (m->queued);
  q = g_new0 (Queued, 1);
  q->sector = e->sector;
  q->ts = rel;
  q->pid = e->pid;
  memcpy (q->comm, e->comm, sizeof q->comm);
  g_hash_table_insert (m->queued, &q->sector, q);
}

static void
on_issue (DsTraceMatcher     *m,
          const DsTraceEvent *e,
          uint64_t            rel)
{
  Pending *p = g_new0 (Pending, 1);
  Queued *q = g_hash_table_lookup (m->queued, &e->sector);
  Slot *slot;
  char comm[16];

  memcpy (comm, e->comm, sizeof comm);
  p->sector = e->sector;
  p->record.issue_ns = rel;
  p->record.complete_ns = DS_TRACE_NO_TIME;
  p->record.queue_ns = DS_TRACE_NO_TIME;
  p->record.bytes = e->bytes;
  p->record.op = e->op;
  p->record.flags = e->flags;
  p->record.pid = e->pid;
  if (e->op != DS_TRACE_OP_FLUSH && e->sector >= m->first)
    p->record.offset = (e->sector - m->first) * 512;
  if (q != NULL)
    {
      /* The process that queued the I/O, not the one that issued it. */
      p->record.queue_ns = q->ts <= rel ? q->ts : rel;
      p->record.pid = q->pid;
      memcpy (comm, q->comm, sizeof comm);    /* q is freed just below */
      g_hash_table_remove (m->queued, &e->sector);
    }
  ds_trace_writer_process (m->writer, p->record.pid, comm);
  g_queue_push_tail (&m->pending, p);
  slot = g_hash_table_lookup (m->in_flight, &e->sector);
  if (slot == NULL)
    {
      slot = g_new0 (Slot, 1);
      slot->sector = e->sector;
      g_queue_init (&slot->queue);
      g_hash_table_insert (m->in_flight, &slot->sector, slot);
    }
  g_queue_push_tail (&slot->queue, p);
  m->flying++;
}

static void
on_complete (DsTraceMatcher     *m,
             const DsTraceEvent *e,
             uint64_t            rel)
{
  Slot *slot = g_hash_table_lookup (m->in_flight, &e->sector);
  Pending *p;

  if (slot == NULL)
    {
      m->unmatched++;
      return;
    }
  p = g_queue_pop_head (&slot->queue);
  if (g_queue_is_empty (&slot->queue))
    {
      g_hash_table_remove (m->in_flight, &slot->sector);
      g_free (slot);
    }
  p->record.complete_ns = rel >= p->record.issue_ns ? rel : p->record.issue_ns;
  p->record.error = (int16_t) CLAMP (e->error, -32768, 32767);
  p->done = TRUE;
  m->flying--;
}

gboolean
ds_trace_matcher_feed (DsTraceMatcher     *m,
                       const DsTraceEvent *e,
                       GError            **error)
{
  uint64_t rel = e->ts_ns > m->origin ? e->ts_ns - m->origin : 0;
  gboolean zero_length = e->bytes == 0;

  /* A partition's trace: its disk's requests inside it (flushes, which
   * have no sector, are the disk's). */
  if (m->n_sectors > 0 && !zero_length &&
      (e->sector < m->first || e->sector >= m->first + m->n_sectors))
    return TRUE;
  switch (e->kind)
    {
    case DS_TRACE_EV_QUEUE:
    case DS_TRACE_EV_INSERT:
      on_queue (m, e, rel);
      return TRUE;
    case DS_TRACE_EV_ISSUE:
      on_issue (m, e, rel);
      return TRUE;
    case DS_TRACE_EV_COMPLETE:
      on_complete (m, e, rel);
      return drain (m, rel, FALSE, error);
    default:
      return TRUE;
    }
}

gboolean
ds_trace_matcher_flush (DsTraceMatcher  *m,
                        GError         **error)
{
  return drain (m, 0, TRUE, error);
}

uint64_t
ds_trace_matcher_unmatched (const DsTraceMatcher *m)
{
  return m->unmatched;
}

uint64_t
ds_trace_matcher_in_flight (const DsTraceMatcher *m)
{
  return m->flying;
}

void
ds_trace_matcher_free (DsTraceMatcher *m)
{
  GHashTableIter iter;
  gpointer value;

  g_queue_clear_full (&m->pending, g_free);
  g_hash_table_iter_init (&iter, m->in_flight);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_queue_clear (&((Slot *) value)->queue);
      g_free (value);
    }
  g_hash_table_unref (m->in_flight);
  g_hash_table_unref (m->queued);
  g_free (m);
}
