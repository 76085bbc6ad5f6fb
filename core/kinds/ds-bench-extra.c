/* ds-bench-extra.c: HD Tune's Extra Tests
 *
 * Nine rows at queue depth 1, each for a fixed time (--duration per row):
 * random seeks of one logical block and of 4 KB, the butterfly seek, random
 * seeks of random sizes up to 64 KB and 8 MB, 64 KB sequential reads in a
 * zone at the outer edge, the middle and the inner edge of the span, and the
 * burst rate.  Each row reports IOPS, the mean access time and MB/s (total
 * bytes over total time).  A --write run does the same with writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "ds-bench.h"
#include "ds-bench-extra.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"

static const struct {
  const char *name;
  const char *title;
} row_names[DS_EXTRA_N_ROWS] = {
  [DS_EXTRA_RANDOM_SEEK] = { "random_seek", "Random seek" },
  [DS_EXTRA_RANDOM_SEEK_4K] = { "random_seek_4k", "Random seek 4 KB" },
  [DS_EXTRA_BUTTERFLY_SEEK] = { "butterfly_seek", "Butterfly seek" },
  [DS_EXTRA_RANDOM_SEEK_64K] = { "random_seek_64k", "Random seek / size 64 KB" },
  [DS_EXTRA_RANDOM_SEEK_8M] = { "random_seek_8m", "Random seek / size 8 MB" },
  [DS_EXTRA_SEQUENTIAL_OUTER] = { "sequential_outer", "Sequential outer" },
  [DS_EXTRA_SEQUENTIAL_MIDDLE] = { "sequential_middle", "Sequential middle" },
  [DS_EXTRA_SEQUENTIAL_INNER] = { "sequential_inner", "Sequential inner" },
  [DS_EXTRA_BURST_RATE] = { "burst_rate", "Burst rate" },
};

/* Absurd-value bounds for loading: 10^12 IOPS, 10^15 bytes/s, a day. */
#define MAX_IOPS          1e12
#define MAX_BYTES_PER_S   1e15
#define MAX_SECONDS       86400.0

const char *
ds_extra_row_name (DsExtraRowKind row)
{
  if ((unsigned) row >= DS_EXTRA_N_ROWS)
    return NULL;

  return row_names[row].name;
}

const char *
ds_extra_row_title (DsExtraRowKind row)
{
  if ((unsigned) row >= DS_EXTRA_N_ROWS)
    return NULL;

  return row_names[row].title;
}

gboolean
ds_extra_row_from_name (const char     *name,
                        DsExtraRowKind *ret_row)
{
  for (unsigned i = 0; name != NULL && i < DS_EXTRA_N_ROWS; i++)
    if (g_str_equal (name, row_names[i].name))
      {
        *ret_row = (DsExtraRowKind) i;
        return TRUE;
      }

  return FALSE;
}

static gpointer
extra_data_new (void)
{
  DsExtraData *data = g_new0 (DsExtraData, 1);

  data->read = g_array_new (FALSE, TRUE, sizeof (DsExtraRow));
  data->write = g_array_new (FALSE, TRUE, sizeof (DsExtraRow));

  return data;
}

static void
extra_data_free (gpointer p)
{
  DsExtraData *data = p;

  if (data == NULL)
    return;

  g_clear_pointer (&data->read, g_array_unref);
  g_clear_pointer (&data->write, g_array_unref);
  g_free (data);
}

/* ---- running ------------------------------------------------------------ */

typedef struct {
  /* butterfly */
  uint64_t start_bytes;
  uint64_t end_bytes;
  uint64_t step_bytes;
  /* where the I/O went */
  uint64_t min_offset_bytes;
  uint64_t max_end_bytes;
} RowState;

/* Butterfly: even I/Os walk in from the outer edge, odd ones in from the
 * inner edge, one step per pair, so every seek crosses most of what is left
 * between them; after DS_EXTRA_BUTTERFLY_PAIRS pairs (the middle) it starts
 * over at the edges. */
static uint64_t
butterfly_offset (gpointer user,
                  uint64_t index,
                  uint64_t len)
{
  RowState *st = user;
  uint64_t pair = (index / 2) % DS_EXTRA_BUTTERFLY_PAIRS;

  if (index % 2 == 0)
    return st->start_bytes + st->step_bytes * pair;

  return st->end_bytes - len - st->step_bytes * pair;
}

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

