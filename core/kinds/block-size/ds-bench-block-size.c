/* ds-bench-block-size.c: sequential speed per block size
 *
 * HD Tune's block size test (ATTO's idea): sequential transfers at 15 block
 * sizes, 0.5 KB to 8 MB, each for a fixed time, at queue depth 1.  A read
 * run reads; a --write run reads every size, then writes every size.  The
 * File Benchmark runs the same sweep on its file.
 *
 * The sweep reads the span once through, from its start: each size picks up
 * where the previous one stopped.  Were each to start over at the start, it
 * would re-read what the previous size had just read, and how much of that a
 * drive's (or an array's) cache still held would depend on how fast the
 * previous size went.  Only when the whole span has been read does the
 * sweep start over at the start, and the result then says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-bench-block-size.h"
#include "ds-bench-io.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"

#define MAX_BYTES_PER_S 1e15

/* Where the sweep goes on (QD1, one thread: called in the order of issue). */
typedef struct {
  uint64_t span_bytes;
  uint64_t next_bytes;
  gboolean wrapped;
} Cursor;

static uint64_t
next_block (gpointer user,
            uint64_t index,
            uint64_t len)
{
  Cursor *c = user;
  uint64_t offset = c->next_bytes;

  if (offset + len > c->span_bytes)
    {
      offset = 0;
      c->wrapped = TRUE;
    }
  c->next_bytes = offset + len;

  return offset;
}

char *
ds_block_size_format (uint64_t block_bytes)
{
  /* HD Tune writes 0.5 KB in this table, where ds_format_block says
   * "512 bytes" (Random Access's name for it); KiB as ds_format_block. */
  if (block_bytes < 1024 * 1024)
    return g_strdup_printf ("%g KiB", (double) block_bytes / 1024.0);

  return ds_format_block (block_bytes);
}

void
ds_block_size_rows_init (GArray *rows)
{
  for (unsigned i = 0; i < DS_BLOCK_SIZE_N_SIZES; i++)
    {
      DsBlockSizeRow row = {
        .block_bytes = (uint64_t) DS_BLOCK_SIZE_MIN_BYTES << i,
        .read_bytes_per_s = -1,
        .write_bytes_per_s = -1,
      };

      g_array_append_val (rows, row);
    }
}

/* Times one block size in one direction and tells a page; the row keeps
 * the speed when any I/O completed.  0 or -errno. */
static int
measure_row (DsRun           *run,
             DsBlockSizeRow  *row,
             guint            index,
             gboolean         writing,
             Cursor          *cursor,
             uint64_t         row_ns,
             GError         **error)
{
  uint64_t span_bytes = cursor->span_bytes;
  DsIoPlan plan = {
    .read_percent = writing ? 0 : 100,
    .start_bytes = 0,
    .span_bytes = span_bytes,
    .block_bytes = row->block_bytes,
    .depth = 1,
    .threads = 1,
    .duration_ns = row_ns,
    .next_offset = next_block,
    .user = cursor,
  };
  uint64_t row_start;
  const DsIoDirStats *dir;
  DsIoStats stats;
  double bytes_per_s;
  int ret;

  row_start = cursor->next_bytes + row->block_bytes <= span_bytes ? cursor->next_bytes : 0;
  ret = ds_run_io (run, &plan, &stats, error);
  dir = writing ? &stats.write : &stats.read;
  bytes_per_s = stats.elapsed_ns > 0 ?
                dir->bytes / ((double) stats.elapsed_ns / DS_NS_PER_SEC) : 0;
  if (dir->ios > 0)
    {
      if (writing)
        row->write_bytes_per_s = bytes_per_s;
      else
        row->read_bytes_per_s = bytes_per_s;
    }
  ds_io_stats_clear (&stats);
  if (ret < 0)
    return ret;

  {
    DsSample sample = {
      .kind = DS_SAMPLE_ROW,
      .write = writing,
      .index = index,
      .name = "block-size",
      .offset_bytes = row_start,
      .bytes = row->block_bytes,
      .value = bytes_per_s,
    };
    ds_run_emit (run, &sample);
  }

  return 0;
}

