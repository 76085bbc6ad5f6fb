/* ds-ranges.c: sorted, merged lists of byte ranges
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-ranges.h"
#include "ds-result-json.h"

void
ds_range_list_init (DsRangeList *list,
                    guint        max_ranges)
{
  *list = (DsRangeList) {
    .ranges = g_array_new (FALSE, FALSE, sizeof (DsByteRange)),
    .max_ranges = max_ranges,
  };
}

void
ds_range_list_clear (DsRangeList *list)
{
  g_clear_pointer (&list->ranges, g_array_unref);
}

static inline uint64_t
range_end (const DsByteRange *r)
{
  return r->offset_bytes + r->length_bytes;
}

/* Index of the first range that ends at or after @offset (binary search). */
static guint
first_reaching (GArray   *ranges,
                uint64_t  offset)
{
  guint lo = 0;
  guint hi = ranges->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (range_end (&g_array_index (ranges, DsByteRange, mid)) < offset)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

void
ds_range_list_add (DsRangeList *list,
                   uint64_t     offset_bytes,
                   uint64_t     length_bytes)
{
  GArray *ranges = list->ranges;
  uint64_t start = offset_bytes;
  uint64_t end = offset_bytes + length_bytes;
  guint i;
  guint j;

  if (length_bytes == 0)
    return;

  /* Ranges i .. j-1 overlap or touch [start, end): fold them in. */
  i = first_reaching (ranges, start);
  for (j = i; j < ranges->len; j++)
    {
      const DsByteRange *r = &g_array_index (ranges, DsByteRange, j);

      if (r->offset_bytes > end)
        break;
      list->total_bytes -= r->length_bytes;
      start = MIN (start, r->offset_bytes);
      end = MAX (end, range_end (r));
    }

  if (j > i)
    {
      DsByteRange *r = &g_array_index (ranges, DsByteRange, i);

      r->offset_bytes = start;
      r->length_bytes = end - start;
      if (j > i + 1)
        g_array_remove_range (ranges, i + 1, j - i - 1);
      list->total_bytes += end - start;
      return;
    }

  list->total_bytes += end - start;
  if (ranges->len >= list->max_ranges)
    {
      list->truncated = TRUE;
      return;
    }
  {
    DsByteRange r = { .offset_bytes = start, .length_bytes = end - start };
    g_array_insert_val (ranges, i, r);
  }
}

JsonNode *
ds_range_list_to_json (const DsRangeList *list)
{
  JsonArray *array = json_array_sized_new (list->ranges->len);
  JsonNode *node = json_node_init_array (json_node_alloc (), array);

  for (guint i = 0; i < list->ranges->len; i++)
    {
      const DsByteRange *r = &g_array_index (list->ranges, DsByteRange, i);
      JsonObject *o = json_object_new ();

      json_object_set_int_member (o, "offset_bytes", (gint64) r->offset_bytes);
      json_object_set_int_member (o, "length_bytes", (gint64) r->length_bytes);
      json_array_add_object_element (array, o);
    }
  json_array_unref (array);

  return node;
}

gboolean
ds_range_list_from_json (DsRangeList *list,
                         JsonArray   *array,
                         const char  *where,
                         uint64_t     limit_bytes,
                         GError     **error)
{
  uint64_t previous_end = 0;

  if (json_array_get_length (array) > list->max_ranges)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s: more than %u ranges"), where, list->max_ranges);
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *rwhere = g_strdup_printf ("%s[%u]", where, i);
      JsonNode *node = json_array_get_element (array, i);
      DsByteRange r;

      if (!ds_json_check_object (node, rwhere, error) ||
          !ds_json_get_uint64 (json_node_get_object (node), rwhere, "offset_bytes",
                               limit_bytes, &r.offset_bytes, error) ||
          !ds_json_get_uint64 (json_node_get_object (node), rwhere, "length_bytes",
                               limit_bytes, &r.length_bytes, error))
        return FALSE;
      if (r.length_bytes == 0 || r.offset_bytes + r.length_bytes > limit_bytes ||
          (i > 0 && r.offset_bytes <= previous_end))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("%s is empty, out of order, overlaps the one before or "
                       "lies past the end"), rwhere);
          return FALSE;
        }
      previous_end = range_end (&r);
      g_array_append_val (list->ranges, r);
      list->total_bytes += r.length_bytes;
    }

  return TRUE;
}

void
ds_range_list_report (const DsRangeList *list,
                      guint              max_lines,
                      GString           *out)
{
  for (guint i = 0; i < list->ranges->len && i < max_lines; i++)
    {
      const DsByteRange *r = &g_array_index (list->ranges, DsByteRange, i);

      g_string_append_printf (out, "  at %.3f GB: offset %" G_GUINT64_FORMAT ", %"
                              G_GUINT64_FORMAT " bytes\n",
                              r->offset_bytes / 1e9, r->offset_bytes, r->length_bytes);
    }
  if (list->ranges->len > max_lines)
    g_string_append_printf (out, "  … and %u more (the JSON result lists them all)\n",
                            list->ranges->len - max_lines);
  if (list->truncated)
    g_string_append_printf (out, "  (only the first %u ranges were kept)\n", list->max_ranges);
}
