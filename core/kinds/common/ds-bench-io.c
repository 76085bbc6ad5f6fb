/* ds-bench-io.c: I/O patterns several kinds share, built on ds_run_io()
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "ds-bench-io.h"
#include "ds-clock.h"

uint64_t
ds_bench_span_bytes (DsRun *run)
{
  uint64_t size = run->target->size_bytes;

  if (run->spec->capacity_bytes != 0 && run->spec->capacity_bytes < size)
    size = run->spec->capacity_bytes;

  return ds_align_down (size, run->target->logical_block_size);
}

static void
dir_add (DsIoDirStats       *sum,
         const DsIoDirStats *part)
{
  sum->ios += part->ios;
  sum->bytes += part->bytes;
  ds_stats_merge (&sum->latency_ns, &part->latency_ns);
  if (part->histogram != NULL)
    {
      if (sum->histogram == NULL)
        sum->histogram = g_new0 (DsHistogram, 1);
      ds_histogram_merge (sum->histogram, part->histogram);
    }
}

void
ds_bench_io_stats_add (DsIoStats       *sum,
                       const DsIoStats *part)
{
  dir_add (&sum->read, &part->read);
  dir_add (&sum->write, &part->write);
  sum->elapsed_ns += part->elapsed_ns;
  sum->cpu_user_ns += part->cpu_user_ns;
  sum->cpu_system_ns += part->cpu_system_ns;
  if (sum->error_errno == 0 && part->error_errno != 0)
    {
      sum->error_errno = part->error_errno;
      sum->error_offset_bytes = part->error_offset_bytes;
    }
  sum->cancelled = sum->cancelled || part->cancelled;
}

/* After an untimed I/O that did not go well: @ret_stats holds nothing
 * timed, but the CPU time and the error. */
static int
untimed_failed (const DsIoStats *untimed,
                DsIoStats       *ret_stats,
                int              r)
{
  ds_io_stats_init (ret_stats);
  ret_stats->cpu_user_ns = untimed->cpu_user_ns;
  ret_stats->cpu_system_ns = untimed->cpu_system_ns;
  ret_stats->error_errno = untimed->error_errno;
  ret_stats->error_offset_bytes = untimed->error_offset_bytes;
  ret_stats->cancelled = untimed->cancelled;

  return r;
}

/* Runs @timed after an untimed @first, whose CPU time is added. */
static int
run_after (DsRun           *run,
           const DsIoPlan  *first,
           const DsIoPlan  *timed,
           DsIoStats       *ret_stats,
           GError         **error)
{
  DsIoPlan untimed = *first;
  DsIoStats stats;
  int r;

  /* Its reads are in no figure: no zero_reads warning from them (a write
   * test's positioning reads of space not yet written). */
  untimed.untimed = TRUE;
  r = ds_run_io (run, &untimed, &stats, error);
  if (r < 0)
    r = untimed_failed (&stats, ret_stats, r);
  else
    {
      r = ds_run_io (run, timed, ret_stats, error);
      ret_stats->cpu_user_ns += stats.cpu_user_ns;
      ret_stats->cpu_system_ns += stats.cpu_system_ns;
    }
  ds_io_stats_clear (&stats);

  return r;
}

int
ds_bench_run_segment (DsRun           *run,
                      const DsIoPlan  *plan,
                      uint64_t         offset_bytes,
                      uint64_t         segment_bytes,
                      DsIoStats       *ret_stats,
                      GError         **error)
{
  uint64_t block = plan->block_bytes;
  /* A write test positions with a read too: it changes nothing. */
  DsIoPlan position = {
    .read_percent = 100,
    .start_bytes = offset_bytes,
    .span_bytes = block,
    .block_bytes = block,
    .depth = 1,
    .threads = 1,
    .max_ios = 1,
    .on_complete = plan->on_complete,
    .user = plan->user,
  };
  DsIoPlan timed = *plan;

  ds_io_stats_init (ret_stats);
  g_return_val_if_fail (segment_bytes >= block, -EINVAL);

  timed.random = FALSE;
  timed.wrap = FALSE;
  timed.next_offset = NULL;
  timed.start_bytes = offset_bytes + block;
  timed.span_bytes = segment_bytes - block;
  if (timed.span_bytes < block)
    {
      /* One-block segments (tiny devices): time the block itself. */
      timed.start_bytes = offset_bytes;
      timed.span_bytes = block;
    }

  return run_after (run, &position, &timed, ret_stats, error);
}

