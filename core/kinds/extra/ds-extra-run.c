/* ds-bench-extra-run.c: running HD Tune's Extra Tests
 *
 * Nine rows at queue depth 1, each for about the same time (--duration per
 * row), in HD Tune's order: random seeks of one logical block and of 4 KB,
 * the butterfly seek, random seeks of random sizes up to 64 KB and 8 MB,
 * 64 KB sequential reads in a zone at the outer edge, the middle and the
 * inner edge of the span, and the burst rate.  Each row's pattern, and why
 * it does not depend on the device's speed, is written beside its constants
 * in ds-bench-extra.h.  A --write run does the same with writes (the
 * untimed positioning reads stay reads).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench.h"
#include "ds-bench-extra.h"
#include "ds-bench-io.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-run.h"

typedef struct {
  /* butterfly */
  uint64_t end_bytes;
  uint64_t step_bytes;
  uint64_t walk_pairs;
  uint64_t walks;
  /* where the I/O went */
  uint64_t min_offset_bytes;
  uint64_t max_end_bytes;
} RowState;

/* Butterfly: even I/Os walk in from the outer edge, odd ones in from the
 * inner edge, one step per pair.  One ds_run_io() is one walk, so @index
 * starts at 0 at the edges each time. */
static uint64_t
butterfly_offset (gpointer user,
                  uint64_t index,
                  uint64_t len)
{
  RowState *st = user;
  uint64_t pair = index / 2;

  if (index % 2 == 0)
    return st->step_bytes * pair;

  return st->end_bytes - len - st->step_bytes * pair;
}

/* On the I/O thread, for each counted completion: two compares. */
static void
track_io (gpointer    user,
          const DsIo *io)
{
  RowState *st = user;

  if (io->offset_bytes < st->min_offset_bytes)
    st->min_offset_bytes = io->offset_bytes;
  if (io->offset_bytes + io->len_bytes > st->max_end_bytes)
    st->max_end_bytes = io->offset_bytes + io->len_bytes;
}

/* Sets @plan's region, block and order for @row. */
static void
plan_row (DsIoPlan       *plan,
          DsExtraRowKind  row,
          uint64_t        span,
          uint32_t        lbs)
{
  /* The sequential zones: 1/20 of the span in whole 64 KB blocks. */
  uint64_t zone = MAX (ds_align_down (span / DS_EXTRA_ZONE_DIVISOR, DS_EXTRA_SEQUENTIAL_BYTES),
                       (uint64_t) DS_EXTRA_SEQUENTIAL_BYTES);

  plan->start_bytes = 0;
  plan->span_bytes = span;
  plan->block_bytes = lbs;
  plan->random = TRUE;

  switch (row)
    {
    case DS_EXTRA_RANDOM_SEEK:
    case DS_EXTRA_BUTTERFLY_SEEK:
      break;

    case DS_EXTRA_RANDOM_SEEK_4K:
      plan->block_bytes = MAX ((uint64_t) 4096, lbs);
      break;

    case DS_EXTRA_RANDOM_SEEK_64K:
      plan->block_max_bytes = MAX ((uint64_t) 64 * 1024, lbs);
      break;

    case DS_EXTRA_RANDOM_SEEK_8M:
      plan->block_max_bytes = MIN ((uint64_t) 8 * 1024 * 1024, span);
      break;

    case DS_EXTRA_SEQUENTIAL_OUTER:
    case DS_EXTRA_SEQUENTIAL_MIDDLE:
    case DS_EXTRA_SEQUENTIAL_INNER:
      plan->random = FALSE;
      plan->block_bytes = DS_EXTRA_SEQUENTIAL_BYTES;
      plan->span_bytes = zone;
      if (row == DS_EXTRA_SEQUENTIAL_MIDDLE)
        plan->start_bytes = ds_align_down (span / 2 - zone / 2, lbs);
      else if (row == DS_EXTRA_SEQUENTIAL_INNER)
        plan->start_bytes = span - zone;
      break;

    case DS_EXTRA_BURST_RATE:
      plan->random = FALSE;
      plan->wrap = TRUE;
      plan->block_bytes = DS_EXTRA_BURST_BYTES;
      plan->span_bytes = DS_EXTRA_BURST_REGION_BYTES;
      break;

    case DS_EXTRA_N_ROWS:
    default:
      g_assert_not_reached ();
    }
}

