/* test-hostile.c: a result file is anyone's: every string it holds, made
 * hostile, and everything the program writes from it (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 21, class 4: a result whose target.path, target.model or
 * environment.hostname held "\n[global]\nexec_prerun=…" exported to an fio
 * job that fio ran, the command with it.  Here every string member of a
 * result of every kind (environment.*, notes, warnings, annotation labels,
 * notes and tags, model, serial, path, hostname, preset and step names,
 * fio job names, smartctl's strings ...) is set in turn to hostile values:
 * newlines that open a [global] section and an exec_prerun, a line long
 * enough for fio's line reader to cut in two, terminal escapes, bidi
 * overrides, CSV formula starters, Markdown table and heading syntax.  A
 * file the loader refuses is fine (its error must print safely); one it
 * accepts must give
 *   - an fio job that is refused with a clear message, or that holds only
 *     the sections and options Diskscope writes, each value of the safe
 *     set (no exec*, no include, no $, no line cut), the filename the
 *     one asked for; all at once, `fio --parse-only` accepts it and
 *     `fio --showcmd` shows those options only;
 *   - a report, a text, CSV and Markdown comparison with no raw control
 *     character and no line, row, cell or heading the value made;
 *   - `report`, `compare`, `results import/list/show`, `export-fio` on the
 *     command line: the same.
 * The decision: `results import` keeps such a file as it is (the file is
 * the truth and the exchange format), and everything that prints or
 * exports it escapes or refuses where it writes.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ds-bench-health.h"
#include "ds-bench-mark.h"
#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

#define MARK "INJECTED"

/* Each made to break one writer: a job file's lines and fio's line reader
 * (cut at 4096 or 8192 bytes), a terminal, a CSV cell, a Markdown table. */
static const char *const hostile[] = {
  "x\n[global]\nexec_prerun=touch /tmp/ds-hostile-pwned\n" MARK " line\n## " MARK " heading\n"
  "| " MARK " | cell |\r\x1b[2J\x1b]0;title\x07\t;#=[]${HOME} $(id) `id` \\ \xe2\x80\xae\xc2\x85 end",
  "=HYPERLINK(\"http://example.invalid\",\"x\")\r\n" MARK ",row,\"q\"\r\n@SUM(A1)",
  "-2+3;\n+cmd|' /C calc'!A0\n\t=1",
  NULL, /* a line longer than fio reads at once, then an option: made below */
};

static char *long_hostile;

static const char *
hostile_value (guint h)
{
  if (h < G_N_ELEMENTS (hostile) - 1)
    return hostile[h];
  if (long_hostile == NULL)
    {
      g_autofree char *a = g_strnfill (9000, 'A');

      long_hostile = g_strdup_printf ("/dev/%s\nexec_prerun=touch /tmp/ds-hostile-pwned\n" MARK, a);
    }
  return long_hostile;
}

/* ---- what is safe ------------------------------------------------------- */

/* Around byte @at of @text, for a failure message (Check keeps 4 KB). */
static char *
excerpt (const char *text,
         gsize       at)
{
  gsize len = strlen (text);
  gsize from = at > 1200 ? at - 1200 : 0;
  g_autofree char *raw = g_strndup (text + from, MIN (len - from, 1500));

  return g_strescape (raw, "\n");
}

/* No C0 control but the newline (and, in CSV, the row's \r\n), no DEL, no
 * C1 control, no bidi override or isolate; valid UTF-8. */
