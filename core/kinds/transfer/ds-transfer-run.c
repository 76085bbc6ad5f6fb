/* ds-bench-transfer-run.c: running HD Tune's Benchmark tab
 *
 * A transfer-rate scan across the capacity: DS_BENCH_TRANSFER_POINTS evenly
 * spaced points; at each an untimed positioning read, then sequential I/O
 * of the block size for the accuracy's time budget, never past the point's
 * own segment (ds_bench_run_segment()).  Then the access time (random
 * one-block I/O over the span, every one a dot on the graph), the burst rate
 * (the same block at the start, over and over, after one untimed read: what
 * the drive's cache delivers) and the CPU time the scan took.
 *
 * A failed point (EIO on a bad range) is kept as an error with its offset
 * and the scan goes on; a vanished device or a Stop ends it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "ds-bench-io.h"
#include "ds-bench-transfer.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-run.h"

#define ACCESS_IOS_BASE      DS_TRANSFER_ACCESS_IOS_BASE
#define ACCESS_BUDGET_POINTS DS_TRANSFER_ACCESS_BUDGET_POINTS
#define BURST_BUDGET_POINTS  DS_TRANSFER_BURST_BUDGET_POINTS

/* Of the whole run's progress: the scan, then access time, then burst. */
#define PROGRESS_SCAN   0.85
#define PROGRESS_ACCESS 0.10

typedef struct {
  DsRun         *run;
  DsTransferDir *dir;
  gboolean       write;
} AccessCtx;

/* Between slices of the access-time reads (ds_bench_run_recorded()), never
 * inside a timed window: each read becomes a dot. */
static void
deliver_access (gpointer    user,
                const DsIo *ios,
                guint       n_ios)
{
  AccessCtx *ctx = user;

  for (guint i = 0; i < n_ios; i++)
    {
      const DsIo *io = &ios[i];
      DsAccessPoint point = {
        .offset_bytes = io->offset_bytes,
        .access_ns = io->end_ns - io->start_ns,
      };
      DsSample sample = {
        .kind = DS_SAMPLE_ACCESS,
        .write = ctx->write,
        .offset_bytes = io->offset_bytes,
        .bytes = io->len_bytes,
        .elapsed_ns = point.access_ns,
      };

      g_array_append_val (ctx->dir->access, point);
      ds_run_emit (ctx->run, &sample);
    }
}

/* Stops the scan: cancelled, or a device that is gone. */
static gboolean
fatal (GError *error)
{
  return g_error_matches (error, DS_ERROR, DS_ERROR_CANCELLED) ||
         g_error_matches (error, DS_ERROR, DS_ERROR_VANISHED) ||
         g_error_matches (error, DS_ERROR, DS_ERROR_INVALID) ||
         g_error_matches (error, DS_ERROR, DS_ERROR_PERMISSION);
}

static int
scan (DsRun          *run,
      DsTransferDir  *dir,
      gboolean        write,
      uint64_t        span,
      GError        **error)
{
  const DsBenchSpec *spec = run->spec;
  uint64_t block = spec->block_size_bytes;
  uint64_t point_ns = ds_bench_accuracy_point_ns (spec->accuracy);
  uint64_t segment = ds_align_down (span / DS_BENCH_TRANSFER_POINTS, block);
  uint64_t total_bytes = 0;
  uint64_t total_ns = 0;
  uint64_t cpu_ns = 0;
  uint64_t wall0 = ds_clock_ns ();
  g_autoptr (GError) first_error = NULL;
  double min = INFINITY;
  double max = 0;

  if (segment < block)
    segment = block;

  for (unsigned i = 0; i < DS_BENCH_TRANSFER_POINTS; i++)
    {
      g_autoptr (GError) local = NULL;
      uint64_t offset = ds_align_down ((span - segment) * i / (DS_BENCH_TRANSFER_POINTS - 1), block);
      DsTransferPoint point = { .offset_bytes = offset };
      DsSample sample = { .kind = DS_SAMPLE_POINT, .write = write, .index = i, .offset_bytes = offset };
      DsIoStats stats;
      DsIoPlan timed = {
        .read_percent = write ? 0 : 100,
        .block_bytes = block,
        .depth = 1,
        .threads = 1,
        .duration_ns = point_ns,
      };
      int r;

      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;

      r = ds_bench_run_segment (run, &timed, offset, segment, &stats, &local);
      cpu_ns += stats.cpu_user_ns + stats.cpu_system_ns;
      if (r == 0 && stats.elapsed_ns > 0)
        {
          uint64_t bytes = stats.read.bytes + stats.write.bytes;

          point.bytes_per_s = (double) bytes * 1e9 / (double) stats.elapsed_ns;
          total_bytes += bytes;
          total_ns += stats.elapsed_ns;
          min = MIN (min, point.bytes_per_s);
          max = MAX (max, point.bytes_per_s);
        }
      ds_io_stats_clear (&stats);

      if (r < 0)
        {
          if (fatal (local))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return r;
            }
          /* A bad range: mark the point, keep the first error for the
           * result, and go on. */
          point.error = -r;
          point.bytes_per_s = 0;
          if (first_error == NULL)
            first_error = g_steal_pointer (&local);
        }

      g_array_append_val (dir->points, point);
      if (total_ns > 0)
        {
          dir->min_bytes_per_s = min;
          dir->max_bytes_per_s = max;
          dir->avg_bytes_per_s = (double) total_bytes * 1e9 / (double) total_ns;
        }

      sample.value = point.bytes_per_s;
      sample.error = point.error;
      sample.bytes = block;
      ds_run_set_progress (run, PROGRESS_SCAN * (i + 1) / DS_BENCH_TRANSFER_POINTS);
      ds_run_emit (run, &sample);
    }

  {
    uint64_t wall = ds_clock_ns () - wall0;
    if (wall > 0)
      dir->cpu_percent = 100.0 * (double) cpu_ns / (double) wall;
  }

  if (first_error != NULL)
    {
      /* The scan finished, but the device has bad blocks: the run is
       * reported as failed with the first one, the curve stays whole. */
      g_propagate_error (error, g_steal_pointer (&first_error));
      return -EIO;
    }

  return 0;
}

