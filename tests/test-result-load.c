/* test-result-load.c: loading result files whatever they are: not regular
 * files, too large, lists past their caps; from several threads at once;
 * and memory that stays flat over thousands of loads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No root needed: every file is made in the suite's scratch folder.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-bench-health.h"
#include "ds-bench-random-access.h"
#include "ds-bench-transfer.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"
#include "ds-test-util.h"

static char *
scratch (const char *name)
{
  return g_build_filename (ds_test_scratch_dir (), name, NULL);
}

static void
assert_load_fails (const char *path,
                   DsError     code,
                   const char *expect_in_message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_load (path, &error);

  ck_assert_msg (r == NULL, "%s loaded", path);
  ck_assert_msg (g_error_matches (error, DS_ERROR, (int) code), "%s: %s (code %d)", path,
                 error ? error->message : "no error", error ? error->code : -1);
  ck_assert_msg (strstr (error->message, expect_in_message) != NULL,
                 "“%s” not in “%s”", expect_in_message, error->message);
}

/* The peak RSS (VmHWM) since the last reset_peak_rss(), in bytes. */
static void
reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);

  ck_assert (fd >= 0);
  ck_assert (write (fd, "5", 1) == 1);
  close (fd);
}

static uint64_t
status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *p;

  ck_assert (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  p = strstr (status, field);
  ck_assert_ptr_nonnull (p);
  return g_ascii_strtoull (p + strlen (field) + 1, NULL, 10);
}

/* ---- what is not a regular file (issue 8, item 4) ----------------------- */

/* A FIFO with no writer: opening it for reading used to block for ever. */
START_TEST (test_fifo)
{
  g_autofree char *path = scratch ("result.fifo");

  ck_assert (mkfifo (path, 0600) == 0);
  assert_load_fails (path, DS_ERROR_CORRUPT, "FIFO");
}
END_TEST

/* /dev/zero used to be read until memory ran out; /dev/urandom, /dev/null
 * and a symlink to /dev/zero are the same class. */
START_TEST (test_devices)
{
  g_autofree char *link = scratch ("zero.json");

  assert_load_fails ("/dev/zero", DS_ERROR_CORRUPT, "character device");
  assert_load_fails ("/dev/urandom", DS_ERROR_CORRUPT, "character device");
  assert_load_fails ("/dev/null", DS_ERROR_CORRUPT, "character device");
  ck_assert (symlink ("/dev/zero", link) == 0);
  assert_load_fails (link, DS_ERROR_CORRUPT, "character device");
}
END_TEST

START_TEST (test_folder_socket_missing)
{
  g_autofree char *sock_path = scratch ("result.sock");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);

  assert_load_fails (ds_test_scratch_dir (), DS_ERROR_CORRUPT, "a folder");

  g_strlcpy (addr.sun_path, sock_path, sizeof addr.sun_path);
  ck_assert (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0);
  assert_load_fails (sock_path, DS_ERROR_CORRUPT, "not a result file");
  close (fd);

  assert_load_fails ("/nonexistent/result.json", DS_ERROR_NOT_FOUND, "/nonexistent/result.json");
  assert_load_fails ("/etc/passwd/result.json", DS_ERROR_NOT_FOUND, "passwd");
}
END_TEST

/* A regular file that says it is empty but is not (/proc), and one that is. */
START_TEST (test_proc_and_empty)
{
  g_autofree char *empty = scratch ("empty.json");

  assert_load_fails ("/proc/self/status", DS_ERROR_CORRUPT, "JSON");
  ck_assert (g_file_set_contents (empty, "", 0, NULL));
  assert_load_fails (empty, DS_ERROR_CORRUPT, "empty");
}
END_TEST

/* A 1 GiB file (sparse: it costs no disk) is refused before it is read:
 * neither its size in memory nor the time to read it. */
