/* ds-test-kind.h: what a kind's hooks give, written down for exact
 * comparison, for the tests of each kind (tests/test-kind-*.c) and of
 * what they feed (comparisons, fio jobs, the "results" JSON)
 *
 * A DsFigures and DsCurves sink that keeps each row, note and curve as
 * one line of text, every number to 15 digits (and each row's value
 * exactly); a kind's comparison or fio job through its table row; checks
 * of lists, lines, fio sections and JSON objects; the edits of a kind's
 * "results" that it must refuse; and a suite runner.  Built once into
 * the tests' library (ds-test-kind.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <check.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ds-bench.h"
#include "ds-figures.h"
#include "ds-fio.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* ---- the sink ---------------------------------------------------------- */

typedef struct {
  DsFigures  figures;      /* first: the callbacks get a DsTestSink * */
  DsCurves   curves;
  GPtrArray *rows;         /* "[section]" where it changes, then its rows
                            * "key|name|measure|unit|+ or -|value" */
  GArray    *values;       /* double: each row's value exactly, in order */
  GPtrArray *notes;
  GPtrArray *curve_lines;  /* "key|title|x|x unit|x log|y|y unit|dots|mark label|(x,y) ..." */
  char      *section;      /* the last row's "[section]" */
} DsTestSink;

/* "-" for not a number (an empty cell, a gap), else 15 digits. */
char     *ds_test_number          (double v);

void      ds_test_sink_init       (DsTestSink *sink);
void      ds_test_sink_clear      (DsTestSink *sink);
/* @sink (initialised here) given what @result's kind gives a comparison,
 * through its table row: its rows and notes, and its curves if it has
 * any. */
void      ds_test_sink_compare    (DsTestSink     *sink,
                                   const DsResult *result);
/* @lines (strings), each followed by "\n"; "" when none. */
char     *ds_test_join_lines      (GPtrArray      *lines);
/* ds_test_sink_compare()'s rows or (when @curves) curves, a line each. */
char     *ds_test_compare_text    (const DsResult *result,
                                   gboolean        curves);
/* Of @text (such rows, a line each), the rows under "[@section]",
 * wherever it is the section, a line each. */
char     *ds_test_rows_in         (const char     *text,
                                   const char     *section);

/* ---- text -------------------------------------------------------------- */

/* @got (strings) is @want (NULL-terminated), item by item. */
void      ds_test_assert_list     (GPtrArray         *got,
                                   const char *const *want);
/* @text is @want, line by line (a final "\n" is a last empty line), a
 * failure naming the first line that differs. */
void      ds_test_assert_lines    (const char        *text,
                                   const char *const *want);
/* The same with @want a text. */
void      ds_test_assert_text     (const char        *got,
                                   const char        *want);
/* How many times @what is in @text. */
guint     ds_test_count           (const char *text,
                                   const char *what);
/* How many lines of @text are @line. */
guint     ds_test_count_lines     (const char *text,
                                   const char *line);
/* The lines of @text that start with @prefix, joined by spaces. */
char     *ds_test_lines_with      (const char *text,
                                   const char *prefix);

#define DS_TEST_ASSERT_COUNT(text, line, n) \
  ck_assert_msg (ds_test_count_lines ((text), (line)) == (n), "not %u × “%s” in\n%s", (guint) (n), (line), (text))

#define DS_TEST_ASSERT_LINES_WITH(text, prefix, want) \
  G_STMT_START { \
    g_autofree char *got_ = ds_test_lines_with ((text), (prefix)); \
    ck_assert_msg (strcmp (got_, (want)) == 0, "%s: got “%s”, want “%s”\n%s", (prefix), got_, (want), \
                   (text)); \
  } G_STMT_END

/* ---- fio --------------------------------------------------------------- */

/* The body of @result's report in @units, as its kind's table row writes
 * it (the `report` hook; ds-report adds the common header). */
char     *ds_test_report          (const DsResult *result,
                                   DsUnits         units);

/* @result's fio job as the exporter writes it (its kind's table row, the
 * text checked) for @filename, or (NULL) for its own target; the test
 * fails if it is refused. */
char     *ds_test_fio_job         (const DsResult *result,
                                   const char     *filename);
/* Section [@name] of @job, up to the next one, is @want. */
void      ds_test_assert_fio_section (const char *job,
                                      const char *name,
                                      const char *want);

/* ---- JSON -------------------------------------------------------------- */

/* @o's member names in order, joined by spaces. */
char     *ds_test_member_names    (JsonObject *o);

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
void      ds_test_fix_run         (DsResult   *r,
                                   const char *engine);

/* The "results" in @text read by @kind's from_json hook (the test fails
 * if @text is no JSON object). */
gpointer  ds_test_read_results    (DsBenchKind  kind,
                                   const char  *text,
                                   GError     **error);

/* One bad edit of a kind's "results": the first @from becomes @to, and
 * the file is refused with @says. */
typedef struct {
  const char *from;
  const char *to;
  const char *says;
} DsTestEdit;

/* Each of @edits made to @text (alone): refused by @kind's from_json,
 * DS_ERROR_CORRUPT, with the edit's message word for word. */
void      ds_test_assert_edits_refused (DsBenchKind       kind,
                                        const char       *text,
                                        const DsTestEdit *edits,
                                        guint             n);
/* A workload's "results" (another kind's) given to @kind's from_json:
 * refused, DS_ERROR_CORRUPT, @says. */
void      ds_test_assert_other_kind_refused (DsBenchKind  kind,
                                             const char  *says);

/* ---- the suite --------------------------------------------------------- */

/* A suite @name of one case, the @n tests given (START_TEST's names),
 * run as ds_test_run_suite() runs it. */
int       ds_test_run_tests       (const char         *name,
                                   const TTest *const *tests,
                                   guint               n);

G_END_DECLS
