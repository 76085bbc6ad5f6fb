/* ds-io-loop.c: the I/O loop every kind uses (see ds-io-loop.h): starts
 * the I/O threads (ds-io-worker.c), starts the clock once they are set up,
 * collects the series while they run, and adds up what they counted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

#include "ds-error.h"
#include "ds-io-loop-private.h"
#include "ds-units.h"

void
ds_io_stats_init (DsIoStats *stats)
{
  *stats = (DsIoStats) { .error_offset_bytes = -1 };
  ds_stats_init (&stats->read.latency_ns);
  ds_stats_init (&stats->write.latency_ns);
}

void
ds_io_stats_clear (DsIoStats *stats)
{
  g_clear_pointer (&stats->read.histogram, g_free);
  g_clear_pointer (&stats->write.histogram, g_free);
  g_clear_pointer (&stats->series, g_array_unref);
}

static void
set_start (Shared   *sh,
           uint64_t  now_ns)
{
  sh->t_start_ns = now_ns;
  sh->ramp_end_ns = now_ns + sh->plan->ramp_ns;
  if (sh->plan->duration_ns != 0)
    sh->deadline_ns = sh->ramp_end_ns + sh->plan->duration_ns;
  if (sh->series != NULL)
    ds_io_series_start (sh->series, sh->ramp_end_ns);
}

/* Each I/O thread, set up or failed: waits until all are, so that none
 * measures while others are still filling their buffers. */
void
ds_io_wait_for_start (Shared *sh)
{
  if (sh->inline_run)
    {
      set_start (sh, ds_clock_ns ());
      return;
    }

  g_mutex_lock (&sh->start_lock);
  sh->ready++;
  g_cond_broadcast (&sh->start_cond);
  while (!sh->go)
    g_cond_wait (&sh->start_cond, &sh->start_lock);
  g_mutex_unlock (&sh->start_lock);
}

/* The thread that started the @n_threads I/O threads: starts the clock
 * once they are all set up. */
static void
start_when_ready (Shared   *sh,
                  unsigned  n_threads)
{
  g_mutex_lock (&sh->start_lock);
  while (sh->ready < n_threads)
    g_cond_wait (&sh->start_cond, &sh->start_lock);
  set_start (sh, ds_clock_ns ());
  sh->go = TRUE;
  g_cond_broadcast (&sh->start_cond);
  g_mutex_unlock (&sh->start_lock);
}

/* The engine the context names, or the best for @depth; *@ret_fallback
 * says why io_uring could not be had when the threads engine stands in. */
static const DsEngineOps *
resolve_engine (const DsIoContext *ctx,
                unsigned           depth,
                int               *ret_fallback)
{
  int why = 0;

  *ret_fallback = 0;
  if (ctx->engine != NULL)
    return ctx->engine;

  if (depth <= 1)
    return &ds_engine_sync;
  if (ds_engine_uring_available (&why))
    return &ds_engine_uring;

  *ret_fallback = why != 0 ? why : ENOSYS;
  return &ds_engine_threads;
}

/* On the collecting thread: one interval's point to the sink. */
static void
emit_point (const DsIntervalPoint *point,
            unsigned               index,
            gpointer               user_data)
{
  Shared *sh = user_data;
  DsSample sample = {
    .kind = DS_SAMPLE_INTERVAL,
    .index = index,
    .elapsed_ns = (uint64_t) (point->t_s * DS_NS_PER_SEC),
    .value = point->read.bytes_per_s + point->write.bytes_per_s,
    .interval = point,
    .histogram = ds_io_series_cumulative (sh->series),
  };

  if (sh->ctx->sink != NULL)
    sh->ctx->sink (&sample, sh->ctx->sink_data);
  if (sh->plan->on_interval != NULL &&
      sh->plan->on_interval (sh->plan->user, point, index))
    g_atomic_int_set (&sh->stop, 1);
}

