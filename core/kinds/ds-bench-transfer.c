/* ds-bench-transfer.c: HD Tune's Benchmark tab (command "benchmark")
 *
 * A transfer-rate scan across the capacity: DS_BENCH_TRANSFER_POINTS evenly
 * spaced points; at each an untimed positioning read, then sequential I/O
 * of the block size for the accuracy's time budget, never past the point's
 * own segment.  Then the access time (random one-block I/O over the span),
 * the burst rate (the same block at the start, over and over: what the
 * drive's cache delivers) and the CPU time the scan took.
 *
 * A failed point (EIO on a bad range) is kept as an error with its offset
 * and the scan goes on; a vanished device or a Stop ends it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "ds-bench-transfer.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"

/* Access time: at most this many random I/Os per accuracy step... */
#define ACCESS_IOS_BASE 250
/* ...and at most this many point budgets of time. */
#define ACCESS_BUDGET_POINTS 8
#define BURST_BUDGET_POINTS 2

/* Of the whole run's progress: the scan, then access time, then burst. */
#define PROGRESS_SCAN   0.85
#define PROGRESS_ACCESS 0.10

static void
dir_init (DsTransferDir *dir)
{
  dir->points = g_array_new (FALSE, TRUE, sizeof (DsTransferPoint));
  dir->access = g_array_new (FALSE, TRUE, sizeof (DsAccessPoint));
  dir->min_bytes_per_s = dir->max_bytes_per_s = dir->avg_bytes_per_s = -1;
  dir->access_time_s = -1;
  dir->burst_bytes_per_s = -1;
  dir->cpu_percent = -1;
}

static gpointer
transfer_data_new (void)
{
  DsTransferData *data = g_new0 (DsTransferData, 1);

  dir_init (&data->read);
  dir_init (&data->write);

  return data;
}

static void
transfer_data_free (gpointer p)
{
  DsTransferData *data = p;

  g_array_unref (data->read.points);
  g_array_unref (data->read.access);
  g_array_unref (data->write.points);
  g_array_unref (data->write.access);
  g_free (data);
}

typedef struct {
  DsRun         *run;
  DsTransferDir *dir;
  gboolean       write;
  GMutex         lock;      /* the on_complete callback may run on threads */
} AccessCtx;

static void
on_access (gpointer    user,
           const DsIo *io)
{
  AccessCtx *ctx = user;
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

  g_mutex_lock (&ctx->lock);
  g_array_append_val (ctx->dir->access, point);
  g_mutex_unlock (&ctx->lock);
  ds_run_emit (ctx->run, &sample);
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
      DsIoPlan position = {
        .read_percent = 100,
        .start_bytes = offset,
        .span_bytes = block,
        .block_bytes = block,
        .depth = 1,
        .threads = 1,
        .max_ios = 1,
      };
      DsIoPlan timed = {
        .read_percent = write ? 0 : 100,
        .start_bytes = offset + block,
        .span_bytes = segment - block,
        .block_bytes = block,
        .depth = 1,
        .threads = 1,
        .duration_ns = point_ns,
      };
      int r;

      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;

      /* Untimed: brings the heads (or the array's prefetch) to the point.
       * A write scan positions with a read too: it changes nothing. */
      r = ds_run_io (run, &position, &stats, &local);
      cpu_ns += stats.cpu_user_ns + stats.cpu_system_ns;
      ds_io_stats_clear (&stats);

      if (r == 0)
        {
          if (timed.span_bytes < block)
            {
              /* One-block segments (tiny devices): time the block itself. */
              timed.start_bytes = offset;
              timed.span_bytes = block;
            }
          r = ds_run_io (run, &timed, &stats, &local);
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
        }

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
  DsIoPlan plan = {
    .random = TRUE,
    .read_percent = write ? 0 : 100,
    .start_bytes = 0,
    .span_bytes = ds_align_down (span, lbs),
    .block_bytes = lbs,
    .depth = 1,
    .threads = 1,
    .max_ios = (uint64_t) ACCESS_IOS_BASE << (spec->accuracy - 1),
    .duration_ns = ds_bench_accuracy_point_ns (spec->accuracy) * ACCESS_BUDGET_POINTS,
    .on_complete = on_access,
    .user = &ctx,
  };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .write = write, .name = "access" };
  DsIoStats stats;
  int r;

  ds_run_emit (run, &phase);
  g_mutex_init (&ctx.lock);
  r = ds_run_io (run, &plan, &stats, error);
  g_mutex_clear (&ctx.lock);

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
  r = ds_run_io (run, &plan, &stats, error);
  if (stats.elapsed_ns > 0)
    dir->burst_bytes_per_s = (double) (stats.read.bytes + stats.write.bytes) * 1e9 /
                             (double) stats.elapsed_ns;
  ds_io_stats_clear (&stats);

  return r;
}

