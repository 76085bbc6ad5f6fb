/* test-file-read.c: the one bounded opener every file the user names goes
 * through (io/ds-file-read.c), and each reader that uses it: results, fio's
 * JSON and logs, saved smartctl output (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 21, class 6: import-fio, health --from-json, the app's Open (which
 * tries a file that is not a result as smartctl's output) and an
 * import-fio --logs file hung on a FIFO; /dev/zero grew to gigabytes; a
 * 256 MB fio log took a gigabyte.  Each case here hung (a Check timeout)
 * or read without bound before.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ds-bench-health.h"
#include "ds-error.h"
#include "ds-file-read.h"
#include "ds-fio.h"
#include "ds-health.h"
#include "ds-json.h"
#include "ds-limits.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

static char *dir;

static void
setup (void)
{
  dir = g_dir_make_tmp ("ds-file-read-XXXXXX", NULL);
  ck_assert_ptr_nonnull (dir);
}

static void
teardown (void)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_clear_pointer (&dir, g_free);
}

static char *
path_in (const char *name)
{
  return g_build_filename (dir, name, NULL);
}

/* A sparse regular file of @size bytes starting with @head. */
static char *
sparse_file (const char *name,
             const char *head,
             off_t       size)
{
  char *path = path_in (name);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (write (fd, head, strlen (head)), (ssize_t) strlen (head));
  ck_assert_int_eq (ftruncate (fd, size), 0);
  close (fd);
  return path;
}

/* What every reader must refuse at once, whatever it reads: a FIFO with no
 * writer, /dev/zero, /dev/urandom, a folder, a symlink to /dev/zero, a
 * socket. */
static GPtrArray *
not_regular_paths (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *fifo = path_in ("fifo");
  g_autofree char *link = path_in ("zero-link");
  g_autofree char *sock = path_in ("socket");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd;

  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  ck_assert_int_eq (symlink ("/dev/zero", link), 0);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
  ck_assert_int_eq (bind (fd, (struct sockaddr *) &addr, sizeof addr), 0);
  close (fd);

  g_ptr_array_add (paths, g_strdup (fifo));
  g_ptr_array_add (paths, g_strdup ("/dev/zero"));
  g_ptr_array_add (paths, g_strdup ("/dev/urandom"));
  g_ptr_array_add (paths, g_strdup (dir));
  g_ptr_array_add (paths, g_strdup (link));
  g_ptr_array_add (paths, g_strdup (sock));
  return paths;
}

static void
assert_refused (GError     *error,
                const char *path,
                const char *what)
{
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT), "%s: %s", path,
                 error ? error->message : "no error");
  ck_assert_msg (strstr (error->message, what) != NULL, "%s: %s", path, error->message);
}

/* The opener itself: every kind of file that is not regular, at once. */
START_TEST (test_not_regular)
{
  g_autoptr (GPtrArray) paths = not_regular_paths ();

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr (GError) error = NULL;
      char *data = NULL;
      gsize length = 0;

      ck_assert (!ds_file_read_bounded (paths->pdata[i], "a test file", 1 << 20, "TEST_CAP",
                                        &data, &length, &error));
      assert_refused (error, paths->pdata[i], "not a test file");
      ck_assert_ptr_null (data);
    }
}
END_TEST

/* Over the bound: refused before reading (a sparse 2 GiB file costs
 * nothing to make), naming the size and the cap; at the bound: read. */
START_TEST (test_size_bound)
{
  g_autofree char *big = sparse_file ("big", "{", (off_t) 2 << 30);
  g_autofree char *exact = sparse_file ("exact", "x", 4096);
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  ck_assert (!ds_file_read_bounded (big, "a test file", 1 << 20, "TEST_CAP", &data, &length, &error));
  assert_refused (error, big, "2147483648 bytes");
  ck_assert_msg (strstr (error->message, "TEST_CAP") != NULL, "%s", error->message);
  g_clear_error (&error);

  ck_assert (!ds_file_read_bounded (exact, "a test file", 4095, "TEST_CAP", &data, &length, &error));
  g_clear_error (&error);
  ck_assert (ds_file_read_bounded (exact, "a test file", 4096, "TEST_CAP", &data, &length, &error));
  ck_assert_uint_eq (length, 4096);
  ck_assert_int_eq (data[0], 'x');
  ck_assert_int_eq (data[4096], '\0');
}
END_TEST

