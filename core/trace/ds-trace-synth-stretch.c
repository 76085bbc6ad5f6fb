/* ds-trace-synth-stretch.c: a stretch of a trace (a piece, then a phase):
 * how its sums merge, its figures, whether two are alike beyond chance,
 * how unlike
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-trace-synth-private.h"

#define ALIKE_SHARE     0.10    /* read shares this close are alike */
#define ALIKE_RATE      1.25    /* and rates within this ratio */
#define PAUSE_GAPS      20      /* a pause: this many mean gaps without I/O */

static uint64_t
ios (const Stretch *s)
{
  return s->ops[DS_TRACE_OP_READ] + s->ops[DS_TRACE_OP_WRITE];
}

void
ds_trace_stretch_add_size (Stretch  *s,
                           uint32_t  bytes,
                           uint64_t  count)
{
  for (unsigned i = 0; i < s->n_sizes; i++)
    if (s->sizes[i].bytes == bytes)
      {
        s->sizes[i].count += count;
        return;
      }
  if (s->n_sizes < SIZES_KEPT)
    {
      s->sizes[s->n_sizes++] = (SizeCount) { bytes, count };
      return;
    }
  /* Full: the rarest gives way when the newcomer is more common. */
  for (unsigned i = 0; i < s->n_sizes; i++)
    if (s->sizes[i].count < count)
      {
        s->sizes[i] = (SizeCount) { bytes, count };
        return;
      }
}

int
ds_trace_stretch_cmp_sizes (gconstpointer a,
                            gconstpointer b)
{
  const SizeCount *x = a, *y = b;

  return x->count > y->count ? -1 : x->count < y->count ? 1 : (x->bytes < y->bytes ? -1 : x->bytes > y->bytes);
}

uint32_t
ds_trace_stretch_mode (const Stretch *s)
{
  const SizeCount *best = NULL;

  for (unsigned i = 0; i < s->n_sizes; i++)
    if (best == NULL || ds_trace_stretch_cmp_sizes (&s->sizes[i], best) < 0)
      best = &s->sizes[i];
  return best ? best->bytes : 0;
}

/* Reads and writes. */

uint64_t
ds_trace_stretch_data_ios (const Stretch *s)
{
  return ios (s);
}

static double
rate_of (const Stretch *s)
{
  return s->duration_ns > 0 ? (double) ios (s) * 1e9 / (double) s->duration_ns : 0;
}

double
ds_trace_stretch_read_share (const Stretch *s)
{
  return ios (s) > 0 ? (double) s->ops[DS_TRACE_OP_READ] / (double) ios (s) : 0;
}

double
ds_trace_stretch_seq_share (const Stretch *s)
{
  return s->pairs > 0 ? (double) s->seq / (double) s->pairs : 0;
}

/* @b, which follows @a, becomes part of it. */
void
ds_trace_stretch_merge (Stretch       *a,
                        const Stretch *b)
{
  gboolean a_data = ios (a) > 0, b_data = ios (b) > 0;

  a->duration_ns = b->start_ns + b->duration_ns - a->start_ns;
  for (unsigned op = 0; op < DS_TRACE_N_OPS; op++)
    a->ops[op] += b->ops[op];
  a->fua += b->fua;
  a->seq += b->seq;
  a->pairs += b->pairs;
  a->timed += b->timed;
  a->latency_ns += b->latency_ns;
  a->peak = MAX (a->peak, b->peak);
  a->lo = !a_data ? b->lo : !b_data ? a->lo : MIN (a->lo, b->lo);
  a->first_ns = a_data ? a->first_ns : b->first_ns;
  a->last_ns = b_data ? b->last_ns : a->last_ns;
  a->hi = MAX (a->hi, b->hi);
  for (unsigned i = 0; i < b->n_sizes; i++)
    ds_trace_stretch_add_size (a, b->sizes[i].bytes, b->sizes[i].count);
}

/* Between two reads or writes, on average; 0 unknown. */
uint64_t
ds_trace_stretch_mean_gap (const Stretch *s)
{
  uint64_t n = ios (s);

  return n > 1 ? (s->last_ns - s->first_ns) / (n - 1) : 0;
}