static uint64_t
span_of (DsRun *run)
{
  uint64_t size = run->target->size_bytes;

  if (run->spec->capacity_bytes != 0 && run->spec->capacity_bytes < size)
    size = run->spec->capacity_bytes;

  return ds_align_down (size, run->target->logical_block_size);
}

/* Sets up @plan for @row; FALSE if the span is too small for it. */
static void
plan_row (DsIoPlan       *plan,
          RowState       *st,
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
      break;

    case DS_EXTRA_RANDOM_SEEK_4K:
      plan->block_bytes = MAX ((uint64_t) 4096, lbs);
      break;

    case DS_EXTRA_BUTTERFLY_SEEK:
      st->start_bytes = 0;
      st->end_bytes = span;
      st->step_bytes = ds_align_down (span / 2 / DS_EXTRA_BUTTERFLY_PAIRS, lbs);
      plan->random = FALSE;
      plan->next_offset = butterfly_offset;
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
      plan->wrap = TRUE;
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
  };
}

static int
extra_run (DsRun   *run,
           GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsExtraData *data = run->result->data;
  gboolean write = spec->write;
  GArray *rows = write ? data->write : data->read;
  uint32_t lbs = run->target->logical_block_size;
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_EXTRA_DEFAULT_ROW_NS;
  uint64_t span = span_of (run);

  data->span_bytes = span;
  if (write)
    data->write_present = TRUE;
  else
    data->read_present = TRUE;

  /* The burst region and the smallest sequential zone must fit. */
  if (span < DS_EXTRA_BURST_REGION_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   "%s: the test capacity is too small for the extra tests "
                   "(they need at least 1 MB)", run->target->path);
      return -EINVAL;
    }

  for (unsigned i = 0; i < DS_EXTRA_N_ROWS; i++)
    {
      DsIoPlan plan = {
        .read_percent = write ? 0 : 100,
        .depth = 1,
        .threads = 1,
        .duration_ns = row_ns,
        .on_complete = track_io,
      };
      RowState st = { .min_offset_bytes = UINT64_MAX };
      DsSample phase = {
        .kind = DS_SAMPLE_PHASE,
        .write = write,
        .index = i,
        .name = row_names[i].name,
      };
      DsIoStats stats;
      DsExtraRow row;
      int ret;

      if (ds_run_check_cancelled (run, error) < 0)
        return -ECANCELED;

      plan.user = &st;
      plan_row (&plan, &st, (DsExtraRowKind) i, span, lbs);
      ds_run_set_progress (run, (double) i / DS_EXTRA_N_ROWS);
      ds_run_emit (run, &phase);

      ret = ds_run_io (run, &plan, &stats, error);
      row_from_stats (&row, (DsExtraRowKind) i, write ? &stats.write : &stats.read,
                      stats.elapsed_ns, &st);
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
          .name = row_names[i].name,
          .bytes = row.bytes,
          .elapsed_ns = stats.elapsed_ns,
          .value = row.iops,
        };
        ds_run_emit (run, &sample);
      }
    }

  return 0;
}

/* ---- JSON --------------------------------------------------------------- */

static JsonNode *
rows_to_json (GArray *rows)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "name", row_names[row->row].name);
      json_object_set_double_member (o, "iops", row->iops);
      json_object_set_double_member (o, "access_time_s", row->access_time_s);
      json_object_set_double_member (o, "bytes_per_s", row->bytes_per_s);
      json_object_set_int_member (o, "ios", (gint64) row->ios);
      json_object_set_int_member (o, "bytes", (gint64) row->bytes);
      json_object_set_int_member (o, "min_offset_bytes", (gint64) row->min_offset_bytes);
      json_object_set_int_member (o, "max_end_bytes", (gint64) row->max_end_bytes);
      json_array_add_object_element (array, o);
    }
  json_node_take_array (node, array);

  return node;
}

static JsonNode *
extra_to_json (const DsResult *result)
{
  const DsExtraData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (o, "span_bytes", (gint64) data->span_bytes);
  /* Like the benchmark's: a direction that was not run has no key. */
  if (data->read_present)
    json_object_set_member (o, "read", rows_to_json (data->read));
  if (data->write_present)
    json_object_set_member (o, "write", rows_to_json (data->write));
  json_node_take_object (node, o);

  return node;
}