static void
check_inert (const char *what,
             const char *text,
             gboolean    crlf)
{
  ck_assert_msg (g_utf8_validate (text, -1, NULL), "%s: not UTF-8", what);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n' || (crlf && c == '\r' && p[1] == '\n'))
        continue;
      if ((c < 0x20) || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
          (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        {
          g_autofree char *around = excerpt (text, (gsize) (p - text));

          ck_abort_msg ("%s prints U+%04X:\n%s", what, c, around);
        }
    }
}

/* No line the value made: none starts with the marker (after any table or
 * list syntax), nor with a heading the value opened. */
static void
check_no_injected_line (const char *what,
                        const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  gsize at = 0;

  for (guint i = 0; lines[i] != NULL; at += strlen (lines[i]) + 1, i++)
    {
      const char *l = lines[i];

      while (*l == ' ' || *l == '|' || *l == '#' || *l == '-' || *l == '"' || *l == '\r')
        l++;
      if (g_str_has_prefix (l, MARK) || g_str_has_prefix (lines[i], "exec_prerun") ||
          g_str_has_prefix (lines[i], "[global]"))
        {
          g_autofree char *around = excerpt (text, at);

          ck_abort_msg ("%s: line %u is the value's:\n%s", what, i + 1, around);
        }
    }
}

/* ---- fio jobs, read as fio reads them ----------------------------------- */

static const char *const job_keys[] = {
  "filename", "direct", "ioengine", "fixedbufs", "registerfiles", "thread", "group_reporting",
  "refill_buffers", "norandommap", "randrepeat", "randseed", "lat_percentiles", "blockalign",
  "rw", "rwmixread", "bs", "iodepth", "numjobs", "offset", "size", "time_based", "runtime",
  "ramp_time", "stonewall", "bsrange", "number_ios", "unlink", "startdelay", NULL,
};

/* fio's parser (init.c, parse.c): a line is read with fgets() into a
 * buffer of OPT_LEN_MAX (1024 in old versions, 4096 and 8192 since), so a
 * longer one is two; blanks are stripped; ';' or '#' first is a comment,
 * and anywhere else ends the value; '[' opens a section; ${VAR} is the
 * environment.  Checks that @job is only what Diskscope writes, with
 * @filename as its file; returns the signature (sections and keys). */
static char *
check_job (const char *what,
           const char *job,
           const char *filename)
{
  g_auto (GStrv) lines = g_strsplit (job, "\n", -1);
  GString *sig = g_string_new (NULL);
  guint sections = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *eq;
      g_autofree char *key = NULL;
      const char *value;

      ck_assert_msg (strlen (l) < 1000, "%s: line %u is %zu bytes (fio cuts it)", what, i + 1, strlen (l));
      while (*l == ' ' || *l == '\t')
        l++;
      if (*l == '\0' || *l == ';' || *l == '#')
        continue;
      if (*l == '[')
        {
          ck_assert_msg (g_regex_match_simple ("^\\[[a-z0-9_-]+\\]$", l, 0, 0), "%s: section %s", what, l);
          ck_assert_msg ((sections++ == 0) == (strcmp (l, "[global]") == 0), "%s: %s", what, l);
          g_string_append_printf (sig, "%s ", l);
          continue;
        }
      eq = strchr (l, '=');
      ck_assert_msg (eq != NULL && sections > 0, "%s: line %u is no option: %s", what, i + 1, l);
      key = g_strndup (l, eq - l);
      value = eq + 1;
      ck_assert_msg (g_strv_contains (job_keys, key), "%s: option %s", what, key);
      if (strcmp (key, "filename") == 0)
        {
          g_autofree char *want = filename ? g_strdup (filename) : NULL;

          ck_assert_msg (!strpbrk (value, ";#$\\[]=\r\t") || strstr (value, "\\:") != NULL,
                         "%s: filename=%s", what, value);
          if (want != NULL && !g_str_has_suffix (want, "diskscope-fio.tmp"))
            ck_assert_msg (strcmp (value, want) == 0 || g_str_has_prefix (value, want),
                           "%s: filename=%s, not %s", what, value, want);
        }
      else
        {
          ck_assert_msg (g_regex_match_simple ("^[A-Za-z0-9_.-]+$", value, 0, 0),
                         "%s: %s=%s", what, key, value);
        }
      g_string_append_printf (sig, "%s ", key);
    }
  ck_assert_msg (sections >= 2, "%s: no job section:\n%s", what, job);

  return g_string_free (sig, FALSE);
}

static gboolean have_fio;

/* fio itself: --parse-only accepts @job, --showcmd lists only our options
 * (no exec_prerun). */
