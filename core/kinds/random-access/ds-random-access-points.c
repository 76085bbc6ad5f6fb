/* ds-random-access-points.c: a random access run's points in a result file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "ds-bench-random-access.h"
#include "ds-error.h"
#include "ds-random-access-points.h"
#include "ds-result-json.h"

#define MAX_SECONDS 86400.0
#define MAX_POINTS  (DS_RANDOM_ACCESS_N_ROWS * DS_RANDOM_ACCESS_MAX_POINTS_PER_ROW)

/* The points as parallel arrays of integers, access times in nanoseconds
 * (what was measured): a tenth of the size of one object per point, so
 * hundreds of saved runs stay small.  Loading takes this and the older
 * array of objects. */
JsonObject *
ds_random_access_points_to_json (GArray *points)
{
  JsonObject *o = json_object_new ();
  JsonArray *row = json_array_sized_new (points->len);
  JsonArray *offset = json_array_sized_new (points->len);
  JsonArray *transfer = json_array_sized_new (points->len);
  JsonArray *access = json_array_sized_new (points->len);

  for (guint i = 0; i < points->len; i++)
    {
      const DsRandomAccessPoint *p = &g_array_index (points, DsRandomAccessPoint, i);

      json_array_add_int_element (row, p->row);
      json_array_add_int_element (offset, (gint64) p->offset_bytes);
      json_array_add_int_element (transfer, p->transfer_bytes);
      json_array_add_int_element (access, (gint64) llround (p->access_s * 1e9));
    }

  json_object_set_array_member (o, "row", row);
  json_object_set_array_member (o, "offset_bytes", offset);
  json_object_set_array_member (o, "transfer_bytes", transfer);
  json_object_set_array_member (o, "access_ns", access);

  return o;
}

/* Entry @i of @list, an integer from 0 to @max. */
static gboolean
get_uint_element (const DsJsonList  *list,
                  guint              i,
                  const char        *where,
                  const char        *name,
                  uint64_t           max,
                  uint64_t          *ret_value,
                  GError           **error)
{
  gint64 v;

  if (!ds_json_list_int (list, i, &v) || v < 0 || (uint64_t) v > max)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s", where, name);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s[%u] is not an integer from 0 to %llu"), path, i,
                   (unsigned long long) max);
      return FALSE;
    }

  *ret_value = (uint64_t) v;
  return TRUE;
}

gboolean
ds_random_access_points_from_json (JsonObject  *o,
                                   const char  *where,
                                   GArray      *points,
                                   GError     **error)
{
  static const char *const names[] = { "row", "offset_bytes", "transfer_bytes", "access_ns" };
  static const uint64_t max[] = {
    DS_RANDOM_ACCESS_N_ROWS - 1, G_MAXINT64, G_MAXUINT32, (uint64_t) (MAX_SECONDS * 1e9),
  };
  DsJsonList lists[G_N_ELEMENTS (names)];
  guint n = 0;

  for (unsigned k = 0; k < G_N_ELEMENTS (names); k++)
    {
      if (!ds_json_get_list (o, where, names[k], &lists[k], error))
        return FALSE;
      if (k == 0)
        n = ds_json_list_get_length (&lists[0]);
      else if (ds_json_list_get_length (&lists[k]) != n)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s.%s: %u values, %s has %u"),
                       where, names[k], ds_json_list_get_length (&lists[k]), names[0], n);
          return FALSE;
        }
    }
  if (n > MAX_POINTS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: %u points, more than the %u a run keeps"), where, n, MAX_POINTS);
      return FALSE;
    }

  g_array_set_size (points, points->len + n);
  for (guint i = 0; i < n; i++)
    {
      DsRandomAccessPoint *point = &g_array_index (points, DsRandomAccessPoint, points->len - n + i);
      uint64_t v[G_N_ELEMENTS (names)];

      for (unsigned k = 0; k < G_N_ELEMENTS (names); k++)
        if (!get_uint_element (&lists[k], i, where, names[k], max[k], &v[k], error))
          {
            g_array_set_size (points, points->len - n);
            return FALSE;
          }
      *point = (DsRandomAccessPoint) {
        .row = (uint32_t) v[0],
        .offset_bytes = v[1],
        .transfer_bytes = (uint32_t) v[2],
        .access_s = (double) v[3] / 1e9,
      };
    }

  return TRUE;
}
