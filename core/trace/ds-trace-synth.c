/* ds-trace-synth.c: a workload synthesized from a trace: its phases,
 * stretches whose mix, block size, randomness and rate are alike, each
 * with the figures a fio job or a custom row needs (ds-trace-synth-out.c
 * writes them), so that the workload runs where the trace cannot go
 *
 * Two passes over the file: the span and count of the I/Os kept, then
 * pieces (cut at each interval's end and where reads and writes pause),
 * each joining the phase before when alike beyond chance.  Each phase is
 * then trimmed to its I/Os, the time between two an idle phase; last, the
 * two most alike neighbours merge, again and again, until at most the
 * phases asked for remain.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-trace-profile-private.h"
#include "ds-trace-synth-private.h"

#define MAX_INTERVALS   1000000u

typedef struct {
  GHashTable *pids;             /* NULL: every process */
  uint64_t    first, last, count;
} Scope;

static gboolean
wanted (const Scope         *scope,
        const DsTraceRecord *r)
{
  return scope->pids == NULL || g_hash_table_contains (scope->pids, GUINT_TO_POINTER (r->pid));
}

/* The pids of processes named @process (NULL: all, *ret_pids NULL). */
static gboolean
select_pids (DsTraceReader  *reader,
             const char     *process,
             GHashTable    **ret_pids,
             GError        **error)
{
  g_autoptr (GArray) list = NULL;

  *ret_pids = NULL;
  if (process == NULL)
    return TRUE;
  list = ds_trace_reader_processes (reader, error);
  if (list == NULL)
    return FALSE;
  *ret_pids = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < list->len; i++)
    if (strcmp (g_array_index (list, DsTraceProcess, i).comm, process) == 0)
      g_hash_table_add (*ret_pids, GUINT_TO_POINTER (g_array_index (list, DsTraceProcess, i).pid));
  if (g_hash_table_size (*ret_pids) == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, _("no process named “%s” in this trace"), process);
      return FALSE;
    }
  return ds_trace_reader_rewind (reader, error);
}

/* The first pass: the first and last issue, and how many I/Os. */
static gboolean
scope_pass (DsTraceReader  *reader,
            Scope          *scope,
            uint64_t       *ret_data,
            GError        **error)
{
  DsTraceRecord r;
  GError *local = NULL;

  *ret_data = 0;
  while (ds_trace_reader_next (reader, &r, &local))
    if (wanted (scope, &r))
      {
        if (scope->count++ == 0)
          scope->first = r.issue_ns;
        scope->first = MIN (scope->first, r.issue_ns);
        scope->last = MAX (scope->last, r.issue_ns);
        *ret_data += ds_trace_is_data (r.op);
      }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ds_trace_reader_rewind (reader, error);
}

/* The intervals: from the first I/O to one mean gap after the last (n
 * I/Os, n - 1 gaps: the rate is the profile's); a last interval shorter
 * than half of one joins the one before.  Their count, and the end. */
static gboolean
count_intervals (const Scope *scope,
                 uint64_t     interval_ns,
                 uint64_t    *ret_n,
                 uint64_t    *ret_total,
                 GError     **error)
{
  uint64_t span = scope->last - scope->first, total, n;

  total = scope->count > 1 ? (uint64_t) ((double) span * (double) scope->count / (double) (scope->count - 1)) : 0;
  total = MAX (total, 1);
  n = (total + interval_ns - 1) / interval_ns;
  if (n > 1 && total - (n - 1) * interval_ns < interval_ns / 2)
    n--;
  if (n > MAX_INTERVALS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the trace spans %.0f s: more than %u intervals of %.3f s (a longer --interval)"),
                   (double) total / 1e9, MAX_INTERVALS, (double) interval_ns / 1e9);
      return FALSE;
    }
  *ret_n = n;
  *ret_total = total;
  return TRUE;
}

typedef struct {
  GArray   *heap;               /* completion times in flight */
  uint64_t  prev_end;
  gboolean  have_prev;
} Walk;

