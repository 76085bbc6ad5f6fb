/* ds-test-kind.h: what a kind's hooks give, written down for exact
 * comparison (tests/test-kind-*.c): a DsFigures and DsCurves sink that
 * keeps each row, note and curve as one line of text, and checks of lists,
 * lines, fio jobs and JSON objects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header only (static inline): each test program that includes it gets
 * its own copy, and the test library's build is left as it is.
 */
#pragma once

#include <check.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ds-figures.h"
#include "ds-bench.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-result.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

G_BEGIN_DECLS

typedef struct {
  DsFigures  figures;      /* first: the callbacks get a DsTestSink * */
  DsCurves   curves;
  GPtrArray *rows;         /* "[section]" where it changes, then its rows
                            * "key|name|measure|unit|+ or -|value" */
  GPtrArray *notes;
  GPtrArray *curve_lines;  /* "key|title|x|x unit|x log|y|y unit|dots|mark label|(x,y) ..." */
  char      *section;      /* the last row's "[section]" */
} DsTestSink;

static const char *const ds_test_unit_names[] = {
  "rate", "iops", "time", "percent", "count", "bytes", "ratio",
};

/* "-" for not a number (an empty cell, a gap), else 9 digits. */
static inline char *
ds_test_number (double v)
{
  return isnan (v) ? g_strdup ("-") : g_strdup_printf ("%.9g", v);
}

static inline void
ds_test_sink_add (DsFigures     *figures,
                  const char    *key,
                  const char    *section,
                  const char    *name,
                  const char    *measure,
                  DsCompareUnit  unit,
                  gboolean       higher_is_better,
                  double         value)
{
  DsTestSink *sink = (DsTestSink *) figures;
  g_autofree char *v = ds_test_number (value);
  g_autofree char *head = g_strdup_printf ("[%s]", section);

  if (g_strcmp0 (sink->section, head) != 0)
    {
      g_ptr_array_add (sink->rows, g_strdup (head));
      g_free (sink->section);
      sink->section = g_steal_pointer (&head);
    }
  g_ptr_array_add (sink->rows, g_strdup_printf ("%s|%s|%s|%s|%s|%s", key, name,
                                                measure != NULL ? measure : "(null)",
                                                ds_test_unit_names[unit], higher_is_better ? "+" : "-", v));
}

static inline void
ds_test_sink_note (DsFigures  *figures,
                   const char *text)
{
  g_ptr_array_add (((DsTestSink *) figures)->notes, g_strdup (text));
}

static inline void
ds_test_sink_curve (DsCurves          *curves,
                    const DsCurveAxes *axes,
                    const DsCurveXY   *points,
                    guint              n,
                    double             mark_x,
                    const char        *mark_label)
{
  DsTestSink *sink = (DsTestSink *) (gpointer) ((char *) curves - G_STRUCT_OFFSET (DsTestSink, curves));
  g_autofree char *mark = ds_test_number (mark_x);
  GString *s = g_string_new (NULL);

  g_string_printf (s, "%s|%s|%s|%s|%d|%s|%s|%d|%s %s|", axes->key, axes->title, axes->x_name,
                   ds_test_unit_names[axes->x_unit], axes->x_log, axes->y_name,
                   ds_test_unit_names[axes->y_unit], axes->dots, mark,
                   mark_label != NULL ? mark_label : "(null)");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x = ds_test_number (points[i].x);
      g_autofree char *y = ds_test_number (points[i].y);

      g_string_append_printf (s, "%s(%s,%s)", i > 0 ? " " : "", x, y);
    }
  g_ptr_array_add (sink->curve_lines, g_string_free (s, FALSE));
}

static inline void
ds_test_sink_init (DsTestSink *sink)
{
  sink->figures = (DsFigures) { ds_test_sink_add, ds_test_sink_note };
  sink->curves = (DsCurves) { ds_test_sink_curve };
  sink->rows = g_ptr_array_new_with_free_func (g_free);
  sink->notes = g_ptr_array_new_with_free_func (g_free);
  sink->curve_lines = g_ptr_array_new_with_free_func (g_free);
  sink->section = NULL;
}

