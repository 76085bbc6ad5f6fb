/* ds-workload-json.c: a workload result's figures and their JSON (the
 * layout is in ds-bench-workload.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-histogram.h"
#include "ds-result-json.h"

const double ds_workload_percentiles[DS_WORKLOAD_N_PERCENTILES] = {
  1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* The percentiles with a name of their own in latency_s (p99_99 came later:
 * files without it still load, from "percentiles" when present). */
static const struct { const char *name; double percent; gboolean required; } named_percentiles[] = {
  { "p50", 50, TRUE }, { "p90", 90, TRUE }, { "p99", 99, TRUE }, { "p99_9", 99.9, TRUE },
  { "p99_99", 99.99, FALSE },
};

/* Bounds a loaded file is held to. */
#define MAX_BYTES_PER_S   1e15
#define MAX_IOPS          1e12
#define MAX_LATENCY_S     1e6
#define MAX_RUNTIME_S     1e7
#define MAX_INTERVAL_S    3600.0
/* A 100 ms series over a day is 864 000 points. */
#define MAX_SERIES_POINTS 1000000u

DsWorkloadData *
ds_workload_data_new (void)
{
  return g_new0 (DsWorkloadData, 1);
}

void
ds_workload_dir_clear (DsWorkloadDir *dir)
{
  g_clear_pointer (&dir->histogram, g_array_unref);
  *dir = (DsWorkloadDir) { 0 };
}

void
ds_workload_data_free (DsWorkloadData *data)
{
  if (data == NULL)
    return;

  g_free (data->engine);
  ds_workload_dir_clear (&data->read);
  ds_workload_dir_clear (&data->write);
  g_clear_pointer (&data->series, g_array_unref);
  g_free (data);
}

/* ---- writing ------------------------------------------------------------ */

static const char *
percentile_key (double  percent,
                char   *buf,
                size_t  len)
{
  g_autofree char *s = g_strdup_printf ("%g", percent);

  g_strdelimit (s, ".", '_');
  g_snprintf (buf, len, "p%s", s);
  return buf;
}

static JsonNode *
histogram_to_json (const GArray *histogram)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < histogram->len; i++)
    {
      const DsLatencyBucket *b = &g_array_index (histogram, DsLatencyBucket, i);
      JsonObject *o = json_object_new ();

      json_object_set_double_member (o, "upper_s", b->upper_s);
      json_object_set_int_member (o, "count", (gint64) b->count);
      json_array_add_object_element (array, o);
    }

  return ds_json_node_take_array (array);
}

static JsonNode *
dir_to_json (const DsWorkloadDir *dir)
{
  JsonObject *o = json_object_new ();
  JsonObject *lat = json_object_new ();
  JsonObject *pct = json_object_new ();
  char key[32];

  json_object_set_int_member (o, "io_bytes", (gint64) dir->io_bytes);
  json_object_set_int_member (o, "ios", (gint64) dir->ios);
  json_object_set_double_member (o, "bytes_per_s", dir->bytes_per_s);
  json_object_set_double_member (o, "iops", dir->iops);

  json_object_set_double_member (lat, "min", dir->lat_min_s);
  json_object_set_double_member (lat, "mean", dir->lat_mean_s);
  json_object_set_double_member (lat, "max", dir->lat_max_s);
  json_object_set_double_member (lat, "stddev", dir->lat_stddev_s);
  for (unsigned i = 0; i < G_N_ELEMENTS (named_percentiles); i++)
    for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
      if (ds_workload_percentiles[k] == named_percentiles[i].percent)
        json_object_set_double_member (lat, named_percentiles[i].name, dir->lat_percentile_s[k]);
  for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
    json_object_set_double_member (pct, percentile_key (ds_workload_percentiles[k], key, sizeof key),
                                   dir->lat_percentile_s[k]);
  json_object_set_object_member (lat, "percentiles", pct);
  json_object_set_object_member (o, "latency_s", lat);
  if (dir->histogram != NULL)
    json_object_set_member (o, "latency_histogram", histogram_to_json (dir->histogram));

  return ds_json_node_take_object (o);
}