static int
transfer_run (DsRun   *run,
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
                   "the block size (%" G_GUINT64_FORMAT " bytes) must be a "
                   "multiple of %s's logical block size (%u bytes)",
                   block, target->path, target->logical_block_size);
      return -EINVAL;
    }
  if (spec->capacity_bytes != 0)
    span = MIN (span, spec->capacity_bytes);
  span = ds_align_down (span, block);
  if (span < 2 * block)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "%s: the test capacity (%" G_GUINT64_FORMAT " bytes) is "
                   "smaller than two blocks", target->path, span);
      return -EINVAL;
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
      return r;
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
          return r;
        }
      if (r < 0 && scan_error == NULL)
        scan_error = g_steal_pointer (&local);
    }

  if (scan_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&scan_error));
      return -EIO;
    }

  return 0;
}

/* ---- JSON --------------------------------------------------------------- */

static void
add_optional (JsonBuilder *b,
              const char  *member,
              double       value)
{
  json_builder_set_member_name (b, member);
  if (value >= 0)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

static JsonNode *
dir_to_json (const DsTransferDir *dir)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);

  json_builder_set_member_name (b, "transfer");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < dir->points->len; i++)
    {
      const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offset_bytes");
      json_builder_add_int_value (b, (gint64) p->offset_bytes);
      json_builder_set_member_name (b, "bytes_per_s");
      json_builder_add_double_value (b, p->bytes_per_s);
      json_builder_set_member_name (b, "error");
      if (p->error != 0)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "errno");
          json_builder_add_int_value (b, p->error);
          json_builder_set_member_name (b, "message");
          json_builder_add_string_value (b, g_strerror (p->error));
          json_builder_end_object (b);
        }
      else
        {
          json_builder_add_null_value (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* null until a point finished (a run stopped before its first). */
  add_optional (b, "min_bytes_per_s", dir->min_bytes_per_s);
  add_optional (b, "max_bytes_per_s", dir->max_bytes_per_s);
  add_optional (b, "avg_bytes_per_s", dir->avg_bytes_per_s);
  json_builder_end_object (b);

  /* Measured figures; null where the run stopped before them. */
  json_builder_set_member_name (b, "access_time_s");
  if (dir->access_time_s >= 0)
    json_builder_add_double_value (b, dir->access_time_s);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "burst_bytes_per_s");
  if (dir->burst_bytes_per_s >= 0)
    json_builder_add_double_value (b, dir->burst_bytes_per_s);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "cpu_percent");
  if (dir->cpu_percent >= 0)
    json_builder_add_double_value (b, dir->cpu_percent);
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "errors");
  json_builder_begin_array (b);
  for (guint i = 0; i < dir->points->len; i++)
    {
      const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);

      if (p->error == 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offset_bytes");
      json_builder_add_int_value (b, (gint64) p->offset_bytes);
      json_builder_set_member_name (b, "errno");
      json_builder_add_int_value (b, p->error);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "access");
  json_builder_begin_array (b);
  for (guint i = 0; i < dir->access->len; i++)
    {
      const DsAccessPoint *a = &g_array_index (dir->access, DsAccessPoint, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offset_bytes");
      json_builder_add_int_value (b, (gint64) a->offset_bytes);
      json_builder_set_member_name (b, "access_s");
      json_builder_add_double_value (b, (double) a->access_ns / 1e9);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);

  return json_builder_get_root (b);
}

