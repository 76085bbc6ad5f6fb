/* ds-scan-data.c: the error scan's map, buckets and bad ranges; their
 * JSON and report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-bench-error-scan.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result-json.h"

/* MHDD's and WHDD's buckets for a block of 256 sectors: a healthy HDD
 * reads one in well under 5 ms; 20 and 50 ms are a seek or a retry; from
 * 150 ms the drive is struggling (DS_SCAN_SLOW_NS), from 500 ms it is
 * close to failing the read. */
static const uint64_t bucket_upper_ms[DS_SCAN_N_BUCKETS] = { 5, 20, 50, 150, 500, 0 };

uint64_t
ds_scan_bucket_upper_ns (guint i)
{
  if (i >= DS_SCAN_N_BUCKETS)
    return 0;

  return bucket_upper_ms[i] * DS_NS_PER_MSEC;
}

DsScanCell
ds_scan_cell_for (uint64_t latency_ns,
                  gboolean failed)
{
  if (failed)
    return DS_SCAN_ERROR;
  for (guint i = 0; i + 1 < DS_SCAN_N_BUCKETS; i++)
    if (latency_ns < bucket_upper_ms[i] * DS_NS_PER_MSEC)
      return (DsScanCell) (DS_SCAN_LT_5MS + i);

  return DS_SCAN_GE_500MS;
}

const char *
ds_scan_cell_name (DsScanCell cell)
{
  switch (cell)
    {
    case DS_SCAN_UNREAD:
      return "unread";
    case DS_SCAN_LT_5MS:
    case DS_SCAN_LT_20MS:
    case DS_SCAN_LT_50MS:
    case DS_SCAN_LT_150MS:
      return "ok";
    case DS_SCAN_LT_500MS:
    case DS_SCAN_GE_500MS:
      return "slow";
    case DS_SCAN_ERROR:
    default:
      return "error";
    }
}

gboolean
ds_scan_geometry_cells (uint64_t        start_bytes,
                        uint64_t        span_bytes,
                        uint64_t        block_bytes,
                        gboolean        quick,
                        uint64_t        cell_blocks,
                        DsScanGeometry *ret)
{
  uint64_t n_blocks = block_bytes > 0 ? (span_bytes + block_bytes - 1) / block_bytes : 0;

  if (cell_blocks == 0 || (n_blocks + cell_blocks - 1) / cell_blocks > DS_LIMIT_SCAN_MAP_CELLS)
    return FALSE;
  *ret = (DsScanGeometry) {
    .start_bytes = start_bytes,
    .span_bytes = span_bytes,
    .block_bytes = block_bytes,
    .quick = quick,
    .n_blocks = n_blocks,
    .cell_blocks = cell_blocks,
    .cell_bytes = cell_blocks * block_bytes,
    .n_cells = (guint) ((n_blocks + cell_blocks - 1) / cell_blocks),
  };
  ret->n_reads = quick ? ret->n_cells : n_blocks;
  return TRUE;
}

void
ds_scan_geometry (uint64_t        start_bytes,
                  uint64_t        span_bytes,
                  uint64_t        block_bytes,
                  gboolean        quick,
                  DsScanGeometry *ret)
{
  uint64_t n_blocks = block_bytes > 0 ? (span_bytes + block_bytes - 1) / block_bytes : 0;
  uint64_t cell_blocks = MAX ((n_blocks + DS_LIMIT_SCAN_MAP_CELLS - 1) / DS_LIMIT_SCAN_MAP_CELLS, 1);

  /* A quick scan samples: never every block (on 2 GiB of 128 KiB blocks a
   * cell per block made it read all 16384, as long as the full scan). */
  if (quick)
    cell_blocks = MAX (cell_blocks, (uint64_t) DS_SCAN_QUICK_MIN_CELL_BLOCKS);
  ds_scan_geometry_cells (start_bytes, span_bytes, block_bytes, quick, cell_blocks, ret);
}

