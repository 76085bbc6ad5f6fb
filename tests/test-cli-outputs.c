/* test-cli-outputs.c: what `compare`, `export-fio` and `health --from-json`
 * write, and what they never replace (issue 21, class 3); a comparison's
 * picture under `ulimit -v` (class 8).  No root, no device: results of
 * given figures in the scratch folder; as root a device node of our own
 * too.
 *
 * Each refusal is checked end to end: exit 1, the path named, nothing on
 * stdout, and every file involved exactly as it was (type, device number,
 * mode, owner, inode, content).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-snapshot.h"
#include "ds-test-util.h"

#define note ds_test_note

static char *a_json;    /* two read benchmarks to compare */
static char *b_json;

static char *
save_result (const char *name,
             DsResult   *r)
{
  g_autoptr (GError) error = NULL;
  char *path = ds_test_scratch_path (name);

  ck_assert_msg (ds_result_save (r, path, &error), "%s", error ? error->message : "");
  return path;
}

static void
setup (void)
{
  g_autoptr (DsResult) a = ds_test_library_transfer ("Disk A", UINT64_C (500) * 1000000000, 150e6,
                                                     170e6, 0.006, "2026-01-01T00:00:00Z");
  g_autoptr (DsResult) b = ds_test_library_transfer ("Disk B", UINT64_C (500) * 1000000000, 40e6,
                                                     90e6, 0.012, "2026-01-02T00:00:00Z");

  a_json = save_result ("a.json", a);
  b_json = save_result ("b.json", b);
}

static void
teardown (void)
{
  g_clear_pointer (&a_json, g_free);
  g_clear_pointer (&b_json, g_free);
}

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

/* diskscope-cli with @args (NULL-terminated), bounded by `timeout` (a FIFO
 * opened by mistake would hang). */
static int
cli (const char *const  *args,
     char              **ret_out,
     char              **ret_err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;
  int rc;

  g_ptr_array_add (argv, (gpointer) "timeout");
  g_ptr_array_add (argv, (gpointer) "30");
  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  rc = ds_test_run ((const char *const *) argv->pdata, &out, &err);
  line = g_strjoinv (" ", (char **) args);
  note ("%s: exit %d: %s", line, rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc != 124, "%s: still running after 30 s", line);
  if (ret_out != NULL)
    *ret_out = g_steal_pointer (&out);
  if (ret_err != NULL)
    *ret_err = g_steal_pointer (&err);

  return rc;
}

/* @args is refused: exit 1, @path and @why on stderr, nothing on stdout,
 * and @path and the inputs exactly as they were. */
static void
expect_kept (const char *const *args,
             const char        *path,
             const char        *why)
{
  DsTestSnapshot at_path = ds_test_snapshot (path);
  DsTestSnapshot at_a = ds_test_snapshot (a_json);
  DsTestSnapshot at_b = ds_test_snapshot (b_json);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = cli (args, &out, &err);

  ck_assert_msg (rc == 1, "%s: exit %d, want 1: %s", path, rc, err);
  ck_assert_msg (contains (err, path), "%s is not named: %s", path, err);
  ck_assert_msg (contains (err, why), "“%s” not in: %s", why, err);
  ck_assert_msg (out == NULL || out[0] == '\0', "%s: something was written: %.200s", path, out);
  ds_test_snapshot_unchanged (&at_path, path);
  ds_test_snapshot_unchanged (&at_a, a_json);
  ds_test_snapshot_unchanged (&at_b, b_json);
}

/* ---- compare ------------------------------------------------------------ */

static const char *const picture_options[] = { "--output", "--png", "--svg", "--pdf" };

/* `compare a.json b.json --png a.json` and the like: refused, a.json kept.
 * By name, by another spelling, through a link and a hard link, for the
 * table and each picture. */
START_TEST (test_compare_keeps_its_inputs)
{
  g_autofree char *to_a = ds_test_scratch_path ("link-to-a");
  g_autofree char *hard = ds_test_scratch_path ("hard-b.json");
  g_autofree char *dotted = g_strdup_printf ("%s/./a.json", ds_test_scratch_dir ());
  const char *names[4];

  ck_assert_int_eq (symlink (a_json, to_a), 0);
  ck_assert_int_eq (link (b_json, hard), 0);
  names[0] = a_json;
  names[1] = b_json;
  names[2] = to_a;
  names[3] = hard;

  for (guint o = 0; o < G_N_ELEMENTS (picture_options); o++)
    for (guint n = 0; n < G_N_ELEMENTS (names); n++)
      {
        const char *args[] = { "compare", a_json, b_json, picture_options[o], names[n], NULL };

        expect_kept (args, names[n], "one of the inputs");
      }

  {
    const char *args[] = { "compare", a_json, b_json, "--png", dotted, NULL };

    expect_kept (args, dotted, "one of the inputs");
  }
  /* One good output does not let a bad one through: nothing is written. */
  {
    g_autofree char *table = ds_test_scratch_path ("table.txt");
    const char *args[] = { "compare", a_json, b_json, "--output", table, "--png", a_json, NULL };

    expect_kept (args, a_json, "one of the inputs");
    ck_assert_msg (!g_file_test (table, G_FILE_TEST_EXISTS), "--output was written before the refusal");
  }
}
END_TEST

