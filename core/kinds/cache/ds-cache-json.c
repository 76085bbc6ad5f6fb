/* ds-cache-json.c: the cache probe's JSON and report (the layout is in
 * ds-bench-cache.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-cache.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result.h"

#define MAX_BYTES_PER_S 1e15
#define MAX_IOPS        1e12
#define MAX_LATENCY_S   1e6
#define MAX_SECONDS     1e7

JsonNode *
ds_cache_data_to_json (const DsCacheData *data)
{
  JsonObject *o = json_object_new ();
  JsonArray *sets = json_array_new ();
  JsonObject *rule = json_object_new ();
  const DsCacheEstimate *e = &data->estimate;

  if (data->write)
    json_object_set_boolean_member (o, "write", TRUE);
  json_object_set_int_member (o, "block_size_bytes", (gint64) data->block_size_bytes);
  json_object_set_int_member (o, "queue_depth", data->queue_depth);
  json_object_set_double_member (o, "set_time_s", data->set_time_s);
  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *s = &g_array_index (data->sets, DsCacheSet, i);
      JsonObject *j = json_object_new ();
      JsonObject *lat = json_object_new ();

      json_object_set_int_member (j, "bytes", (gint64) s->bytes);
      json_object_set_boolean_member (j, "complete", s->complete);
      json_object_set_int_member (j, "ios", (gint64) s->ios);
      json_object_set_double_member (j, "iops", s->iops);
      json_object_set_double_member (j, "bytes_per_s", s->bytes_per_s);
      json_object_set_double_member (lat, "mean", s->lat_mean_s);
      json_object_set_double_member (lat, "p99", s->lat_p99_s);
      json_object_set_object_member (j, "latency_s", lat);
      if (data->write)
        {
          JsonObject *rlat = json_object_new ();

          json_object_set_double_member (rlat, "mean", s->read_lat_mean_s);
          json_object_set_double_member (rlat, "p99", s->read_lat_p99_s);
          json_object_set_object_member (j, "read_latency_s", rlat);
        }
      if (s->repeated)
        {
          JsonObject *again = json_object_new ();
          JsonObject *alat = json_object_new ();

          json_object_set_double_member (again, "iops", s->repeat_iops);
          json_object_set_double_member (alat, "mean", s->repeat_lat_mean_s);
          json_object_set_double_member (alat, "p99", s->repeat_lat_p99_s);
          json_object_set_object_member (again, "latency_s", alat);
          json_object_set_object_member (j, "repeat", again);
        }
      json_array_add_object_element (sets, j);
    }
  json_object_set_array_member (o, "sets", sets);
  if (e->found)
    {
      json_object_set_double_member (o, "cache_estimate_bytes", e->estimate_bytes);
      json_object_set_int_member (o, "largest_fast_bytes", (gint64) e->largest_fast_bytes);
      json_object_set_int_member (o, "first_slow_bytes", (gint64) e->first_slow_bytes);
      json_object_set_double_member (o, "drop_ratio", e->drop_ratio);
    }
  else
    {
      json_object_set_null_member (o, "cache_estimate_bytes");
      json_object_set_null_member (o, "largest_fast_bytes");
      json_object_set_null_member (o, "first_slow_bytes");
      json_object_set_null_member (o, "drop_ratio");
    }
  json_object_set_string_member (o, "verdict", ds_cache_verdict_name (e->verdict));
  json_object_set_double_member (o, "hot_latency_s", e->hot_latency_s);
  json_object_set_double_member (o, "cold_latency_s", e->cold_latency_s);
  json_object_set_double_member (rule, "fast_fraction", DS_CACHE_FAST_FRACTION);
  json_object_set_object_member (o, "rule", rule);

  return ds_json_node_take_object (o);
}

static gboolean
set_from_json (JsonObject  *o,
               const char  *where,
               gboolean     write,
               DsCacheSet  *s,
               GError     **error)
{
  g_autofree char *lwhere = g_strconcat (where, ".latency_s", NULL);
  g_autofree char *rwhere = g_strconcat (where, ".read_latency_s", NULL);
  JsonObject *lat;

  if (!ds_json_get_uint64 (o, where, "bytes", G_MAXINT64, &s->bytes, error) ||
      !ds_json_get_bool (o, where, "complete", &s->complete, error) ||
      !ds_json_get_uint64 (o, where, "ios", G_MAXINT64, &s->ios, error) ||
      !ds_json_get_double (o, where, "iops", 0, MAX_IOPS, &s->iops, error) ||
      !ds_json_get_double (o, where, "bytes_per_s", 0, MAX_BYTES_PER_S, &s->bytes_per_s, error))
    return FALSE;
  lat = ds_json_get_object (o, where, "latency_s", error);
  if (lat == NULL ||
      !ds_json_get_double (lat, lwhere, "mean", 0, MAX_LATENCY_S, &s->lat_mean_s, error) ||
      !ds_json_get_double (lat, lwhere, "p99", 0, MAX_LATENCY_S, &s->lat_p99_s, error))
    return FALSE;
  if (json_object_has_member (o, "repeat"))
    {
      g_autofree char *awhere = g_strconcat (where, ".repeat", NULL);
      g_autofree char *alwhere = g_strconcat (where, ".repeat.latency_s", NULL);
      JsonObject *again = ds_json_get_object (o, where, "repeat", error);

      if (again == NULL ||
          !ds_json_get_double (again, awhere, "iops", 0, MAX_IOPS, &s->repeat_iops, error) ||
          (lat = ds_json_get_object (again, awhere, "latency_s", error)) == NULL ||
          !ds_json_get_double (lat, alwhere, "mean", 0, MAX_LATENCY_S, &s->repeat_lat_mean_s, error) ||
          !ds_json_get_double (lat, alwhere, "p99", 0, MAX_LATENCY_S, &s->repeat_lat_p99_s, error))
        return FALSE;
      s->repeated = TRUE;
    }
  if (!write)
    return TRUE;
  lat = ds_json_get_object (o, where, "read_latency_s", error);
  return lat != NULL &&
         ds_json_get_double (lat, rwhere, "mean", 0, MAX_LATENCY_S, &s->read_lat_mean_s, error) &&
         ds_json_get_double (lat, rwhere, "p99", 0, MAX_LATENCY_S, &s->read_lat_p99_s, error);
}

DsCacheData *
ds_cache_data_from_json (JsonObject  *o,
                         GError     **error)
{
  g_autoptr (GError) local = NULL;
  DsCacheData *data = ds_cache_data_new ();
  JsonArray *sets;

  if (!ds_json_get_uint64 (o, "results", "block_size_bytes", DS_LIMIT_BLOCK_SIZE_MAX, &data->block_size_bytes, &local) ||
      !ds_json_get_unsigned (o, "results", "queue_depth", DS_LIMIT_QUEUE_DEPTH_MAX, &data->queue_depth, &local) ||
      !ds_json_get_double (o, "results", "set_time_s", 0, MAX_SECONDS, &data->set_time_s, &local))
    goto fail;
  if (json_object_has_member (o, "write") &&
      !ds_json_get_bool (o, "results", "write", &data->write, &local))
    goto fail;
  sets = ds_json_get_array (o, "results", "sets", &local);
  if (sets == NULL)
    goto fail;
  if (json_array_get_length (sets) > DS_CACHE_MAX_SETS)
    {
      g_set_error (&local, DS_ERROR, DS_ERROR_CORRUPT, _("results.sets has more than %u sets"),
                   DS_CACHE_MAX_SETS);
      goto fail;
    }
  for (guint i = 0; i < json_array_get_length (sets); i++)
    {
      g_autofree char *where = g_strdup_printf ("results.sets[%u]", i);
      JsonNode *node = json_array_get_element (sets, i);
      DsCacheSet s = { 0 };

      if (!ds_json_check_object (node, where, &local) ||
          !set_from_json (json_node_get_object (node), where, data->write, &s, &local))
        goto fail;
      if (data->sets->len > 0 && s.bytes <= g_array_index (data->sets, DsCacheSet, data->sets->len - 1).bytes)
        {
          g_set_error (&local, DS_ERROR, DS_ERROR_CORRUPT, _("%s.bytes is not larger than the set before"), where);
          goto fail;
        }
      g_array_append_val (data->sets, s);
    }

  /* Derived from the sets by the rule: recomputed, not trusted. */
  (data->write ? ds_cache_estimate_writes : ds_cache_estimate) (data->sets, &data->estimate);
  return data;