void
ds_scan_data_record (DsScanData *data,
                     uint64_t    offset_bytes,
                     uint64_t    latency_ns,
                     gboolean    failed)
{
  const DsScanGeometry *g = &data->geometry;
  DsScanCell cell = ds_scan_cell_for (latency_ns, failed);
  uint64_t index = (offset_bytes - g->start_bytes) / g->cell_bytes;

  data->blocks_read++;
  if (failed)
    data->error_blocks++;
  else
    data->buckets[cell - DS_SCAN_LT_5MS]++;
  data->max_latency_ns = MAX (data->max_latency_ns, latency_ns);

  if (data->cells != NULL && g->n_cells > 0)
    {
      index = MIN (index, (uint64_t) g->n_cells - 1);
      data->cells[index] = MAX (data->cells[index], (guint8) cell);
    }
}

/* ---- JSON --------------------------------------------------------------- */

JsonNode *
ds_scan_data_to_json (const DsScanData *data)
{
  const DsScanGeometry *g = &data->geometry;
  JsonObject *o = json_object_new ();
  JsonNode *node = ds_json_node_take_object (o);
  JsonArray *buckets = json_array_new ();
  JsonObject *map = json_object_new ();
  g_autofree char *states = g_malloc (g->n_cells + 1);

  json_object_set_int_member (o, "start_bytes", (gint64) g->start_bytes);
  json_object_set_int_member (o, "span_bytes", (gint64) g->span_bytes);
  json_object_set_int_member (o, "block_bytes", (gint64) g->block_bytes);
  json_object_set_int_member (o, "sector_bytes", data->sector_bytes);
  json_object_set_boolean_member (o, "quick", g->quick);
  if (g->quick)
    {
      JsonObject *s = json_object_new ();

      json_object_set_int_member (s, "blocks", (gint64) g->n_reads);
      json_object_set_int_member (s, "every_bytes", (gint64) g->cell_bytes);
      json_object_set_double_member (s, "fraction",
                                     g->span_bytes ? MIN (1.0, (double) (g->n_reads * g->block_bytes) /
                                                               (double) g->span_bytes) : 0);
      json_object_set_object_member (o, "sampling", s);
    }
  else
    {
      json_object_set_null_member (o, "sampling");
    }
  json_object_set_int_member (o, "blocks_total", (gint64) g->n_reads);
  json_object_set_int_member (o, "blocks_read", (gint64) data->blocks_read);
  json_object_set_int_member (o, "bytes_read", (gint64) data->bytes_read);
  json_object_set_double_member (o, "elapsed_s", (double) data->elapsed_ns / 1e9);
  json_object_set_double_member (o, "avg_bytes_per_s",
                                 data->elapsed_ns ? (double) data->bytes_read * 1e9 /
                                                    (double) data->elapsed_ns : 0);
  json_object_set_double_member (o, "max_latency_s", (double) data->max_latency_ns / 1e9);

  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      JsonObject *b = json_object_new ();

      if (bucket_upper_ms[i] != 0)
        json_object_set_double_member (b, "upper_s", (double) bucket_upper_ms[i] / 1e3);
      else
        json_object_set_null_member (b, "upper_s");
      json_object_set_int_member (b, "count", (gint64) data->buckets[i]);
      json_array_add_object_element (buckets, b);
    }
  json_object_set_array_member (o, "buckets", buckets);
  json_object_set_int_member (o, "errors", (gint64) data->error_blocks);
  json_object_set_int_member (o, "bad_bytes", (gint64) data->bad.total_bytes);
  json_object_set_member (o, "bad_ranges", ds_range_list_to_json (&data->bad));
  json_object_set_boolean_member (o, "bad_ranges_truncated", data->bad.truncated);

  /* One digit a cell: its DsScanCell (0 unread .. 7 error). */
  for (guint i = 0; i < g->n_cells; i++)
    states[i] = (char) ('0' + (data->cells != NULL ? data->cells[i] : 0));
  states[g->n_cells] = '\0';
  json_object_set_int_member (map, "cells", g->n_cells);
  json_object_set_int_member (map, "cell_bytes", (gint64) g->cell_bytes);
  json_object_set_string_member (map, "states", states);
  json_object_set_object_member (o, "map", map);

  return node;
}