static int
access_time (DsRun          *run,
             DsTransferDir  *dir,
             gboolean        write,
             uint64_t        span,
             GError        **error)
{
  const DsBenchSpec *spec = run->spec;
  uint64_t lbs = run->target->logical_block_size;
  AccessCtx ctx = { .run = run, .dir = dir, .write = write };
  uint64_t max_ios = (uint64_t) ACCESS_IOS_BASE << (spec->accuracy - 1);
  DsIoPlan plan = {
    .random = TRUE,
    .read_percent = write ? 0 : 100,
    .start_bytes = 0,
    .span_bytes = ds_align_down (span, lbs),
    .block_bytes = lbs,
    .align_bytes = spec->random_align_bytes,
    .depth = 1,
    .threads = 1,
    .max_ios = max_ios,
    .duration_ns = ds_bench_accuracy_point_ns (spec->accuracy) * ACCESS_BUDGET_POINTS,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = write, .name = "access" };
  DsIoStats stats;
  int r;

  ds_run_emit (run, &phase);
  /* Every read is a dot: all are recorded (at most 4 000). */
  r = ds_bench_run_recorded (run, &plan, (guint) max_ios, deliver_access, &ctx, &stats, error);

  {
    const DsIoDirStats *d = write ? &stats.write : &stats.read;
    if (d->ios > 0)
      dir->access_time_s = d->latency_ns.mean / 1e9;
  }
  ds_io_stats_clear (&stats);

  return r;
}

static int
burst_rate (DsRun          *run,
            DsTransferDir  *dir,
            gboolean        write,
            GError        **error)
{
  const DsBenchSpec *spec = run->spec;
  DsIoPlan plan = {
    .wrap = TRUE,
    .read_percent = write ? 0 : 100,
    .start_bytes = 0,
    .span_bytes = spec->block_size_bytes,
    .block_bytes = spec->block_size_bytes,
    .depth = 1,
    .threads = 1,
    .duration_ns = ds_bench_accuracy_point_ns (spec->accuracy) * BURST_BUDGET_POINTS,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = write, .name = "burst" };
  DsIoStats stats;
  int r;

  ds_run_emit (run, &phase);
  r = ds_bench_run_cached (run, &plan, &stats, error);
  if (stats.elapsed_ns > 0)
    dir->burst_bytes_per_s = (double) (stats.read.bytes + stats.write.bytes) * 1e9 /
                             (double) stats.elapsed_ns;
  ds_io_stats_clear (&stats);

  return r;
}

gboolean
ds_transfer_run (DsRun   *run,
                 GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsTransferData *data = run->result->data;
  DsTarget *target = run->target;
  gboolean write = spec->write;
  DsTransferDir *dir = write ? &data->write : &data->read;
  g_autoptr (GError) scan_error = NULL;
  uint64_t span = target->size_bytes;
  uint64_t block = spec->block_size_bytes;
  int r;

  if (!ds_is_aligned (block, target->logical_block_size))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the block size (%" PRIu64 " bytes) must be a "
                   "multiple of %s's logical block size (%u bytes)"),
                   block, target->path, target->logical_block_size);
      return FALSE;
    }
  if (spec->capacity_bytes != 0)
    span = MIN (span, spec->capacity_bytes);
  span = ds_align_down (span, block);
  if (span < 2 * block)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the test capacity (%" PRIu64 " bytes) is "
                   "smaller than two blocks"), target->path, span);
      return FALSE;
    }

  data->span_bytes = span;
  data->block_bytes = block;
  dir->present = TRUE;

  {
    DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = write, .name = "transfer" };
    ds_run_emit (run, &phase);
  }

  r = scan (run, dir, write, span, &scan_error);
  if (r < 0 && fatal (scan_error))
    {
      g_propagate_error (error, g_steal_pointer (&scan_error));
      return ds_run_ok (run, r, error);
    }

  /* A bad block met by the access-time or burst reads is reported like
   * one met by the scan: the first one wins, the run goes on. */
  for (unsigned phase = 0; phase < 2; phase++)
    {
      g_autoptr (GError) local = NULL;

      if (phase == 0)
        r = access_time (run, dir, write, span, &local);
      else
        r = burst_rate (run, dir, write, &local);
      ds_run_set_progress (run, phase == 0 ? PROGRESS_SCAN + PROGRESS_ACCESS : 1.0);

      if (r < 0 && fatal (local))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return ds_run_ok (run, r, error);
        }
      if (r < 0 && scan_error == NULL)
        scan_error = g_steal_pointer (&local);
    }

  if (scan_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&scan_error));
      return ds_run_ok (run, -EIO, error);
    }

  return TRUE;
}