START_TEST (test_huge_file_not_read)
{
  g_autofree char *path = scratch ("huge.json");
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  uint64_t before_kb;
  uint64_t peak_kb;

  ck_assert (fd >= 0);
  ck_assert (write (fd, "{\"schema\"", 9) == 9);
  ck_assert (ftruncate (fd, (off_t) 1 << 30) == 0);
  close (fd);

  before_kb = status_kb ("VmRSS:");
  reset_peak_rss ();
  assert_load_fails (path, DS_ERROR_CORRUPT, "DS_JSON_MAX_FILE_BYTES");
  peak_kb = status_kb ("VmHWM:");
  ck_assert_msg (peak_kb < before_kb + 16 * 1024, "refusing a 1 GiB file took %" G_GUINT64_FORMAT
                 " kB more at its peak", peak_kb - before_kb);

  /* Just over the bound, through the data entry point too. */
  {
    gsize length = DS_JSON_MAX_FILE_BYTES + 1;
    g_autofree char *data = g_malloc (length);
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) r = NULL;

    memset (data, ' ', length);
    r = ds_result_load_data (data, (gssize) length, &error);
    ck_assert_ptr_null (r);
    ck_assert_ptr_nonnull (strstr (error->message, "DS_JSON_MAX_FILE_BYTES"));
  }
}
END_TEST

/* A name with escape sequences is printed escaped in the message. */
START_TEST (test_name_in_message_is_safe)
{
  g_autofree char *path = scratch ("evil\033]0;pwned\007.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = NULL;

  ck_assert (g_file_set_contents (path, "{\"schema\": \"\033[2Jnope\"}", -1, NULL));
  r = ds_result_load (path, &error);
  ck_assert_ptr_null (r);
  ck_assert_msg (strchr (error->message, '\033') == NULL, "ESC in “%s”", error->message);
  ck_assert_msg (strchr (error->message, '\007') == NULL, "BEL in “%s”", error->message);
  ck_assert_ptr_nonnull (strstr (error->message, "\\x1B]0;pwned"));
  ck_assert_ptr_nonnull (strstr (error->message, "\\x1B[2Jnope"));
}
END_TEST

/* ---- caps on every list (issue 8, item 5) ------------------------------- */

/* The text of @r with @n copies of @element put into the list that
 * @marker opens ("\"access\" : ["), before what it held. */
static char *
with_list (const DsResult *r,
           const char     *marker,
           const char     *element,
           guint           n)
{
  g_autofree char *text = ds_result_to_data (r, NULL);
  const char *at = strstr (text, marker);
  GString *out;

  ck_assert_msg (at != NULL, "no %s", marker);
  at += strlen (marker);
  out = g_string_sized_new (strlen (text) + (strlen (element) + 1) * n);
  g_string_append_len (out, text, at - text);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, element);
      g_string_append_c (out, ',');
    }
  g_string_append (out, at);

  return g_string_free (out, FALSE);
}

static void
assert_refused (const char *text,
                const char *expect1,
                const char *expect2)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = NULL;

  r = ds_result_load_data (text, -1, &error);
  ck_assert_msg (r == NULL, "loaded (expected: %s)", expect1);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (strstr (error->message, expect1) != NULL, "“%s” not in “%s”", expect1, error->message);
  ck_assert_msg (strstr (error->message, expect2) != NULL, "“%s” not in “%s”", expect2, error->message);
}