static JsonObject *
interval_dir_to_json (const DsIntervalDir *dir)
{
  JsonObject *o = json_object_new ();

  json_object_set_double_member (o, "bytes_per_s", dir->bytes_per_s);
  json_object_set_double_member (o, "iops", dir->iops);
  json_object_set_double_member (o, "p50_s", dir->p50_s);
  json_object_set_double_member (o, "p99_s", dir->p99_s);

  return o;
}

JsonNode *
ds_workload_series_to_json (const GArray *series)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < series->len; i++)
    {
      const DsIntervalPoint *p = &g_array_index (series, DsIntervalPoint, i);
      JsonObject *o = json_object_new ();

      json_object_set_double_member (o, "t_s", p->t_s);
      json_object_set_object_member (o, "read", interval_dir_to_json (&p->read));
      json_object_set_object_member (o, "write", interval_dir_to_json (&p->write));
      json_array_add_object_element (array, o);
    }

  return ds_json_node_take_array (array);
}

JsonNode *
ds_workload_data_to_json (const DsWorkloadData *data)
{
  JsonObject *o = json_object_new ();
  JsonObject *cpu = json_object_new ();

  json_object_set_double_member (o, "runtime_s", data->runtime_s);
  if (data->engine != NULL)
    json_object_set_string_member (o, "engine", data->engine);
  else
    json_object_set_null_member (o, "engine");
  json_object_set_double_member (o, "interval_s", data->interval_s);
  if (data->read.present)
    json_object_set_member (o, "read", dir_to_json (&data->read));
  if (data->write.present)
    json_object_set_member (o, "write", dir_to_json (&data->write));
  json_object_set_double_member (cpu, "user_s", data->cpu_user_s);
  json_object_set_double_member (cpu, "system_s", data->cpu_system_s);
  json_object_set_object_member (o, "cpu", cpu);
  if (data->series != NULL)
    json_object_set_member (o, "series", ds_workload_series_to_json (data->series));
  if (data->series_dropped_ios != 0)
    json_object_set_int_member (o, "series_dropped_ios", (gint64) data->series_dropped_ios);
  if (data->series_merged > 1)
    json_object_set_int_member (o, "series_merged", data->series_merged);

  return ds_json_node_take_object (o);
}

/* ---- reading ------------------------------------------------------------ */

static GArray *
histogram_from_json (JsonArray   *array,
                     const char  *where,
                     uint64_t     ios,
                     GError     **error)
{
  g_autoptr (GArray) histogram = g_array_new (FALSE, TRUE, sizeof (DsLatencyBucket));
  guint n = json_array_get_length (array);
  uint64_t total = 0;

  if (n > DS_HIST_BUCKETS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s has %u buckets, more than the %u a histogram has"),
                   where, n, DS_HIST_BUCKETS);
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *ewhere = g_strdup_printf ("%s[%u]", where, i);
      JsonNode *node = json_array_get_element (array, i);
      DsLatencyBucket b;

      if (!ds_json_check_object (node, ewhere, error) ||
          !ds_json_get_double (json_node_get_object (node), ewhere, "upper_s", 0, MAX_LATENCY_S,
                               &b.upper_s, error) ||
          !ds_json_get_uint64 (json_node_get_object (node), ewhere, "count", G_MAXINT64,
                               &b.count, error))
        return NULL;
      if (i > 0 && b.upper_s <= g_array_index (histogram, DsLatencyBucket, i - 1).upper_s)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.upper_s is not above the bucket before it"), ewhere);
          return NULL;
        }
      if (b.count > G_MAXINT64 - total)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s: the counts overflow"), where);
          return NULL;
        }
      total += b.count;
      g_array_append_val (histogram, b);
    }

  if (total != ios)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s counts %" PRIu64 " I/Os, not the %" PRIu64
                   " of the figures"), where, total, ios);
      return NULL;
    }

  return g_steal_pointer (&histogram);
}