static gboolean
get_bool_member (JsonObject  *o,
                 const char  *member,
                 gboolean    *ret,
                 GError     **error)
{
  JsonNode *n = json_object_get_member (o, member);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.%s is not true or false"), member);
      return FALSE;
    }
  *ret = json_node_get_boolean (n);
  return TRUE;
}

/* The scanned range and how it was cut into blocks and cells; the range
 * in *ret_start and *ret_span. */
static gboolean
geometry_from_json (DsScanData  *data,
                    JsonObject  *o,
                    uint64_t    *ret_start,
                    uint64_t    *ret_span,
                    GError     **error)
{
  const char *w = "results";
  uint64_t start, span, block, sector;
  gboolean quick;

  if (!ds_json_get_uint64 (o, w, "start_bytes", G_MAXINT64, &start, error) ||
      !ds_json_get_uint64 (o, w, "span_bytes", G_MAXINT64, &span, error) ||
      !ds_json_get_uint64 (o, w, "block_bytes", DS_LIMIT_SCAN_BLOCK_MAX, &block, error) ||
      !ds_json_get_uint64 (o, w, "sector_bytes", 1 << 20, &sector, error) ||
      !get_bool_member (o, "quick", &quick, error))
    return FALSE;
  if (block < DS_LIMIT_SCAN_BLOCK_MIN || sector == 0 || start > G_MAXINT64 - span)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results: block_bytes or sector_bytes is absurd"));
      return FALSE;
    }
  ds_scan_geometry (start, span, block, quick, &data->geometry);
  if (quick)
    {
      /* Its own cells: a quick scan from before the minimum stride read a
       * block per cell of fewer blocks. */
      JsonObject *m = ds_json_get_object (o, w, "map", error);
      uint64_t cell_bytes;

      if (m == NULL || !ds_json_get_uint64 (m, "results.map", "cell_bytes", G_MAXINT64, &cell_bytes, error))
        return FALSE;
      if (cell_bytes % block != 0 ||
          !ds_scan_geometry_cells (start, span, block, quick, cell_bytes / block, &data->geometry))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("results.map.cell_bytes %" PRIu64 " does not cut the range into at most "
                       "%u cells of whole blocks"), cell_bytes, DS_LIMIT_SCAN_MAP_CELLS);
          return FALSE;
        }
    }
  data->sector_bytes = (uint32_t) sector;

  *ret_start = start;
  *ret_span = span;
  return TRUE;
}

/* What was read and how long it took, and the latency buckets, which
 * with the errors must add up to the blocks read. */
static gboolean
counts_from_json (DsScanData  *data,
                  JsonObject  *o,
                  uint64_t     span,
                  GError     **error)
{
  const char *w = "results";
  uint64_t sum = 0;
  double d;
  JsonArray *buckets;

  if (!ds_json_get_uint64 (o, w, "blocks_read", data->geometry.n_reads, &data->blocks_read, error) ||
      !ds_json_get_uint64 (o, w, "bytes_read", span, &data->bytes_read, error) ||
      !ds_json_get_double (o, w, "elapsed_s", 0, 1e9, &d, error))
    return FALSE;
  data->elapsed_ns = ds_json_seconds_to_ns (d);
  if (!ds_json_get_double (o, w, "max_latency_s", 0, 1e9, &d, error))
    return FALSE;
  data->max_latency_ns = ds_json_seconds_to_ns (d);

  buckets = ds_json_get_array (o, w, "buckets", error);
  if (buckets == NULL)
    return FALSE;
  if (json_array_get_length (buckets) != DS_SCAN_N_BUCKETS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.buckets must have %d entries"),
                   DS_SCAN_N_BUCKETS);
      return FALSE;
    }
  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      JsonNode *n = json_array_get_element (buckets, i);
      g_autofree char *bw = g_strdup_printf ("results.buckets[%u]", i);

      if (!ds_json_check_object (n, bw, error) ||
          !ds_json_get_uint64 (json_node_get_object (n), bw, "count",
                               data->blocks_read, &data->buckets[i], error))
        return FALSE;
      sum += data->buckets[i];
    }
  if (!ds_json_get_uint64 (o, w, "errors", data->blocks_read, &data->error_blocks, error))
    return FALSE;
  if (sum + data->error_blocks != data->blocks_read)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results: the buckets and errors do not add up to blocks_read"));
      return FALSE;
    }

  return TRUE;
}