START_TEST (test_list_caps)
{
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  g_autoptr (DsResult) ra = ds_test_random_access_result (FALSE);
  const char *dot = "{\"offset_bytes\":0,\"access_s\":0.001}";

  /* At the cap: loads (the transfer result already holds 50 dots). */
  {
    g_autofree char *text = with_list (t, "\"access\" : [", dot, DS_JSON_MAX_ACCESS - 50);
    g_autoptr (GError) error = NULL;
    g_autoptr (DsResult) r = ds_result_load_data (text, -1, &error);

    ck_assert_msg (r != NULL, "%s", error ? error->message : "");
    ck_assert_uint_eq (((DsTransferData *) r->data)->read.access->len, DS_JSON_MAX_ACCESS);
  }
  /* One more is refused, naming the list and the cap. */
  {
    g_autofree char *text = with_list (t, "\"access\" : [", dot, DS_JSON_MAX_ACCESS - 49);
    assert_refused (text, "results.read.access", "DS_JSON_MAX_ACCESS");
  }
  {
    /* The points are parallel arrays: one past the cap in one of them. */
    g_autofree char *text = with_list (ra, "\"access_ns\" : [", "1000", DS_JSON_MAX_POINTS + 1);
    assert_refused (text, "results.read.points.access_ns", "DS_JSON_MAX_POINTS");
  }
  {
    g_autofree char *text = with_list (t, "\"notes\" : [", "\"n\"", DS_JSON_MAX_NOTES + 1);
    assert_refused (text, "notes", "DS_JSON_MAX_NOTES");
  }
  {
    g_autofree char *text = with_list (t, "\"errors\" : [", "{}", DS_JSON_MAX_ERRORS + 1);
    assert_refused (text, "results.read.errors", "DS_JSON_MAX_ERRORS");
  }
  /* A list the kinds do not read at all is held to the general cap. */
  {
    g_autofree char *junk = NULL;
    GString *s = g_string_new (NULL);

    /* "junk" : [0,0,0,...0] inside results */
    g_string_append (s, "\"junk\" : [");
    for (guint i = 0; i < DS_JSON_MAX_LIST + 1; i++)
      g_string_append (s, i ? ",0" : "0");
    g_string_append (s, "]");
    junk = with_list (t, "\"results\" : {", s->str, 1);
    assert_refused (junk, "results.junk", "DS_JSON_MAX_LIST");
    g_string_free (s, TRUE);
  }
}
END_TEST

START_TEST (test_other_bounds)
{
  g_autoptr (DsResult) t = ds_test_transfer_result ();

  /* Values in all: many lists, each under its own cap. */
  {
    GString *s = g_string_new (NULL);
    g_autofree char *text = NULL;

    for (guint k = 0; k * 90000 <= DS_JSON_MAX_VALUES; k++)
      {
        g_string_append_printf (s, "%s\"junk%u\" : [", k ? ", " : "", k);
        for (guint i = 0; i < 90000; i++)
          g_string_append (s, i ? ",1" : "1");
        g_string_append (s, "]");
      }
    text = with_list (t, "\"results\" : {", s->str, 1);
    assert_refused (text, "values", "DS_JSON_MAX_VALUES");
    g_string_free (s, TRUE);
  }
  /* Members of one object. */
  {
    GString *s = g_string_new (NULL);
    g_autofree char *text = NULL;

    for (guint i = 0; i <= DS_JSON_MAX_MEMBERS; i++)
      g_string_append_printf (s, "%s\"m%u\" : 1", i ? ", " : "", i);
    text = with_list (t, "\"params\" : {", s->str, 1);
    assert_refused (text, "params", "DS_JSON_MAX_MEMBERS");
    g_string_free (s, TRUE);
  }
  /* One string. */
  {
    g_autoptr (DsResult) r = ds_test_transfer_result ();
    g_autofree char *text = NULL;

    g_free (r->target.model);
    r->target.model = g_strnfill (DS_JSON_MAX_STRING_BYTES + 1, 'x');
    text = ds_result_to_data (r, NULL);
    assert_refused (text, "target", "DS_JSON_MAX_STRING_BYTES");
  }
  /* Depth. */
  {
    g_autofree char *deep = g_strnfill (DS_JSON_MAX_DEPTH + 1, '[');
    assert_refused (deep, "nested", "DS_JSON_MAX_DEPTH");
  }
}
END_TEST

/* A huge file of valid entries (a million access dots, 40 MB) is refused
 * before json-glib builds its tree: little memory beyond the file itself.
 * (It took 22 s and 2.5 GB before, and a million dots were accepted.) */