/* A result given by its library id: its file in the library is kept. */
START_TEST (test_compare_keeps_library_inputs)
{
  g_autofree char *dir = ds_test_scratch_path ("library");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *id = NULL;
  const char *import[] = { "results", "import", a_json, "--results-dir", dir, NULL };
  const char *name;
  g_autoptr (GDir) listing = NULL;
  int rc;

  rc = cli (import, &out, &err);
  ck_assert_msg (rc == 0, "results import: exit %d: %s", rc, err);
  listing = g_dir_open (dir, 0, NULL);
  ck_assert_ptr_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".json") && name[0] != '.')
      {
        entry = g_build_filename (dir, name, NULL);
        id = g_strndup (name, strlen (name) - 5);
      }
  ck_assert_msg (entry != NULL, "nothing in the library");

  {
    const char *args[] = { "compare", id, b_json, "--results-dir", dir, "--png", entry, NULL };
    DsTestSnapshot before = ds_test_snapshot (entry);

    expect_kept (args, entry, "one of the inputs");
    ds_test_snapshot_unchanged (&before, entry);
  }
  {
    const char *args[] = { "export-fio", id, "--results-dir", dir, "-o", entry, NULL };

    expect_kept (args, entry, "one of the inputs");
  }
}
END_TEST

/* What is not a regular file stays what it is: a FIFO, a character device
 * (/dev/null, a node of our own as root), a link to /dev/zero, a link to
 * nothing (never a file made through it), a folder. */
START_TEST (test_compare_refuses_what_is_not_a_file)
{
  g_autofree char *fifo = ds_test_scratch_path ("out.fifo");
  g_autofree char *to_zero = ds_test_scratch_path ("to-zero");
  g_autofree char *dangling = ds_test_scratch_path ("cmp-to-nothing");
  g_autofree char *nothing = ds_test_scratch_path ("nothing.png");
  g_autofree char *folder = ds_test_scratch_path ("a-folder");
  g_autofree char *node = ds_test_scratch_path ("null-node");
  const char *paths[6] = { fifo, "/dev/null", to_zero, dangling, folder, NULL };
  const char *whys[6] = { "FIFO", "character device", "character device", "does not exist",
                          "folder", "character device" };
  guint n = 5;

  ck_assert_int_eq (mkfifo (fifo, 0640), 0);
  ck_assert_int_eq (symlink ("/dev/zero", to_zero), 0);
  ck_assert_int_eq (symlink (nothing, dangling), 0);
  ck_assert_int_eq (g_mkdir_with_parents (folder, 0700), 0);
  if (ds_test_is_root ())
    {
      ck_assert_int_eq (mknod (node, S_IFCHR | 0600, makedev (1, 3)), 0);
      paths[n++] = node;
    }
  else
    note ("not root: no device node of our own; /dev/null and a link to /dev/zero only");

  for (guint o = 0; o < G_N_ELEMENTS (picture_options); o++)
    for (guint p = 0; p < n; p++)
      {
        const char *args[] = { "compare", a_json, b_json, picture_options[o], paths[p], NULL };
        DsTestSnapshot zero = ds_test_snapshot ("/dev/zero");

        expect_kept (args, paths[p], whys[p]);
        ds_test_snapshot_unchanged (&zero, "/dev/zero");
        ck_assert_msg (!g_file_test (nothing, G_FILE_TEST_EXISTS), "a file was made through a link");
      }
}
END_TEST

/* A regular file is replaced and keeps its mode; a picture and the table
 * are what they say; two outputs naming one file are refused. */