/* The thread that started the run, while the I/O threads run: collects
 * the series a few times per interval (at most every 50 ms) until all of
 * the @n_threads started have returned. */
static void
collect_while_running (Shared   *sh,
                       unsigned  n_threads)
{
  uint64_t poll_ns = CLAMP (sh->plan->interval_ns / 4, 5 * DS_NS_PER_MSEC, 50 * DS_NS_PER_MSEC);

  while ((unsigned) g_atomic_int_get (&sh->finished) < n_threads)
    {
      g_usleep (poll_ns / DS_NS_PER_USEC);
      ds_io_series_collect (sh->series, emit_point, sh);
    }
}

uint64_t
ds_io_plan_align (const DsIoPlan *plan,
                  uint32_t        lbs)
{
  uint64_t align = plan->align_bytes != 0 ? plan->align_bytes : plan->block_bytes;

  return MAX (align, (uint64_t) MAX (lbs, 1u));
}

uint64_t
ds_io_random_offset (DsRng    *rng,
                     uint64_t  start,
                     uint64_t  span,
                     uint64_t  len,
                     uint64_t  align)
{
  /* The places k * align with k * align + len <= span: k from 0 to
   * (span - len) / align, drawn uniformly (ds_rng_below has no modulo
   * bias). */
  uint64_t slots = (span - len) / align + 1;

  return start + ds_rng_below (rng, slots) * align;
}

static void
merge_dir (DsIoDirStats       *dst,
           const DsIoDirStats *src)
{
  dst->ios += src->ios;
  dst->bytes += src->bytes;
  ds_stats_merge (&dst->latency_ns, &src->latency_ns);
  if (src->histogram != NULL)
    {
      if (dst->histogram == NULL)
        dst->histogram = g_new0 (DsHistogram, 1);
      ds_histogram_merge (dst->histogram, src->histogram);
    }
}

/* The memory this run needed for @what and could not have, in its own
 * terms: how much, made of what, and which options lower it.  Buffers are
 * one slot of the largest block (aligned) per I/O in flight, per thread. */
static void
set_alloc_error (GError         **error,
                 const char      *path,
                 const DsIoPlan  *plan,
                 DsIoAlloc        what,
                 unsigned         n_threads,
                 unsigned         depth,
                 uint64_t         slot_bytes)
{
  unsigned threads = MAX (plan->threads, 1);
  g_autofree char *threads_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread",
                                                                "%u threads", threads), threads);
  g_autofree char *io_threads = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u I/O thread",
                                                              "%u I/O threads", n_threads),
                                                 n_threads);
  g_autofree char *block = ds_format_block (slot_bytes);
  g_autofree char *total = NULL;
  g_autofree char *each = NULL;

  switch (what)
    {
    case DS_IO_ALLOC_HISTOGRAMS:
      total = ds_format_size_iec ((uint64_t) n_threads * 2 * sizeof (DsHistogram));
      each = ds_format_size_iec (sizeof (DsHistogram));
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: could not allocate %s of latency histograms (%s × reads and "
                   "writes × %s): %s; lower --threads"),
                   path, total, io_threads, each, g_strerror (ENOMEM));
      break;
    case DS_IO_ALLOC_SERIES:
      /* A ring of intervals per thread. */
      total = ds_format_size_iec ((uint64_t) n_threads * DS_IO_RING_SLOTS * sizeof (DsIoSlot));
      each = ds_format_size_iec (DS_IO_RING_SLOTS * sizeof (DsIoSlot));
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: could not allocate %s for the per-interval series (%s × %s): %s; "
                   "lower --threads"),
                   path, total, io_threads, each, g_strerror (ENOMEM));
      break;
    case DS_IO_ALLOC_OK:
    case DS_IO_ALLOC_BUFFERS:
    default:
      total = ds_format_size_iec ((uint64_t) n_threads * depth * slot_bytes);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   /* Translators: the size, then queue depth × block size × threads */
                   _("%s: could not allocate %s of I/O buffers (queue depth %u × %s blocks × "
                   "%s): %s; lower --queue-depth, --threads or --block-size"),
                   path, total, plan->depth, block, threads_text, g_strerror (ENOMEM));
      break;
    }
}