static gboolean
dir_from_json (JsonObject     *o,
               const char     *where,
               DsWorkloadDir  *dir,
               GError        **error)
{
  g_autofree char *lwhere = g_strdup_printf ("%s.latency_s", where);
  JsonObject *lat;
  JsonObject *pct;
  char key[32];

  if (!ds_json_get_uint64 (o, where, "io_bytes", G_MAXINT64, &dir->io_bytes, error) ||
      !ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &dir->ios, error) ||
      !ds_json_get_double (o, where, "bytes_per_s", 0, MAX_BYTES_PER_S, &dir->bytes_per_s, error) ||
      !ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &dir->iops, error))
    return FALSE;

  lat = ds_json_get_object (o, where, "latency_s", error);
  if (lat == NULL)
    return FALSE;
  if (!ds_json_get_double (lat, lwhere, "min", 0, MAX_LATENCY_S, &dir->lat_min_s, error) ||
      !ds_json_get_double (lat, lwhere, "mean", 0, MAX_LATENCY_S, &dir->lat_mean_s, error) ||
      !ds_json_get_double (lat, lwhere, "max", 0, MAX_LATENCY_S, &dir->lat_max_s, error))
    return FALSE;
  if (json_object_has_member (lat, "stddev") &&
      !ds_json_get_double (lat, lwhere, "stddev", 0, MAX_LATENCY_S, &dir->lat_stddev_s, error))
    return FALSE;

  /* The named percentiles are there; the full list may be too. */
  for (unsigned i = 0; i < G_N_ELEMENTS (named_percentiles); i++)
    for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
      if (ds_workload_percentiles[k] == named_percentiles[i].percent &&
          (named_percentiles[i].required || json_object_has_member (lat, named_percentiles[i].name)) &&
          !ds_json_get_double (lat, lwhere, named_percentiles[i].name, 0, MAX_LATENCY_S,
                               &dir->lat_percentile_s[k], error))
        return FALSE;

  if (json_object_has_member (lat, "percentiles"))
    {
      g_autofree char *pwhere = g_strdup_printf ("%s.percentiles", lwhere);

      pct = ds_json_get_object (lat, lwhere, "percentiles", error);
      if (pct == NULL)
        return FALSE;
      for (unsigned k = 0; k < DS_WORKLOAD_N_PERCENTILES; k++)
        if (!ds_json_get_double (pct, pwhere,
                                 percentile_key (ds_workload_percentiles[k], key, sizeof key),
                                 0, MAX_LATENCY_S, &dir->lat_percentile_s[k], error))
          return FALSE;
    }

  if (dir->lat_min_s > dir->lat_max_s || dir->lat_mean_s > dir->lat_max_s)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: minimum, mean and maximum are out of order"), lwhere);
      return FALSE;
    }

  if (json_object_has_member (o, "latency_histogram"))
    {
      g_autofree char *hwhere = g_strdup_printf ("%s.latency_histogram", where);
      JsonArray *array = ds_json_get_array (o, where, "latency_histogram", error);

      if (array == NULL)
        return FALSE;
      dir->histogram = histogram_from_json (array, hwhere, dir->ios, error);
      if (dir->histogram == NULL)
        return FALSE;
    }

  dir->present = TRUE;
  return TRUE;
}

static gboolean
interval_dir_from_json (JsonObject     *point,
                        const char     *where,
                        const char     *member,
                        DsIntervalDir  *dir,
                        GError        **error)
{
  g_autofree char *dwhere = g_strdup_printf ("%s.%s", where, member);
  JsonObject *o = ds_json_get_object (point, where, member, error);

  return o != NULL &&
         ds_json_get_double (o, dwhere, "bytes_per_s", 0, MAX_BYTES_PER_S, &dir->bytes_per_s, error) &&
         ds_json_get_double (o, dwhere, "iops", 0, MAX_IOPS, &dir->iops, error) &&
         ds_json_get_double (o, dwhere, "p50_s", 0, MAX_LATENCY_S, &dir->p50_s, error) &&
         ds_json_get_double (o, dwhere, "p99_s", 0, MAX_LATENCY_S, &dir->p99_s, error);
}