static void
fio_accepts (const char *what,
             const char *job)
{
  g_autofree char *path = ds_test_scratch_path ("hostile.fio");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *parse[] = { "fio", "--parse-only", path, NULL };
  const char *show[] = { "fio", "--showcmd", path, NULL };
  g_auto (GStrv) words = NULL;

  if (!have_fio)
    return;
  ck_assert (g_file_set_contents (path, job, -1, NULL));
  ck_assert_msg (ds_test_run (parse, &out, &err) == 0, "%s: fio --parse-only: %s\n%s", what, err, job);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  ck_assert_int_eq (ds_test_run (show, &out, &err), 0);
  ck_assert_msg (strstr (out, "exec") == NULL && strstr (out, MARK) == NULL, "%s: %s", what, out);
  words = g_strsplit (out, " --", -1);
  for (guint i = 1; words[i] != NULL; i++)
    {
      g_autofree char *key = g_strndup (words[i], strcspn (words[i], "="));

      /* fio shows blockalign by its alias. */
      ck_assert_msg (g_strv_contains (job_keys, key) || strcmp (key, "ba") == 0 ||
                     strcmp (key, "name") == 0, "%s: fio parsed --%s", what, words[i]);
    }
  g_unlink (path);
}

/* ---- CSV (RFC 4180) and Markdown ---------------------------------------- */

/* The rows of @csv: each field unquoted. */
static GPtrArray *
parse_csv (const char *csv)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = csv;

  while (*p != '\0')
    {
      if (*p == '"')
        {
          for (p++; *p != '\0'; p++)
            {
              if (*p == '"' && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p++;
                }
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p);
            }
        }
      else
        {
          while (*p != '\0' && *p != ',' && *p != '\r' && *p != '\n')
            g_string_append_c (field, *p++);
        }
      g_ptr_array_add (row, g_strdup (field->str));
      g_string_truncate (field, 0);
      if (*p == ',')
        p++;
      else
        {
          ck_assert_msg (p[0] == '\r' && p[1] == '\n', "a CSV row does not end in CRLF: %s", p);
          p += 2;
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
    }
  g_ptr_array_unref (row);
  g_string_free (field, TRUE);
  return rows;
}

static void
check_csv (const char *what,
           const char *csv,
           guint       want_rows)
{
  g_autoptr (GPtrArray) rows = NULL;
  guint width;

  check_inert (what, csv, TRUE);
  rows = parse_csv (csv);
  ck_assert_msg (rows->len == want_rows, "%s: %u rows, not %u:\n%s", what, rows->len, want_rows, csv);
  width = ((GPtrArray *) rows->pdata[0])->len;
  for (guint r = 0; r < rows->len; r++)
    {
      GPtrArray *row = rows->pdata[r];

      ck_assert_msg (row->len == width, "%s: row %u has %u cells, not %u:\n%s", what, r, row->len,
                     width, csv);
      for (guint c = 0; c < row->len; c++)
        {
          const char *cell = row->pdata[c];
          char *end = NULL;

          g_ascii_strtod (cell, &end);
          if (*cell == '\0' || (end != NULL && *end == '\0'))
            continue;     /* a number (or empty): no formula */
          ck_assert_msg (strchr ("=+-@\t\r", cell[strspn (cell, " ")]) == NULL,
                         "%s: cell %s is a formula", what, cell);
          ck_assert_msg (strchr (cell, '\n') == NULL && strchr (cell, '\r') == NULL,
                         "%s: cell %s holds a line break", what, cell);
        }
    }
}

/* Each table row has its header's cells (unescaped '|'), and there are as
 * many headings as @want_headings. */
static void
check_markdown (const char *what,
                const char *md,
                guint       want_headings)
{
  g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
  int cells = -1;
  guint headings = 0;

  check_inert (what, md, FALSE);
  check_no_injected_line (what, md);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      int n = 0;

      if (l[0] == '#')
        headings++;
      if (l[0] != '|')
        {
          cells = -1;
          continue;
        }
      for (const char *p = l; *p != '\0'; p++)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '|')
            n++;
        }
      if (cells < 0)
        cells = n;
      ck_assert_msg (n == cells, "%s: line %u has %d cells, its table %d:\n%s", what, i + 1, n, cells, md);
    }
  ck_assert_msg (headings == want_headings, "%s: %u headings, not %u:\n%s", what, headings,
                 want_headings, md);
}

