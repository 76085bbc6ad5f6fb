/* ds-error-scan-compare.c: Error Scan results side by side: the latency
 * buckets, the errors, and each bad range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each bad range is a row of its own, keyed by where it starts: the same
 * drive scanned twice shows in the later column the ranges the earlier
 * one did not have ("–" there), and the ranges that grew by their size.
 */
#include "config.h"

#include <math.h>

#include "ds-bench-error-scan.h"
#include "ds-figures.h"
#include "ds-result.h"
#include "ds-units.h"

/* Rows of bad ranges past this many are left to the reports. */
#define MAX_RANGE_ROWS 64

static const char *const bucket_names[DS_SCAN_N_BUCKETS] = {
  "< 5 ms", "< 20 ms", "< 50 ms", "< 150 ms", "< 500 ms", "≥ 500 ms",
};
static const char *const bucket_keys[DS_SCAN_N_BUCKETS] = {
  "lt_5ms", "lt_20ms", "lt_50ms", "lt_150ms", "lt_500ms", "ge_500ms",
};

void
ds_error_scan_compare_rows (const DsResult *result,
                            DsFigures      *f)
{
  const DsScanData *data = result->data;
  double rate = data->elapsed_ns > 0 ? (double) data->bytes_read / ((double) data->elapsed_ns / 1e9) : NAN;
  guint n_bad = data->bad.ranges != NULL ? data->bad.ranges->len : 0;

  ds_figures_add (f, "blocks_read", "Error Scan", "Blocks read", "", DS_COMPARE_COUNT, TRUE,
                  (double) data->blocks_read);
  ds_figures_add (f, "error_blocks", "Error Scan", "Damaged blocks", "", DS_COMPARE_COUNT, FALSE,
                  (double) data->error_blocks);
  ds_figures_add (f, "bad_ranges", "Error Scan", "Bad ranges", "", DS_COMPARE_COUNT, FALSE, (double) n_bad);
  ds_figures_add (f, "bad_bytes", "Error Scan", "Bad bytes", "", DS_COMPARE_BYTES, FALSE,
                  (double) data->bad.total_bytes);
  ds_figures_add (f, "rate", "Error Scan", "Read rate", "", DS_COMPARE_RATE, TRUE, rate);
  ds_figures_add (f, "max_latency", "Error Scan", "Slowest block", "", DS_COMPARE_TIME, FALSE,
                  data->blocks_read > 0 ? (double) data->max_latency_ns / 1e9 : NAN);

  for (guint i = 0; i < DS_SCAN_N_BUCKETS; i++)
    {
      g_autofree char *key = g_strdup_printf ("bucket.%s", bucket_keys[i]);

      /* More blocks in the fastest bucket is better, in the others worse. */
      ds_figures_add (f, key, "Error Scan, blocks by read time", bucket_names[i], "blocks",
                      DS_COMPARE_COUNT, i == 0, (double) data->buckets[i]);
    }

  for (guint i = 0; i < n_bad && i < MAX_RANGE_ROWS; i++)
    {
      const DsByteRange *r = &g_array_index (data->bad.ranges, DsByteRange, i);
      g_autofree char *key = g_strdup_printf ("bad.%" G_GUINT64_FORMAT, r->offset_bytes);
      g_autofree char *name = g_strdup_printf ("at byte %" G_GUINT64_FORMAT, r->offset_bytes);

      ds_figures_add (f, key, "Error Scan, bad ranges (a range only one scan has is new)", name,
                      "bytes", DS_COMPARE_BYTES, FALSE, (double) r->length_bytes);
    }
  if (n_bad > MAX_RANGE_ROWS || data->bad.truncated)
    ds_figures_note (f, "more bad ranges than the comparison lists: see its report");
}
