/* ds-erase-json.c: the erase kind's "results" object, and its strict
 * inverse
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "ds-bench-erase.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-result-json.h"

#define MAX_RANGES 10000u

DsEraseData *
ds_erase_data_new (void)
{
  DsEraseData *data = g_new0 (DsEraseData, 1);

  ds_range_list_init (&data->write_errors, MAX_RANGES);
  ds_range_list_init (&data->mismatches, MAX_RANGES);
  ds_range_list_init (&data->survived, MAX_RANGES);

  return data;
}

void
ds_erase_data_free (DsEraseData *data)
{
  if (data == NULL)
    return;
  ds_range_list_clear (&data->write_errors);
  ds_range_list_clear (&data->mismatches);
  ds_range_list_clear (&data->survived);
  g_free (data);
}

JsonNode *
ds_erase_data_to_json (const DsEraseData *data)
{
  JsonObject *o = json_object_new ();
  JsonNode *node = ds_json_node_take_object (o);

  json_object_set_string_member (o, "method", ds_erase_method_to_string (data->method));
  json_object_set_boolean_member (o, "verify", data->verify);
  if (data->verify && data->bytes_verified == data->size_bytes && data->size_bytes > 0)
    json_object_set_boolean_member (o, "verified", data->verified);
  else
    json_object_set_null_member (o, "verified");
  json_object_set_int_member (o, "size_bytes", (gint64) data->size_bytes);
  json_object_set_int_member (o, "block_bytes", (gint64) data->block_bytes);
  json_object_set_int_member (o, "bytes_done", (gint64) data->bytes_done);
  json_object_set_int_member (o, "reached_bytes", (gint64) data->reached_bytes);
  json_object_set_double_member (o, "elapsed_s", (double) data->erase_ns / 1e9);
  json_object_set_double_member (o, "bytes_per_s", data->erase_ns ? (double) data->bytes_done * 1e9 /
                                                                    (double) data->erase_ns : 0);
  json_object_set_int_member (o, "bytes_verified", (gint64) data->bytes_verified);
  json_object_set_double_member (o, "verify_elapsed_s", (double) data->verify_ns / 1e9);
  json_object_set_member (o, "write_errors", ds_range_list_to_json (&data->write_errors));
  json_object_set_member (o, "mismatches", ds_range_list_to_json (&data->mismatches));
  json_object_set_member (o, "survived", ds_range_list_to_json (&data->survived));

  return node;
}

static gboolean
get_ranges (JsonObject   *o,
            const char   *member,
            DsRangeList  *list,
            uint64_t      limit_bytes,
            gboolean      optional,
            GError      **error)
{
  g_autofree char *where = g_strconcat ("results.", member, NULL);
  JsonArray *ranges;

  if (optional && !json_object_has_member (o, member))
    return TRUE;
  ranges = ds_json_get_array (o, "results", member, error);

  return ranges != NULL && ds_range_list_from_json (list, ranges, where, limit_bytes, error);
}

static gboolean
get_verified (JsonObject   *o,
              DsEraseData  *data,
              GError      **error)
{
  JsonNode *verified = json_object_get_member (o, "verified");

  if (verified == NULL || (!JSON_NODE_HOLDS_NULL (verified) &&
                           (!JSON_NODE_HOLDS_VALUE (verified) ||
                            json_node_get_value_type (verified) != G_TYPE_BOOLEAN)))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.verified is not true, false or null"));
      return FALSE;
    }
  data->verified = JSON_NODE_HOLDS_VALUE (verified) && json_node_get_boolean (verified);
  /* Not asked where the file does not say; but what it says is a boolean. */
  data->verify = FALSE;

  return !json_object_has_member (o, "verify") ||
         ds_json_get_bool (o, "results", "verify", &data->verify, error);
}

/* How far the erase got (reached_bytes).  A file from before that member
 * has the bytes done and those that failed instead, which the erase went
 * through in order from byte 0. */
static gboolean
get_reached (JsonObject   *o,
             DsEraseData  *data,
             GError      **error)
{
  if (!json_object_has_member (o, "reached_bytes"))
    {
      data->reached_bytes = MIN (data->bytes_done + data->write_errors.total_bytes, data->size_bytes);
      return TRUE;
    }
  if (!ds_json_get_uint64 (o, "results", "reached_bytes", data->size_bytes, &data->reached_bytes, error))
    return FALSE;
  if (data->reached_bytes < data->bytes_done)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("results.reached_bytes (%" PRIu64 ") is less than "
                   "results.bytes_done (%" PRIu64 ")"),
                   data->reached_bytes, data->bytes_done);
      return FALSE;
    }

  return TRUE;
}

DsEraseData *
ds_erase_data_from_json (JsonObject  *o,
                         GError     **error)
{
  DsEraseData *data = ds_erase_data_new ();
  const char *w = "results";
  const char *method;
  double d;

  method = ds_json_get_string (o, w, "method", FALSE, error);
  if (method == NULL)
    goto fail;
  if (!ds_erase_method_from_string (method, &data->method))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("results.method “%s” is unknown"), method);
      goto fail;
    }
  if (!get_verified (o, data, error))
    goto fail;
  if (!ds_json_get_uint64 (o, w, "size_bytes", G_MAXINT64, &data->size_bytes, error) ||
      !ds_json_get_uint64 (o, w, "block_bytes", DS_LIMIT_ERASE_BLOCK_MAX, &data->block_bytes, error) ||
      !ds_json_get_uint64 (o, w, "bytes_done", data->size_bytes, &data->bytes_done, error) ||
      !ds_json_get_uint64 (o, w, "bytes_verified", data->size_bytes, &data->bytes_verified, error) ||
      !ds_json_get_double (o, w, "elapsed_s", 0, 1e9, &d, error))
    goto fail;
  data->erase_ns = ds_json_seconds_to_ns (d);
  if (!ds_json_get_double (o, w, "verify_elapsed_s", 0, 1e9, &d, error))
    goto fail;
  data->verify_ns = ds_json_seconds_to_ns (d);
  if (!get_ranges (o, "write_errors", &data->write_errors, data->size_bytes, FALSE, error) ||
      !get_ranges (o, "mismatches", &data->mismatches, data->size_bytes, FALSE, error) ||
      !get_ranges (o, "survived", &data->survived, data->size_bytes, TRUE, error) ||
      !get_reached (o, data, error))
    goto fail;

  return data;

fail:
  ds_erase_data_free (data);
  return NULL;
}