static guint
count_lines_starting (const char *text,
                      char        c)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += lines[i][0] == c;
  return n;
}

/* ---- the results -------------------------------------------------------- */

typedef struct {
  char *name;
  char *text;
} Base;

static void
base_free (gpointer data)
{
  Base *b = data;

  g_free (b->name);
  g_free (b->text);
  g_free (b);
}

static void
add_result (GPtrArray  *bases,
            const char *name,
            DsResult   *result)
{
  Base *b = g_new0 (Base, 1);

  /* The user's annotation too: label, notes, tags. */
  ck_assert (ds_annotation_set_label (&result->annotation, "a label", NULL));
  ck_assert (ds_annotation_set_notes (&result->annotation, "notes\nof two lines", NULL));
  ck_assert (ds_annotation_add_tag (&result->annotation, "tag one", NULL));
  b->name = g_strdup (name);
  b->text = ds_result_to_data (result, NULL);
  g_ptr_array_add (bases, b);
  ds_result_free (result);
}

static void
add_file (GPtrArray  *bases,
          const char *dir,
          const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  Base *b = g_new0 (Base, 1);

  ck_assert_msg (g_file_get_contents (path, &b->text, NULL, NULL), "%s", path);
  b->name = g_strdup (name);
  g_ptr_array_add (bases, b);
}

/* A result of every kind: built by hand, real runs saved as fixtures
 * (tests/fixtures/results), fio's JSON imported, smartctl's read. */
static GPtrArray *
all_bases (void)
{
  GPtrArray *bases = g_ptr_array_new_with_free_func (base_free);
  g_autofree char *results = g_build_filename (DS_TEST_FIXTURES_DIR, "results", NULL);
  g_autofree char *fio = g_build_filename (DS_TEST_FIXTURES_DIR, "fio", "fio-3.33-client.json", NULL);
  g_autofree char *smart = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", "ST3500418AS_11.json", NULL);
  g_autofree char *nvme = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl",
                                            "nvme-null-CT250P2SSD8-nvme0.json", NULL);
  g_autoptr (GPtrArray) jobs = NULL;
  g_autoptr (GError) error = NULL;
  const char *const files[] = {
    "workload.json", "mark.json", "sweep.json", "sustain.json", "cache.json", "scan.json", "erase.json",
  };

  add_result (bases, "transfer", ds_test_transfer_result ());
  add_result (bases, "workload", ds_test_workload_result ());
  add_result (bases, "extra", ds_test_extra_result (TRUE));
  add_result (bases, "random-access", ds_test_random_access_result (FALSE));
  add_result (bases, "block-size", ds_test_block_size_result (TRUE));
  add_result (bases, "file", ds_test_file_result (FALSE));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    add_file (bases, results, files[i]);

  jobs = ds_fio_import_file (fio, NULL, &error);
  ck_assert_msg (jobs != NULL, "%s", error ? error->message : "");
  add_result (bases, "fio-client", g_steal_pointer (&((DsFioJob *) jobs->pdata[0])->result));
  add_result (bases, "health-ata", ds_health_result_from_file (smart, &error));
  add_result (bases, "health-nvme", ds_health_result_from_file (nvme, &error));

  return bases;
}

/* The @index-th string of @node (depth first) set to @value; how many
 * strings there are, when @index is past them. */
static guint
set_string (JsonNode   *node,
            guint       index,
            const char *value,
            guint       seen)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter it;
      JsonNode *member;

      json_object_iter_init (&it, json_node_get_object (node));
      while (json_object_iter_next (&it, NULL, &member))
        seen = set_string (member, index, value, seen);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        seen = set_string (json_array_get_element (a, i), index, value, seen);
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      if (seen == index)
        json_node_set_string (node, value);
      seen++;
    }
  return seen;
}

/* The JSON of @text with string @index set to @value (G_MAXUINT: none),
 * and the number of strings. */
