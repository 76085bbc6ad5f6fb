/* ds-run.h: run one benchmark spec; the run context the kinds get
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
#include "ds-io-loop.h"
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

/* What a front end gives a run besides its spec. */
typedef struct {
  DsSinkFunc      sink;
  gpointer        sink_data;
  const gint     *cancel;
  /* How the target may be opened beyond the user's rights (udisks2 or
   * not, a terminal's authentication agent).  Its cancel and notice are
   * the run's own (a wait for polkit is a DS_SAMPLE_NOTICE). */
  DsTargetAccess  access;
  /* TRUE when the caller has just checked @spec with
   * ds_bench_spec_validate() (to give its own message and exit status
   * first): the run does not check it again. */
  gboolean        validated;
} DsRunOptions;

/* ds_run() with every option. */
DsResult *ds_run_full (const DsBenchSpec  *spec,
                       const DsRunOptions *options);

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
  DsTargetAccess     access;   /* options.access, the run's cancel and notice */
  DsRng              rng;
  double             progress; /* last progress reported, 0..1 */
  /* Set by ds_run_io() on the first failed I/O, for the result. */
  int                error_errno;
  int64_t            error_offset_bytes;
  gboolean           noted_fallback;
  /* What the run watches for its warnings (env/ds-run-watch.h). */
  struct _DsRunWatch *watch;
};

gboolean ds_run_cancelled (DsRun          *run);
/* Where a kind's run() meets the layers below it, which return -errno
 * (ds_run_io, the engines, the target): TRUE when @rc is not negative and
 * nothing set @error; else FALSE, with @error set (from @rc, naming the
 * target, when the callee set none). */
gboolean ds_run_ok        (DsRun          *run,
                           int             rc,
                           GError        **error);
/* When the user stopped the run: sets DS_ERROR_CANCELLED and returns
 * -ECANCELED; else 0. */
int      ds_run_check_cancelled (DsRun    *run,
                                 GError  **error);
/* Sends @sample to the sink; fills sample->progress from run->progress. */
void     ds_run_emit      (DsRun          *run,
                           DsSample       *sample);
void     ds_run_set_progress (DsRun       *run,
                              double       progress);
/* The I/O loop (io/ds-io-loop.h) on the run's target, engine, sink, cancel
 * flag and random stream: ds_io_run() with a context made from @run, and
 * what the run keeps of it (the engine's name and a fallback's note in the
 * result, the first failed I/O, what the run watches).  Returns as
 * ds_io_run() does. */
int      ds_run_io        (DsRun          *run,
                           const DsIoPlan *plan,
                           DsIoStats      *ret_stats,
                           GError        **error);
/* Fills run->result->target from @target (for a kind that opens its own). */
void     ds_run_describe_target (DsRun          *run,
                                 const DsTarget *target);

/* The run's target (ds-run-target.c).  Opens spec->target_path through
 * the safety gate (a write test needs spec->destroy_data; a --create file
 * is made, and filled), checks the spec against its size, sets
 * spec.write_confirmed and the result's target; FALSE with @error else. */
gboolean ds_run_open_target (DsRun    *run,
                             GError  **error);
/* ds_target_open_full() for a run: a block device that is busy (EBUSY on
 * the O_EXCL open of a write) is tried again for up to
 * DS_BUSY_WAIT_NS, with a DS_SAMPLE_NOTICE to say so and a note in the
 * result; still busy, the error names the programs that have it open. */
DsTarget *ds_run_open_path  (DsRun              *run,
                             const char         *path,
                             DsTargetOpenFlags   flags,
                             const char         *confirm,
                             GError            **error);
/* Writes @bytes of random data from offset 0 of run->target, after
 * reserving them (fallocate): a test file is read only after every byte of
 * it was written.  Sets run->target->size_bytes. */
gboolean ds_run_fill        (DsRun    *run,
                             uint64_t  bytes,
                             GError  **error);

G_END_DECLS
