/* ds-io-loop-private.h: what the I/O loop's two files share: the state of
 * one ds_io_run() and of each of its I/O threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sched.h>

#include <glib.h>
#include <stdint.h>

#include "ds-buffer.h"
#include "ds-clock.h"
#include "ds-engine.h"
#include "ds-io-loop.h"
#include "ds-io-series.h"

G_BEGIN_DECLS

/* How long getevents() may block before the loop looks at the cancel flag
 * and the deadline again.  Well under the 100 ms a Stop may take. */
#define DS_IO_POLL_NS (20 * DS_NS_PER_MSEC)


/* State the threads of one ds_io_run() share: atomics, and the start line
 * (a lock taken once before any I/O, never after). */
typedef struct {
  const DsIoContext *ctx;
  const DsIoPlan *plan;
  const DsEngineOps *ops;
  unsigned        depth;          /* per thread */
  uint64_t        block_max;      /* largest I/O */
  uint64_t        align;          /* random offsets: multiples of this */
  uint64_t        max_ios;        /* 0 = unlimited */
  uint64_t        max_bytes;
  /* The clock starts once every thread is set up (buffers filled, ring
   * made): set before `go`, read after it. */
  uint64_t        t_start_ns;
  uint64_t        ramp_end_ns;
  uint64_t        deadline_ns;    /* 0 = none */
  GMutex          start_lock;     /* the start line, before any I/O */
  GCond           start_cond;
  unsigned        ready;          /* threads set up */
  gboolean        go;
  gboolean        inline_run;     /* one thread, on the caller's */
  gint64          issued_ios;     /* atomic */
  gint64          issued_bytes;   /* atomic */
  gint            stop;           /* atomic: any thread saw an error, or
                                   * plan->on_interval said enough */
  DsIoSeries     *series;         /* NULL unless plan->interval_ns */
  gint            finished;       /* atomic: threads that have returned */
} Shared;

/* What an I/O thread could not allocate: the run says how much it needed. */
typedef enum {
  DS_IO_ALLOC_OK,
  DS_IO_ALLOC_BUFFERS,            /* its I/O buffers and slots */
  DS_IO_ALLOC_HISTOGRAMS,         /* its latency histograms */
  DS_IO_ALLOC_SERIES,             /* the run's per-interval rings */
} DsIoAlloc;

typedef struct {
  Shared    *shared;
  unsigned   id;
  DsRng      rng;
  DsEngine   engine;
  DsIo      *ios;
  DsIo     **done;
  DsIoStats  stats;
  DsIoRing  *ring;                /* this thread's series ring, or NULL */
  uint64_t   first_ns;            /* first counted I/O's start */
  uint64_t   last_ns;             /* last counted completion */
  int        error;               /* negative errno of the first failure */
  int64_t    error_offset;
  gboolean   error_write;
  gboolean   setup_failed;
  DsIoAlloc  alloc_failed;        /* with error -ENOMEM */
  /* For the run's warnings (run/ds-run-watch.h): every byte moved, ramp
   * included, and the read buffers sampled for all zeros. */
  uint64_t   reads_seen;
  DsIoWatch  watch;
  /* The scheduling class the thread had before its timed loop, to put
   * back after it (ds-io-worker.c, yield_cpu). */
  gboolean   idled;
  int        caller_policy;
  struct sched_param caller_param;
} Worker;

/* ds-io-worker.c: one I/O thread, from its setup to its last completion. */
gpointer ds_io_worker_main    (gpointer  data);
/* Frees what the thread set up (after it was joined). */
void     ds_io_worker_teardown (Worker  *w);
/* ds-io-loop.c: the start line each I/O thread waits at once set up. */
void     ds_io_wait_for_start (Shared   *sh);

G_END_DECLS