static char *
with_string (const char *text,
             guint       index,
             const char *value,
             guint      *ret_n)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  guint n;

  ck_assert (json_parser_load_from_data (parser, text, -1, NULL));
  n = set_string (json_parser_get_root (parser), index, value, 0);
  if (ret_n != NULL)
    *ret_n = n;
  json_generator_set_root (gen, json_parser_get_root (parser));
  return json_generator_to_data (gen, NULL);
}

/* What the baseline (unchanged) result gives, to compare with. */
typedef struct {
  DsResult *result;
  char     *job_sig;      /* the sections and options of its job, or NULL */
  guint     csv_rows;
  guint     md_headings;
} Baseline;

static gboolean
exportable (const DsResult *r)
{
  g_autofree char *job = ds_fio_job_from_result (r, "/dev/null", NULL);

  return job != NULL;
}

/* Every output of @r (a loaded hostile result) beside @base. */
static void
check_outputs (const char     *what,
               const DsResult *r,
               const Baseline *base)
{
  g_autofree char *report = ds_report_text (r, DS_UNITS_MB);
  g_autoptr (GError) error = NULL;
  DsResult *pair[2] = { base->result, (DsResult *) r };

  check_inert (what, report, FALSE);
  check_no_injected_line (what, report);

  /* A mark's CrystalDiskMark texts (the CLI's table, the app's Copy). */
  if (r->kind == DS_BENCH_MARK)
    {
      g_autofree char *cdm = ds_mark_cdm_text (r);
      g_autofree char *grid = ds_mark_grid_text (r, DS_MARK_UNITS_MB_S);

      check_inert (what, cdm, FALSE);
      check_no_injected_line (what, cdm);
      check_inert (what, grid, FALSE);
      check_no_injected_line (what, grid);
    }

  /* The job, on the file the result names and on one given. */
  if (exportable (base->result))
    {
      g_autofree char *job = ds_fio_job_from_result (r, NULL, &error);
      g_autofree char *given = ds_fio_job_from_result (r, "/dev/null", NULL);
      g_autofree char *sig = NULL;

      if (job == NULL)
        {
          ck_assert_msg (error != NULL && (strstr (error->message, "--filename") != NULL ||
                                           strstr (error->message, "cannot be exported") != NULL),
                         "%s: %s", what, error ? error->message : "no error");
          check_inert (what, error->message, FALSE);
        }
      else
        {
          g_free (check_job (what, job, r->target.path));
        }
      ck_assert_msg (given != NULL, "%s: no job on /dev/null", what);
      sig = check_job (what, given, r->kind == DS_BENCH_FILE ? NULL : "/dev/null");
      /* Exactly the baseline's sections and options, unless the string
       * was the engine that ran (io_uring adds fixedbufs, registerfiles). */
      if (strcmp (sig, base->job_sig) != 0)
        ck_assert_msg (g_strcmp0 (r->engine, base->result->engine) != 0 ||
                       g_strcmp0 (r->spec.engine, base->result->spec.engine) != 0,
                       "%s: the job's options changed:\n%s\nnot\n%s", what, sig, base->job_sig);
    }

  {
    g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, &error);
    g_autofree char *text = NULL;
    g_autofree char *csv = NULL;
    g_autofree char *md = NULL;

    if (cmp == NULL)
      {
        /* Results of two kinds now (a hostile "test"): said safely. */
        check_inert (what, error->message, FALSE);
        return;
      }
    text = ds_comparison_to_text (cmp, DS_UNITS_MB);
    csv = ds_comparison_to_csv (cmp, DS_UNITS_MB);
    md = ds_comparison_to_markdown (cmp, DS_UNITS_MB);
    check_inert (what, text, FALSE);
    check_no_injected_line (what, text);
    check_csv (what, csv, base->csv_rows);
    check_markdown (what, md, base->md_headings);
  }
}