fail:
  ds_cache_data_free (data);
  g_propagate_error (error, g_steal_pointer (&local));
  return NULL;
}

/* "64 MiB": working sets are powers of two from 16 MiB (and the device). */
static char *
set_size (uint64_t bytes)
{
  if (bytes % (UINT64_C (1) << 30) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " GiB", bytes >> 30);
  if (bytes % (UINT64_C (1) << 20) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " MiB", bytes >> 20);
  return g_strdup_printf ("%.1f MiB", bytes / 1048576.0);
}

/* The complete set of @bytes, or NULL. */
static const DsCacheSet *
set_of (const DsCacheData *data,
        uint64_t           bytes)
{
  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *s = &g_array_index (data->sets, DsCacheSet, i);

      if (s->complete && s->bytes == bytes)
        return s;
    }
  return NULL;
}

/* One slow set at the end, not an edge: how slow, and why not. */
static char *
words_one_slow (const DsCacheData *data)
{
  const DsCacheEstimate *e = &data->estimate;
  const DsCacheSet *first = set_of (data, g_array_index (data->sets, DsCacheSet, 0).bytes);
  const DsCacheSet *slow = set_of (data, e->first_slow_bytes);
  g_autofree char *size = set_size (e->first_slow_bytes);
  double ref = first != NULL && first->iops > 0 ? first->iops : 1;
  double once = slow != NULL ? slow->iops / ref : 0;

  if (e->verdict == DS_CACHE_VERDICT_NOISE)
    return g_strdup_printf ("none: no clear edge: only the largest set, %s, was slow (%.2f of the "
                            "first set's IOPS), and measured again it was fast (%.2f): a moment of "
                            "other I/O, not a cache", size, once, slow != NULL ? slow->repeat_iops / ref : 0);
  return g_strdup_printf ("none: no clear edge: only the largest set, %s, was slow (%.2f of the "
                          "first set's IOPS), and it was measured once only: one slow set may be "
                          "other I/O, not a cache", size, once);
}