/* Pairs per walk: see DS_EXTRA_BUTTERFLY_WALKS. */
static uint64_t
butterfly_walk_pairs (double   seek_iops,
                      uint64_t row_ns,
                      uint64_t span,
                      uint32_t lbs)
{
  uint64_t most = MAX (span / 2 / lbs, 1);
  double fit = seek_iops * ((double) row_ns / DS_NS_PER_SEC) / (2.0 * DS_EXTRA_BUTTERFLY_WALKS);
  uint64_t pairs = fit >= (double) most ? most : (uint64_t) fit;

  return CLAMP (pairs, MIN ((uint64_t) DS_EXTRA_BUTTERFLY_MIN_PAIRS, most), most);
}

static int
run_butterfly (DsRun      *run,
               DsIoPlan   *plan,
               RowState   *st,
               uint64_t    row_ns,
               double      seek_iops,
               DsIoStats  *ret_stats,
               GError    **error)
{
  uint64_t span = plan->span_bytes;
  uint32_t lbs = run->target->logical_block_size;
  uint64_t pairs = butterfly_walk_pairs (seek_iops, row_ns, span, lbs);

  st->end_bytes = span;
  st->step_bytes = ds_align_down (span / 2 / pairs, lbs);
  st->walk_pairs = pairs;
  plan->random = FALSE;
  plan->next_offset = butterfly_offset;
  plan->max_ios = 2 * pairs;
  plan->duration_ns = DS_EXTRA_BUTTERFLY_MAX_WALK_ROWS * row_ns;

  ds_io_stats_init (ret_stats);
  for (;;)
    {
      DsIoStats walk;
      uint64_t ios;
      int r;

      r = ds_run_io (run, plan, &walk, error);
      ios = walk.read.ios + walk.write.ios;
      ds_bench_io_stats_add (ret_stats, &walk);
      ds_io_stats_clear (&walk);
      if (r < 0)
        return r;

      if (ios < 2 * pairs)
        {
          ds_result_add_note (run->result,
                              _("butterfly seek: a walk of %" PRIu64 " pairs "
                              "did not finish in %.1f s; the row covers %.0f %% of it "
                              "(the longest seeks only)"), pairs,
                              (double) plan->duration_ns / DS_NS_PER_SEC,
                              100.0 * (double) ios / (double) (2 * pairs));
          return 0;
        }
      st->walks++;

      /* The whole number of walks nearest to the row's time: one more if
       * it would end less than half a walk past it. */
      if (ret_stats->elapsed_ns + ret_stats->elapsed_ns / st->walks / 2 > row_ns)
        return 0;
    }
}

/* A sequential zone in DS_EXTRA_ZONE_PIECES pieces spread evenly over it,
 * each an equal share of the row's time. */
static int
run_zone (DsRun           *run,
          const DsIoPlan  *plan,
          uint64_t         row_ns,
          DsIoStats       *ret_stats,
          GError         **error)
{
  uint64_t block = plan->block_bytes;
  uint64_t zone = plan->span_bytes;
  uint64_t piece = MAX (ds_align_down (zone / DS_EXTRA_ZONE_PIECES, block), block);
  uint64_t n = MIN ((uint64_t) DS_EXTRA_ZONE_PIECES, zone / piece);
  DsIoPlan timed = *plan;

  timed.duration_ns = row_ns / n;
  ds_io_stats_init (ret_stats);
  for (uint64_t k = 0; k < n; k++)
    {
      uint64_t offset = plan->start_bytes +
                        (n > 1 ? ds_align_down ((zone - piece) * k / (n - 1), block) : 0);
      DsIoStats part;
      int r;

      r = ds_bench_run_segment (run, &timed, offset, piece, &part, error);
      ds_bench_io_stats_add (ret_stats, &part);
      ds_io_stats_clear (&part);
      if (r < 0)
        return r;
    }

  return 0;
}

static void
row_from_stats (DsExtraRow         *out,
                DsExtraRowKind      row,
                const DsIoDirStats *dir,
                uint64_t            elapsed_ns,
                const RowState     *st)
{
  double seconds = (double) elapsed_ns / DS_NS_PER_SEC;

  *out = (DsExtraRow) {
    .row = row,
    .ios = dir->ios,
    .bytes = dir->bytes,
    .iops = seconds > 0 ? dir->ios / seconds : 0,
    .bytes_per_s = seconds > 0 ? dir->bytes / seconds : 0,
    .access_time_s = dir->latency_ns.mean / DS_NS_PER_SEC,
    .min_offset_bytes = dir->ios > 0 ? st->min_offset_bytes : 0,
    .max_end_bytes = st->max_end_bytes,
    .walk_pairs = st->walk_pairs,
    .walks = st->walks,
  };
}