START_TEST (test_missing)
{
  g_autofree char *missing = path_in ("missing");
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize length;

  ck_assert (!ds_file_read_bounded (missing, "a test file", 1024, "CAP", &data, &length, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
}
END_TEST

/* Lines: split at '\n', the last without one still a line; a long line
 * and a NUL byte refused naming the line. */
START_TEST (test_lines)
{
  g_autofree char *path = path_in ("lines");
  g_autoptr (DsLineReader) reader = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *longer = g_strnfill (5000, 'a');
  g_autofree char *text = g_strdup_printf ("one\n\ntwo\n%s\nend", longer);
  char *line;

  ck_assert (g_file_set_contents (path, "one\n\nthree", -1, NULL));
  reader = ds_line_reader_open (path, "a test file", 1024, "CAP", 100, &error);
  ck_assert_ptr_nonnull (reader);
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert_str_eq (line, "one");
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert_str_eq (line, "");
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert_str_eq (line, "three");
  ck_assert_uint_eq (ds_line_reader_line (reader), 3);
  ck_assert (!ds_line_reader_next (reader, &line, &error));
  ck_assert_ptr_null (error);
  g_clear_pointer (&reader, ds_line_reader_free);

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  reader = ds_line_reader_open (path, "a test file", 1 << 20, "CAP", 4096, &error);
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert (!ds_line_reader_next (reader, &line, &error));
  ck_assert_msg (error != NULL && strstr (error->message, ":4: a line longer than 4096") != NULL,
                 "%s", error ? error->message : "no error");
  g_clear_error (&error);
  g_clear_pointer (&reader, ds_line_reader_free);

  ck_assert (g_file_set_contents (path, "a\nb\0c\n", 6, NULL));
  reader = ds_line_reader_open (path, "a test file", 1024, "CAP", 100, &error);
  ck_assert (ds_line_reader_next (reader, &line, &error));
  ck_assert (!ds_line_reader_next (reader, &line, &error));
  ck_assert_msg (error != NULL && strstr (error->message, ":2: not a test file (a NUL") != NULL,
                 "%s", error ? error->message : "no error");
}
END_TEST

/* ---- the readers --------------------------------------------------------- */

/* fio's JSON (import-fio), smartctl's (health --from-json, the app's Open
 * of a file that is not a result) and a result: none waits on a FIFO or
 * reads /dev/zero. */
START_TEST (test_readers_refuse_at_once)
{
  g_autoptr (GPtrArray) paths = not_regular_paths ();

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      g_autoptr (GError) fio_error = NULL;
      g_autoptr (GError) health_error = NULL;
      g_autoptr (GError) result_error = NULL;
      g_autoptr (GPtrArray) jobs = ds_fio_import_file (path, NULL, &fio_error);
      g_autoptr (DsResult) health = ds_health_result_from_file (path, &health_error);
      g_autoptr (DsResult) result = ds_result_load (path, &result_error);

      ck_assert_ptr_null (jobs);
      assert_refused (fio_error, path, "not fio's JSON output");
      ck_assert_ptr_null (health);
      assert_refused (health_error, path, "not smartctl's JSON output");
      ck_assert_ptr_null (result);
      assert_refused (result_error, path, "not a result file");
    }
}
END_TEST

START_TEST (test_readers_size_bound)
{
  g_autofree char *fio = sparse_file ("fio.json", "{\"fio version\": \"fio-3.33\"",
                                      (off_t) DS_FIO_JSON_MAX_BYTES + 1);
  g_autofree char *smart = sparse_file ("smart.json", "{\"json_format_version\": [1, 0]",
                                        (off_t) DS_SMARTCTL_JSON_MAX_BYTES + 1);
  g_autoptr (GError) fio_error = NULL;
  g_autoptr (GError) health_error = NULL;
  g_autoptr (GPtrArray) jobs = ds_fio_import_file (fio, NULL, &fio_error);
  g_autoptr (DsResult) health = ds_health_result_from_file (smart, &health_error);

  ck_assert_ptr_null (jobs);
  assert_refused (fio_error, fio, "DS_FIO_JSON_MAX_BYTES");
  ck_assert_ptr_null (health);
  assert_refused (health_error, smart, "DS_SMARTCTL_JSON_MAX_BYTES");
}
END_TEST

/* smartctl's JSON is held to the loader's bounds before json-glib builds
 * a tree: 16 MB of tiny values would be gigabytes as one. */
START_TEST (test_smartctl_values_bound)
{
  GString *json = g_string_new ("{\"json_format_version\": [1, 0], \"x\": [0");
  g_autoptr (GError) error = NULL;
  DsHealth *h;

  for (guint i = 0; i < DS_JSON_MAX_LIST + 1; i++)
    g_string_append (json, ",0");
  g_string_append (json, "]}");
  h = ds_health_parse (json->str, (gssize) json->len, -1, &error);
  ck_assert_ptr_null (h);
  ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) &&
                 strstr (error->message, "not smartctl's JSON output") != NULL &&
                 strstr (error->message, "DS_JSON_MAX_LIST") != NULL, "%s", error->message);
  g_string_free (json, TRUE);
}
END_TEST

/* Found by fuzz-smartctl: a number past int64 (1e400 is inf to json-glib)
 * was cast to an integer, undefined behaviour.  It is unknown now. */