START_TEST (test_huge_list_bounded_memory)
{
  g_autoptr (DsResult) t = ds_test_transfer_result ();
  g_autofree char *text = with_list (t, "\"access\" : [",
                                     "{\"offset_bytes\":123456789,\"access_s\":0.0001}", 1000000);
  uint64_t before_kb;
  uint64_t peak_kb;

  before_kb = status_kb ("VmRSS:");
  reset_peak_rss ();
  assert_refused (text, "results.read.access", "DS_JSON_MAX_ACCESS");
  peak_kb = status_kb ("VmHWM:");
  ck_assert_msg (peak_kb < before_kb + 16 * 1024,
                 "refusing a %zu MB file took %" G_GUINT64_FORMAT " kB more at its peak",
                 strlen (text) >> 20, peak_kb - before_kb);
}
END_TEST

/* ---- from several threads (the app loads off its main thread) ----------- */

typedef struct {
  const char *const *texts;
  guint              n_texts;
  gint               failures;
} ThreadJob;

static gpointer
load_many (gpointer data)
{
  ThreadJob *job = data;

  for (guint round = 0; round < 30; round++)
    for (guint i = 0; i < job->n_texts; i++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (DsResult) r = ds_result_load_data (job->texts[i], -1, &error);
        g_autofree char *again = r ? ds_result_to_data (r, NULL) : NULL;
        g_autofree char *report = r ? ds_report_text (r, DS_UNITS_MIB) : NULL;

        if (again == NULL || strcmp (again, job->texts[i]) != 0 || report == NULL)
          g_atomic_int_inc (&job->failures);
      }

  return NULL;
}

START_TEST (test_threads)
{
  DsResult *results[] = {
    ds_test_transfer_result (), ds_test_workload_result (), ds_test_extra_result (TRUE),
    ds_test_random_access_result (FALSE), ds_test_block_size_result (TRUE),
    ds_test_file_result (FALSE),
  };
  char *texts[G_N_ELEMENTS (results)];
  ThreadJob job = { (const char *const *) texts, G_N_ELEMENTS (texts), 0 };
  GThread *threads[8];

  /* What each loads and saves as, loaded once here (a text loaded and
   * saved again is the same from then on). */
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *first = ds_result_to_data (results[i], NULL);
      g_autoptr (DsResult) back = ds_result_load_data (first, -1, NULL);

      texts[i] = ds_result_to_data (back, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("load", load_many, &job);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  ck_assert_int_eq (job.failures, 0);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      ds_result_free (results[i]);
      g_free (texts[i]);
    }
}
END_TEST

static void
loaded_cb (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  GPtrArray *out = user_data;
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_result_load_finish (res, &error);

  g_ptr_array_add (out, r != NULL ? (gpointer) r : (gpointer) g_strdup (error->message));
}

START_TEST (test_async)
{
  g_autofree char *good = scratch ("good.json");
  g_autofree char *fifo = scratch ("async.fifo");
  g_autoptr (DsResult) r = ds_test_extra_result (FALSE);
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  g_autoptr (GMainContext) context = g_main_context_new ();

  ck_assert (ds_result_save (r, good, NULL));
  ck_assert (mkfifo (fifo, 0600) == 0);

  g_main_context_push_thread_default (context);
  ds_result_load_async (good, NULL, loaded_cb, out);
  while (out->len < 1)
    g_main_context_iteration (context, TRUE);
  ds_result_load_async (fifo, NULL, loaded_cb, out);
  while (out->len < 2)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  ck_assert_int_eq (((DsResult *) out->pdata[0])->kind, DS_BENCH_EXTRA);
  ds_result_free (out->pdata[0]);
  ck_assert_ptr_nonnull (strstr (out->pdata[1], "FIFO"));
  g_free (out->pdata[1]);
}
END_TEST

/* The app's Open takes a saved `smartctl --json` output as a Health result,
 * read once by the core's loader (DS_RESULT_LOAD_FOREIGN); the default
 * load, the library's and the CLI's report's, refuses it; a JSON file that
 * is neither keeps the result loader's message. */
