/* ds-bench-extra.c: HD Tune's Extra Tests (command "extra")
 *
 * The kind's table, its rows' names, its data (per direction, one row per
 * test: IOPS, the mean access time and MB/s as total bytes over total time,
 * where the I/O went, the butterfly's walk), the JSON form and the report.
 * How each row is measured: ds-bench-extra-run.c and the constants in
 * ds-bench-extra.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-bench-extra.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"

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
      if (row->walk_pairs != 0)
        {
          json_object_set_int_member (o, "walk_pairs", (gint64) row->walk_pairs);
          json_object_set_int_member (o, "walks", (gint64) row->walks);
        }
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
                   _("%s: %u rows, the extra tests have %u"),
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
                       _("%s.name: unknown row “%s”"), row_where, name);
          return FALSE;
        }
      for (guint k = 0; k < rows->len; k++)
        if (g_array_index (rows, DsExtraRow, k).row == row.row)
          {
            g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                         _("%s.name: row “%s” appears twice"), row_where, name);
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
      /* The butterfly's walk: only in files that have it. */
      if (json_object_has_member (o, "walk_pairs") &&
          (!ds_json_get_uint64 (o, row_where, "walk_pairs", G_MAXINT64,
                                &row.walk_pairs, error) ||
           !ds_json_get_uint64 (o, row_where, "walks", G_MAXINT64, &row.walks, error)))
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

static char *
extra_duration_help (void)
{
  return g_strdup_printf (_("Time per row (default %us; 250ms at --accuracy 1)"),
                          (unsigned) (DS_EXTRA_DEFAULT_ROW_NS / DS_NS_PER_SEC));
}

const DsBenchOps ds_bench_extra = {
  .kind = DS_BENCH_EXTRA,
  .name = "extra",
  .title = "Extra Tests",
  .opens_target = TRUE,
  .data_new = extra_data_new,
  .data_free = extra_data_free,
  .run = ds_extra_run,
  .to_json = extra_to_json,
  .from_json = extra_from_json,
  .report = extra_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
  .cli_options = DS_BENCH_CLI_ACCURACY,
  .min_span_bytes = DS_EXTRA_BURST_REGION_BYTES,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY,
  .default_row_ns = DS_EXTRA_DEFAULT_ROW_NS,
  .params = ds_params_rows,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = ds_words_row_settings,
  .duration_help = extra_duration_help,
  .compare_span = ds_figures_tested_span,
  .compare_rows = ds_extra_compare_rows,
  .fio_job = ds_extra_fio_job,
};