/* The map: a digit a cell, its DsScanCell. */
static gboolean
map_from_json (DsScanData  *data,
               JsonObject  *o,
               GError     **error)
{
  JsonObject *map;
  const char *states;

  map = ds_json_get_object (o, "results", "map", error);
  if (map == NULL)
    return FALSE;
  states = ds_json_get_string (map, "results.map", "states", FALSE, error);
  if (states == NULL)
    return FALSE;
  if (strlen (states) != data->geometry.n_cells ||
      strspn (states, "01234567") != data->geometry.n_cells)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.map.states must be %u digits 0 to 7"), data->geometry.n_cells);
      return FALSE;
    }
  data->cells = g_malloc0 (MAX (data->geometry.n_cells, 1));
  for (guint i = 0; i < data->geometry.n_cells; i++)
    data->cells[i] = (guint8) (states[i] - '0');

  return TRUE;
}

gboolean
ds_scan_data_from_json (DsScanData  *data,
                        JsonObject  *o,
                        GError     **error)
{
  const char *w = "results";
  uint64_t start, span, v;
  gboolean truncated;
  JsonArray *bad;

  if (!geometry_from_json (data, o, &start, &span, error) ||
      !counts_from_json (data, o, span, error))
    return FALSE;

  bad = ds_json_get_array (o, w, "bad_ranges", error);
  if (bad == NULL ||
      !ds_range_list_from_json (&data->bad, bad, "results.bad_ranges", start + span, error) ||
      !get_bool_member (o, "bad_ranges_truncated", &truncated, error) ||
      !ds_json_get_uint64 (o, w, "bad_bytes", span, &v, error))
    return FALSE;
  data->bad.truncated = truncated;
  data->bad.total_bytes = v;

  return map_from_json (data, o, error);
}

/* ---- report ------------------------------------------------------------- */

/* The map in characters: one per group of cells, the worst of the group. */
static const char map_chars[] = {
  [DS_SCAN_UNREAD] = ' ',
  [DS_SCAN_LT_5MS] = '.',
  [DS_SCAN_LT_20MS] = '.',
  [DS_SCAN_LT_50MS] = ':',
  [DS_SCAN_LT_150MS] = 'o',
  [DS_SCAN_LT_500MS] = 's',
  [DS_SCAN_GE_500MS] = 'S',
  [DS_SCAN_ERROR] = 'X',
};

#define MAP_COLUMNS 64
#define MAP_ROWS_MAX 16

