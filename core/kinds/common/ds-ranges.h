/* ds-ranges.h: sorted, merged lists of byte ranges (bad blocks, failed
 * writes), bounded in length
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct {
  uint64_t offset_bytes;
  uint64_t length_bytes;
} DsByteRange;

typedef struct {
  GArray   *ranges;      /* DsByteRange: sorted, no two touch or overlap */
  guint     max_ranges;  /* beyond this many, new ranges are only counted */
  gboolean  truncated;   /* some ranges were dropped (max_ranges) */
  uint64_t  total_bytes; /* bytes in all ranges (exact while !truncated) */
} DsRangeList;

void     ds_range_list_init  (DsRangeList *list,
                              guint        max_ranges);
void     ds_range_list_clear (DsRangeList *list);
/* Adds [offset, offset + length): merged with any range it overlaps or
 * touches, so the list stays sorted and minimal. */
void     ds_range_list_add   (DsRangeList *list,
                              uint64_t     offset_bytes,
                              uint64_t     length_bytes);

/* [{offset_bytes, length_bytes}, ...] */
JsonNode *ds_range_list_to_json   (const DsRangeList *list);
/* Strict: sorted, not overlapping, inside [0, @limit_bytes]. */
gboolean  ds_range_list_from_json (DsRangeList *list,
                                   JsonArray   *array,
                                   const char  *where,
                                   uint64_t     limit_bytes,
                                   GError     **error);
/* "  1.234 GB  offset 1234567 + 4096 bytes" lines, at most @max_lines
 * (then "… and N more"). */
void      ds_range_list_report    (const DsRangeList *list,
                                   guint              max_lines,
                                   GString           *out);

G_END_DECLS