static gboolean
rows_from_json (JsonObject  *results,
                const char  *member,
                gboolean    *ret_present,
                GArray      *rows,
                GError     **error)
{
  g_autofree char *where = g_strdup_printf ("results.%s", member);
  JsonNode *node = json_object_get_member (results, member);
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *ret_present = FALSE;
      return TRUE;
    }

  array = ds_json_get_array (results, "results", member, error);
  if (array == NULL)
    return FALSE;

  if (json_array_get_length (array) > DS_EXTRA_N_ROWS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s: %u rows, the extra tests have %u",
                   where, json_array_get_length (array), DS_EXTRA_N_ROWS);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *row_where = g_strdup_printf ("%s[%u]", where, i);
      DsExtraRow row = { 0 };
      JsonObject *o;
      const char *name;

      if (!ds_json_check_object (element, row_where, error))
        return FALSE;
      o = json_node_get_object (element);

      name = ds_json_get_string (o, row_where, "name", FALSE, error);
      if (name == NULL)
        return FALSE;
      if (!ds_extra_row_from_name (name, &row.row))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       "%s.name: unknown row “%s”", row_where, name);
          return FALSE;
        }
      for (guint k = 0; k < rows->len; k++)
        if (g_array_index (rows, DsExtraRow, k).row == row.row)
          {
            g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                         "%s.name: row “%s” appears twice", row_where, name);
            return FALSE;
          }

      if (!ds_json_get_double (o, row_where, "iops", 0, MAX_IOPS, &row.iops, error) ||
          !ds_json_get_double (o, row_where, "access_time_s", 0, MAX_SECONDS,
                               &row.access_time_s, error) ||
          !ds_json_get_double (o, row_where, "bytes_per_s", 0, MAX_BYTES_PER_S,
                               &row.bytes_per_s, error) ||
          !ds_json_get_uint64 (o, row_where, "ios", G_MAXINT64, &row.ios, error) ||
          !ds_json_get_uint64 (o, row_where, "bytes", G_MAXINT64, &row.bytes, error) ||
          !ds_json_get_uint64 (o, row_where, "min_offset_bytes", G_MAXINT64,
                               &row.min_offset_bytes, error) ||
          !ds_json_get_uint64 (o, row_where, "max_end_bytes", G_MAXINT64,
                               &row.max_end_bytes, error))
        return FALSE;

      g_array_append_val (rows, row);
    }

  *ret_present = TRUE;
  return TRUE;
}

static gpointer
extra_from_json (JsonObject  *o,
                 GError     **error)
{
  DsExtraData *data = extra_data_new ();


  if (!ds_json_get_uint64 (o, "results", "span_bytes", G_MAXINT64, &data->span_bytes, error) ||
      !rows_from_json (o, "read", &data->read_present, data->read, error) ||
      !rows_from_json (o, "write", &data->write_present, data->write, error))
    goto fail;

  return data;

fail:
  extra_data_free (data);
  return NULL;
}

/* ---- the report --------------------------------------------------------- */

/* HD Tune's columns: the row name, then IOPS, access time and rate. */
#define REPORT_FIRST_WIDTH 26
#define REPORT_CELL_WIDTH  14

static void
report_rows (GArray  *rows,
             DsUnits  units,
             GString *out)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const DsExtraRow *row = &g_array_index (rows, DsExtraRow, i);
      g_autofree char *iops = g_strdup_printf ("%.0f IOPS", row->iops);
      g_autofree char *ms = ds_format_ms (row->access_time_s);
      g_autofree char *rate = ds_format_rate (row->bytes_per_s, units);
      const char *cells[] = { row_names[row->row].title, iops, ms, rate };

      ds_report_row (out, cells, G_N_ELEMENTS (cells), REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
    }
}

static void
extra_report (const DsResult *result,
              DsUnits         units,
              GString        *out)
{
  const DsExtraData *data = result->data;

  if (data->read_present)
    report_rows (data->read, units, out);
  if (data->read_present && data->write_present)
    g_string_append_c (out, '\n');
  if (data->write_present)
    {
      g_string_append (out, "Write test\n\n");
      report_rows (data->write, units, out);
    }
}

const DsBenchOps ds_bench_extra = {
  .kind = DS_BENCH_EXTRA,
  .name = "extra",
  .title = "Extra Tests",
  .opens_target = TRUE,
  .data_new = extra_data_new,
  .data_free = extra_data_free,
  .run = extra_run,
  .to_json = extra_to_json,
  .from_json = extra_from_json,
  .report = extra_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
  .min_span_bytes = DS_EXTRA_BURST_REGION_BYTES,
};
