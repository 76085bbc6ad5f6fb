/* ds-bench-random-access.c: HD Tune's Random Access
 *
 * Random reads (or writes) over the span at queue depth 1, one row per
 * transfer size (512 B, 4 KB, 64 KB, 1 MB, and "random": each I/O a random
 * multiple of the logical block up to 1 MB), each for a fixed time.  A row
 * reports operations/s, the mean and the maximum access time, p50/p99/p99.9
 * and the average speed (total bytes / total time); every I/O is also a point
 * (offset, size, access time) for the scatter plot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-bench-io.h"
#include "ds-bench-random-access.h"
#include "ds-random-access-points.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"

static const uint64_t row_bytes[DS_RANDOM_ACCESS_N_ROWS] = {
  512, 4096, 64 * 1024, 1024 * 1024, 0,
};

/* Absurd-value bounds for loading. */
#define MAX_IOPS        1e12
#define MAX_BYTES_PER_S 1e15
#define MAX_SECONDS     86400.0
#define MAX_POINTS      (DS_RANDOM_ACCESS_N_ROWS * DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW)

uint64_t
ds_random_access_row_bytes (guint index)
{
  if (index >= DS_RANDOM_ACCESS_N_ROWS)
    return 0;

  return row_bytes[index];
}

char *
ds_random_access_row_title (const DsRandomAccessRow *row)
{
  if (row->transfer_bytes == 0)
    return g_strdup ("Random");

  return ds_format_block (row->transfer_bytes);
}

static void
dir_init (DsRandomAccessDir *dir)
{
  dir->rows = g_array_new (FALSE, TRUE, sizeof (DsRandomAccessRow));
  dir->points = g_array_new (FALSE, TRUE, sizeof (DsRandomAccessPoint));
}

static void
dir_clear (DsRandomAccessDir *dir)
{
  g_clear_pointer (&dir->rows, g_array_unref);
  g_clear_pointer (&dir->points, g_array_unref);
}

static gpointer
ra_data_new (void)
{
  DsRandomAccessData *data = g_new0 (DsRandomAccessData, 1);

  dir_init (&data->read);
  dir_init (&data->write);

  return data;
}

static void
ra_data_free (gpointer p)
{
  DsRandomAccessData *data = p;

  if (data == NULL)
    return;

  dir_clear (&data->read);
  dir_clear (&data->write);
  g_free (data);
}

/* ---- running ------------------------------------------------------------ */

typedef struct {
  DsRun             *run;
  DsRandomAccessDir *dir;
  guint              row;
} RowState;

/* The row's first DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW completions, between
 * two slices of its I/O (ds_bench_run_recorded()), never inside a timed
 * window: each becomes a point of the scatter plot and a sample. */
static void
deliver_points (gpointer    user,
                const DsIo *ios,
                guint       n_ios)
{
  RowState *st = user;

  for (guint i = 0; i < n_ios; i++)
    {
      const DsIo *io = &ios[i];
      DsRandomAccessPoint point = {
        .offset_bytes = io->offset_bytes,
        .transfer_bytes = io->len_bytes,
        .row = st->row,
        .access_s = (double) (io->end_ns - io->start_ns) / DS_NS_PER_SEC,
      };
      DsSample sample = {
        .kind = DS_SAMPLE_ACCESS,
        .write = io->write,
        .index = st->row,
        .offset_bytes = io->offset_bytes,
        .bytes = io->len_bytes,
        .elapsed_ns = io->end_ns - io->start_ns,
        .value = point.access_s,
      };

      g_array_append_val (st->dir->points, point);
      ds_run_emit (st->run, &sample);
    }
}

static void
row_from_stats (DsRandomAccessRow  *row,
                uint64_t            transfer_bytes,
                const DsIoDirStats *dir,
                uint64_t            elapsed_ns)
{
  double seconds = (double) elapsed_ns / DS_NS_PER_SEC;

  *row = (DsRandomAccessRow) {
    .transfer_bytes = transfer_bytes,
    .ios = dir->ios,
    .bytes = dir->bytes,
    .iops = seconds > 0 ? dir->ios / seconds : 0,
    .bytes_per_s = seconds > 0 ? dir->bytes / seconds : 0,
    .avg_access_s = dir->latency_ns.mean / DS_NS_PER_SEC,
    .max_access_s = (double) dir->latency_ns.max / DS_NS_PER_SEC,
  };
  if (dir->histogram != NULL && dir->ios > 0)
    {
      /* A bucket's middle can lie a little past the exact maximum (< 1 %):
       * no percentile says more than the slowest I/O did. */
      uint64_t max_ns = dir->latency_ns.max;

      row->p50_s = (double) MIN (ds_histogram_percentile (dir->histogram, 50.0), max_ns) / DS_NS_PER_SEC;
      row->p99_s = (double) MIN (ds_histogram_percentile (dir->histogram, 99.0), max_ns) / DS_NS_PER_SEC;
      row->p99_9_s = (double) MIN (ds_histogram_percentile (dir->histogram, 99.9), max_ns) / DS_NS_PER_SEC;
    }
}

