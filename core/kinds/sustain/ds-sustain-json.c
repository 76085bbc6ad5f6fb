/* ds-sustain-json.c: a sustained write's JSON (the layout is in
 * ds-bench-sustain.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-bench-sustain.h"
#include "ds-error.h"
#include "ds-json.h"

#define MAX_BYTES_PER_S 1e15
#define MAX_SECONDS     1e7

static void
set_double_or_null (JsonObject *o,
                    const char *member,
                    gboolean    present,
                    double      value)
{
  if (present)
    json_object_set_double_member (o, member, value);
  else
    json_object_set_null_member (o, member);
}

JsonNode *
ds_sustain_data_to_json (const DsSustainData *data)
{
  JsonNode *node = ds_workload_data_to_json (data->run);
  JsonObject *o = json_node_get_object (node);
  const DsSustainAnalysis *a = &data->analysis;
  JsonArray *dips = json_array_new ();
  JsonObject *rule = json_object_new ();

  json_object_set_boolean_member (o, "random", data->random);
  json_object_set_int_member (o, "region_bytes", (gint64) data->region_bytes);
  json_object_set_double_member (o, "start_bytes_per_s", a->start_bytes_per_s);
  set_double_or_null (o, "cliff_bytes", a->cliff_found, a->cliff_bytes);
  set_double_or_null (o, "cliff_t_s", a->cliff_found, a->cliff_t_s);
  json_object_set_double_member (o, "floor_bytes_per_s", a->floor_bytes_per_s);
  for (guint i = 0; a->dips != NULL && i < a->dips->len; i++)
    {
      const DsSustainDip *dip = &g_array_index (a->dips, DsSustainDip, i);
      JsonObject *d = json_object_new ();

      json_object_set_double_member (d, "t_s", dip->t_s);
      json_object_set_double_member (d, "depth_ratio", dip->depth_ratio);
      json_array_add_object_element (dips, d);
    }
  json_object_set_array_member (o, "dips", dips);
  set_double_or_null (o, "dip_period_s", a->dip_period_s > 0, a->dip_period_s);
  json_object_set_double_member (rule, "start_fraction", DS_SUSTAIN_START_FRACTION);
  json_object_set_double_member (rule, "cliff_fraction", DS_SUSTAIN_CLIFF_FRACTION);
  json_object_set_double_member (rule, "dip_fraction", DS_SUSTAIN_DIP_FRACTION);
  json_object_set_object_member (o, "rule", rule);
  if (data->has_recovery)
    {
      JsonObject *r = json_object_new ();

      json_object_set_double_member (r, "pause_s", data->recovery.pause_s);
      json_object_set_int_member (r, "bytes", (gint64) data->recovery.bytes);
      json_object_set_double_member (r, "runtime_s", data->recovery.runtime_s);
      json_object_set_double_member (r, "bytes_per_s", data->recovery.bytes_per_s);
      json_object_set_double_member (r, "ratio", a->start_bytes_per_s > 0 ?
                                     data->recovery.bytes_per_s / a->start_bytes_per_s : 0);
      json_object_set_object_member (o, "recovery", r);
    }
  else
    {
      json_object_set_null_member (o, "recovery");
    }

  return node;
}

DsSustainData *
ds_sustain_data_from_json (JsonObject  *o,
                           GError     **error)
{
  g_autoptr (GError) local = NULL;
  DsSustainData *data = ds_sustain_data_new ();
  JsonNode *recovery;

  g_clear_pointer (&data->run, ds_workload_data_free);
  data->run = ds_workload_data_from_json (o, "results", &local);
  if (data->run == NULL ||
      !ds_json_get_bool (o, "results", "random", &data->random, &local) ||
      !ds_json_get_uint64 (o, "results", "region_bytes", G_MAXINT64, &data->region_bytes, &local))
    goto fail;

  /* The analysis is derived from the series: recomputed by the rule, so a
   * loaded result says what a fresh one says (and a file cannot claim a
   * cliff its series does not show). */
  if (data->run->series != NULL)
    ds_sustain_analyse ((const DsIntervalPoint *) data->run->series->data,
                        data->run->series->len, &data->analysis);

  recovery = json_object_get_member (o, "recovery");
  if (recovery == NULL)
    {
      g_set_error (&local, DS_ERROR, DS_ERROR_CORRUPT, _("results.recovery is missing"));
      goto fail;
    }
  if (!JSON_NODE_HOLDS_NULL (recovery))
    {
      JsonObject *r = ds_json_get_object (o, "results", "recovery", &local);

      if (r == NULL ||
          !ds_json_get_double (r, "results.recovery", "pause_s", 0, MAX_SECONDS, &data->recovery.pause_s, &local) ||
          !ds_json_get_uint64 (r, "results.recovery", "bytes", G_MAXINT64, &data->recovery.bytes, &local) ||
          !ds_json_get_double (r, "results.recovery", "runtime_s", 0, MAX_SECONDS, &data->recovery.runtime_s, &local) ||
          !ds_json_get_double (r, "results.recovery", "bytes_per_s", 0, MAX_BYTES_PER_S, &data->recovery.bytes_per_s, &local))
        goto fail;
      data->has_recovery = TRUE;
    }

  return data;

fail:
  ds_sustain_data_free (data);
  g_propagate_error (error, g_steal_pointer (&local));
  return NULL;
}
