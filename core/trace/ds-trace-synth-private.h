/* ds-trace-synth-private.h: a stretch of a trace (a piece, then a phase)
 * and its arithmetic, shared by the synthesis (ds-trace-synth.c) and its
 * stretches (ds-trace-synth-stretch.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-trace.h"

#define SIZES_KEPT      32u     /* distinct sizes an interval counts apart */

typedef struct {
  uint32_t bytes;
  uint64_t count;
} SizeCount;

/* A piece of the trace, then a phase: sums that merge by adding. */
typedef struct {
  uint64_t start_ns, duration_ns;
  uint64_t ops[DS_TRACE_N_OPS];
  uint64_t fua, seq, pairs, timed;
  double   latency_ns;          /* Σ issue-to-completion, for Little's law */
  uint32_t peak;
  uint64_t lo, hi;              /* offsets of reads and writes */
  uint64_t first_ns, last_ns;   /* their first and last issue */
  SizeCount sizes[SIZES_KEPT];
  unsigned n_sizes;
} Stretch;

static inline gboolean
ds_trace_is_data (unsigned op)
{
  return op == DS_TRACE_OP_READ || op == DS_TRACE_OP_WRITE;
}

void     ds_trace_stretch_add_size   (Stretch       *s,
                                      uint32_t       bytes,
                                      uint64_t       count);
/* Most common first, then the smaller. */
int      ds_trace_stretch_cmp_sizes  (gconstpointer  a,
                                      gconstpointer  b);
uint32_t ds_trace_stretch_mode       (const Stretch *s);
uint64_t ds_trace_stretch_data_ios   (const Stretch *s);
double   ds_trace_stretch_read_share (const Stretch *s);
double   ds_trace_stretch_seq_share  (const Stretch *s);
/* @b, which follows @a, becomes part of it. */
void     ds_trace_stretch_merge      (Stretch       *a,
                                      const Stretch *b);
/* Between two reads or writes, on average; 0 unknown. */
uint64_t ds_trace_stretch_mean_gap   (const Stretch *s);
/* Whether @s's workload paused before @t (at least @min_gap). */
gboolean ds_trace_stretch_paused     (const Stretch *s,
                                      uint64_t       t,
                                      uint64_t       min_gap);
/* Its n I/Os and n gaps, when at least @min_span; 0 unknown. */
uint64_t ds_trace_stretch_busy_span  (const Stretch *s,
                                      uint64_t       min_span);
/* Whether @b, after @a, is more of the same, beyond chance. */
gboolean ds_trace_stretch_alike      (const Stretch *a,
                                      const Stretch *b,
                                      uint64_t       min_span);
/* How unlike two neighbours are: 0 for twins; idle beside busy, most. */
double   ds_trace_stretch_distance   (const Stretch *a,
                                      const Stretch *b);