GArray *
ds_workload_series_from_json (JsonArray   *array,
                              const char  *where,
                              GError     **error)
{
  g_autoptr (GArray) series = g_array_new (FALSE, TRUE, sizeof (DsIntervalPoint));
  guint n = json_array_get_length (array);

  if (n > MAX_SERIES_POINTS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s has %u points, more than %u"), where, n, MAX_SERIES_POINTS);
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *pwhere = g_strdup_printf ("%s[%u]", where, i);
      JsonNode *node = json_array_get_element (array, i);
      DsIntervalPoint p = { 0 };
      JsonObject *o;

      if (!ds_json_check_object (node, pwhere, error))
        return NULL;
      o = json_node_get_object (node);
      if (!ds_json_get_double (o, pwhere, "t_s", 0, MAX_RUNTIME_S, &p.t_s, error) ||
          !interval_dir_from_json (o, pwhere, "read", &p.read, error) ||
          !interval_dir_from_json (o, pwhere, "write", &p.write, error))
        return NULL;
      if (p.t_s <= (i > 0 ? g_array_index (series, DsIntervalPoint, i - 1).t_s : 0))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s.t_s is not after the point before it"), pwhere);
          return NULL;
        }
      g_array_append_val (series, p);
    }

  return g_steal_pointer (&series);
}

static gboolean
optional_dir (JsonObject     *o,
              const char     *where,
              const char     *member,
              DsWorkloadDir  *dir,
              GError        **error)
{
  g_autofree char *dwhere = g_strdup_printf ("%s.%s", where, member);
  JsonObject *d;

  if (!json_object_has_member (o, member))
    return TRUE;
  d = ds_json_get_object (o, where, member, error);

  return d != NULL && dir_from_json (d, dwhere, dir, error);
}

DsWorkloadData *
ds_workload_data_from_json (JsonObject  *o,
                            const char  *where,
                            GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *cwhere = g_strdup_printf ("%s.cpu", where);
  DsWorkloadData *data = ds_workload_data_new ();
  JsonObject *cpu;
  const char *engine;

  if (!ds_json_get_double (o, where, "runtime_s", 0, MAX_RUNTIME_S, &data->runtime_s, error))
    goto fail;
  engine = ds_json_get_string (o, where, "engine", TRUE, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      goto fail;
    }
  data->engine = g_strdup (engine);

  if (json_object_has_member (o, "interval_s") &&
      !ds_json_get_double (o, where, "interval_s", 0, MAX_INTERVAL_S, &data->interval_s, error))
    goto fail;

  if (!optional_dir (o, where, "read", &data->read, error) ||
      !optional_dir (o, where, "write", &data->write, error))
    goto fail;

  cpu = ds_json_get_object (o, where, "cpu", error);
  if (cpu == NULL ||
      !ds_json_get_double (cpu, cwhere, "user_s", 0, 1e9, &data->cpu_user_s, error) ||
      !ds_json_get_double (cpu, cwhere, "system_s", 0, 1e9, &data->cpu_system_s, error))
    goto fail;

  if (json_object_has_member (o, "series"))
    {
      g_autofree char *swhere = g_strdup_printf ("%s.series", where);
      JsonArray *array = ds_json_get_array (o, where, "series", error);

      if (array == NULL)
        goto fail;
      data->series = ds_workload_series_from_json (array, swhere, error);
      if (data->series == NULL)
        goto fail;
    }
  if (json_object_has_member (o, "series_dropped_ios") &&
      !ds_json_get_uint64 (o, where, "series_dropped_ios", G_MAXINT64,
                           &data->series_dropped_ios, error))
    goto fail;
  if (json_object_has_member (o, "series_merged"))
    {
      uint64_t merged;

      if (!ds_json_get_uint64 (o, where, "series_merged", G_MAXINT32, &merged, error))
        goto fail;
      data->series_merged = (guint) merged;
    }

  return data;

fail:
  ds_workload_data_free (data);
  return NULL;
}
