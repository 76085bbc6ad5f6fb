/* ds-test-library.h: results of given figures, for the library, compare and fio tests (no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* A complete read benchmark of @model over @size_bytes: 200 points rising
 * linearly from @min_rate to @max_rate (bytes/s) across the capacity, 50
 * access dots of @access_s, started at @started_at (ISO 8601, UTC). */
DsResult *ds_test_library_transfer (const char *model,
                                    uint64_t    size_bytes,
                                    double      min_rate,
                                    double      max_rate,
                                    double      access_s,
                                    const char *started_at);

/* A complete workload of @pattern with the read (and/or write) figures
 * given (bandwidth in bytes/s, IOPS = bandwidth / 4096, latencies from
 * @lat_mean_s). */
DsResult *ds_test_library_workload (const char *model,
                                    DsPattern   pattern,
                                    double      bytes_per_s,
                                    double      lat_mean_s,
                                    const char *started_at);

G_END_DECLS