char *
ds_cache_words (const DsCacheData *data)
{
  const DsCacheEstimate *e = &data->estimate;
  g_autofree char *estimate = NULL;
  g_autofree char *fast = NULL;
  g_autofree char *slow = NULL;
  g_autofree char *again = NULL;
  const DsCacheSet *past;

  switch (e->verdict)
    {
    case DS_CACHE_VERDICT_TOO_FEW:
      return g_strdup ("none: fewer than two sets were measured");
    case DS_CACHE_VERDICT_SLOW_ONCE:
    case DS_CACHE_VERDICT_NOISE:
      return words_one_slow (data);
    case DS_CACHE_VERDICT_NO_EDGE:
      if (data->write)
        return g_strdup ("none: no set's writes were faster than half the first set's IOPS and then "
                         "slower (no write-back cache seen up to the largest set, or none as small "
                         "as the first)");
      return g_strdup ("none: no set was faster than half the first set's IOPS and then slower "
                       "(no cache seen up to the largest set, or none as small as the first)");
    case DS_CACHE_VERDICT_CACHE:
    default:
      break;
    }

  estimate = set_size ((uint64_t) (e->estimate_bytes / 1048576.0 + 0.5) << 20);
  fast = set_size (e->largest_fast_bytes);
  slow = set_size (e->first_slow_bytes);
  past = set_of (data, e->first_slow_bytes);
  if (past != NULL && past->repeated)
    again = g_strdup_printf ("; %s, the only set past it, was as slow measured again", slow);
  if (data->write)
    {
      g_autofree char *hot = ds_format_ms (e->hot_latency_s);
      g_autofree char *cold = ds_format_ms (e->cold_latency_s);
      g_autofree char *rlat = ds_format_ms (g_array_index (data->sets, DsCacheSet, 0).read_lat_mean_s);

      /* No bounds: a set a little past the cache still writes at more
       * than half the pace, so the size comes from the sets' times alone. */
      return g_strdup_printf ("a write-back cache of about %s as the host sees it (it drains while "
                              "it fills): a write into it %s, past it %s (a read %s); writes of "
                              "sets past %s run at %.2f of the IOPS%s",
                              estimate, hot, cold, rlat, fast, e->drop_ratio,
                              again ? again : "");
    }
  return g_strdup_printf ("about %s (between %s and %s): reads of %s stay fast; past it IOPS drop "
                          "to %.2f of that%s", estimate, fast, slow, fast, e->drop_ratio,
                          again ? again : "");
}