/* The plan fits the target: its region inside, its blocks and random
 * offsets on the target's logical blocks. */
static int
check_plan (const DsTarget  *target,
            const DsIoPlan  *plan,
            uint64_t        *ret_align,
            GError         **error)
{
  uint64_t align;

  if (plan->block_bytes == 0 ||
      !ds_is_aligned (plan->block_bytes, target->logical_block_size) ||
      !ds_is_aligned (plan->start_bytes, target->logical_block_size) ||
      plan->span_bytes < MAX (plan->block_bytes, plan->block_max_bytes) ||
      plan->start_bytes + plan->span_bytes > target->size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the test region (offset %" PRIu64 ", %"
                   PRIu64 " bytes, block %" PRIu64
                   ") does not fit the device (%" PRIu64
                   " bytes, %u-byte blocks)"),
                   target->path, plan->start_bytes, plan->span_bytes,
                   plan->block_bytes, target->size_bytes,
                   target->logical_block_size);
      return -EINVAL;
    }

  align = ds_io_plan_align (plan, target->logical_block_size);
  if (plan->random && !ds_is_aligned (align, target->logical_block_size))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: random offsets aligned to %" PRIu64 " bytes do not fall on its "
                   "%u-byte blocks"),
                   target->path, align, target->logical_block_size);
      return -EINVAL;
    }

  *ret_align = align;
  return 0;
}

/* The engine, and the threads × depth it runs the plan's depth at: an
 * engine of a lower depth fans out into more threads where it can. */
static int
fit_engine (const DsIoContext  *ctx,
            const DsIoPlan     *plan,
            DsIoStats          *stats,
            unsigned           *ret_threads,
            unsigned           *ret_depth,
            GError            **error)
{
  const DsEngineOps *ops = resolve_engine (ctx, plan->depth, &stats->engine_fallback_errno);
  unsigned depth = plan->depth;
  unsigned n_threads = MAX (plan->threads, 1);

  if (depth > ops->max_depth)
    {
      if (!ops->fan_out)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("the %s engine runs at queue depth %u at most; use "
                       "io_uring or threads for queue depth %u"),
                       ops->name, ops->max_depth, depth);
          return -EINVAL;
        }
      n_threads *= depth / ops->max_depth;
      depth = ops->max_depth;
    }

  stats->engine = ops;
  *ret_threads = n_threads;
  *ret_depth = depth;
  return 0;
}

static Worker *
workers_new (Shared             *sh,
             const DsIoContext  *ctx,
             const DsIoPlan     *plan,
             unsigned            n_threads)
{
  Worker *workers = g_new0 (Worker, n_threads);

  for (unsigned i = 0; i < n_threads; i++)
    {
      workers[i].shared = sh;
      workers[i].id = i;
      workers[i].error_offset = -1;
      if (sh->series != NULL)
        workers[i].ring = ds_io_series_ring (sh->series, i);
      if (plan->rng != NULL && n_threads == 1)
        workers[i].rng = *plan->rng;
      else
        ds_rng_seed (&workers[i].rng, ctx->rng != NULL ? ds_rng_next (ctx->rng) : i + 1);
      ds_io_stats_init (&workers[i].stats);
    }

  return workers;
}

/* Runs the workers (on this thread when one needs no series collected)
 * and joins them.  Returns how many started; a refused thread stops the
 * others and its reason is in @ret_thread_error. */