int
ds_bench_run_cached (DsRun           *run,
                     const DsIoPlan  *plan,
                     DsIoStats       *ret_stats,
                     GError         **error)
{
  DsIoPlan pass = *plan;

  /* One pass over the region, stopping at its end. */
  pass.wrap = FALSE;
  pass.max_ios = 0;
  pass.max_bytes = 0;
  pass.duration_ns = 0;

  return run_after (run, &pass, plan, ret_stats, error);
}

/* ---- recorded runs ------------------------------------------------------ */

typedef struct {
  DsIo  *ios;
  guint  capacity;
  guint  n;          /* atomic: completions offered, may pass capacity */
} Records;

/* On the I/O thread, for each counted completion: one store, no lock.  The
 * atomic index keeps it right even if a plan ran on several threads; the
 * reader looks only after ds_run_io() has joined them. */
static void
record (gpointer    user,
        const DsIo *io)
{
  Records *rec = user;
  guint i = __atomic_fetch_add (&rec->n, 1, __ATOMIC_RELAXED);

  if (i < rec->capacity)
    rec->ios[i] = *io;
}

int
ds_bench_run_recorded (DsRun               *run,
                       const DsIoPlan      *plan,
                       guint                keep,
                       DsBenchRecordsFunc   deliver,
                       gpointer             user,
                       DsIoStats           *ret_stats,
                       GError             **error)
{
  Records rec = { 0 };
  uint64_t done_ns = 0;
  uint64_t done_ios = 0;
  guint kept = 0;
  DsRng row_rng;
  int r = 0;

  ds_io_stats_init (ret_stats);
  g_return_val_if_fail (plan->duration_ns != 0 || plan->max_ios != 0, -EINVAL);
  g_return_val_if_fail (plan->on_complete == NULL && plan->ramp_ns == 0, -EINVAL);

  /* Touched now, so no page is first written inside a timed window. */
  rec.capacity = keep;
  rec.ios = g_new (DsIo, MAX (keep, 1));
  /* One random stream for the whole row, however many slices it takes
   * (their number depends on the device's speed): the same seed gives the
   * same offsets. */
  ds_rng_seed (&row_rng, ds_rng_next (&run->rng));
  memset (rec.ios, 0, sizeof (DsIo) * MAX (keep, 1));

  for (;;)
    {
      DsIoPlan slice = *plan;
      gboolean recording = kept < keep;

      if (slice.threads <= 1 && slice.rng == NULL)
        slice.rng = &row_rng;
      DsIoStats part;
      uint64_t part_ios;

      if (plan->duration_ns != 0)
        {
          if (done_ns >= plan->duration_ns)
            break;
          slice.duration_ns = plan->duration_ns - done_ns;
          if (recording)
            slice.duration_ns = MIN (slice.duration_ns, DS_BENCH_SLICE_NS);
        }
      if (plan->max_ios != 0)
        {
          if (done_ios >= plan->max_ios)
            break;
          slice.max_ios = plan->max_ios - done_ios;
        }
      if (recording)
        {
          slice.max_ios = slice.max_ios != 0 ? MIN (slice.max_ios, keep - kept) : keep - kept;
          slice.on_complete = record;
          slice.user = &rec;
          rec.n = 0;
        }

      r = ds_run_io (run, &slice, &part, error);
      if (recording)
        {
          guint n = MIN (rec.n, rec.capacity);

          if (n > 0)
            deliver (user, rec.ios, n);
          kept += n;
        }
      part_ios = part.read.ios + part.write.ios;
      done_ns += part.elapsed_ns;
      done_ios += part_ios;
      ds_bench_io_stats_add (ret_stats, &part);
      ds_io_stats_clear (&part);

      /* An error, or a plan with nothing more to do. */
      if (r < 0 || part_ios == 0)
        break;
    }

  g_free (rec.ios);

  return r;
}