static void
baseline_of (const Base *b,
             Baseline   *ret)
{
  g_autoptr (GError) error = NULL;
  DsResult *pair[2];
  g_autoptr (DsComparison) cmp = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *md = NULL;
  g_autoptr (GPtrArray) rows = NULL;

  ret->result = ds_result_load_data (b->text, -1, &error);
  ck_assert_msg (ret->result != NULL, "%s: %s", b->name, error ? error->message : "");
  pair[0] = pair[1] = ret->result;
  cmp = ds_comparison_new (pair, NULL, 2, &error);
  ck_assert_msg (cmp != NULL, "%s: %s", b->name, error ? error->message : "");
  csv = ds_comparison_to_csv (cmp, DS_UNITS_MB);
  md = ds_comparison_to_markdown (cmp, DS_UNITS_MB);
  rows = parse_csv (csv);
  ret->csv_rows = rows->len;
  ret->md_headings = count_lines_starting (md, '#');
  {
    g_autofree char *job = ds_fio_job_from_result (ret->result, "/dev/null", NULL);

    ret->job_sig = job != NULL ? check_job (b->name, job, NULL) : NULL;
  }
}

/* Every string of every kind's result, each hostile value in turn. */
START_TEST (test_every_string)
{
  g_autoptr (GPtrArray) bases = all_bases ();
  guint cases = 0, refused = 0;

  for (guint b = 0; b < bases->len; b++)
    {
      const Base *base = bases->pdata[b];
      Baseline baseline;
      guint n = 0;

      baseline_of (base, &baseline);
      g_free (with_string (base->text, G_MAXUINT, NULL, &n));
      for (guint i = 0; i < n; i++)
        for (guint h = 0; h < G_N_ELEMENTS (hostile); h++)
          {
            g_autofree char *text = with_string (base->text, i, hostile_value (h), NULL);
            g_autofree char *what = g_strdup_printf ("%s, string %u, value %u", base->name, i, h);
            g_autoptr (GError) error = NULL;
            g_autoptr (DsResult) r = ds_result_load_data (text, -1, &error);

            cases++;
            if (r == NULL)
              {
                refused++;
                check_inert (what, error->message, FALSE);
                continue;
              }
            check_outputs (what, r, &baseline);
          }
      ds_result_free (baseline.result);
      g_free (baseline.job_sig);
    }
  ds_test_note ("%u hostile strings in %u results: %u refused by the loader, %u checked",
                cases, bases->len, refused, cases - refused);
}
END_TEST

/* fio's JSON (import-fio) and smartctl's (health --from-json): every
 * string of the real samples hostile in turn.  What is imported reports
 * safely, exports only our options, and saves as a result that loads;
 * refusals and warnings print safely. */
static void
check_imported (const char *what,
                DsResult   *r)
{
  g_autofree char *report = ds_report_text (r, DS_UNITS_MB);
  g_autofree char *text = ds_result_to_data (r, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) back = ds_result_load_data (text, -1, &error);

  check_inert (what, report, FALSE);
  check_no_injected_line (what, report);
  ck_assert_msg (back != NULL, "%s: saved, it does not load: %s", what, error ? error->message : "");
  if (r->kind == DS_BENCH_WORKLOAD)
    {
      g_autofree char *job = ds_fio_job_from_result (r, "/dev/null", &error);

      ck_assert_msg (job != NULL, "%s: %s", what, error ? error->message : "");
      g_free (check_job (what, job, "/dev/null"));
    }
}

