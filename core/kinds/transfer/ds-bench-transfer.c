/* ds-bench-transfer.c: HD Tune's Benchmark tab (command "benchmark")
 *
 * The kind's table, its data (a transfer-rate curve, access-time dots, the
 * access time, burst rate and CPU usage per direction), the JSON form and
 * the report.  How it is measured: ds-bench-transfer-run.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>

#include "ds-bench-transfer.h"
#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"
#include "ds-units.h"
#include "ds-result.h"

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
  DsJsonList points;
  DsJsonList access;
  g_autofree char *twhere = g_strdup_printf ("%s.transfer", where);
  g_autofree char *pwhere = g_strdup_printf ("%s.points", twhere);
  g_autofree char *awhere = g_strdup_printf ("%s.access", where);

  transfer = ds_json_get_object (o, where, "transfer", error);
  if (transfer == NULL)
    return FALSE;
  if (!ds_json_get_list (transfer, twhere, "points", &points, error))
    return FALSE;
  if (ds_json_list_get_length (&points) > 100000)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.points: too many points"), twhere);
      return FALSE;
    }

  for (guint i = 0; i < ds_json_list_get_length (&points); i++)
    {
      DsTransferPoint p = { 0 };
      JsonObject *eo;

      if (!ds_json_list_get_uint64 (&points, i, pwhere, "offset_bytes", G_MAXINT64,
                                    &p.offset_bytes, error) ||
          !ds_json_list_get_double (&points, i, pwhere, "bytes_per_s", 0, 1e15,
                                    &p.bytes_per_s, error))
        return FALSE;
      eo = ds_json_list_get_object (&points, i, "error");
      if (eo != NULL)
        {
          g_autofree char *ewhere = g_strdup_printf ("%s[%u]", pwhere, i);
          uint64_t e = 0;

          if (!ds_json_get_uint64 (eo, ewhere, "errno", 4095, &e, error))
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
      if (!ds_json_get_list (o, where, "access", &access, error))
        return FALSE;
      for (guint i = 0; i < ds_json_list_get_length (&access) && i < 1000000; i++)
        {
          DsAccessPoint a = { 0 };
          double s = 0;

          if (!ds_json_list_get_uint64 (&access, i, awhere, "offset_bytes",
                                        G_MAXINT64, &a.offset_bytes, error) ||
              !ds_json_list_get_double (&access, i, awhere, "access_s",
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

static unsigned
transfer_params (const DsBenchSpec *spec)
{
  (void) spec;
  return DS_PARAM_BLOCK | DS_PARAM_CAPACITY | DS_PARAM_ACCURACY;
}

/* Two blocks at least: a rate across the device needs a start and an end. */
static gboolean
transfer_check_target (const DsBenchSpec    *spec,
                       const DsTargetShape  *shape,
                       GError              **error)
{
  g_autofree char *block = NULL;
  g_autofree char *size_text = NULL;
  g_autofree char *capacity = NULL;

  if (!ds_bench_check_block_aligned (spec, shape, error))
    return FALSE;
  if (shape->span_bytes / spec->block_size_bytes >= 2)
    return TRUE;

  block = ds_bench_describe_bytes (spec->block_size_bytes);
  size_text = ds_bench_describe_bytes (shape->size_bytes);
  capacity = ds_bench_describe_bytes (spec->capacity_bytes);
  if (shape->capped)
    g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                 _("the test capacity given, %s, holds fewer than two "
                 "blocks of the block size, %s; %s has %s"),
                 capacity, block, shape->path, size_text);
  else
    g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                 _("%s has %s: fewer than two blocks of the block size "
                 "given, %s; use a block size of at most half of %s's size"),
                 shape->path, size_text, block, shape->path);
  return FALSE;
}

static void
transfer_settings (const DsBenchSpec *spec,
                   const DsResult    *result,
                   GPtrArray         *parts)
{
  (void) result;
  g_ptr_array_add (parts, g_strdup_printf (_("accuracy %u (%g ms a point)"), spec->accuracy,
                                           ds_bench_accuracy_point_ns (spec->accuracy) / 1e6));
  if (spec->block_size_bytes > 0)
    ds_words_add_block (parts, spec->block_size_bytes);
}

static char *
transfer_describe (const DsResult *result)
{
  g_autofree char *block = ds_format_block (result->spec.block_size_bytes);

  return g_strdup_printf ("%s, %s blocks", result->spec.write ? "write" : "read", block);
}

const DsBenchOps ds_bench_transfer = {
  .kind = DS_BENCH_TRANSFER,
  .name = "benchmark",
  .title = "Benchmark",
  .opens_target = TRUE,
  .data_new = transfer_data_new,
  .data_free = transfer_data_free,
  .run = ds_transfer_run,
  .to_json = transfer_to_json,
  .from_json = transfer_from_json,
  .report = transfer_report,
  .writes = DS_BENCH_WRITES_OPTION,
  .takes_capacity = TRUE,
  .cli_options = DS_BENCH_CLI_BLOCK_SIZE | DS_BENCH_CLI_ACCURACY,
  .spec_flags = DS_BENCH_SPEC_BLOCK_SETTING,
  .params = transfer_params,
  .check_target = transfer_check_target,
  .settings = transfer_settings,
  .describe = transfer_describe,
  .compare_span = ds_transfer_compare_span,
  .compare_rows = ds_transfer_compare_rows,
  .compare_curves = ds_transfer_compare_curves,
  .fio_job = ds_transfer_fio_job,
};
