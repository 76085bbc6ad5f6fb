/* ds-random-access-points.h: a random access run's points in a result file
 *
 * The points are stored as parallel arrays of integers (row, offset_bytes,
 * transfer_bytes, access_ns: the access time as measured, in nanoseconds),
 * about a tenth of one object a point, so hundreds of saved runs stay small.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @points: DsRandomAccessPoint. */
JsonObject *ds_random_access_points_to_json   (GArray      *points);
/* Appends the points of @o (found at @where) to @points; DS_ERROR_CORRUPT
 * for arrays of different lengths, more points than a run keeps, or a
 * value that is not an integer in its range. */
gboolean    ds_random_access_points_from_json (JsonObject  *o,
                                               const char  *where,
                                               GArray      *points,
                                               GError     **error);

G_END_DECLS
