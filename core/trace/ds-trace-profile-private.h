/* ds-trace-profile-private.h: the profile's figures, shared by its
 * computation (ds-trace-profile.c) and its output (ds-trace-profile-out.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-clock.h"
#include "ds-histogram.h"
#include "ds-trace.h"

#define HEAT_ROWS   32      /* offset bands of the heat map */
#define RUN_BUCKETS 21      /* sequential runs: 1, 2-3, 4-7, ... 2^20+ */
#define SEEK_BUCKETS 48     /* seek distances: 0, [2^k, 2^(k+1)) bytes */
#define BURST_NS    (10 * DS_NS_PER_MSEC)

typedef struct {
  uint64_t ops[DS_TRACE_N_OPS];
  uint64_t bytes[DS_TRACE_N_OPS];
  double   depth_ns;        /* ∫ depth dt over the interval */
  uint32_t max_depth;
  GArray  *latencies;       /* uint64 ns, until the interval is done */
  uint64_t p50, p99, p999;  /* 0: none */
  uint64_t heat[HEAT_ROWS];
} DsTraceInterval;

typedef struct {
  uint32_t bytes;
  uint64_t reads, writes;
} DsTraceSize;

struct _DsTraceProfile {
  DsTraceHeader  header;
  uint64_t       interval_ns;
  GArray        *intervals;     /* DsTraceInterval */
  GArray        *sizes;         /* DsTraceSize, most common first */
  uint64_t       runs[RUN_BUCKETS];
  uint64_t       seeks[SEEK_BUCKETS];
  uint64_t       sequential, data_ios;
  uint64_t       fua, preflush, sync, errors, incomplete;
  uint64_t       first_issue, last_issue;
  uint64_t       span_bytes;    /* the heat map's height */
  double         gap_mean, gap_m2;   /* inter-arrival, Welford */
  uint64_t       gaps;
  uint64_t       peak_window;   /* most I/Os in one BURST_NS window */
  double         depth_ns;      /* over the whole span */
  uint64_t       depth_end;     /* where it was integrated to */
  uint32_t       max_depth;
  DsHistogram    latency[3];    /* all, reads, writes */
  gboolean       has_latency, has_times;
  DsTraceSummary summary;
  GHashTable    *pids;          /* only these (--process); NULL all */
  GHashTable    *pid_counts;    /* pid -> requests */
  GArray        *processes;     /* DsTraceProcess: the file's table */
};

void ds_trace_profile_summarise (DsTraceProfile *p);

/* A min-heap of completion times (uint64_t): the requests in flight, as
 * the profile, the synthesis and the headroom count their depth. */
void ds_trace_heap_push (GArray   *h,
                         uint64_t  v);
void ds_trace_heap_pop  (GArray   *h);
