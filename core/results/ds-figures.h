/* ds-figures.h: what a kind gives a comparison: its figures and its curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kind's DsBenchOps.compare_rows hands its figures, one at a time, to a
 * DsFigures sink, and its compare_curves hands its curves to a DsCurves
 * sink.  The comparison (core/library/ds-compare.c) is the sink: it lines
 * the figures of several results up by key.  A kind only says what it
 * measured, in the order its report prints it, so this header knows
 * nothing of comparisons and the kinds need nothing above their layer.
 *
 * Keys are stable, for scripts reading `compare --json`: "DIRECTION.FIGURE"
 * plus a row's JSON name for table kinds ("read.transfer_min",
 * "rnd4k-q32t1.read.iops", "qd16.iops").
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct _DsResult DsResult;

typedef enum {
  DS_COMPARE_RATE,     /* bytes per second */
  DS_COMPARE_IOPS,     /* operations per second */
  DS_COMPARE_TIME,     /* seconds */
  DS_COMPARE_PERCENT,  /* CPU usage, of one core; a share */
  DS_COMPARE_COUNT,    /* a number of things (blocks, attributes' raw
                        * values, errors) */
  DS_COMPARE_BYTES,    /* a size */
  DS_COMPARE_RATIO,    /* a plain number (×1.9, 0.81) */
} DsCompareUnit;

typedef struct _DsFigures DsFigures;

struct _DsFigures {
  /* Sets the figure @key of the result being added.  A negative or
   * non-finite @value is "not measured" (an empty cell).  @measure: "IOPS",
   * "access time"; "" or NULL when @name says it. */
  void (*add) (DsFigures     *figures,
               const char    *key,
               const char    *section,
               const char    *name,
               const char    *measure,
               DsCompareUnit  unit,
               gboolean       higher_is_better,
               double         value);
  /* A sentence that goes with the result's figures (a verdict, a range
   * that is new): shown as the comparison's notes, "B: …". */
  void (*note) (DsFigures     *figures,
                const char    *text);
};

static inline void
ds_figures_add (DsFigures     *figures,
                const char    *key,
                const char    *section,
                const char    *name,
                const char    *measure,
                DsCompareUnit  unit,
                gboolean       higher_is_better,
                double         value)
{
  figures->add (figures, key, section, name, measure, unit, higher_is_better, value);
}

static inline void
ds_figures_note (DsFigures  *figures,
                 const char *text)
{
  if (figures->note != NULL)
    figures->note (figures, text);
}

/* One point of a curve; y NAN is a gap (a failed point). */
typedef struct {
  double x;
  double y;
} DsCurveXY;

/* What a curve is drawn against: results whose curves of one key have
 * different axes (a sweep over threads and one over queue depth) cannot
 * be overlaid, and the comparison refuses them saying so. */
typedef struct {
  const char    *key;        /* "iops", "read.rate" */
  const char    *title;      /* "IOPS against queue depth" */
  const char    *x_name;     /* "queue depth", "bytes written" */
  DsCompareUnit  x_unit;     /* DS_COMPARE_COUNT, DS_COMPARE_BYTES, ... */
  gboolean       x_log;      /* levels doubling: a log2 axis */
  const char    *y_name;     /* "IOPS", "p99 latency" */
  DsCompareUnit  y_unit;
  gboolean       dots;       /* points, not a line (access times) */
} DsCurveAxes;

typedef struct _DsCurves DsCurves;

struct _DsCurves {
  /* A curve of the result being added, @n points in x order; @mark_x (NAN:
   * none) is a point the kind marks on it (a knee, a cliff, an estimate),
   * named @mark_label. */
  void (*add) (DsCurves          *curves,
               const DsCurveAxes *axes,
               const DsCurveXY   *points,
               guint              n,
               double             mark_x,
               const char        *mark_label);
};

static inline void
ds_curves_add (DsCurves          *curves,
               const DsCurveAxes *axes,
               const DsCurveXY   *points,
               guint              n,
               double             mark_x,
               const char        *mark_label)
{
  curves->add (curves, axes, points, n, mark_x, mark_label);
}

/* The capacity a run tested: its --capacity, else the target's size (the
 * DsBenchOps.compare_span of the kinds whose figures depend on where on
 * the disk they were measured). */
uint64_t ds_figures_tested_span (const DsResult *result);

G_END_DECLS
