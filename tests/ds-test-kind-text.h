/* ds-test-kind-text.h: what a kind gives a comparison and fio, as text,
 * for the tests of one kind (tests/test-kind-*.c)
 *
 * A kind's figures and curves through its table row into sinks that write
 * one line each, so a test states them word for word; its fio job through
 * its table row, and one section of it.  Header only (static inline): no
 * test needs to link more than it uses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <check.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-fio-job.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* How many times @what is in @text. */
static inline guint
ds_test_count (const char *text,
               const char *what)
{
  guint n = 0;

  for (const char *p = strstr (text, what); p != NULL; p = strstr (p + 1, what))
    n++;
  return n;
}

static inline const char *
ds_test_unit_name (DsCompareUnit unit)
{
  static const char *const names[] = { "rate", "iops", "time", "percent", "count", "bytes", "ratio" };

  return (unsigned) unit < G_N_ELEMENTS (names) ? names[unit] : "?";
}

typedef struct {
  DsFigures figures;
  GString  *out;
} DsTestFigSink;

typedef struct {
  DsCurves curves;
  GString *out;
} DsTestCurveSink;

/* One line a figure: "key|section|name|measure|unit|higher or lower|value". */
static inline void
ds_test_fig_add (DsFigures     *figures,
                 const char    *key,
                 const char    *section,
                 const char    *name,
                 const char    *measure,
                 DsCompareUnit  unit,
                 gboolean       higher_is_better,
                 double         value)
{
  g_string_append_printf (((DsTestFigSink *) figures)->out, "%s|%s|%s|%s|%s|%s|%.15g\n", key, section,
                          name, measure ? measure : "(null)", ds_test_unit_name (unit),
                          higher_is_better ? "higher" : "lower", value);
}

/* One line a curve: "key|title|x-name x-unit[ log]|y-name y-unit|line or
 * dots|mark-x mark-label:" then its points " x:y". */
static inline void
ds_test_curve_add (DsCurves          *curves,
                   const DsCurveAxes *a,
                   const DsCurveXY   *points,
                   guint              n,
                   double             mark_x,
                   const char        *mark_label)
{
  GString *out = ((DsTestCurveSink *) curves)->out;

  g_string_append_printf (out, "%s|%s|%s %s%s|%s %s|%s|%g %s:", a->key, a->title, a->x_name,
                          ds_test_unit_name (a->x_unit), a->x_log ? " log" : "", a->y_name,
                          ds_test_unit_name (a->y_unit), a->dots ? "dots" : "line", mark_x,
                          mark_label ? mark_label : "-");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, " %g:%g", points[i].x, points[i].y);
  g_string_append_c (out, '\n');
}

/* What @result's kind gives a comparison, through its table row: its
 * figures, or (when @curves) its curves, a line each. */
static inline char *
ds_test_compare_text (const DsResult *result,
                      gboolean        curves)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  DsTestFigSink figs = { { ds_test_fig_add, NULL }, g_string_new (NULL) };
  DsTestCurveSink lines = { { ds_test_curve_add }, figs.out };

  if (curves && ops->compare_curves != NULL)
    ops->compare_curves (result, &lines.curves);
  else if (!curves)
    ops->compare_rows (result, &figs.figures);
  return g_string_free (figs.out, FALSE);
}

/* @got equals @want, line by line, a failure naming the first line that
 * differs (on one line, for the TAP stream). */
static inline void
ds_test_assert_text (const char *got,
                     const char *want)
{
  g_auto (GStrv) g = g_strsplit (got, "\n", -1);
  g_auto (GStrv) w = g_strsplit (want, "\n", -1);
  guint i;

  for (i = 0; g[i] != NULL && w[i] != NULL; i++)
    ck_assert_msg (strcmp (g[i], w[i]) == 0, "line %u: “%s”, want “%s”", i + 1, g[i], w[i]);
  ck_assert_msg (g[i] == NULL && w[i] == NULL, "line %u: “%s”, want “%s”", i + 1,
                 g[i] ? g[i] : "(end)", w[i] ? w[i] : "(end)");
}

/* @result's fio job for the file "/dev/sdz", through its kind's table
 * row, which must not refuse it. */
static inline char *
ds_test_fio_job_text (const DsResult *result)
{
  GString *out = g_string_new (NULL);
  DsFioJobFile job = { out, "/dev/sdz" };
  GError *error = NULL;
  gboolean ok = ds_bench_get (result->kind)->fio_job (result, &job, &error);

  ck_assert_msg (ok && error == NULL, "%s", error ? error->message : "refused");
  return g_string_free (out, FALSE);
}

/* Section [@name] of @job, up to the next one, equals @want. */
static inline void
ds_test_assert_fio_section (const char *job,
                            const char *name,
                            const char *want)
{
  g_autofree char *head = g_strdup_printf ("\n[%s]\n", name);
  const char *start = strstr (job, head);
  const char *end;
  g_autofree char *got = NULL;
  g_autofree char *got_e = NULL;
  g_autofree char *want_e = NULL;

  ck_assert_msg (start != NULL, "no [%s]", name);
  start += strlen (head);
  end = strstr (start, "\n[");
  got = end ? g_strndup (start, end - start) : g_strdup (start);
  got_e = g_strescape (got, NULL);
  want_e = g_strescape (want, NULL);
  ck_assert_msg (strcmp (got, want) == 0, "[%s]: “%s”, want “%s”", name, got_e, want_e);
}

G_END_DECLS