static void
each_string_of (const char *path,
                gboolean    fio,
                guint      *ret_cases)
{
  g_autofree char *text = NULL;
  guint n = 0;

  ck_assert_msg (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  /* fio prints notes before its document. */
  if (text[0] != '{' && strstr (text, "\n{") != NULL)
    {
      char *doc = g_strdup (strstr (text, "\n{") + 1);

      g_free (text);
      text = doc;
    }
  g_free (with_string (text, G_MAXUINT, NULL, &n));
  for (guint i = 0; i < n; i++)
    for (guint h = 0; h < G_N_ELEMENTS (hostile); h++)
      {
        g_autofree char *changed = with_string (text, i, hostile_value (h), NULL);
        g_autofree char *what = g_strdup_printf ("%s, string %u, value %u", path, i, h);
        g_autoptr (GError) error = NULL;
        g_autoptr (GPtrArray) warnings = NULL;

        (*ret_cases)++;
        if (fio)
          {
            g_autoptr (GPtrArray) jobs = ds_fio_import_data (changed, -1, path, &warnings, &error);

            if (jobs == NULL)
              {
                check_inert (what, error->message, FALSE);
                continue;
              }
            for (guint w = 0; warnings != NULL && w < warnings->len; w++)
              check_inert (what, warnings->pdata[w], FALSE);
            for (guint j = 0; j < jobs->len; j++)
              check_imported (what, ((DsFioJob *) jobs->pdata[j])->result);
          }
        else
          {
            g_autofree char *file = ds_test_scratch_path ("hostile-smartctl.json");
            g_autoptr (DsResult) r = NULL;

            ck_assert (g_file_set_contents (file, changed, -1, NULL));
            r = ds_health_result_from_file (file, &error);
            if (r == NULL)
              check_inert (what, error->message, FALSE);
            else
              check_imported (what, r);
            g_unlink (file);
          }
      }
}

START_TEST (test_fio_and_smartctl_strings)
{
  const char *const fio[] = {
    "fio-3.33-single.json", "fio-3.33-group.json", "fio-3.33-error.json", "fio-3.33-client.json",
  };
  const char *const smart[] = {
    "ST3500418AS_11.json", "SEAGATE_ST373453LC_26.json", "nvme-null-CT250P2SSD8-nvme0.json",
  };
  guint cases = 0;

  for (guint i = 0; i < G_N_ELEMENTS (fio); i++)
    {
      g_autofree char *path = g_build_filename (DS_TEST_FIXTURES_DIR, "fio", fio[i], NULL);
      each_string_of (path, TRUE, &cases);
    }
  for (guint i = 0; i < G_N_ELEMENTS (smart); i++)
    {
      g_autofree char *path = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl", smart[i], NULL);
      each_string_of (path, FALSE, &cases);
    }
  ds_test_note ("%u hostile strings in fio's and smartctl's JSON", cases);
}
END_TEST

/* ---- the command line, with every string hostile at once ----------------- */

/* @base with every string that the loader accepts hostile set to it. */
static char *
all_hostile (const Base *base,
             guint       h)
{
  g_autofree char *text = g_strdup (base->text);
  guint n = 0;

  g_free (with_string (base->text, G_MAXUINT, NULL, &n));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *next = with_string (text, i, hostile_value (h), NULL);
      g_autoptr (DsResult) r = ds_result_load_data (next, -1, NULL);

      if (r != NULL)
        {
          g_free (text);
          text = g_steal_pointer (&next);
        }
    }
  return g_steal_pointer (&text);
}