static void
count_record (Walk                *walk,
              Stretch             *s,
              const DsTraceRecord *r,
              uint64_t             t)
{
  s->ops[r->op]++;
  s->fua += (r->flags & DS_TRACE_FLAG_FUA) != 0;
  if (r->complete_ns != DS_TRACE_NO_TIME && r->complete_ns >= r->issue_ns)
    {
      while (walk->heap->len > 0 && g_array_index (walk->heap, uint64_t, 0) <= r->issue_ns)
        ds_trace_heap_pop (walk->heap);
      ds_trace_heap_push (walk->heap, r->complete_ns);
      s->peak = MAX (s->peak, walk->heap->len);
      s->latency_ns += (double) (r->complete_ns - r->issue_ns);
      s->timed++;
    }
  if (!ds_trace_is_data (r->op))
    return;
  s->lo = ds_trace_stretch_data_ios (s) == 1 ? r->offset : MIN (s->lo, r->offset);
  s->first_ns = ds_trace_stretch_data_ios (s) == 1 ? t : s->first_ns;
  s->last_ns = MAX (s->last_ns, t);
  s->hi = MAX (s->hi, r->offset + r->bytes);
  ds_trace_stretch_add_size (s, r->bytes, 1);
  if (walk->have_prev)
    {
      s->pairs++;
      s->seq += r->offset == walk->prev_end;
    }
  walk->prev_end = r->offset + r->bytes;
  walk->have_prev = TRUE;
}

/* The records cut into pieces: at each interval's end, and where no
 * read or write came for @idle_min; each piece joins the phase before
 * when ds_trace_stretch_alike (only the phases are held). */
typedef struct {
  Walk      walk;
  GArray   *phases;             /* Stretch */
  Stretch   piece;
  gboolean  open;
  uint64_t  index, n, interval_ns, idle_min;
} Cutter;

static void
close_piece (Cutter   *c,
             uint64_t  end)
{
  Stretch *last = c->phases->len > 0 ? &g_array_index (c->phases, Stretch, c->phases->len - 1) : NULL;

  c->piece.duration_ns = MAX (end, c->piece.start_ns + 1) - c->piece.start_ns;
  if (last != NULL && ds_trace_stretch_alike (last, &c->piece, c->idle_min) &&
      !(ds_trace_stretch_data_ios (&c->piece) > 0 && ds_trace_stretch_paused (last, c->piece.first_ns, c->idle_min)))
    ds_trace_stretch_merge (last, &c->piece);
  else
    g_array_append_val (c->phases, c->piece);
  c->open = FALSE;
}

static void
cut_record (Cutter              *c,
            const DsTraceRecord *r,
            uint64_t             t)
{
  uint64_t index = MIN (t / c->interval_ns, c->n - 1);

  if (c->open && index != c->index)
    close_piece (c, (c->index + 1) * c->interval_ns);
  else if (c->open && ds_trace_is_data (r->op) && ds_trace_stretch_paused (&c->piece, t, c->idle_min))
    close_piece (c, t);
  if (!c->open)
    {
      memset (&c->piece, 0, sizeof c->piece);
      c->piece.start_ns = index == c->index && c->phases->len > 0 ? t : index * c->interval_ns;
      c->index = index;
      c->open = TRUE;
    }
  count_record (&c->walk, &c->piece, r, t);
}

/* The second pass: the phases, neighbours alike merged. */
static GArray *
piece_pass (DsTraceReader  *reader,
            const Scope    *scope,
            uint64_t        interval_ns,
            GError        **error)
{
  Cutter c = { .interval_ns = interval_ns, .idle_min = MAX (interval_ns / 10, 1000000) };
  uint64_t total;
  DsTraceRecord r;
  GError *local = NULL;

  if (!count_intervals (scope, interval_ns, &c.n, &total, error))
    return NULL;
  c.walk.heap = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  c.phases = g_array_new (FALSE, TRUE, sizeof (Stretch));
  while (ds_trace_reader_next (reader, &r, &local))
    if (wanted (scope, &r) && r.op < DS_TRACE_N_OPS)
      cut_record (&c, &r, r.issue_ns - scope->first);
  if (c.open)
    close_piece (&c, total);
  g_array_unref (c.walk.heap);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      g_array_unref (c.phases);
      return NULL;
    }
  return c.phases;
}