static unsigned
run_workers (Shared   *sh,
             Worker   *workers,
             unsigned  n_threads,
             GError  **ret_thread_error)
{
  GThread **threads;
  unsigned started = 0;

  /* With a series this thread collects it while the I/O threads run. */
  if (n_threads == 1 && sh->series == NULL)
    {
      sh->inline_run = TRUE;
      ds_io_worker_main (&workers[0]);
      return 1;
    }

  /* The system may refuse a thread (ulimit -u, ulimit -v, kernel
   * threads-max): the run fails, saying so, rather than running with
   * fewer threads than asked, which would measure another workload.
   * The threads already started stop at once and are joined. */
  threads = g_new0 (GThread *, n_threads);
  for (; started < n_threads; started++)
    {
      threads[started] = g_thread_try_new ("ds-io", ds_io_worker_main, &workers[started],
                                           ret_thread_error);
      if (threads[started] == NULL)
        {
          g_atomic_int_set (&sh->stop, 1);
          break;
        }
    }
  start_when_ready (sh, started);
  if (sh->series != NULL)
    collect_while_running (sh, started);
  for (unsigned i = 0; i < started; i++)
    g_thread_join (threads[i]);
  g_free (threads);

  return started;
}

/* Every worker's figures into @stats; the first that failed. */
static Worker *
merge_workers (Worker    *workers,
               unsigned   n_threads,
               DsIoStats *stats,
               uint64_t  *ret_last_ns)
{
  DsIoWatch *watch = &stats->watch;
  uint64_t first = UINT64_MAX;
  uint64_t last = 0;
  Worker *failed = NULL;

  for (unsigned i = 0; i < n_threads; i++)
    {
      Worker *w = &workers[i];

      merge_dir (&stats->read, &w->stats.read);
      merge_dir (&stats->write, &w->stats.write);
      stats->cpu_user_ns += w->stats.cpu_user_ns;
      stats->cpu_system_ns += w->stats.cpu_system_ns;
      watch->read_bytes += w->watch.read_bytes;
      watch->written_bytes += w->watch.written_bytes;
      watch->zero_sampled += w->watch.zero_sampled;
      if (w->watch.zero_found > 0 &&
          (watch->zero_found == 0 || w->watch.zero_first_bytes < watch->zero_first_bytes))
        watch->zero_first_bytes = w->watch.zero_first_bytes;
      watch->zero_found += w->watch.zero_found;
      if (w->first_ns != 0 && w->first_ns < first)
        first = w->first_ns;
      if (w->last_ns > last)
        last = w->last_ns;
      if (w->error != 0 && failed == NULL)
        failed = w;
      ds_io_worker_teardown (w);
      ds_io_stats_clear (&w->stats);
    }

  /* Throughput is total bytes over the wall time from the first counted
   * I/O's submission to the last completion (all threads). */
  if (last > first)
    stats->elapsed_ns = last - first;
  *ret_last_ns = last;

  return failed;
}

/* A thread the system refused: the run fails, saying which limit. */
static int
refused_thread (const DsTarget  *target,
                unsigned         started,
                unsigned         n_threads,
                const GError    *thread_error,
                DsIoStats       *stats,
                GError         **error)
{
  struct rlimit nproc;
  g_autofree char *limit = NULL;
  const DsEngineOps *ops = stats->engine;
  DsIoWatch moved = stats->watch;

  if (getrlimit (RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur != RLIM_INFINITY)
    limit = g_strdup_printf ("%llu", (unsigned long long) nproc.rlim_cur);
  g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
               _("%s: the system refused I/O thread %u of the %u this run "
               "needs (%s). The limits are the user's processes and "
               "threads (ulimit -u: %s), virtual memory (ulimit -v) and "
               "kernel.threads-max; run with fewer --threads, or a lower "
               "--queue-depth on the threads engine"),
               target->path, started + 1, n_threads, thread_error->message,
               limit != NULL ? limit : "unlimited");
  /* What the threads that did start measured is another workload
   * than the one asked for: not a figure to report (what they moved
   * still counts for the run's warnings). */
  ds_io_stats_clear (stats);
  ds_io_stats_init (stats);
  stats->watch = moved;
  stats->engine = ops;
  return -EAGAIN;
}

