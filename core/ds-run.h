/* ds-run.h: run one benchmark spec; the I/O loop every kind uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-buffer.h"
#include "ds-engine.h"
#include "ds-histogram.h"
#include "ds-result.h"
#include "ds-stats.h"
#include "ds-target.h"

G_BEGIN_DECLS

/* Runs @spec synchronously on the calling thread: opens the target (through
 * the safety gate for writes), runs the kind, delivers samples to @sink.
 * Stops within 100 ms once *@cancel becomes non-zero (g_atomic_int_set).
 * Always returns a result: on failure result->error says why and
 * result->data keeps every sample taken. */
DsResult *ds_run (const DsBenchSpec *spec,
                  DsSinkFunc         sink,
                  gpointer           sink_data,
                  const gint        *cancel);

/* The context a kind's run() gets. */
struct _DsRun {
  const DsBenchSpec *spec;
  DsTarget          *target;   /* NULL if the kind opens its own */
  DsResult          *result;
  const DsEngineOps *engine;   /* resolved from spec->engine */
  gboolean           engine_auto;
  DsSinkFunc         sink;
  gpointer           sink_data;
  const gint        *cancel;
  DsRng              rng;
  double             progress; /* last progress reported, 0..1 */
  /* Set by ds_run_io() on the first failed I/O, for the result. */
  int                error_errno;
  int64_t            error_offset_bytes;
  gboolean           noted_fallback;
};

gboolean ds_run_cancelled (DsRun          *run);
/* When the user stopped the run: sets DS_ERROR_CANCELLED and returns
 * -ECANCELED; else 0. */
int      ds_run_check_cancelled (DsRun    *run,
                                 GError  **error);
/* Sends @sample to the sink; fills sample->progress from run->progress. */
void     ds_run_emit      (DsRun          *run,
                           DsSample       *sample);
void     ds_run_set_progress (DsRun       *run,
                              double       progress);

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
  unsigned  depth;            /* in flight per thread (>= 1) */
  unsigned  threads;          /* >= 1; each its own engine instance */
  uint64_t  max_ios;
  uint64_t  max_bytes;
  uint64_t  duration_ns;      /* measured time, after the ramp */
  uint64_t  ramp_ns;          /* I/O done first and not counted */
  gboolean  histogram;        /* keep a latency histogram per direction */
  gboolean  stop_on_error;    /* default FALSE: stop anyway; this is only
                               * about the message: see ds_run_io() */
  /* Optional: the offset of the @index-th I/O of @len bytes (butterfly). */
  uint64_t (*next_offset) (gpointer user,
                           uint64_t index,
                           uint64_t len);
  /* Optional: each counted completion, on the I/O thread (no locks are
   * taken around it when threads > 1: it must be thread-safe itself). */
  void     (*on_complete) (gpointer    user,
                           const DsIo *io);
  gpointer  user;
} DsIoPlan;

typedef struct {
  uint64_t     ios;
  uint64_t     bytes;
  DsStats      latency_ns;
  DsHistogram *histogram;     /* NULL unless plan.histogram */
} DsIoDirStats;

typedef struct {
  uint64_t     elapsed_ns;    /* wall time of the counted part */
  DsIoDirStats read;
  DsIoDirStats write;
  uint64_t     cpu_user_ns;   /* all I/O threads, counted part and ramp */
  uint64_t     cpu_system_ns;
  int          error_errno;   /* first failed I/O, 0 if none */
  int64_t      error_offset_bytes; /* -1 if none */
  gboolean     cancelled;
} DsIoStats;

void ds_io_stats_init  (DsIoStats *stats);
void ds_io_stats_clear (DsIoStats *stats);   /* frees histograms */

/* Runs @plan on run->target with run->engine.  Returns 0, or -errno with
 * @error set (message names the device and, for I/O errors, the offset);
 * -ECANCELED with DS_ERROR_CANCELLED when stopped.  @ret_stats holds what
 * was counted either way (in-flight I/O is always reaped first). */
int  ds_run_io         (DsRun           *run,
                        const DsIoPlan  *plan,
                        DsIoStats       *ret_stats,
                        GError         **error);

/* The run's target (ds-run-target.c).  Opens spec->target_path through
 * the safety gate (a write test needs spec->destroy_data; a --create file
 * is made, and filled), checks the spec against its size, sets
 * spec.write_confirmed and the result's target; FALSE with @error else. */
gboolean ds_run_open_target (DsRun    *run,
                             GError  **error);
/* Writes @bytes of random data from offset 0 of run->target, after
 * reserving them (fallocate): a test file is read only after every byte of
 * it was written.  Sets run->target->size_bytes. */
gboolean ds_run_fill        (DsRun    *run,
                             uint64_t  bytes,
                             GError  **error);

G_END_DECLS