START_TEST (test_smartctl_huge_numbers)
{
  const char *json = "{\"json_format_version\": [1, 0], \"smartctl\": {\"exit_status\": 0},"
                     " \"device\": {\"name\": \"/dev/sdb\", \"protocol\": \"ATA\"},"
                     " \"temperature\": {\"current\": 1e400},"
                     " \"power_on_time\": {\"hours\": -1.7976931348623157e+308},"
                     " \"power_cycle_count\": 9.3e18}";
  g_autoptr (GError) error = NULL;
  DsHealth *h = ds_health_parse (json, -1, -1, &error);

  ck_assert_msg (h != NULL, "%s", error ? error->message : "");
  /* There, but no figure: unreadable (the parser says so), never a count
   * cast from a double past 64 bits. */
  ck_assert_int_eq (h->temperature_c, DS_HEALTH_INVALID);
  ck_assert_int_eq (h->power_on_hours, DS_HEALTH_INVALID);
  ck_assert_int_eq (h->power_cycles, DS_HEALTH_INVALID);
  ds_health_free (h);
}
END_TEST

/* Found by fuzz-fio-import: "{}\n{}" leaked the first document inside
 * json-glib, in every reader.  The bounds scan refuses a second one. */
START_TEST (test_one_document)
{
  const char *const texts[] = { "{}\n{}", "{\"a\": 1} {\"b\": 2}", "{} x", "[1] \"s\"", "{}2" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (GError) result_error = NULL;
      g_autoptr (GError) fio_error = NULL;
      g_autoptr (GError) health_error = NULL;
      g_autoptr (DsResult) r = ds_result_load_data (texts[i], -1, &result_error);
      g_autoptr (GPtrArray) jobs = ds_fio_import_data (texts[i], -1, "x.json", NULL, &fio_error);
      DsHealth *h = ds_health_parse (texts[i], -1, -1, &health_error);

      ck_assert_ptr_null (r);
      ck_assert_msg (strstr (result_error->message, "more than one JSON document") != NULL,
                     "%s: %s", texts[i], result_error->message);
      ck_assert_ptr_null (jobs);
      ck_assert_ptr_null (h);
      ck_assert_msg (strstr (health_error->message, "more than one JSON document") != NULL,
                     "%s: %s", texts[i], health_error->message);
    }
  /* White space after the one document is fine. */
  ck_assert (ds_json_check_bounds ("{}\n \t\r\n", 7, NULL));
}
END_TEST

/* fio's logs: a FIFO, /dev/zero (a symlink to it), a folder and a log past
 * DS_FIO_LOG_MAX_BYTES are refused naming the file, at once. */
START_TEST (test_fio_logs_refuse)
{
  g_autofree char *prefix = path_in ("x");
  g_autofree char *bw = g_strdup_printf ("%s_bw.1.log", prefix);
  g_autofree char *lat = g_strdup_printf ("%s_lat.1.log", prefix);
  const char *const kinds[] = { "fifo", "zero", "folder", "big" };

  ck_assert (g_file_set_contents (bw, "1000, 5, 0, 0, 0\n", -1, NULL));
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr (GError) error = NULL;
      DsFioLogInfo info;
      GArray *series;

      if (k == 0)
        ck_assert_int_eq (mkfifo (lat, 0600), 0);
      else if (k == 1)
        ck_assert_int_eq (symlink ("/dev/zero", lat), 0);
      else if (k == 2)
        ck_assert_int_eq (g_mkdir (lat, 0700), 0);
      else
        g_free (sparse_file ("x_lat.1.log", "1000, 5, 0, 4096, 0\n", (off_t) DS_FIO_LOG_MAX_BYTES + 1));

      series = ds_fio_logs_read (prefix, NULL, 1, &info, &error);
      ck_assert_msg (series == NULL, "%s", kinds[k]);
      ck_assert_msg (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) &&
                     strstr (error->message, lat) != NULL, "%s: %s", kinds[k], error->message);
      if (k == 2)
        g_rmdir (lat);
      else
        g_unlink (lat);
    }
}
END_TEST

static Suite *
file_read_suite (void)
{
  Suite *suite = suite_create ("file-read");
  TCase *tc = tcase_create ("file-read");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_not_regular);
  tcase_add_test (tc, test_size_bound);
  tcase_add_test (tc, test_missing);
  tcase_add_test (tc, test_lines);
  tcase_add_test (tc, test_readers_refuse_at_once);
  tcase_add_test (tc, test_readers_size_bound);
  tcase_add_test (tc, test_smartctl_values_bound);
  tcase_add_test (tc, test_smartctl_huge_numbers);
  tcase_add_test (tc, test_one_document);
  tcase_add_test (tc, test_fio_logs_refuse);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (file_read_suite ());
}
