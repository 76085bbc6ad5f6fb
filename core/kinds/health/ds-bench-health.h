/* ds-bench-health.h: SMART health as a result (kind "health")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds_run() with a DS_BENCH_HEALTH spec runs `smartctl --json --xall` on
 * spec->target_path (ds-smartctl.h) and keeps the parsed, judged health.
 * The result's JSON carries the verdict and figures for scripts and
 * smartctl's whole output ("smartctl_output"), from which a loaded result
 * is parsed and judged again.
 */
#pragma once

#include <glib.h>

#include "ds-health.h"
#include "ds-result.h"
#include "ds-units.h"

G_BEGIN_DECLS

typedef struct {
  DsHealth *health;   /* NULL until read */
} DsHealthData;

/* A complete health result from a saved `smartctl --json` output (what
 * `diskscope-cli health --from-json` and the app's Open show). */
DsResult *ds_health_result_from_file (const char  *path,
                                      GError     **error);

/* ds-health-report.c: the report of a health result (its ops' .report). */
void      ds_health_report           (const DsResult *result,
                                      DsUnits         units,
                                      GString        *out);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-health-compare.c) and fio job (ds-health-fio.c):
 * DsBenchOps hooks. */
void     ds_health_compare_rows   (const DsResult *result,
                                   DsFigures      *figures);
char    *ds_health_compare_identity (const DsResult *result);
gboolean ds_health_fio_job        (const DsResult *result,
                                   DsFioJobFile   *job,
                                   GError        **error);

G_END_DECLS