static gboolean
ra_run (DsRun   *run,
        GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsRandomAccessData *data = run->result->data;
  gboolean write = spec->write;
  DsRandomAccessDir *dir = write ? &data->write : &data->read;
  uint32_t lbs = run->target->logical_block_size;
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_RANDOM_ACCESS_DEFAULT_ROW_NS;
  uint64_t span = ds_bench_span_bytes (run);

  data->span_bytes = span;
  dir->present = TRUE;

  if (span < DS_RANDOM_ACCESS_MIXED_MAX_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the test capacity is too small for the random access "
                   "test (it needs at least 1 MB)"), run->target->path);
      return FALSE;
    }
  if (lbs > 512)
    ds_result_add_note (run->result,
                        _("%s has %u-byte logical blocks: the 512 bytes row "
                        "transfers %u bytes"), run->target->path, lbs, lbs);

  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      RowState st = { .run = run, .dir = dir, .row = i };
      DsIoPlan plan = {
        .random = TRUE,
        .read_percent = write ? 0 : 100,
        .start_bytes = 0,
        .span_bytes = span,
        .block_bytes = row_bytes[i] != 0 ? MAX (row_bytes[i], (uint64_t) lbs) : lbs,
        .block_max_bytes = row_bytes[i] != 0 ? 0 : DS_RANDOM_ACCESS_MIXED_MAX_BYTES,
        .align_bytes = spec->random_align_bytes,
        .depth = 1,
        .threads = 1,
        .duration_ns = row_ns,
        .histogram = TRUE,
      };
      DsSample phase = {
        .kind = DS_SAMPLE_PHASE,
        .write = write,
        .index = i,
        .name = "random-access",
      };
      DsIoStats stats;
      DsRandomAccessRow row;
      int ret;

      if (ds_run_check_cancelled (run, error) < 0)
        return FALSE;

      ds_run_set_progress (run, (double) i / DS_RANDOM_ACCESS_N_ROWS);
      ds_run_emit (run, &phase);

      ret = ds_bench_run_recorded (run, &plan, DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW,
                                   deliver_points, &st, &stats, error);
      row_from_stats (&row, row_bytes[i] != 0 ? plan.block_bytes : 0,
                      write ? &stats.write : &stats.read, stats.elapsed_ns);
      ds_io_stats_clear (&stats);

      if (row.ios > 0)
        g_array_append_val (dir->rows, row);
      if (ret < 0)
        return ds_run_ok (run, ret, error);

      ds_run_set_progress (run, (double) (i + 1) / DS_RANDOM_ACCESS_N_ROWS);
      {
        DsSample sample = {
          .kind = DS_SAMPLE_ROW,
          .write = write,
          .index = i,
          .name = "random-access",
          .bytes = row.bytes,
          .elapsed_ns = stats.elapsed_ns,
          .value = row.iops,
        };
        ds_run_emit (run, &sample);
      }
    }

  return TRUE;
}

/* ---- JSON --------------------------------------------------------------- */

static JsonNode *
dir_to_json (const DsRandomAccessDir *dir)
{
  JsonObject *o = json_object_new ();
  JsonArray *rows = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint i = 0; i < dir->rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      JsonObject *r = json_object_new ();

      if (row->transfer_bytes != 0)
        {
          g_autofree char *label = ds_format_block (row->transfer_bytes);
          json_object_set_string_member (r, "transfer", label);
        }
      else
        {
          json_object_set_string_member (r, "transfer", "random");
        }
      if (row->transfer_bytes != 0)
        json_object_set_int_member (r, "transfer_bytes", (gint64) row->transfer_bytes);
      else
        json_object_set_null_member (r, "transfer_bytes");
      json_object_set_double_member (r, "iops", row->iops);
      json_object_set_double_member (r, "avg_access_s", row->avg_access_s);
      json_object_set_double_member (r, "max_access_s", row->max_access_s);
      json_object_set_double_member (r, "p50_s", row->p50_s);
      json_object_set_double_member (r, "p99_s", row->p99_s);
      json_object_set_double_member (r, "p99_9_s", row->p99_9_s);
      json_object_set_double_member (r, "bytes_per_s", row->bytes_per_s);
      json_object_set_int_member (r, "ios", (gint64) row->ios);
      json_object_set_int_member (r, "bytes", (gint64) row->bytes);
      json_array_add_object_element (rows, r);
    }

  json_object_set_array_member (o, "rows", rows);
  json_object_set_object_member (o, "points", ds_random_access_points_to_json (dir->points));
  json_node_take_object (node, o);

  return node;
}

