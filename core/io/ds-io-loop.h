/* ds-io-loop.h: the I/O loop every kind uses: a plan in, counts and
 * latencies out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-buffer.h"
#include "ds-engine.h"
#include "ds-histogram.h"
#include "ds-sample.h"
#include "ds-stats.h"
#include "ds-target.h"

G_BEGIN_DECLS

/* The I/O loop.  One plan: a region, an order, a block size, a depth, and
 * limits; stops at the first limit reached (a zero limit is no limit; at
 * least one must be set, or a sequential plan stops at the region's end). */
typedef struct {
  gboolean  random;           /* else sequential from start_bytes */
  gboolean  wrap;             /* sequential: start over at the region's end
                               * (else stop there) */
  unsigned  read_percent;     /* 100: all reads; 0: all writes; else mixed */
  uint64_t  start_bytes;      /* the region; I/O stays inside it */
  uint64_t  span_bytes;
  uint64_t  block_bytes;      /* a multiple of the logical block size */
  uint64_t  block_max_bytes;  /* > block_bytes: each I/O a random multiple
                               * of the logical block size in
                               * [block_bytes, block_max_bytes] */
  uint64_t  align_bytes;      /* random offsets: start_bytes plus multiples
                               * of this (raised to the logical block size);
                               * 0: of block_bytes, as fio's blockalign and
                               * CrystalDiskMark (the spec's
                               * random_align_bytes) */
  unsigned  depth;            /* in flight per thread (>= 1) */
  unsigned  threads;          /* >= 1; each its own engine instance */
  uint64_t  max_ios;
  uint64_t  max_bytes;
  uint64_t  duration_ns;      /* measured time, after the ramp */
  uint64_t  ramp_ns;          /* I/O done first and not counted */
  gboolean  histogram;        /* keep a latency histogram per direction */
  uint64_t  interval_ns;      /* > 0: a time series, one point per interval
                               * of the counted part (ds-io-series.h), sent
                               * live to the sink as DS_SAMPLE_INTERVAL */
  gboolean  stop_on_error;    /* default FALSE: stop anyway; this is only
                               * about the message: see ds_io_run() */
  gboolean  untimed;          /* nothing it measures is reported (a
                               * positioning read, an untimed pass): its
                               * reads are not sampled for all zeros, which
                               * warn that reported figures may be fooled */
  /* Optional: the offset of the @index-th I/O of @len bytes (butterfly). */
  uint64_t (*next_offset) (gpointer user,
                           uint64_t index,
                           uint64_t len);
  /* Optional: each counted completion, on the I/O thread (no locks are
   * taken around it when threads > 1: it must be thread-safe itself). */
  void     (*on_complete) (gpointer    user,
                           const DsIo *io);
  /* Optional: each interval of the series as it is collected (on the
   * thread that called ds_io_run(); a point may come again, changed, at the
   * end: the same @index).  TRUE stops the run there, as a limit does: the
   * I/O in flight is reaped and counted, and it is not an error. */
  gboolean (*on_interval) (gpointer               user,
                           const DsIntervalPoint *point,
                           unsigned               index);
  gpointer  user;
  /* Optional, single-threaded plans: the I/O thread's random stream,
   * continued from *rng and left there at the end, so that a row run in
   * slices draws the same offsets as one run whole (--seed repeats it). */
  DsRng    *rng;
} DsIoPlan;

typedef struct {
  uint64_t     ios;
  uint64_t     bytes;
  DsStats      latency_ns;
  DsHistogram *histogram;     /* NULL unless plan.histogram */
} DsIoDirStats;

/* One read in this many (per I/O thread, the first one included) has its
 * buffer checked for all zeros: a cost well under 1 % of a run. */
#define DS_IO_ZERO_SAMPLE_EVERY 32

/* What a plan's I/O counts for the run's warnings (run/ds-run-watch.h):
 * all of it, ramp and fills included (/proc/diskstats counts them too). */
typedef struct {
  uint64_t read_bytes;
  uint64_t written_bytes;
  uint64_t zero_sampled;
  uint64_t zero_found;
  uint64_t zero_first_bytes;  /* the lowest offset found all zeros (valid
                               * when zero_found > 0) */
} DsIoWatch;

typedef struct {
  uint64_t     elapsed_ns;    /* wall time of the counted part */
  DsIoDirStats read;
  DsIoDirStats write;
  uint64_t     cpu_user_ns;   /* all I/O threads, counted part and ramp */
  uint64_t     cpu_system_ns;
  int          error_errno;   /* first failed I/O, 0 if none */
  int64_t      error_offset_bytes; /* -1 if none */
  gboolean     cancelled;
  GArray      *series;        /* DsIntervalPoint; NULL unless plan.interval_ns */
  uint64_t     series_dropped_ios; /* counted, but missing from the series */
  guint        series_merged; /* intervals in one point of the series (1:
                               * none merged; more past DS_LIMIT_SERIES_POINTS) */
  const DsEngineOps *engine;  /* the engine the plan ran on */
  int          engine_fallback_errno; /* an automatic choice: why io_uring
                                       * could not run the plan (it ran on
                                       * the threads engine), else 0 */
  DsIoWatch    watch;
} DsIoStats;

/* The alignment of @plan's random offsets on a target with @lbs-byte
 * logical blocks: align_bytes, or block_bytes when 0, never below @lbs. */
uint64_t ds_io_plan_align     (const DsIoPlan *plan,
                               uint32_t        lbs);
/* A random offset for an I/O of @len bytes in [@start, @start + @span):
 * @start plus a multiple of @align, each of the (span - len) / align + 1
 * places equally likely (@span >= @len, @align > 0). */
uint64_t ds_io_random_offset  (DsRng          *rng,
                               uint64_t        start,
                               uint64_t        span,
                               uint64_t        len,
                               uint64_t        align);

void ds_io_stats_init  (DsIoStats *stats);
void ds_io_stats_clear (DsIoStats *stats);   /* frees histograms and series */

/* What the I/O loop works with, from whoever runs it (the run layer,
 * run/ds-run-io.c, fills it from a DsRun): it never calls back up but
 * through @sink. */
typedef struct {
  DsTarget          *target;
  const DsEngineOps *engine;    /* NULL: the best for the plan's depth
                                 * (sync at depth 1, else io_uring, else
                                 * the threads engine) */
  DsSinkFunc         sink;      /* DS_SAMPLE_INTERVAL as the series is
                                 * collected; may be NULL */
  gpointer           sink_data;
  const gint        *cancel;    /* stop when non-zero (checked every
                                 * DS_IO_POLL_NS) */
  DsRng             *rng;       /* seeds each I/O thread's stream (a plan's
                                 * own plan->rng takes a single thread's) */
} DsIoContext;

/* Runs @plan on ctx->target.  Returns 0, or -errno with @error set
 * (message names the device and, for I/O errors, the offset);
 * -ECANCELED with DS_ERROR_CANCELLED when stopped.  @ret_stats holds what
 * was counted either way (in-flight I/O is always reaped first), the
 * engine it ran on and what it watched. */
int  ds_io_run         (const DsIoContext *ctx,
                        const DsIoPlan    *plan,
                        DsIoStats         *ret_stats,
                        GError           **error);

G_END_DECLS