static void
cli_ok (const char *what_,
        int         want,
        char      **ret_out,
        const char *first,
        ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *what = NULL;
  const char *arg;
  va_list ap;
  int rc;

  va_start (ap, first);
  for (arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  rc = ds_test_cli_argv ((const char *const *) args->pdata, NULL, &out, &err);
  ck_assert_msg (want < 0 || rc == want, "%s: %s exit %d, not %d: %s", what_, first, rc, want, err);
  what = g_strdup_printf ("%s: diskscope-cli %s %s", what_, first, (const char *) args->pdata[1]);
  check_inert (what, out, strstr (first, "compare") != NULL);
  check_inert (what, err, FALSE);
  check_no_injected_line (what, out);
  check_no_injected_line (what, err);
  if (ret_out != NULL)
    *ret_out = g_steal_pointer (&out);
}

START_TEST (test_command_line)
{
  g_autoptr (GPtrArray) bases = all_bases ();
  g_autofree char *lib = ds_test_scratch_path ("hostile-lib");
  g_autofree char *job_path = ds_test_scratch_path ("hostile-job.fio");

  for (guint b = 0; b < bases->len; b++)
    for (guint h = 0; h < G_N_ELEMENTS (hostile); h++)
      {
        const Base *base = bases->pdata[b];
        g_autofree char *text = all_hostile (base, h);
        g_autofree char *name = g_strdup_printf ("hostile-%u-%u.json", b, h);
        g_autofree char *path = ds_test_scratch_path (name);
        g_autofree char *what = g_strdup_printf ("%s, every string hostile (value %u)", base->name, h);
        g_autofree char *out = NULL;
        g_autofree char *job = NULL;
        g_autoptr (DsResult) r = ds_result_load_data (text, -1, NULL);
        gboolean can_export;

        ck_assert_msg (r != NULL, "%s", what);
        can_export = exportable (r);
        ck_assert (g_file_set_contents (path, text, -1, NULL));

        cli_ok (what, 0, NULL, "report", path, NULL);
        cli_ok (what, 0, NULL, "compare", path, path, NULL);
        cli_ok (what, 0, NULL, "compare", path, path, "--csv", NULL);
        cli_ok (what, 0, NULL, "compare", path, path, "--markdown", NULL);
        /* Imported as it is (the file is the truth), printed safely. */
        cli_ok (what, 0, &out, "results", "import", path, "--results-dir", lib, NULL);
        {
          /* "ID  LABEL": the id the import gave it, shown and removed. */
          g_autofree char *id = g_strndup (out, strcspn (out, " "));

          cli_ok (what, 0, NULL, "results", "show", id, "--results-dir", lib, NULL);
          cli_ok (what, 0, NULL, "results", "list", "--results-dir", lib, NULL);
          cli_ok (what, 0, NULL, "results", "rm", id, "--results-dir", lib, NULL);
        }
        g_clear_pointer (&out, g_free);
        if (!can_export)
          continue;
        /* On the file the result names: refused when fio could not be
         * given it safely; on one given, a job fio reads as ours. */
        g_unlink (job_path);
        cli_ok (what, -1, NULL, "export-fio", path, "-o", job_path, NULL);
        g_unlink (job_path);
        cli_ok (what, 0, NULL, "export-fio", path, "--filename", "/dev/null", "-o", job_path, NULL);
        ck_assert (g_file_get_contents (job_path, &job, NULL, NULL));
        g_free (check_job (what, job, r->kind == DS_BENCH_FILE ? NULL : "/dev/null"));
        fio_accepts (what, job);
        g_unlink (job_path);
        g_unlink (path);
      }
}
END_TEST

/* The fio job of the issue: target.path, target.model and hostname each
 * "\n[global]\nexec_prerun=…": fio ran the command.  Now the path is
 * refused (pass --filename) and the rest are comments fio never reads. */
START_TEST (test_issue_case)
{
  g_autoptr (DsResult) r = ds_test_workload_result ();
  g_autoptr (GError) error = NULL;
  g_autofree char *job = NULL;
  const char *evil = "/dev/null\n[global]\nexec_prerun=touch /tmp/ds-hostile-pwned";

  g_free (r->target.path);
  r->target.path = g_strdup (evil);
  g_free (r->target.model);
  r->target.model = g_strdup (evil);
  g_free (r->hostname);
  r->hostname = g_strdup (evil);

  job = ds_fio_job_from_result (r, NULL, &error);
  ck_assert_ptr_null (job);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID) &&
                 strstr (error->message, "--filename") != NULL, "%s", error->message);
  check_inert ("the refusal", error->message, FALSE);

  job = ds_fio_job_from_result (r, "/dev/null", &error);
  ck_assert_ptr_nonnull (job);
  g_free (check_job ("the issue's job", job, "/dev/null"));
  fio_accepts ("the issue's job", job);

  /* --filename is held to the same rules. */
  g_clear_pointer (&job, g_free);
  g_clear_error (&error);
  job = ds_fio_job_from_result (r, "/tmp/x;rm", &error);
  ck_assert_ptr_null (job);
  ck_assert_msg (strstr (error->message, "“;”") != NULL, "%s", error->message);
}
END_TEST

static Suite *
hostile_suite (void)
{
  Suite *suite = suite_create ("hostile");
  TCase *tc = tcase_create ("hostile");

  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_issue_case);
  tcase_add_test (tc, test_every_string);
  tcase_add_test (tc, test_fio_and_smartctl_strings);
  tcase_add_test (tc, test_command_line);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  ds_test_init ("hostile");
  {
    g_autofree char *fio = g_find_program_in_path ("fio");

    have_fio = fio != NULL;
  }
  if (!have_fio)
    ds_test_note ("fio is not installed: the jobs are checked by our reading of fio's parser only");
  return ds_test_run_suite (hostile_suite ());
}