/* Whether the workload of @s paused before @t: at least @min_gap and
 * PAUSE_GAPS of its mean gaps without a read or write (not a random
 * arrival's long gap). */
gboolean
ds_trace_stretch_paused (const Stretch *s,
                         uint64_t       t,
                         uint64_t       min_gap)
{
  return ios (s) > 1 && t >= s->last_ns &&
         t - s->last_ns >= MAX (min_gap, PAUSE_GAPS * ds_trace_stretch_mean_gap (s));
}

/* How long @s was busy: its n I/Os and n gaps, when that is at least
 * @min_span; 0 unknown. */
uint64_t
ds_trace_stretch_busy_span (const Stretch *s,
                            uint64_t       min_span)
{
  uint64_t span = s->last_ns - s->first_ns + ds_trace_stretch_mean_gap (s);

  return ios (s) > 1 && span >= min_span ? span : 0;
}

/* The rate while busy (a stretch the workload fills only part of is not a
 * slower one); 0 unknown. */
static double
busy_rate_of (const Stretch *s,
              uint64_t       min_span)
{
  uint64_t span = ds_trace_stretch_busy_span (s, min_span);

  return span > 0 ? (double) ios (s) * 1e9 / (double) span : 0;
}

/* The share of @s's reads and writes of @bytes. */
static double
size_share (const Stretch *s,
            uint32_t       bytes)
{
  for (unsigned i = 0; i < s->n_sizes; i++)
    if (s->sizes[i].bytes == bytes)
      return ios (s) > 0 ? (double) s->sizes[i].count / (double) ios (s) : 0;
  return 0;
}

/* Whether @b, after @a, is more of the same: its read share, most common
 * size, side of 50 % sequential and rate as @a's, within what chance
 * gives a stretch of @b's few I/Os (3 standard deviations of a binomial
 * share and of a Poisson count) or ALIKE_SHARE and ALIKE_RATE, the larger. */
gboolean
ds_trace_stretch_alike (const Stretch *a,
                        const Stretch *b,
                        uint64_t       min_span)
{
  double ra = busy_rate_of (a, min_span), n = (double) ios (b), p = ds_trace_stretch_read_share (a);
  double span = (double) ds_trace_stretch_busy_span (b, min_span) / 1e9, expected = ra * span;
  uint32_t ma = ds_trace_stretch_mode (a), mb = ds_trace_stretch_mode (b);

  if ((ios (a) == 0) != (ios (b) == 0))
    return FALSE;
  if (ios (a) == 0)
    return TRUE;
  if (fabs (p - ds_trace_stretch_read_share (b)) > MAX (ALIKE_SHARE, 3 * sqrt (p * (1 - p) / n)))
    return FALSE;
  if ((ds_trace_stretch_seq_share (a) >= 0.5) != (ds_trace_stretch_seq_share (b) >= 0.5))
    return FALSE;
  /* A spread of sizes: the most common may differ from stretch to stretch. */
  if (ma != mb && (size_share (a, mb) < 0.25 || size_share (b, ma) < 0.25))
    return FALSE;
  return expected == 0 ||
         fabs (n - expected) <= MAX ((ALIKE_RATE - 1) * expected, 3 * sqrt (expected));
}

/* How unlike two neighbours are: 0 for twins; idle beside busy, most. */
double
ds_trace_stretch_distance (const Stretch *a,
                           const Stretch *b)
{
  double d = fabs (log ((rate_of (a) + 1) / (rate_of (b) + 1)));

  if ((ios (a) == 0) != (ios (b) == 0))
    return 100 + d;
  return d + fabs (ds_trace_stretch_read_share (a) - ds_trace_stretch_read_share (b)) +
         fabs (ds_trace_stretch_seq_share (a) - ds_trace_stretch_seq_share (b)) +
         (ds_trace_stretch_mode (a) != ds_trace_stretch_mode (b) ? 0.5 : 0);
}