int
ds_block_size_sweep (DsRun    *run,
                     GArray   *rows,
                     uint64_t  span_bytes,
                     gboolean  read,
                     gboolean  write,
                     uint64_t  row_ns,
                     double    progress_from,
                     double    progress_to,
                     GError  **error)
{
  uint32_t lbs = run->target->logical_block_size;
  unsigned n_steps = rows->len * ((read ? 1 : 0) + (write ? 1 : 0));
  unsigned step = 0;
  gboolean noted = FALSE;
  Cursor cursor = { .span_bytes = span_bytes };

  for (unsigned pass = 0; pass < 2; pass++)
    {
      gboolean writing = pass == 1;

      if ((writing && !write) || (!writing && !read))
        continue;

      {
        DsSample phase = {
          .kind = DS_SAMPLE_PHASE,
          .write = writing,
          .name = "block-size",
        };
        ds_run_emit (run, &phase);
      }

      for (guint i = 0; i < rows->len; i++, step++)
        {
          DsBlockSizeRow *row = &g_array_index (rows, DsBlockSizeRow, i);
          int ret;

          if (ds_run_check_cancelled (run, error) < 0)
            return -ECANCELED;

          ds_run_set_progress (run, progress_from +
                               (progress_to - progress_from) * step / MAX (n_steps, 1));

          /* O_DIRECT cannot transfer less than a logical block; the span
           * must hold one block.  Such a size stays unmeasured. */
          if (!ds_is_aligned (row->block_bytes, lbs) || row->block_bytes > span_bytes)
            {
              if (!noted)
                ds_result_add_note (run->result,
                                    _("%s: block sizes below its %u-byte logical "
                                    "block or above the %" PRIu64
                                    "-byte test span were skipped"),
                                    run->target->path, lbs, span_bytes);
              noted = TRUE;
              continue;
            }

          ret = measure_row (run, row, i, writing, &cursor, row_ns, error);
          if (ret < 0)
            return ret;
        }
    }

  if (cursor.wrapped)
    ds_result_add_note (run->result,
                        _("the sweep read all of the %" PRIu64 "-byte test span "
                        "and started over: what it read again may have come from a "
                        "cache; a larger span avoids that"), span_bytes);
  ds_run_set_progress (run, progress_to);

  return 0;
}

static JsonNode *
rate_node (double bytes_per_s)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  if (bytes_per_s < 0)
    {
      json_node_init_null (node);
      return node;
    }
  json_node_set_double (node, bytes_per_s);

  return node;
}

JsonNode *
ds_block_size_rows_to_json (GArray *rows)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < rows->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (rows, DsBlockSizeRow, i);
      JsonObject *o = json_object_new ();

      json_object_set_int_member (o, "block_bytes", (gint64) row->block_bytes);
      json_object_set_member (o, "read_bytes_per_s", rate_node (row->read_bytes_per_s));
      json_object_set_member (o, "write_bytes_per_s", rate_node (row->write_bytes_per_s));
      json_array_add_object_element (array, o);
    }
  json_node_take_array (node, array);

  return node;
}

/* A rate or null (-1). */
static gboolean
rate_from_json (JsonObject  *o,
                const char  *where,
                const char  *member,
                double      *ret_value,
                GError     **error)
{
  JsonNode *node = json_object_get_member (o, member);

  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      *ret_value = -1;
      return TRUE;
    }

  return ds_json_get_double (o, where, member, 0, MAX_BYTES_PER_S, ret_value, error);
}

GArray *
ds_block_size_rows_from_json (JsonArray   *array,
                              const char  *where,
                              GError     **error)
{
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (DsBlockSizeRow));

  if (json_array_get_length (array) != DS_BLOCK_SIZE_N_SIZES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: %u rows, the block size test has %u"),
                   where, json_array_get_length (array), DS_BLOCK_SIZE_N_SIZES);
      return NULL;
    }

  for (guint i = 0; i < DS_BLOCK_SIZE_N_SIZES; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *row_where = g_strdup_printf ("%s[%u]", where, i);
      DsBlockSizeRow row = { 0 };
      JsonObject *o;

      if (!ds_json_check_object (element, row_where, error))
        return NULL;
      o = json_node_get_object (element);
      if (!ds_json_get_uint64 (o, row_where, "block_bytes", DS_BLOCK_SIZE_MAX_BYTES,
                               &row.block_bytes, error) ||
          !rate_from_json (o, row_where, "read_bytes_per_s", &row.read_bytes_per_s, error) ||
          !rate_from_json (o, row_where, "write_bytes_per_s", &row.write_bytes_per_s, error))
        return NULL;
      if (row.block_bytes != (uint64_t) DS_BLOCK_SIZE_MIN_BYTES << i)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.block_bytes: %" PRIu64 ", expected %" PRIu64),
                       row_where, row.block_bytes, (uint64_t) DS_BLOCK_SIZE_MIN_BYTES << i);
          return NULL;
        }
      g_array_append_val (rows, row);
    }

  return g_steal_pointer (&rows);
}

#define REPORT_FIRST_WIDTH 16
#define REPORT_CELL_WIDTH  16