/* Where a busy phase's I/Os begin and end (one mean gap after the last);
 * idle ones, and those too short to say, keep their bounds. */
static void
busy_bounds (const Stretch *s,
             uint64_t       min_span,
             uint64_t      *ret_start,
             uint64_t      *ret_end)
{
  uint64_t span = ds_trace_stretch_busy_span (s, min_span);

  *ret_start = s->start_ns;
  *ret_end = s->start_ns + s->duration_ns;
  if (span > 0)
    {
      *ret_start = s->first_ns;
      *ret_end = s->first_ns + span;
    }
}

static Stretch
idle_stretch (uint64_t start,
              uint64_t end)
{
  Stretch s = { .start_ns = start, .duration_ns = end - start };

  return s;
}

/* Phases shrunk to their I/Os: the time between two is idle, a phase of
 * its own when at least @idle_min, else the earlier one's. */
static GArray *
trim_phases (GArray   *phases,
             uint64_t  idle_min)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Stretch));

  for (guint i = 0; i < phases->len; i++)
    {
      Stretch s = g_array_index (phases, Stretch, i), *prev;
      uint64_t start, end, prev_end;

      busy_bounds (&s, idle_min, &start, &end);
      if (out->len > 0)
        {
          prev = &g_array_index (out, Stretch, out->len - 1);
          prev_end = prev->start_ns + prev->duration_ns;
          start = MAX (start, prev->start_ns + 1);
          if (ds_trace_stretch_data_ios (&s) == 0)
            start = MIN (start, prev_end);
          if (start < prev_end || ds_trace_stretch_data_ios (prev) == 0 || start - prev_end < idle_min)
            prev->duration_ns = start - prev->start_ns;
          else
            {
              Stretch idle = idle_stretch (prev_end, start);

              g_array_append_val (out, idle);
            }
        }
      s.start_ns = start;
      s.duration_ns = MAX (end, start + 1) - start;
      g_array_append_val (out, s);
    }
  g_array_unref (phases);
  return out;
}

/* Phases trimmed to their I/Os, then the most alike pair merged until
 * at most @max remain. */
static GArray *
make_phases (GArray   *phases,
             uint64_t  interval_ns,
             unsigned  max)
{
  phases = trim_phases (phases, MAX (interval_ns / 10, 1000000));
  while (phases->len > max)
    {
      guint best = 0;
      double best_d = G_MAXDOUBLE;

      for (guint i = 0; i + 1 < phases->len; i++)
        {
          double d = ds_trace_stretch_distance (&g_array_index (phases, Stretch, i), &g_array_index (phases, Stretch, i + 1));

          if (d < best_d)
            {
              best_d = d;
              best = i;
            }
        }
      ds_trace_stretch_merge (&g_array_index (phases, Stretch, best), &g_array_index (phases, Stretch, best + 1));
      g_array_remove_index (phases, best + 1);
    }
  return phases;
}