void
ds_cache_report (const DsResult *result,
                 DsUnits         units,
                 GString        *out)
{
  const DsCacheData *data = result->data;
  const char *head[] = { "Working set", "IOPS", "Rate", "Mean", "p99", "Read mean" };
  guint columns = data->write ? 6 : 5;
  g_autofree char *block = ds_format_block (data->block_size_bytes);
  g_autofree char *profile = data->write
    ? g_strdup_printf ("each set flushed, written once at random in blocks of %s, then read at "
                       "random for %g s; queue depth %u", block, data->set_time_s, data->queue_depth)
    : g_strdup_printf ("random reads of %s, queue depth %u, %g s per set, "
                       "each set read once first", block,
                       data->queue_depth, data->set_time_s);
  g_autofree char *words = ds_cache_words (data);
  g_autofree char *hot = ds_format_ms (data->estimate.hot_latency_s);
  g_autofree char *cold = ds_format_ms (data->estimate.cold_latency_s);
  /* Hot and cold only about an edge: without one, the two are the same
   * kind of access, and the smaller set may well be the slower. */
  g_autofree char *access = data->estimate.found
    ? g_strdup_printf ("%shot %s (the smallest set), cold %s (%s)", data->write ? "writes: " : "",
                       hot, cold, data->write ? "the pace of the sets past the cache" :
                                                "the slowest set past the drop")
    : g_strdup_printf ("%s%s on the smallest set, %s on the largest (no cache edge between them: "
                       "the difference is noise, not a hot and a cold)",
                       data->write ? "writes: " : "", hot, cold);

  ds_report_figure (out, "Probe", profile);
  ds_report_figure (out, "Cache", words);
  ds_report_figure (out, "Access Time", access);
  if (data->sets->len == 0)
    return;
  g_string_append_c (out, '\n');
  ds_report_row (out, head, columns, 12, 12);
  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *s = &g_array_index (data->sets, DsCacheSet, i);
      g_autofree char *size = set_size (s->bytes);
      g_autofree char *name = g_strdup_printf ("%s%s", size, s->complete ? "" : " (cut)");
      g_autofree char *iops = g_strdup_printf ("%.0f", s->iops);
      g_autofree char *rate = ds_format_rate (s->bytes_per_s, units);
      g_autofree char *mean = ds_format_ms (s->lat_mean_s);
      g_autofree char *p99 = ds_format_ms (s->lat_p99_s);
      g_autofree char *read_mean = ds_format_ms (s->read_lat_mean_s);
      const char *cells[] = { name, iops, rate, mean, p99, read_mean };

      ds_report_row (out, cells, columns, 12, 12);
    }
  for (guint i = 0; i < data->sets->len; i++)
    {
      const DsCacheSet *s = &g_array_index (data->sets, DsCacheSet, i);
      g_autofree char *size = set_size (s->bytes);
      g_autofree char *mean = ds_format_ms (s->repeat_lat_mean_s);

      if (s->repeated)
        g_string_append_printf (out, "Measured again: %s, %.0f IOPS, mean %s\n", size,
                                s->repeat_iops, mean);
    }
}