/* A worker's error, as the run's. */
static int
worker_failed (const DsTarget  *target,
               const DsIoPlan  *plan,
               const Shared    *sh,
               const Worker    *failed,
               unsigned         n_threads,
               DsIoStats       *stats,
               GError         **error)
{
  int e = -failed->error;

  stats->error_errno = e;
  stats->error_offset_bytes = failed->error_offset;

  if (failed->alloc_failed != DS_IO_ALLOC_OK)
    set_alloc_error (error, target->path, plan, failed->alloc_failed, n_threads, sh->depth,
                     ds_align_up (sh->block_max, target->mem_align));
  else if (failed->error_offset >= 0)
    {
      DsError code = ds_error_from_errno (e);

      if (code == DS_ERROR_FAILED || code == DS_ERROR_INVALID ||
          code == DS_ERROR_NOT_FOUND)
        code = DS_ERROR_IO;
      g_set_error (error, DS_ERROR, code,
                   _("%s: %s error at offset %" PRId64
                   " (%.3f GB): %s"),
                   target->path, failed->error_write ? _("write") : _("read"),
                   failed->error_offset, failed->error_offset / 1e9,
                   g_strerror (e));
    }
  else
    {
      ds_set_error_from_errno (error, e, target->path);
    }

  return -e;
}

int
ds_io_run (const DsIoContext *ctx,
           const DsIoPlan    *plan,
           DsIoStats         *ret_stats,
           GError           **error)
{
  DsTarget *target = ctx->target;
  Shared sh = { 0 };
  Worker *workers;
  Worker *failed;
  unsigned n_threads, depth, started;
  uint64_t last;
  g_autoptr (GError) thread_error = NULL;
  int ret;

  g_return_val_if_fail (target != NULL, -EINVAL);
  g_return_val_if_fail (plan->depth >= 1, -EINVAL);

  ds_io_stats_init (ret_stats);

  ret = check_plan (target, plan, &sh.align, error);
  if (ret == 0)
    ret = fit_engine (ctx, plan, ret_stats, &n_threads, &depth, error);
  if (ret < 0)
    return ret;

  sh.ctx = ctx;
  sh.plan = plan;
  sh.ops = ret_stats->engine;
  sh.depth = depth;
  sh.block_max = MAX (plan->block_bytes, plan->block_max_bytes);
  sh.max_ios = plan->max_ios;
  sh.max_bytes = plan->max_bytes;
  if (plan->interval_ns != 0)
    {
      sh.series = ds_io_series_new (n_threads, 0, plan->interval_ns);
      if (sh.series == NULL)
        {
          set_alloc_error (error, target->path, plan, DS_IO_ALLOC_SERIES, n_threads, depth, 0);
          return -ENOMEM;
        }
    }
  g_mutex_init (&sh.start_lock);
  g_cond_init (&sh.start_cond);

  workers = workers_new (&sh, ctx, plan, n_threads);
  started = run_workers (&sh, workers, n_threads, &thread_error);
  if (plan->rng != NULL && n_threads == 1)
    *plan->rng = workers[0].rng;
  failed = merge_workers (workers, n_threads, ret_stats, &last);

  if (sh.series != NULL)
    {
      ds_io_series_finish (sh.series, last, emit_point, &sh);
      ret_stats->series = ds_io_series_steal_points (sh.series, &ret_stats->series_merged);
      ret_stats->series_dropped_ios = ds_io_series_dropped_ios (sh.series);
      g_clear_pointer (&sh.series, ds_io_series_free);
    }

  if (started < n_threads)
    ret = refused_thread (target, started, n_threads, thread_error, ret_stats, error);
  else if (failed != NULL)
    ret = worker_failed (target, plan, &sh, failed, n_threads, ret_stats, error);
  else if (ds_check_cancelled (ctx->cancel, error) < 0)
    {
      ret_stats->cancelled = TRUE;
      ret = -ECANCELED;
    }

  g_free (workers);
  g_mutex_clear (&sh.start_lock);
  g_cond_clear (&sh.start_cond);

  return ret;
}