static void
to_phase (const Stretch     *s,
          gboolean           has_latency,
          DsTraceSynthPhase *p)
{
  SizeCount sizes[SIZES_KEPT];
  double secs = (double) s->duration_ns / 1e9, data = (double) ds_trace_stretch_data_ios (s);

  memset (p, 0, sizeof *p);
  p->start_ns = s->start_ns;
  p->duration_ns = s->duration_ns;
  p->reads = s->ops[DS_TRACE_OP_READ];
  p->writes = s->ops[DS_TRACE_OP_WRITE];
  p->flushes = s->ops[DS_TRACE_OP_FLUSH];
  p->discards = s->ops[DS_TRACE_OP_DISCARD];
  p->fua = s->fua;
  if (secs > 0)
    {
      p->read_iops = (double) p->reads / secs;
      p->write_iops = (double) p->writes / secs;
      p->flushes_per_s = (double) p->flushes / secs;
    }
  p->read_share = ds_trace_stretch_read_share (s);
  p->sequential_share = ds_trace_stretch_seq_share (s);
  if (has_latency && s->timed > 0 && s->duration_ns > 0)
    {
      p->mean_depth = s->latency_ns / (double) s->duration_ns;
      p->peak_depth = s->peak;
    }
  memcpy (sizes, s->sizes, sizeof sizes);
  qsort (sizes, s->n_sizes, sizeof (SizeCount), (int (*) (const void *, const void *)) ds_trace_stretch_cmp_sizes);
  p->n_sizes = MIN (s->n_sizes, DS_TRACE_SYNTH_SIZES);
  for (unsigned i = 0; i < p->n_sizes; i++)
    {
      p->size_bytes[i] = sizes[i].bytes;
      p->size_share[i] = data > 0 ? (double) sizes[i].count / data : 0;
    }
  p->mode_bytes = p->n_sizes > 0 ? p->size_bytes[0] : 0;
  if (data > 0)
    {
      p->offset_start = s->lo;
      p->offset_end = s->hi;
    }
}

static gboolean
analyse (DsTraceSynth   *synth,
         DsTraceReader  *reader,
         unsigned        max_phases,
         GError        **error)
{
  g_autoptr (GHashTable) pids = NULL;
  g_autoptr (GArray) phases = NULL;
  Scope scope = { 0 };
  uint64_t data = 0;

  if (!select_pids (reader, synth->process, &pids, error))
    return FALSE;
  scope.pids = pids;
  if (!scope_pass (reader, &scope, &data, error))
    return FALSE;
  if (data == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the trace holds no reads or writes (%" PRIu64 " requests): nothing to synthesize"),
                   scope.count);
      return FALSE;
    }
  phases = piece_pass (reader, &scope, synth->interval_ns, error);
  if (phases == NULL)
    return FALSE;
  phases = make_phases (phases, synth->interval_ns, max_phases);
  for (guint i = 0; i < phases->len; i++)
    {
      DsTraceSynthPhase p;

      to_phase (&g_array_index (phases, Stretch, i), (synth->header.flags & DS_TRACE_HAS_COMPLETIONS) != 0, &p);
      g_array_append_val (synth->phases, p);
    }
  return TRUE;
}

DsTraceSynth *
ds_trace_synth_new (const char  *path,
                    uint64_t     interval_ns,
                    unsigned     max_phases,
                    const char  *process,
                    GError     **error)
{
  g_autoptr (DsTraceReader) reader = ds_trace_reader_open (path, error);
  g_autoptr (DsTraceSynth) synth = NULL;

  if (reader == NULL)
    return NULL;
  synth = g_new0 (DsTraceSynth, 1);
  synth->header = *ds_trace_reader_header (reader);
  synth->trace = g_strdup (path);
  synth->process = g_strdup (process);
  synth->interval_ns = interval_ns > 0 ? interval_ns : UINT64_C (1000000000);
  synth->phases = g_array_new (FALSE, TRUE, sizeof (DsTraceSynthPhase));
  max_phases = max_phases > 0 ? MIN (max_phases, DS_TRACE_SYNTH_PHASES_MAX) : 16;
  if ((synth->header.flags & DS_TRACE_HAS_TIMES) == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the trace has no issue times (a fio iolog version 2): no rates to synthesize"));
      return NULL;
    }
  if (!analyse (synth, reader, max_phases, error))
    return NULL;
  return g_steal_pointer (&synth);
}

void
ds_trace_synth_free (DsTraceSynth *synth)
{
  g_free (synth->trace);
  g_free (synth->process);
  g_clear_pointer (&synth->phases, g_array_unref);
  g_free (synth);
}