static JsonNode *
ra_to_json (const DsResult *result)
{
  const DsRandomAccessData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (o, "span_bytes", (gint64) data->span_bytes);
  /* Like the benchmark's: a direction that was not run has no key. */
  if (data->read.present)
    json_object_set_member (o, "read", dir_to_json (&data->read));
  if (data->write.present)
    json_object_set_member (o, "write", dir_to_json (&data->write));
  json_node_take_object (node, o);

  return node;
}

static gboolean
row_from_json (JsonObject         *o,
               const char         *where,
               DsRandomAccessRow  *row,
               GError            **error)
{
  const char *transfer = ds_json_get_string (o, where, "transfer", FALSE, error);
  JsonNode *bytes_node;

  if (transfer == NULL)
    return FALSE;

  bytes_node = json_object_get_member (o, "transfer_bytes");
  if (g_str_equal (transfer, "random"))
    {
      if (bytes_node == NULL || !JSON_NODE_HOLDS_NULL (bytes_node))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.transfer_bytes: must be null for the random row"), where);
          return FALSE;
        }
      row->transfer_bytes = 0;
    }
  else
    {
      if (!ds_json_get_uint64 (o, where, "transfer_bytes", G_MAXUINT32,
                               &row->transfer_bytes, error))
        return FALSE;
      if (row->transfer_bytes == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.transfer_bytes: must not be 0"), where);
          return FALSE;
        }
    }

  return ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &row->iops, error) &&
         ds_json_get_double (o, where, "avg_access_s", 0, MAX_SECONDS, &row->avg_access_s, error) &&
         ds_json_get_double (o, where, "max_access_s", 0, MAX_SECONDS, &row->max_access_s, error) &&
         ds_json_get_double (o, where, "p50_s", 0, MAX_SECONDS, &row->p50_s, error) &&
         ds_json_get_double (o, where, "p99_s", 0, MAX_SECONDS, &row->p99_s, error) &&
         ds_json_get_double (o, where, "p99_9_s", 0, MAX_SECONDS, &row->p99_9_s, error) &&
         ds_json_get_double (o, where, "bytes_per_s", 0, MAX_BYTES_PER_S, &row->bytes_per_s, error) &&
         ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &row->ios, error) &&
         ds_json_get_uint64 (o, where, "bytes", G_MAXINT64, &row->bytes, error);
}

static gboolean
dir_from_json (JsonObject         *results,
               const char         *member,
               DsRandomAccessDir  *dir,
               GError            **error)
{
  g_autofree char *where = g_strdup_printf ("results.%s", member);
  g_autofree char *rows_where = g_strdup_printf ("results.%s.rows", member);
  g_autofree char *points_where = g_strdup_printf ("results.%s.points", member);
  JsonNode *node = json_object_get_member (results, member);
  JsonObject *o;
  JsonArray *rows;
  DsJsonList old_points;
  const DsJsonList *points;
  JsonNode *points_node;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      dir->present = FALSE;
      return TRUE;
    }

  o = ds_json_get_object (results, "results", member, error);
  if (o == NULL)
    return FALSE;
  rows = ds_json_get_array (o, where, "rows", error);
  if (rows == NULL)
    return FALSE;
  points_node = json_object_get_member (o, "points");
  if (points_node != NULL && JSON_NODE_HOLDS_OBJECT (points_node))
    {
      if (!ds_random_access_points_from_json (json_node_get_object (points_node), points_where,
                                              dir->points, error))
        return FALSE;
      points = NULL;
    }
  else
    {
      /* Results saved before the parallel arrays: one object a point. */
      if (!ds_json_get_list (o, where, "points", &old_points, error))
        return FALSE;
      points = &old_points;
    }

  if (json_array_get_length (rows) > DS_RANDOM_ACCESS_N_ROWS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: %u rows, the random access test has %u"),
                   rows_where, json_array_get_length (rows), DS_RANDOM_ACCESS_N_ROWS);
      return FALSE;
    }
  if (points != NULL && ds_json_list_get_length (points) > MAX_POINTS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: %u points, more than the %u a run keeps"),
                   points_where, ds_json_list_get_length (points), MAX_POINTS);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonNode *element = json_array_get_element (rows, i);
      g_autofree char *row_where = g_strdup_printf ("%s[%u]", rows_where, i);
      DsRandomAccessRow row = { 0 };

      if (!ds_json_check_object (element, row_where, error))
        return FALSE;
      if (!row_from_json (json_node_get_object (element), row_where, &row, error))
        return FALSE;
      g_array_append_val (dir->rows, row);
    }

  for (guint i = 0; points != NULL && i < ds_json_list_get_length (points); i++)
    {
      DsRandomAccessPoint point = { 0 };
      uint64_t row_index = 0;
      uint64_t transfer = 0;

      if (!ds_json_list_get_uint64 (points, i, points_where, "row", DS_RANDOM_ACCESS_N_ROWS - 1,
                                    &row_index, error) ||
          !ds_json_list_get_uint64 (points, i, points_where, "offset_bytes", G_MAXINT64,
                                    &point.offset_bytes, error) ||
          !ds_json_list_get_uint64 (points, i, points_where, "transfer_bytes", G_MAXUINT32,
                                    &transfer, error) ||
          !ds_json_list_get_double (points, i, points_where, "access_s", 0, MAX_SECONDS,
                                    &point.access_s, error))
        return FALSE;
      point.row = (uint32_t) row_index;
      point.transfer_bytes = (uint32_t) transfer;
      g_array_append_val (dir->points, point);
    }

  dir->present = TRUE;
  return TRUE;
}