START_TEST (test_foreign)
{
  g_autofree char *smartctl = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl",
                                                "HGST_HUS724020ALE640_28.json", NULL);
  g_autofree char *other = scratch ("other.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = NULL;
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  g_autoptr (GMainContext) context = g_main_context_new ();
  const DsHealthData *data;

  r = ds_result_load (smartctl, &error);
  ck_assert_ptr_null (r);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_ptr_nonnull (strstr (error->message, "not a Diskscope result"));
  g_clear_error (&error);

  r = ds_result_load_full (smartctl, DS_RESULT_LOAD_FOREIGN, &error);
  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (r->kind, DS_BENCH_HEALTH);
  ck_assert (r->complete);
  data = r->data;
  ck_assert_ptr_nonnull (data->health);
  ck_assert_ptr_nonnull (strstr (r->notes->len > 0 ? r->notes->pdata[0] : "",
                                 "saved smartctl output"));
  g_clear_pointer (&r, ds_result_free);

  ck_assert (g_file_set_contents (other, "{\"hello\": [1, 2, 3]}", -1, NULL));
  r = ds_result_load_full (other, DS_RESULT_LOAD_FOREIGN, &error);
  ck_assert_ptr_null (r);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_msg (strstr (error->message, "other.json") != NULL, "%s", error->message);
  ck_assert_msg (strstr (error->message, "smartctl") == NULL, "%s", error->message);
  g_clear_error (&error);

  /* The same off the caller's thread, as the app opens it. */
  g_main_context_push_thread_default (context);
  ds_result_load_full_async (smartctl, DS_RESULT_LOAD_FOREIGN, NULL, loaded_cb, out);
  while (out->len < 1)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  ck_assert_int_eq (((DsResult *) out->pdata[0])->kind, DS_BENCH_HEALTH);
  ds_result_free (out->pdata[0]);
}
END_TEST

/* ---- memory over thousands of loads (issue 17) -------------------------- */

/* Live heap bytes: the sanitizer's count under ASan (whose quarantine
 * keeps freed memory in RSS), malloc's otherwise. */
extern size_t __sanitizer_get_current_allocated_bytes (void) __attribute__ ((weak));

static uint64_t
live_heap_bytes (void)
{
  if (__sanitizer_get_current_allocated_bytes != NULL)
    return __sanitizer_get_current_allocated_bytes ();

  malloc_trim (0);
  return mallinfo2 ().uordblks;
}