static inline void
ds_test_sink_clear (DsTestSink *sink)
{
  g_clear_pointer (&sink->rows, g_ptr_array_unref);
  g_clear_pointer (&sink->notes, g_ptr_array_unref);
  g_clear_pointer (&sink->curve_lines, g_ptr_array_unref);
  g_clear_pointer (&sink->section, g_free);
}

/* @got (strings) is @want (NULL-terminated), item by item. */
static inline void
ds_test_assert_list (GPtrArray         *got,
                     const char *const *want)
{
  guint i;

  for (i = 0; want[i] != NULL && i < got->len; i++)
    ck_assert_msg (strcmp (got->pdata[i], want[i]) == 0, "item %u: got “%s”, want “%s”", i,
                   (char *) got->pdata[i], want[i]);
  ck_assert_msg (want[i] == NULL && i == got->len, "item %u: got “%s”, want “%s”", i,
                 i < got->len ? (char *) got->pdata[i] : "(end)", want[i] ? want[i] : "(end)");
}

/* @text is @want, line by line (a final "\n" is a last empty line). */
static inline void
ds_test_assert_lines (const char        *text,
                      const char *const *want)
{
  g_auto (GStrv) got = g_strsplit (text, "\n", -1);
  guint i;

  for (i = 0; want[i] != NULL && got[i] != NULL; i++)
    ck_assert_msg (strcmp (got[i], want[i]) == 0, "line %u: got “%s”, want “%s”\n%s", i + 1, got[i],
                   want[i], text);
  ck_assert_msg (want[i] == NULL && got[i] == NULL, "line %u: got “%s”, want “%s”\n%s", i + 1,
                 got[i] ? got[i] : "(end)", want[i] ? want[i] : "(end)", text);
}

/* The job exported from @r for its own target (failing the test if
 * refused). */
static inline char *
ds_test_job_of (const DsResult *r)
{
  g_autoptr (GError) error = NULL;
  char *job = ds_fio_job_from_result (r, NULL, &error);

  ck_assert_msg (job != NULL, "%s", error->message);
  return job;
}

/* The lines of @text that start with @prefix, joined by spaces. */
static inline char *
ds_test_lines_with (const char *text,
                    const char *prefix)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *s = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      g_string_append_printf (s, "%s%s", s->len > 0 ? " " : "", lines[i]);
  return g_string_free (s, FALSE);
}

/* How many lines of @text are @line. */
static inline guint
ds_test_count_lines (const char *text,
                     const char *line)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strcmp (lines[i], line) == 0;
  return n;
}

#define DS_TEST_ASSERT_COUNT(text, line, n) \
  ck_assert_msg (ds_test_count_lines ((text), (line)) == (n), "not %u × “%s” in\n%s", (guint) (n), (line), (text))

#define DS_TEST_ASSERT_LINES_WITH(text, prefix, want) \
  G_STMT_START { \
    g_autofree char *got_ = ds_test_lines_with ((text), (prefix)); \
    ck_assert_msg (strcmp (got_, (want)) == 0, "%s: got “%s”, want “%s”\n%s", (prefix), got_, (want), \
                   (text)); \
  } G_STMT_END

/* @o's member names in order, joined by spaces. */
static inline char *
ds_test_member_names (JsonObject *o)
{
  g_autoptr (GList) names = json_object_get_members (o);
  GString *s = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s", s->len > 0 ? " " : "", (char *) l->data);
  return g_string_free (s, FALSE);
}

#define DS_TEST_ASSERT_MEMBERS(o, want) \
  G_STMT_START { \
    g_autofree char *got_ = ds_test_member_names (o); \
    ck_assert_str_eq (got_, (want)); \
  } G_STMT_END