START_TEST (test_compare_replaces_regular_files)
{
  g_autofree char *png = ds_test_scratch_path ("cmp.png");
  g_autofree char *table = ds_test_scratch_path ("cmp.txt");
  g_autofree char *link = ds_test_scratch_path ("cmp-link-to-png");
  g_autofree char *data = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { "compare", a_json, b_json, "--output", table, "--png", link, NULL };
  struct stat st;
  gsize len = 0;
  int rc;

  ck_assert (g_file_set_contents (png, "old", -1, NULL));
  ck_assert_int_eq (chmod (png, 0600), 0);
  ck_assert (g_file_set_contents (table, "old", -1, NULL));
  ck_assert_int_eq (chmod (table, 0640), 0);
  ck_assert_int_eq (symlink (png, link), 0);

  rc = cli (args, &out, &err);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq (stat (png, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0600);
  ck_assert_int_eq (lstat (link, &st), 0);
  ck_assert (S_ISLNK (st.st_mode));
  ck_assert (g_file_get_contents (png, &data, &len, NULL));
  ck_assert (len > 1000 && memcmp (data, "\x89PNG", 4) == 0);
  g_clear_pointer (&data, g_free);
  ck_assert_int_eq (stat (table, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0640);
  ck_assert (g_file_get_contents (table, &data, NULL, NULL));
  ck_assert_msg (contains (data, "Disk A"), "%s", data);

  /* Two outputs, one file. */
  {
    g_autofree char *same = ds_test_scratch_path ("same.svg");
    g_autofree char *dotted = g_strdup_printf ("%s/./same.svg", ds_test_scratch_dir ());
    const char *twice[] = { "compare", a_json, b_json, "--svg", same, "--png", dotted, NULL };

    expect_kept (twice, dotted, "both name");
    ck_assert (!g_file_test (same, G_FILE_TEST_EXISTS));
  }
}
END_TEST

/* ---- export-fio and health --from-json ---------------------------------- */

START_TEST (test_export_fio_keeps_its_input)
{
  g_autofree char *link = ds_test_scratch_path ("job-link-to-a");
  g_autofree char *fifo = ds_test_scratch_path ("job.fifo");
  g_autofree char *dangling = ds_test_scratch_path ("job-to-nothing");
  g_autofree char *nothing = ds_test_scratch_path ("nothing.fio");
  g_autofree char *job = ds_test_scratch_path ("job.fio");
  g_autofree char *data = NULL;
  g_autofree char *err = NULL;
  struct {
    const char *path;
    const char *why;
  } refused[] = {
    { a_json, "one of the inputs" }, { link, "one of the inputs" }, { fifo, "FIFO" },
    { "/dev/null", "character device" }, { dangling, "does not exist" },
  };
  struct stat st;
  int rc;

  ck_assert_int_eq (symlink (a_json, link), 0);
  ck_assert_int_eq (mkfifo (fifo, 0600), 0);
  ck_assert_int_eq (symlink (nothing, dangling), 0);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *args[] = { "export-fio", a_json, "-o", refused[i].path, NULL };

      expect_kept (args, refused[i].path, refused[i].why);
    }
  ck_assert (!g_file_test (nothing, G_FILE_TEST_EXISTS));

  /* A job file of 0600 stays 0600. */
  ck_assert (g_file_set_contents (job, "old", -1, NULL));
  ck_assert_int_eq (chmod (job, 0600), 0);
  {
    const char *args[] = { "export-fio", a_json, "-o", job, NULL };

    rc = cli (args, NULL, &err);
    ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  }
  ck_assert_int_eq (stat (job, &st), 0);
  ck_assert_uint_eq (st.st_mode & 07777, 0600);
  ck_assert (g_file_get_contents (job, &data, NULL, NULL));
  ck_assert_msg (contains (data, "direct=1"), "%s", data);
}
END_TEST

START_TEST (test_health_from_json_keeps_its_input)
{
  g_autofree char *fixture = g_build_filename (DS_TEST_FIXTURES_DIR, "smartctl",
                                               "SAMSUNG_MZ7WD240HAFV-00003_21.json", NULL);
  g_autofree char *copy = ds_test_scratch_path ("smart.json");
  g_autofree char *contents = NULL;
  gsize len = 0;
  const char *args[] = { "health", "--from-json", copy, "--no-library", "-o", copy, NULL };

  ck_assert (g_file_get_contents (fixture, &contents, &len, NULL));
  ck_assert (g_file_set_contents (copy, contents, (gssize) len, NULL));
  expect_kept (args, copy, "one of the inputs");
}
END_TEST

/* ---- class 8: pictures under ulimit -v ---------------------------------- */

/* `compare a b [--FORMAT PATH]` under `ulimit -v @limit_kib` (0: none). */
static int
compare_limited (guint64      limit_kib,
                 const char  *option,
                 const char  *path,
                 char       **ret_err)
{
  g_autofree char *limit = limit_kib ? g_strdup_printf ("%" G_GUINT64_FORMAT, limit_kib)
                                     : g_strdup ("unlimited");
  const char *argv[] = { "timeout", "60", "sh", "-c", "ulimit -v \"$0\" && exec \"$@\"", limit,
                         ds_test_cli_path (), "compare", a_json, b_json, option, path, NULL };

  return ds_test_run (argv, NULL, ret_err);
}

/* Under each limit at which the CLI starts and prints the table at all, a
 * picture is either drawn (exit 0, a whole file) or refused with the
 * reason (exit 1, nothing at the path, no temporary file): never a
 * signal.  The limits span from below what the text needs to plenty; at
 * least one must be refused and one drawn, or the test proves nothing. */
START_TEST (test_pictures_under_memory_limits)
{
  const char *formats[][2] = { { "--png", "png" }, { "--svg", "svg" }, { "--pdf", "pdf" } };
  g_autoptr (GArray) limits = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint started = 0, refused = 0, drawn = 0;
  const guint64 none = 0;

  /* KiB: finely across where the CLI starts and where the text fits
   * (about 30 and 90 MiB here), then coarsely up, then no limit. */
  for (guint64 kib = 16000; kib < 160000; kib += 4000)
    g_array_append_val (limits, kib);
  for (guint64 kib = 160000; kib <= 512000; kib += 64000)
    g_array_append_val (limits, kib);
  g_array_append_val (limits, none);

  for (guint l = 0; l < limits->len; l++)
    {
      guint64 kib = g_array_index (limits, guint64, l);
      g_autofree char *err = NULL;
      int table = compare_limited (kib, NULL, NULL, &err);

      if (table != 0)
        {
          note ("ulimit -v %" G_GUINT64_FORMAT ": the CLI does not get as far as the table "
                "(exit %d): not a limit to draw under", kib, table);
          ck_assert_msg (kib != 0, "compare fails without a limit: %s", err);
          continue;
        }
      started++;
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autofree char *name = g_strdup_printf ("limit-%" G_GUINT64_FORMAT ".%s", kib, formats[f][1]);
          g_autofree char *path = ds_test_scratch_path (name);
          g_autofree char *listing = NULL;
          g_autofree char *data = NULL;
          g_autofree char *perr = NULL;
          gsize len = 0;
          int rc = compare_limited (kib, formats[f][0], path, &perr);

          note ("ulimit -v %" G_GUINT64_FORMAT " %s: exit %d: %s", kib, formats[f][0], rc,
                perr ? g_strstrip (perr) : "");
          ck_assert_msg (rc == 0 || rc == 1, "ulimit -v %" G_GUINT64_FORMAT " %s: exit %d "
                         "(a signal: 133 a GLib abort, 139 a crash): %s", kib, formats[f][0], rc, perr);
          if (rc == 0)
            {
              ck_assert (g_file_get_contents (path, &data, &len, NULL));
              ck_assert_msg (len > 1000, "%s: %" G_GSIZE_FORMAT " bytes", path, len);
              drawn++;
            }
          else
            {
              ck_assert_msg (contains (perr, "not enough memory to draw the picture (1200×"),
                             "ulimit -v %" G_GUINT64_FORMAT ": %s", kib, perr);
              ck_assert_msg (!g_file_test (path, G_FILE_TEST_EXISTS), "%s was left behind", path);
              refused++;
            }
          listing = ds_test_list_dir (ds_test_scratch_dir ());
          ck_assert_msg (!contains (listing, ".limit-"), "a temporary file was left: %s", listing);
        }
    }

  note ("%u limits started, %u pictures drawn, %u refused", started, drawn, refused);
  if (started == 1)
    {
      /* A sanitizer build reserves terabytes of address space: no limit
       * lets it start, and only the unlimited run was made. */
      note ("SKIP: the CLI starts under none of the limits (a sanitizer build?): "
            "nothing to check but the unlimited run");
      ck_assert_uint_eq (drawn, G_N_ELEMENTS (formats));
      return;
    }
  ck_assert_msg (refused > 0, "no limit was low enough to refuse a picture");
  ck_assert_msg (drawn > 0, "no picture was drawn, even without a limit");
}
END_TEST

static Suite *
cli_outputs_suite (void)
{
  Suite *suite = suite_create ("cli-outputs");
  TCase *keep = tcase_create ("keep");
  TCase *memory = tcase_create ("memory");

  tcase_set_timeout (keep, 240);
  tcase_add_checked_fixture (keep, setup, teardown);
  tcase_add_test (keep, test_compare_keeps_its_inputs);
  tcase_add_test (keep, test_compare_keeps_library_inputs);
  tcase_add_test (keep, test_compare_refuses_what_is_not_a_file);
  tcase_add_test (keep, test_compare_replaces_regular_files);
  tcase_add_test (keep, test_export_fio_keeps_its_input);
  tcase_add_test (keep, test_health_from_json_keeps_its_input);
  suite_add_tcase (suite, keep);

  tcase_set_timeout (memory, 280);
  tcase_add_checked_fixture (memory, setup, teardown);
  tcase_add_test (memory, test_pictures_under_memory_limits);
  suite_add_tcase (suite, memory);

  return suite;
}

int
main (void)
{
  ds_test_init ("cli-outputs");

  return ds_test_run_suite (cli_outputs_suite ());
}