static JsonNode *
transfer_to_json (const DsResult *result)
{
  const DsTransferData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_init_object (json_node_alloc (), o);

  json_object_set_int_member (o, "span_bytes", (gint64) data->span_bytes);
  json_object_set_int_member (o, "block_bytes", (gint64) data->block_bytes);
  if (data->read.present)
    json_object_set_member (o, "read", dir_to_json (&data->read));
  if (data->write.present)
    json_object_set_member (o, "write", dir_to_json (&data->write));
  json_object_unref (o);

  return node;
}

/* A figure that may be null (not measured): -1 then. */
static gboolean
get_optional (JsonObject  *o,
              const char  *where,
              const char  *member,
              double       max,
              double      *ret,
              GError     **error)
{
  JsonNode *n = json_object_get_member (o, member);

  if (n != NULL && JSON_NODE_HOLDS_NULL (n))
    {
      *ret = -1;
      return TRUE;
    }

  return ds_json_get_double (o, where, member, 0, max, ret, error);
}

static gboolean
dir_from_json (JsonObject     *o,
               const char     *where,
               DsTransferDir  *dir,
               GError        **error)
{
  JsonObject *transfer;
  JsonArray *points;
  JsonArray *access;
  g_autofree char *twhere = g_strdup_printf ("%s.transfer", where);

  transfer = ds_json_get_object (o, where, "transfer", error);
  if (transfer == NULL)
    return FALSE;
  points = ds_json_get_array (transfer, twhere, "points", error);
  if (points == NULL)
    return FALSE;
  if (json_array_get_length (points) > 100000)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s.points: too many points", twhere);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      JsonNode *pn = json_array_get_element (points, i);
      DsTransferPoint p = { 0 };
      JsonObject *po;
      JsonNode *en;
      g_autofree char *pwhere = g_strdup_printf ("%s.points[%u]", twhere, i);

      if (!ds_json_check_object (pn, pwhere, error))
        return FALSE;
      po = json_node_get_object (pn);
      if (!ds_json_get_uint64 (po, pwhere, "offset_bytes", G_MAXINT64, &p.offset_bytes, error) ||
          !ds_json_get_double (po, pwhere, "bytes_per_s", 0, 1e15, &p.bytes_per_s, error))
        return FALSE;
      en = json_object_get_member (po, "error");
      if (en != NULL && JSON_NODE_HOLDS_OBJECT (en))
        {
          uint64_t e = 0;
          if (!ds_json_get_uint64 (json_node_get_object (en), pwhere, "errno", 4095, &e, error))
            return FALSE;
          p.error = (int) MAX (e, 1);
        }
      g_array_append_val (dir->points, p);
    }

  if (!get_optional (transfer, twhere, "min_bytes_per_s", 1e15, &dir->min_bytes_per_s, error) ||
      !get_optional (transfer, twhere, "max_bytes_per_s", 1e15, &dir->max_bytes_per_s, error) ||
      !get_optional (transfer, twhere, "avg_bytes_per_s", 1e15, &dir->avg_bytes_per_s, error) ||
      !get_optional (o, where, "access_time_s", 3600, &dir->access_time_s, error) ||
      !get_optional (o, where, "burst_bytes_per_s", 1e15, &dir->burst_bytes_per_s, error) ||
      !get_optional (o, where, "cpu_percent", 100000, &dir->cpu_percent, error))
    return FALSE;

  /* The access dots are optional (older or trimmed files). */
  if (json_object_has_member (o, "access"))
    {
      access = ds_json_get_array (o, where, "access", error);
      if (access == NULL)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (access) && i < 1000000; i++)
        {
          JsonNode *an = json_array_get_element (access, i);
          DsAccessPoint a = { 0 };
          double s = 0;
          g_autofree char *awhere = g_strdup_printf ("%s.access[%u]", where, i);

          if (!ds_json_check_object (an, awhere, error))
            return FALSE;
          if (!ds_json_get_uint64 (json_node_get_object (an), awhere, "offset_bytes",
                                   G_MAXINT64, &a.offset_bytes, error) ||
              !ds_json_get_double (json_node_get_object (an), awhere, "access_s",
                                   0, 3600, &s, error))
            return FALSE;
          a.access_ns = ds_json_seconds_to_ns (s);
          g_array_append_val (dir->access, a);
        }
    }

  dir->present = TRUE;
  return TRUE;
}