static void
report_table (GArray   *rows,
              gboolean  read,
              gboolean  write,
              DsUnits   units,
              GString  *out)
{
  const char *head[3] = { "Block size" };
  guint n = 1;

  if (read)
    head[n++] = "Read speed";
  if (write)
    head[n++] = "Write speed";
  ds_report_row (out, head, n, REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);

  for (guint i = 0; i < rows->len; i++)
    {
      const DsBlockSizeRow *row = &g_array_index (rows, DsBlockSizeRow, i);
      g_autofree char *name = ds_block_size_format (row->block_bytes);
      g_autofree char *r = row->read_bytes_per_s >= 0 ?
                           ds_format_rate (row->read_bytes_per_s, units) : g_strdup ("–");
      g_autofree char *w = row->write_bytes_per_s >= 0 ?
                           ds_format_rate (row->write_bytes_per_s, units) : g_strdup ("–");
      const char *cells[3] = { name };
      guint k = 1;

      if (read)
        cells[k++] = r;
      if (write)
        cells[k++] = w;
      ds_report_row (out, cells, k, REPORT_FIRST_WIDTH, REPORT_CELL_WIDTH);
    }
}

void
ds_block_size_rows_report (GArray   *rows,
                           gboolean  split,
                           DsUnits   units,
                           GString  *out)
{
  gboolean any_write = FALSE;

  for (guint i = 0; i < rows->len; i++)
    if (g_array_index (rows, DsBlockSizeRow, i).write_bytes_per_s >= 0)
      any_write = TRUE;

  if (!split || !any_write)
    {
      report_table (rows, TRUE, any_write, units, out);
      return;
    }

  report_table (rows, TRUE, FALSE, units, out);
  g_string_append_c (out, '\n');
  report_table (rows, FALSE, TRUE, units, out);
}

/* ---- the kind ----------------------------------------------------------- */

static gpointer
bs_data_new (void)
{
  DsBlockSizeData *data = g_new0 (DsBlockSizeData, 1);

  data->rows = g_array_new (FALSE, TRUE, sizeof (DsBlockSizeRow));
  ds_block_size_rows_init (data->rows);

  return data;
}

static void
bs_data_free (gpointer p)
{
  DsBlockSizeData *data = p;

  if (data == NULL)
    return;

  g_clear_pointer (&data->rows, g_array_unref);
  g_free (data);
}

static gboolean
bs_run (DsRun   *run,
        GError **error)
{
  const DsBenchSpec *spec = run->spec;
  DsBlockSizeData *data = run->result->data;
  uint64_t row_ns = spec->duration_ns != 0 ? spec->duration_ns : DS_BLOCK_SIZE_DEFAULT_ROW_NS;

  int r;

  data->span_bytes = ds_bench_span_bytes (run);
  r = ds_block_size_sweep (run, data->rows, data->span_bytes, TRUE, spec->write, row_ns, 0.0, 1.0,
                           error);

  return ds_run_ok (run, r, error);
}

static JsonNode *
bs_to_json (const DsResult *result)
{
  const DsBlockSizeData *data = result->data;
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (o, "span_bytes", (gint64) data->span_bytes);
  json_object_set_member (o, "rows", ds_block_size_rows_to_json (data->rows));
  json_node_take_object (node, o);

  return node;
}

static gpointer
bs_from_json (JsonObject  *o,
              GError     **error)
{
  g_autoptr (GArray) rows = NULL;
  DsBlockSizeData *data;
  uint64_t span = 0;
  JsonArray *array;


  if (!ds_json_get_uint64 (o, "results", "span_bytes", G_MAXINT64, &span, error))
    return NULL;
  array = ds_json_get_array (o, "results", "rows", error);
  if (array == NULL)
    return NULL;
  rows = ds_block_size_rows_from_json (array, "results.rows", error);
  if (rows == NULL)
    return NULL;

  data = g_new0 (DsBlockSizeData, 1);
  data->span_bytes = span;
  data->rows = g_steal_pointer (&rows);

  return data;
}

static void
bs_report (const DsResult *result,
           DsUnits         units,
           GString        *out)
{
  const DsBlockSizeData *data = result->data;

  ds_block_size_rows_report (data->rows, FALSE, units, out);
}

static char *
block_size_duration_help (void)
{
  return g_strdup_printf (_("Time per row (default %us; 250ms at --accuracy 1)"),
                          (unsigned) (DS_BLOCK_SIZE_DEFAULT_ROW_NS / DS_NS_PER_SEC));
}

const DsBenchOps ds_bench_block_size = {
  .kind = DS_BENCH_BLOCK_SIZE,
  .name = "block-size",
  .title = "Block Size",
  .opens_target = TRUE,
  .data_new = bs_data_new,
  .data_free = bs_data_free,
  .run = bs_run,
  .to_json = bs_to_json,
  .from_json = bs_from_json,
  .report = bs_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
  .cli_options = DS_BENCH_CLI_ACCURACY,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY,
  .default_row_ns = DS_BLOCK_SIZE_DEFAULT_ROW_NS,
  .params = ds_params_rows,
  .settings = ds_words_row_settings,
  .duration_help = block_size_duration_help,
  .compare_span = ds_figures_tested_span,
  .compare_rows = ds_block_size_compare_rows,
  .fio_job = ds_block_size_fio_job,
};