static gpointer
ra_from_json (JsonObject  *o,
              GError     **error)
{
  DsRandomAccessData *data = ra_data_new ();


  if (!ds_json_get_uint64 (o, "results", "span_bytes", G_MAXINT64, &data->span_bytes, error) ||
      !dir_from_json (o, "read", &data->read, error) ||
      !dir_from_json (o, "write", &data->write, error))
    goto fail;

  return data;

fail:
  ra_data_free (data);
  return NULL;
}

/* ---- the report --------------------------------------------------------- */

#define REPORT_FIRST_WIDTH 16
#define REPORT_CELL_WIDTH  18

static void
report_dir (const DsRandomAccessDir *dir,
            DsUnits                  units,
            GString                 *out)
{
  static const char *const head[] = {
    "Transfer size", "operations / sec", "avg. access time", "max. access time", "avg. speed",
  };
  static const char *const head_pct[] = {
    "Transfer size", "p50", "p99", "p99.9",
  };

  ds_report_row (out, head, G_N_ELEMENTS (head), REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
  for (guint i = 0; i < dir->rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      g_autofree char *name = ds_random_access_row_title (row);
      g_autofree char *iops = g_strdup_printf ("%.0f IOPS", row->iops);
      g_autofree char *avg = ds_format_ms (row->avg_access_s);
      g_autofree char *max = ds_format_ms (row->max_access_s);
      g_autofree char *rate = ds_format_rate (row->bytes_per_s, units);
      const char *cells[] = { name, iops, avg, max, rate };

      ds_report_row (out, cells, G_N_ELEMENTS (cells), REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
    }

  /* Not in HD Tune: the access time percentiles, a second small table. */
  if (dir->rows->len == 0)
    return;
  g_string_append_c (out, '\n');
  ds_report_row (out, head_pct, G_N_ELEMENTS (head_pct), REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
  for (guint i = 0; i < dir->rows->len; i++)
    {
      const DsRandomAccessRow *row = &g_array_index (dir->rows, DsRandomAccessRow, i);
      g_autofree char *name = ds_random_access_row_title (row);
      g_autofree char *p50 = ds_format_ms (row->p50_s);
      g_autofree char *p99 = ds_format_ms (row->p99_s);
      g_autofree char *p999 = ds_format_ms (row->p99_9_s);
      const char *cells[] = { name, p50, p99, p999 };

      ds_report_row (out, cells, G_N_ELEMENTS (cells), REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
    }
}

static void
ra_report (const DsResult *result,
           DsUnits         units,
           GString        *out)
{
  const DsRandomAccessData *data = result->data;

  if (data->read.present)
    report_dir (&data->read, units, out);
  if (data->read.present && data->write.present)
    g_string_append_c (out, '\n');
  if (data->write.present)
    {
      g_string_append (out, "Write test\n\n");
      report_dir (&data->write, units, out);
    }
}

static char *
random_access_duration_help (void)
{
  return g_strdup_printf (_("Time per row (default %us; 250ms at --accuracy 1)"),
                          (unsigned) (DS_RANDOM_ACCESS_DEFAULT_ROW_NS / DS_NS_PER_SEC));
}

const DsBenchOps ds_bench_random_access = {
  .kind = DS_BENCH_RANDOM_ACCESS,
  .name = "random-access",
  .title = "Random Access",
  .opens_target = TRUE,
  .data_new = ra_data_new,
  .data_free = ra_data_free,
  .run = ra_run,
  .to_json = ra_to_json,
  .from_json = ra_from_json,
  .report = ra_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
  .cli_options = DS_BENCH_CLI_ACCURACY,
  .min_span_bytes = DS_RANDOM_ACCESS_MIXED_MAX_BYTES,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY,
  .default_row_ns = DS_RANDOM_ACCESS_DEFAULT_ROW_NS,
  .params = ds_params_rows,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = ds_words_row_settings,
  .duration_help = random_access_duration_help,
  .compare_span = ds_figures_tested_span,
  .compare_rows = ds_random_access_compare_rows,
  .fio_job = ds_random_access_fio_job,
};