static gpointer
transfer_from_json (JsonObject  *o,
                    GError     **error)
{
  DsTransferData *data = transfer_data_new ();

  if (!ds_json_get_uint64 (o, "results", "span_bytes", G_MAXINT64, &data->span_bytes, error) ||
      !ds_json_get_uint64 (o, "results", "block_bytes", G_MAXINT32, &data->block_bytes, error))
    goto fail;

  if (json_object_has_member (o, "read"))
    {
      JsonObject *r = ds_json_get_object (o, "results", "read", error);
      if (r == NULL || !dir_from_json (r, "results.read", &data->read, error))
        goto fail;
    }
  if (json_object_has_member (o, "write"))
    {
      JsonObject *w = ds_json_get_object (o, "results", "write", error);
      if (w == NULL || !dir_from_json (w, "results.write", &data->write, error))
        goto fail;
    }
  /* A run that failed before measuring has neither direction: a valid,
   * empty result (the report shows its error). */
  return data;

fail:
  transfer_data_free (data);
  return NULL;
}

/* ---- report ------------------------------------------------------------- */

static void
dir_report (const DsTransferDir *dir,
            const char          *heading,
            DsUnits              units,
            GString             *out)
{
  g_autofree char *min = ds_format_rate (dir->min_bytes_per_s, units);
  g_autofree char *max = ds_format_rate (dir->max_bytes_per_s, units);
  g_autofree char *avg = ds_format_rate (dir->avg_bytes_per_s, units);
  g_autofree char *acc = dir->access_time_s >= 0 ? ds_format_ms (dir->access_time_s) : g_strdup ("–");
  g_autofree char *burst = dir->burst_bytes_per_s >= 0 ? ds_format_rate (dir->burst_bytes_per_s, units) : g_strdup ("–");
  g_autofree char *cpu = dir->cpu_percent >= 0 ? g_strdup_printf ("%.1f%%", dir->cpu_percent) : g_strdup ("–");
  guint n_errors = 0;

  g_string_append_printf (out, "%s\n", heading);
  ds_report_figure (out, "Transfer Rate Minimum", min);
  ds_report_figure (out, "Transfer Rate Maximum", max);
  ds_report_figure (out, "Transfer Rate Average", avg);
  ds_report_figure (out, "Access Time", acc);
  ds_report_figure (out, "Burst Rate", burst);
  ds_report_figure (out, "CPU Usage", cpu);

  for (guint i = 0; i < dir->points->len; i++)
    if (g_array_index (dir->points, DsTransferPoint, i).error != 0)
      n_errors++;

  if (n_errors > 0)
    {
      g_string_append_printf (out, "\n%u of %u points failed:\n", n_errors, dir->points->len);
      for (guint i = 0; i < dir->points->len; i++)
        {
          const DsTransferPoint *p = &g_array_index (dir->points, DsTransferPoint, i);

          if (p->error != 0)
            g_string_append_printf (out, "  at %.3f GB (offset %" G_GUINT64_FORMAT "): %s\n",
                                    p->offset_bytes / 1e9, p->offset_bytes,
                                    g_strerror (p->error));
        }
    }
}

static void
transfer_report (const DsResult *result,
                 DsUnits         units,
                 GString        *out)
{
  const DsTransferData *data = result->data;

  if (data->read.present)
    dir_report (&data->read, "Read transfer rate", units, out);
  if (data->read.present && data->write.present)
    g_string_append_c (out, '\n');
  if (data->write.present)
    dir_report (&data->write, "Write transfer rate", units, out);
}

const DsBenchOps ds_bench_transfer = {
  .kind = DS_BENCH_TRANSFER,
  .name = "benchmark",
  .title = "Benchmark",
  .opens_target = TRUE,
  .data_new = transfer_data_new,
  .data_free = transfer_data_free,
  .run = transfer_run,
  .to_json = transfer_to_json,
  .from_json = transfer_from_json,
  .report = transfer_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
};