/* @node (an object or any value) as compact JSON, members in order. */
#define DS_TEST_ASSERT_JSON(node, want) \
  G_STMT_START { \
    g_autofree char *got_ = json_to_string ((node), FALSE); \
    ck_assert_msg (strcmp (got_, (want)) == 0, "got  %s\nwant %s", got_, (want)); \
  } G_STMT_END

/* Member @name of @o as compact JSON. */
#define DS_TEST_ASSERT_MEMBER(o, name, want) \
  DS_TEST_ASSERT_JSON (json_object_get_member ((o), (name)), (want))

/* @r's run made the same each time (its job's header and seed): started
 * 2026-01-02T03:04:05Z on host "bench", seed 42, with @engine. */
static inline void
ds_test_fix_run (DsResult   *r,
                 const char *engine)
{
  g_free (r->started_at);
  r->started_at = g_strdup ("2026-01-02T03:04:05Z");
  g_free (r->hostname);
  r->hostname = g_strdup ("bench");
  g_free (r->engine);
  r->engine = g_strdup (engine);
  r->spec.seed = 42;
}

/* The "results" in @text read by @kind's from_json hook (the test fails
 * if @text is no JSON object). */
static inline gpointer
ds_test_read_results (DsBenchKind  kind,
                      const char  *text,
                      GError     **error)
{
  g_autoptr (GError) parse_error = NULL;
  g_autoptr (JsonNode) node = json_from_string (text, &parse_error);

  ck_assert_msg (node != NULL && JSON_NODE_HOLDS_OBJECT (node), "%s in %.300s",
                 parse_error ? parse_error->message : "not an object", text);
  return ds_bench_get (kind)->from_json (json_node_get_object (node), error);
}

/* One bad edit of a kind's "results": the first @from becomes @to, and
 * the file is refused with @says. */
typedef struct {
  const char *from;
  const char *to;
  const char *says;
} DsTestEdit;

/* Each of @edits made to @text (alone): refused by @kind's from_json,
 * DS_ERROR_CORRUPT, with the edit's message word for word. */
static inline void
ds_test_assert_edits_refused (DsBenchKind       kind,
                              const char       *text,
                              const DsTestEdit *edits,
                              guint             n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GString) bad = g_string_new (text);
      g_autoptr (GError) error = NULL;
      gpointer data;

      ck_assert_msg (strstr (text, edits[i].from) != NULL, "case %u: %.200s not in the text", i, edits[i].from);
      g_string_replace (bad, edits[i].from, edits[i].to, 1);
      data = ds_test_read_results (kind, bad->str, &error);
      if (data != NULL)
        ds_bench_get (kind)->data_free (data);
      ck_assert_msg (data == NULL, "case %u (%s) loaded", i, edits[i].says);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "case %u: %.200s", i, error->message);
      ck_assert_msg (strcmp (error->message, edits[i].says) == 0, "case %u: got “%.200s”, want “%.200s”", i,
                     error->message, edits[i].says);
    }
}

/* A workload's "results" (another kind's) given to @kind's from_json:
 * refused, DS_ERROR_CORRUPT, @says. */
static inline void
ds_test_assert_other_kind_refused (DsBenchKind  kind,
                                   const char  *says)
{
  g_autoptr (DsResult) w = ds_test_workload_result ();
  g_autoptr (JsonNode) other = ds_bench_get (DS_BENCH_WORKLOAD)->to_json (w);
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_null (ds_bench_get (kind)->from_json (json_node_get_object (other), &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, says);
}

/* A suite @name of one case, the @n tests given (START_TEST's names),
 * run as ds_test_run_suite() runs it. */
static inline int
ds_test_run_tests (const char        *name,
                   const TTest *const *tests,
                   guint              n)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create (name);

  for (guint i = 0; i < n; i++)
    tcase_add_test (tc, tests[i]);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}

G_END_DECLS
