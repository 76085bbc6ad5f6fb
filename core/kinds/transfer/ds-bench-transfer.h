/* ds-bench-transfer.h: HD Tune's Benchmark tab (command "benchmark")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct {
  uint64_t offset_bytes;
  double   bytes_per_s;     /* 0 for a failed point */
  int      error;           /* errno if the point failed, else 0 */
} DsTransferPoint;

typedef struct {
  uint64_t offset_bytes;
  uint64_t access_ns;
} DsAccessPoint;

typedef struct {
  gboolean present;          /* this direction was run */
  GArray  *points;           /* DsTransferPoint, in order of offset */
  GArray  *access;           /* DsAccessPoint: every access-time read */
  double   min_bytes_per_s;  /* over the points that did not fail; */
  double   max_bytes_per_s;  /* all three < 0 until a point finished */
  double   avg_bytes_per_s;  /* total bytes / total time of all points */
  double   access_time_s;    /* mean; < 0 if not measured */
  double   burst_bytes_per_s;/* < 0 if not measured */
  double   cpu_percent;      /* of one core, during the scan; < 0 unknown */
} DsTransferDir;

typedef struct {
  uint64_t      span_bytes;  /* tested capacity */
  uint64_t      block_bytes;
  DsTransferDir read;
  DsTransferDir write;
} DsTransferData;

typedef struct _DsRun DsRun;
typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* Access time: at most this many random I/Os per accuracy step, and at
 * most this many point budgets of time; the burst rate this many. */
#define DS_TRANSFER_ACCESS_IOS_BASE      250
#define DS_TRANSFER_ACCESS_BUDGET_POINTS 8
#define DS_TRANSFER_BURST_BUDGET_POINTS  2

/* The transfer-rate bands a comparison shows: this many equal slices of
 * the tested capacity. */
#define DS_TRANSFER_COMPARE_BANDS 5

/* The kind's comparison (ds-transfer-compare.c) and fio job
 * (ds-transfer-fio.c): DsBenchOps hooks. */
uint64_t ds_transfer_compare_span   (const DsResult *result);
void     ds_transfer_compare_rows   (const DsResult *result,
                                     DsFigures      *figures);
void     ds_transfer_compare_curves (const DsResult *result,
                                     DsCurves       *curves);
gboolean ds_transfer_fio_job        (const DsResult *result,
                                     DsFioJobFile   *job,
                                     GError        **error);

/* The kind's run() (ds-bench-transfer-run.c); callers use ds_run(). */
gboolean ds_transfer_run (DsRun   *run,
                     GError **error);

G_END_DECLS