static void
report_map (const DsScanData *data,
            GString          *out)
{
  guint n = data->geometry.n_cells;
  guint chars = MIN (n, MAP_COLUMNS * MAP_ROWS_MAX);
  guint per = (n + chars - 1) / MAX (chars, 1);

  if (n == 0 || data->cells == NULL)
    return;
  chars = (n + per - 1) / per;
  g_string_append_printf (out, "\nBlock map (a character is %u cell%s of %" G_GUINT64_FORMAT
                          " bytes; . < 20 ms, : < 50 ms, o < 150 ms, s < 500 ms, "
                          "S slower, X error, blank not read):\n",
                          per, per == 1 ? "" : "s", data->geometry.cell_bytes);
  for (guint c = 0; c < chars; c++)
    {
      guint8 worst = 0;

      for (guint k = c * per; k < MIN ((c + 1) * per, n); k++)
        worst = MAX (worst, data->cells[k]);
      if (c % MAP_COLUMNS == 0)
        g_string_append (out, "  |");
      g_string_append_c (out, map_chars[MIN (worst, DS_SCAN_ERROR)]);
      if (c % MAP_COLUMNS == MAP_COLUMNS - 1 || c + 1 == chars)
        g_string_append (out, "|\n");
    }
}

void
ds_scan_data_report (const DsScanData *data,
                     GString          *out)
{
  const DsScanGeometry *g = &data->geometry;
  g_autofree char *block = ds_format_block (g->block_bytes);
  g_autofree char *from = ds_format_size (g->start_bytes);
  g_autofree char *to = ds_format_size (g->start_bytes + g->span_bytes);
  g_autofree char *rate = ds_format_rate (data->elapsed_ns ? (double) data->bytes_read * 1e9 /
                                          (double) data->elapsed_ns : 0, DS_UNITS_MB);
  g_autofree char *maxlat = ds_format_ms ((double) data->max_latency_ns / 1e9);
  g_autofree char *line = NULL;
  uint64_t slow = data->buckets[DS_SCAN_LT_500MS - 1] + data->buckets[DS_SCAN_GE_500MS - 1];
  double damaged = data->blocks_read ? 100.0 * (double) data->error_blocks /
                                       (double) data->blocks_read : 0;

  if (g->quick)
    line = g_strdup_printf ("quick: one %s block every %" G_GUINT64_FORMAT " bytes (%"
                            G_GUINT64_FORMAT " samples, %.2f %% of the range); "
                            "damage between the samples is not seen",
                            block, g->cell_bytes, g->n_reads,
                            g->span_bytes ? 100.0 * (double) MIN (g->n_reads * g->block_bytes, g->span_bytes) /
                                            (double) g->span_bytes : 0);
  else
    line = g_strdup_printf ("full, %s blocks", block);
  ds_report_figure (out, "Scan", line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("%s to %s (offset %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes)",
                          from, to, g->start_bytes, g->span_bytes);
  ds_report_figure (out, "Range", line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
                          data->blocks_read, g->n_reads);
  ds_report_figure (out, "Blocks read", line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("%" G_GUINT64_FORMAT " (%.2f %%)", data->error_blocks, damaged);
  ds_report_figure (out, "Damaged blocks", line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("%" G_GUINT64_FORMAT " bytes in %u range%s (%u-byte sectors)",
                          data->bad.total_bytes, data->bad.ranges->len,
                          data->bad.ranges->len == 1 ? "" : "s", data->sector_bytes);
  ds_report_figure (out, "Bad sectors", line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("%" G_GUINT64_FORMAT " (150 ms or more)", slow);
  ds_report_figure (out, "Slow blocks", line);
  ds_report_figure (out, "Average read rate", rate);
  ds_report_figure (out, "Slowest block", maxlat);

  g_string_append (out, "\nBlocks by read time:\n");
  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      g_autofree char *label = bucket_upper_ms[i] ? g_strdup_printf ("  < %" G_GUINT64_FORMAT " ms",
                                                                     bucket_upper_ms[i])
                                                  : g_strdup ("  >= 500 ms");
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, data->buckets[i]);
      const char *cells[] = { label, count };

      ds_report_row (out, cells, 2, 14, 12);
    }
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, data->error_blocks);
    const char *cells[] = { "  error", count };

    ds_report_row (out, cells, 2, 14, 12);
  }

  if (data->bad.ranges->len > 0)
    {
      g_string_append (out, "\nBad ranges:\n");
      ds_range_list_report (&data->bad, 50, out);
    }

  report_map (data, out);
}
