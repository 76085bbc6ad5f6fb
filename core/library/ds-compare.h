/* ds-compare.h: results of one kind side by side, with ratios
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A comparison is a table: one column per result (A, B, C, ...) and one row
 * per figure the kind reports (the Benchmark tab's minimum, maximum,
 * average, access time and burst rate; each Extra Tests row's IOPS, access
 * time and rate; ...), plus a ratio of every column to the first (B/A,
 * C/A).  Each row knows whether higher or lower is better and which column
 * is best, so a page renders it as columns + a ratio column with the better
 * value marked, and the CLI prints it as text, CSV, Markdown or JSON
 * (ds-compare-format.h).  Transfer curves come out on a common x-axis:
 * bytes when the tested capacities match, else the fraction of each
 * result's capacity (ds_comparison_get_curve()).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-figures.h"
#include "ds-result.h"
#include "ds-units.h"

G_BEGIN_DECLS

/* DsCompareUnit: ds-figures.h (the kinds fill a comparison through it). */

typedef struct {
  char          *key;        /* stable, for scripts: "read.transfer_min" */
  char          *section;    /* "Read transfer rate", "Extra Tests, read" */
  char          *name;       /* "Transfer Rate Minimum", "Random seek 4 KB" */
  char          *measure;    /* "IOPS", "access time", "rate"; "" if the
                              * name says it */
  DsCompareUnit  unit;
  gboolean       higher_is_better;
  double        *values;     /* one per column; NAN: not measured there */
  int            best;       /* the column with the better value; -1 when
                              * fewer than two values or a tie */
} DsCompareRow;

typedef struct {
  char            letter;      /* 'A', 'B', ... */
  char           *label;       /* the result's label (its own or default) */
  char           *source;      /* what it came from: a library id or a path */
  char           *description; /* "Loop device (1.1 GB), read, 64 KB blocks,
                                * 2026-11-30 12:08 on host" */
  const DsResult *result;      /* borrowed: must outlive the comparison */
} DsCompareColumn;

typedef struct {
  double x;            /* bytes from the start, or 0..1 of the capacity */
  double bytes_per_s;  /* NAN for a failed point */
} DsCurvePoint;

typedef struct {
  double x;            /* as DsCurvePoint */
  double access_s;
} DsAccessDot;

/* One curve key of the kind (DsBenchOps.compare_curves), every column's
 * on one pair of axes. */
typedef struct {
  char          *key;        /* "iops", "read", "read.access" */
  char          *title;
  char          *x_name;
  char          *y_name;
  DsCompareUnit  x_unit;
  DsCompareUnit  y_unit;
  gboolean       x_log;
  gboolean       dots;
  GArray       **points;     /* per column: DsCurveXY; NULL when the
                              * column has no such curve */
  double        *mark_x;     /* per column; NAN: no mark */
  char         **mark_label; /* per column; NULL: no mark */
} DsCompareCurve;

typedef struct {
  DsBenchKind  kind;
  GPtrArray   *columns;    /* DsCompareColumn * */
  GPtrArray   *rows;       /* DsCompareRow *, in the kind's order */
  GPtrArray   *notes;      /* char *: what to keep in mind (different
                            * capacities, profiles, partial runs, ...) */
  gboolean     x_percent;  /* transfer curves: the tested capacities
                            * differ, so x is the fraction of each */
  uint64_t     x_max_bytes;/* when !x_percent: the longest span */
  GPtrArray   *curves;     /* DsCompareCurve *, in the kind's order */
  GPtrArray   *warnings;   /* char *: each result's warnings, "B: sentence"
                            * (a fooled figure beside a true one) */
} DsComparison;

#define DS_COMPARE_MAX_COLUMNS 26

/* Compares @n_results (2 to 26) results of one kind; @sources names each
 * (for the column headers and error messages; NULL: the target path).
 * DS_ERROR_INVALID naming the sources when the kinds differ, or when
 * their curves of one key are drawn against different axes (a sweep over
 * threads and one over queue depth). */
DsComparison *ds_comparison_new   (DsResult *const   *results,
                                   const char *const *sources,
                                   guint              n_results,
                                   GError           **error);
void          ds_comparison_free  (DsComparison      *comparison);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsComparison, ds_comparison_free)

guint         ds_comparison_get_n_columns (const DsComparison *comparison);
const DsCompareColumn *ds_comparison_get_column (const DsComparison *comparison,
                                                 guint               column);

/* values[@column] / values[0]; NAN when either is missing or the first is
 * zero. */
double        ds_compare_row_ratio (const DsCompareRow *row,
                                    guint               column);

/* The transfer curve (kind benchmark) of @column in one direction, on the
 * comparison's x-axis: DsCurvePoint in *@ret_points, the access-time dots in
 * *@ret_dots (either may be NULL).  FALSE when that direction was not run. */
gboolean      ds_comparison_get_curve (const DsComparison *comparison,
                                       guint               column,
                                       gboolean            write,
                                       GArray            **ret_points,
                                       GArray            **ret_dots);

/* The curve @key of the kind (every column's), or NULL. */
const DsCompareCurve *ds_comparison_find_curve (const DsComparison *comparison,
                                                const char         *key);

/* "153.9 MB/s", "5.940 ms", "198 IOPS", "0.1%"; "–" for NAN. */
char         *ds_compare_format_value (DsCompareUnit  unit,
                                       double         value,
                                       DsUnits        units);
/* "0.81", "33.7"; "–" for NAN. */
char         *ds_compare_format_ratio (double         ratio);

G_END_DECLS