/* What the fuzz target does with each input: load, report, save, load. */
static void
load_report_save_load (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_result_load_data (text, -1, &error);
  g_autofree char *report = NULL;
  g_autofree char *again = NULL;
  g_autoptr (DsResult) back = NULL;

  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  report = ds_report_text (r, DS_UNITS_MB);
  again = ds_result_to_data (r, NULL);
  back = ds_result_load_data (again, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
}

/* 3000 distinct results, each loaded, reported, saved and loaded again:
 * the live heap after them is within 1 MiB of what it was after the first
 * 300, and (without ASan) RSS within 8 MiB.  Each save used to keep its
 * whole JSON tree (7 to 220 kB a result): 20 to 600 MB here. */
START_TEST (test_memory_flat)
{
  const guint warm_up = 300;
  const guint n = 3000;
  uint64_t heap0 = 0;
  uint64_t rss0_kb = 0;
  uint64_t heap1;
  uint64_t rss1_kb;

  for (guint i = 0; i < warm_up + n; i++)
    {
      g_autoptr (DsResult) r = ds_test_distinct_result (i);
      g_autofree char *text = ds_result_to_data (r, NULL);

      load_report_save_load (text);
      if (i + 1 == warm_up)
        {
          heap0 = live_heap_bytes ();
          rss0_kb = status_kb ("VmRSS:");
        }
    }

  heap1 = live_heap_bytes ();
  rss1_kb = status_kb ("VmRSS:");
  g_printerr ("# memory over %u loads: live heap %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
              " bytes, RSS %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " kB\n",
              n, heap0, heap1, rss0_kb, rss1_kb);
  ck_assert_msg (heap1 < heap0 + 1024 * 1024,
                 "live heap grew by %" G_GINT64_FORMAT " bytes over %u loads",
                 (gint64) (heap1 - heap0), n);
  if (__sanitizer_get_current_allocated_bytes == NULL)
    ck_assert_msg (rss1_kb < rss0_kb + 8 * 1024,
                   "RSS grew by %" G_GINT64_FORMAT " kB over %u loads",
                   (gint64) (rss1_kb - rss0_kb), n);
}
END_TEST

/* Every kind's results, the ones built here and the ones added since
 * (health, error scan, erase, ...): saving and loading an empty result of
 * each 300 times keeps the heap where it was.  (Four later kinds copied the
 * lost reference of issue 17 into their to_json.) */
START_TEST (test_memory_every_kind)
{
  for (int kind = 0; kind < DS_BENCH_N_KINDS; kind++)
    {
      const DsBenchOps *ops = ds_bench_get ((DsBenchKind) kind);
      uint64_t heap0 = 0;
      uint64_t heap1;

      ck_assert_ptr_nonnull (ops);
      for (guint i = 0; i < 400; i++)
        {
          DsBenchSpec spec;
          g_autoptr (DsResult) r = NULL;
          g_autoptr (DsResult) back = NULL;
          g_autoptr (GError) error = NULL;
          g_autofree char *text = NULL;

          ds_bench_spec_init (&spec, (DsBenchKind) kind);
          spec.target_path = g_strdup_printf ("/dev/test%u", i);
          r = ds_result_new (&spec);
          ds_bench_spec_clear (&spec);
          r->target.path = g_strdup_printf ("/dev/test%u", i);
          text = ds_result_to_data (r, NULL);
          back = ds_result_load_data (text, -1, &error);
          ck_assert_msg (back != NULL, "%s: %s\n%s", ops->name, error ? error->message : "", text);
          if (i + 1 == 100)
            heap0 = live_heap_bytes ();
        }
      heap1 = live_heap_bytes ();
      ck_assert_msg (heap1 < heap0 + 128 * 1024, "%s: the heap grew by %" G_GINT64_FORMAT
                     " bytes over 300 saves and loads", ops->name, (gint64) (heap1 - heap0));
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("result-load");
  TCase *files = tcase_create ("files");
  TCase *bounds = tcase_create ("bounds");
  TCase *threads = tcase_create ("threads");
  TCase *memory = tcase_create ("memory");

  ds_test_init ("result-load");

  /* A FIFO that blocks or /dev/zero read to the end fails by this. */
  tcase_set_timeout (files, 20);
  tcase_add_test (files, test_fifo);
  tcase_add_test (files, test_devices);
  tcase_add_test (files, test_folder_socket_missing);
  tcase_add_test (files, test_proc_and_empty);
  tcase_add_test (files, test_huge_file_not_read);
  tcase_add_test (files, test_name_in_message_is_safe);
  suite_add_tcase (s, files);

  tcase_set_timeout (bounds, 60);
  tcase_add_test (bounds, test_list_caps);
  tcase_add_test (bounds, test_other_bounds);
  tcase_add_test (bounds, test_huge_list_bounded_memory);
  suite_add_tcase (s, bounds);

  tcase_set_timeout (threads, 60);
  tcase_add_test (threads, test_threads);
  tcase_add_test (threads, test_async);
  tcase_add_test (threads, test_foreign);
  suite_add_tcase (s, threads);

  tcase_set_timeout (memory, 300);
  tcase_add_test (memory, test_memory_flat);
  tcase_add_test (memory, test_memory_every_kind);
  suite_add_tcase (s, memory);

  return ds_test_run_suite (s);
}
