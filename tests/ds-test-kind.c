/* ds-test-kind.c: what a kind's hooks give, written down for exact
 * comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-error.h"
#include "ds-fio.h"
#include "ds-test-kind.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

/* ---- the sink ---------------------------------------------------------- */

static const char *
unit_name (DsCompareUnit unit)
{
  static const char *const names[] = { "rate", "iops", "time", "percent", "count", "bytes", "ratio" };

  return (unsigned) unit < G_N_ELEMENTS (names) ? names[unit] : "?";
}

char *
ds_test_number (double v)
{
  return isnan (v) ? g_strdup ("-") : g_strdup_printf ("%.15g", v);
}

static DsTestSink *
sink_of_curves (DsCurves *curves)
{
  return (DsTestSink *) (gpointer) ((char *) curves - G_STRUCT_OFFSET (DsTestSink, curves));
}

static void
sink_add (DsFigures     *figures,
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
  g_array_append_val (sink->values, value);
  g_ptr_array_add (sink->rows, g_strdup_printf ("%s|%s|%s|%s|%s|%s", key, name,
                                                measure != NULL ? measure : "(null)", unit_name (unit),
                                                higher_is_better ? "+" : "-", v));
}

static void
sink_note (DsFigures  *figures,
           const char *text)
{
  g_ptr_array_add (((DsTestSink *) figures)->notes, g_strdup (text));
}

static void
sink_curve (DsCurves          *curves,
            const DsCurveAxes *axes,
            const DsCurveXY   *points,
            guint              n,
            double             mark_x,
            const char        *mark_label)
{
  g_autofree char *mark = ds_test_number (mark_x);
  GString *s = g_string_new (NULL);

  g_string_printf (s, "%s|%s|%s|%s|%d|%s|%s|%d|%s %s|", axes->key, axes->title, axes->x_name,
                   unit_name (axes->x_unit), axes->x_log, axes->y_name, unit_name (axes->y_unit), axes->dots,
                   mark, mark_label != NULL ? mark_label : "(null)");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x = ds_test_number (points[i].x);
      g_autofree char *y = ds_test_number (points[i].y);

      g_string_append_printf (s, "%s(%s,%s)", i > 0 ? " " : "", x, y);
    }
  g_ptr_array_add (sink_of_curves (curves)->curve_lines, g_string_free (s, FALSE));
}

void
ds_test_sink_init (DsTestSink *sink)
{
  sink->figures = (DsFigures) { sink_add, sink_note };
  sink->curves = (DsCurves) { sink_curve };
  sink->rows = g_ptr_array_new_with_free_func (g_free);
  sink->values = g_array_new (FALSE, FALSE, sizeof (double));
  sink->notes = g_ptr_array_new_with_free_func (g_free);
  sink->curve_lines = g_ptr_array_new_with_free_func (g_free);
  sink->section = NULL;
}

void
ds_test_sink_clear (DsTestSink *sink)
{
  g_clear_pointer (&sink->rows, g_ptr_array_unref);
  g_clear_pointer (&sink->values, g_array_unref);
  g_clear_pointer (&sink->notes, g_ptr_array_unref);
  g_clear_pointer (&sink->curve_lines, g_ptr_array_unref);
  g_clear_pointer (&sink->section, g_free);
}

void
ds_test_sink_compare (DsTestSink     *sink,
                      const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  ds_test_sink_init (sink);
  ops->compare_rows (result, &sink->figures);
  if (ops->compare_curves != NULL)
    ops->compare_curves (result, &sink->curves);
}

char *
ds_test_join_lines (GPtrArray *lines)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (s, "%s\n", (char *) lines->pdata[i]);
  return g_string_free (s, FALSE);
}

char *
ds_test_compare_text (const DsResult *result,
                      gboolean        curves)
{
  DsTestSink sink;
  char *text;

  ds_test_sink_compare (&sink, result);
  text = ds_test_join_lines (curves ? sink.curve_lines : sink.rows);
  ds_test_sink_clear (&sink);
  return text;
}

char *
ds_test_rows_in (const char *text,
                 const char *section)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *head = g_strdup_printf ("[%s]", section);
  GString *s = g_string_new (NULL);
  gboolean in = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == '[')
      in = strcmp (lines[i], head) == 0;
    else if (in && lines[i][0] != '\0')
      g_string_append_printf (s, "%s\n", lines[i]);
  return g_string_free (s, FALSE);
}

/* ---- text -------------------------------------------------------------- */

void
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

void
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

void
ds_test_assert_text (const char *got,
                     const char *want)
{
  g_auto (GStrv) lines = g_strsplit (want, "\n", -1);

  ds_test_assert_lines (got, (const char *const *) lines);
}

guint
ds_test_count (const char *text,
               const char *what)
{
  guint n = 0;

  for (const char *p = strstr (text, what); p != NULL; p = strstr (p + 1, what))
    n++;
  return n;
}

guint
ds_test_count_lines (const char *text,
                     const char *line)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strcmp (lines[i], line) == 0;
  return n;
}

char *
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

/* ---- fio --------------------------------------------------------------- */

char *
ds_test_fio_job (const DsResult *result,
                 const char     *filename)
{
  g_autoptr (GError) error = NULL;
  char *job = ds_fio_job_from_result (result, filename, &error);

  ck_assert_msg (job != NULL, "%s", error ? error->message : "refused");
  return job;
}

void
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

/* ---- JSON -------------------------------------------------------------- */

char *
ds_test_member_names (JsonObject *o)
{
  g_autoptr (GList) names = json_object_get_members (o);
  GString *s = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (s, "%s%s", s->len > 0 ? " " : "", (char *) l->data);
  return g_string_free (s, FALSE);
}

void
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

gpointer
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

void
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

void
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

/* ---- the suite --------------------------------------------------------- */

int
ds_test_run_tests (const char         *name,
                   const TTest *const *tests,
                   guint               n)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create (name);

  for (guint i = 0; i < n; i++)
    tcase_add_test (tc, tests[i]);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}

char *
ds_test_report (const DsResult *result,
                DsUnits         units)
{
  GString *out = g_string_new (NULL);

  ds_bench_get (result->kind)->report (result, units, out);
  return g_string_free (out, FALSE);
}