/* The IOPS of the random-seek row already in @rows, or 0. */
static double
seek_iops_of (GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_array_index (rows, DsExtraRow, i).row == DS_EXTRA_RANDOM_SEEK)
      return g_array_index (rows, DsExtraRow, i).iops;

  return 0;
}

/* The I/O of one row, as its kind runs it. */
static int
run_row_io (DsRun           *run,
            DsExtraRowKind   kind,
            DsIoPlan        *plan,
            RowState        *st,
            uint64_t         row_ns,
            GArray          *rows,
            DsIoStats       *stats,
            GError         **error)
{
  switch (kind)
    {
    case DS_EXTRA_BUTTERFLY_SEEK:
      return run_butterfly (run, plan, st, row_ns, seek_iops_of (rows), stats, error);
    case DS_EXTRA_SEQUENTIAL_OUTER:
    case DS_EXTRA_SEQUENTIAL_MIDDLE:
    case DS_EXTRA_SEQUENTIAL_INNER:
      return run_zone (run, plan, row_ns, stats, error);
    case DS_EXTRA_BURST_RATE:
      return ds_bench_run_cached (run, plan, stats, error);
    case DS_EXTRA_RANDOM_SEEK:
    case DS_EXTRA_RANDOM_SEEK_4K:
    case DS_EXTRA_RANDOM_SEEK_64K:
    case DS_EXTRA_RANDOM_SEEK_8M:
    case DS_EXTRA_N_ROWS:
    default:
      return ds_run_io (run, plan, stats, error);
    }
}

/* Row @i: tells a page, runs it, keeps what it measured in @rows (even
 * cut short) and tells a page its figure.  0 or -errno. */
static int
measure_row (DsRun     *run,
             unsigned   i,
             GArray    *rows,
             uint64_t   span,
             uint64_t   row_ns,
             GError   **error)
{
  const DsBenchSpec *spec = run->spec;
  gboolean write = spec->write;
  DsExtraRowKind kind = (DsExtraRowKind) i;
  RowState st = { .min_offset_bytes = UINT64_MAX };
  DsIoPlan plan = {
    .read_percent = write ? 0 : 100,
    .align_bytes = spec->random_align_bytes,
    .depth = 1,
    .threads = 1,
    .duration_ns = row_ns,
    .on_complete = track_io,
    .user = &st,
  };
  DsSample phase = {
    .kind = DS_SAMPLE_PHASE,
    .write = write,
    .index = i,
    .name = ds_extra_row_name (kind),
  };
  DsIoStats stats;
  DsExtraRow row;
  int ret;

  plan_row (&plan, kind, span, run->target->logical_block_size);
  ds_run_set_progress (run, (double) i / DS_EXTRA_N_ROWS);
  ds_run_emit (run, &phase);

  ret = run_row_io (run, kind, &plan, &st, row_ns, rows, &stats, error);
  row_from_stats (&row, kind, write ? &stats.write : &stats.read, stats.elapsed_ns, &st);
  ds_io_stats_clear (&stats);

  /* A row cut short still measured something: keep it. */
  if (row.ios > 0)
    g_array_append_val (rows, row);
  if (ret < 0)
    return ret;

  ds_run_set_progress (run, (double) (i + 1) / DS_EXTRA_N_ROWS);
  {
    DsSample sample = {
      .kind = DS_SAMPLE_ROW,
      .write = write,
      .index = i,
      .name = ds_extra_row_name (kind),
      .bytes = row.bytes,
      .elapsed_ns = stats.elapsed_ns,
      .value = row.iops,
    };
    ds_run_emit (run, &sample);
  }

  return 0;
}

gboolean
ds_extra_run (DsRun   *run,
              GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsExtraData *data = run->result->data;
  gboolean write = spec->write;
  GArray *rows = write ? data->write : data->read;
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_EXTRA_DEFAULT_ROW_NS;
  uint64_t span = ds_bench_span_bytes (run);

  data->span_bytes = span;
  if (write)
    data->write_present = TRUE;
  else
    data->read_present = TRUE;

  /* The burst region and the smallest sequential zone must fit. */
  if (span < DS_EXTRA_BURST_REGION_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the test capacity is too small for the extra tests "
                   "(they need at least 1 MB)"), run->target->path);
      return FALSE;
    }

  for (unsigned i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      int ret;

      if (ds_run_check_cancelled (run, error) < 0)
        return FALSE;

      ret = measure_row (run, i, rows, span, row_ns, error);
      if (ret < 0)
        return ds_run_ok (run, ret, error);
    }

  return TRUE;
}
