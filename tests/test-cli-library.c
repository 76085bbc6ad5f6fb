/* test-cli-library.c: `diskscope-cli results` when several programs use
 * one library at once, and what an edit must keep (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 21, class 5: 20 `results tag` in parallel left 6 tags; `results
 * label` racing `results rm` brought the deleted file back in 13 of 30
 * trials; a symbolic link in the library became a copy.  Class 11: an
 * import or a relabel turned destroy_data_confirmed false, mark recorded
 * false, a killed save's temporary file stayed forever, a too-long tag
 * was echoed whole, and --no-library was unknown to mark and presets.
 */
#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-result-json.h"
#include "ds-test-library.h"
#include "ds-test-util.h"

#define ID "20200101-000000-workload-loop9"

static char *lib;

static void
setup (void)
{
  /* Each test runs in a fork of its own: a fresh folder each time. */
  lib = g_strdup_printf ("%s/lib-XXXXXX", ds_test_scratch_dir ());
  ck_assert_ptr_nonnull (g_mkdtemp_full (lib, 0755));
  g_setenv ("DISKSCOPE_RESULTS_DIR", lib, TRUE);
}

static void
teardown (void)
{
  g_unsetenv ("DISKSCOPE_RESULTS_DIR");
  g_clear_pointer (&lib, g_free);
}

/* A write workload's result, as a run the gate confirmed saves it. */
static DsResult *
confirmed_result (void)
{
  DsResult *r = ds_test_library_workload ("Disk", DS_PATTERN_RANDWRITE, 1e8, 1e-4,
                                          "2020-01-01T00:00:00Z");

  r->spec.write = TRUE;
  r->spec.write_confirmed = TRUE;
  return r;
}

/* The result's file in the library as ID.json; its path. */
static char *
put_result (void)
{
  g_autoptr (DsResult) r = confirmed_result ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (lib, ID ".json", NULL);

  ck_assert_msg (ds_result_save (r, path, &error), "%s", error ? error->message : "");
  return path;
}

static DsResult *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_result_load (path, &error);

  ck_assert_msg (r != NULL, "%s: %s", path, error ? error->message : "");
  return r;
}

/* Starts diskscope-cli with @args (NULL-terminated), output discarded. */
static GSubprocess *
spawn (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  GSubprocess *p;

  g_ptr_array_add (argv, (gpointer) ds_test_cli_path ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_newv ((const char *const *) argv->pdata,
                         G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "");
  return p;
}

/* Waits for @p; its exit status. */
static int
reap (GSubprocess *p)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (g_subprocess_wait (p, NULL, &error), "%s", error ? error->message : "");
  ck_assert_msg (g_subprocess_get_if_exited (p), "diskscope-cli was killed");
  return g_subprocess_get_exit_status (p);
}

/* 20 `results tag ID tN` at once: 20 tags (there were 6). */
START_TEST (test_parallel_tags)
{
  enum { N = 20 };
  g_autofree char *path = put_result ();
  g_autoptr (DsResult) after = NULL;
  GSubprocess *procs[N];
  char tags[N][8];

  for (int i = 0; i < N; i++)
    {
      const char *args[] = { "results", "tag", ID, tags[i], NULL };

      g_snprintf (tags[i], sizeof tags[i], "t%d", i + 1);
      procs[i] = spawn (args);
    }
  for (int i = 0; i < N; i++)
    {
      ck_assert_int_eq (reap (procs[i]), 0);
      g_object_unref (procs[i]);
    }

  after = load (path);
  ck_assert_msg (after->annotation.tags != NULL && g_strv_length (after->annotation.tags) == N,
                 "%u tags of %d", after->annotation.tags ? g_strv_length (after->annotation.tags) : 0, N);
  for (int i = 0; i < N; i++)
    ck_assert_msg (g_strv_contains ((const char *const *) after->annotation.tags, tags[i]), "%s lost", tags[i]);
  ds_test_note ("20 parallel results tag: %d tags", N);
}
END_TEST

/* A label, notes, tags and a removal at once: each of them counts. */
START_TEST (test_parallel_mixed_edits)
{
  enum { N = 8 };
  g_autofree char *path = put_result ();
  g_autoptr (DsResult) after = NULL;
  g_autoptr (GPtrArray) procs = g_ptr_array_new_with_free_func (g_object_unref);
  const char *label[] = { "results", "label", ID, "Array A", NULL };
  const char *notes[] = { "results", "label", ID, "--notes", "FC 8G", NULL };
  const char *old_tag[] = { "results", "tag", ID, "old", NULL };
  const char *remove[] = { "results", "tag", ID, "--remove", "old", NULL };
  char tags[N][8];

  {
    g_autoptr (GSubprocess) first = spawn (old_tag);

    ck_assert_int_eq (reap (first), 0);
  }
  g_ptr_array_add (procs, spawn (label));
  g_ptr_array_add (procs, spawn (notes));
  g_ptr_array_add (procs, spawn (remove));
  for (int i = 0; i < N; i++)
    {
      const char *args[] = { "results", "tag", ID, tags[i], NULL };

      g_snprintf (tags[i], sizeof tags[i], "m%d", i);
      g_ptr_array_add (procs, spawn (args));
    }
  for (guint i = 0; i < procs->len; i++)
    ck_assert_int_eq (reap (procs->pdata[i]), 0);

  after = load (path);
  ck_assert_str_eq (after->annotation.label, "Array A");
  ck_assert_str_eq (after->annotation.notes, "FC 8G");
  ck_assert_uint_eq (g_strv_length (after->annotation.tags), N);
  ck_assert (!g_strv_contains ((const char *const *) after->annotation.tags, "old"));
}
END_TEST

/* `results label` racing `results rm`: the file never comes back (it did
 * in 13 of 30 trials). */
START_TEST (test_label_racing_rm)
{
  enum { TRIALS = 200 };
  g_autofree char *path = put_result ();
  g_autofree char *data = NULL;
  gsize length = 0;
  unsigned back = 0, labelled_first = 0;

  ck_assert (g_file_get_contents (path, &data, &length, NULL));
  for (unsigned t = 0; t < TRIALS; t++)
    {
      const char *label[] = { "results", "label", ID, "relabelled", NULL };
      const char *rm[] = { "results", "rm", ID, NULL };
      g_autoptr (GSubprocess) a = NULL;
      g_autoptr (GSubprocess) b = NULL;
      int rc_label, rc_rm;

      ck_assert (g_file_set_contents (path, data, (gssize) length, NULL));
      a = spawn (label);
      b = spawn (rm);
      rc_label = reap (a);
      rc_rm = reap (b);
      /* The rm found it (it was there when both started) and deleted it;
       * the label came first (exit 0) or found it gone (exit 1). */
      ck_assert_int_eq (rc_rm, 0);
      ck_assert_msg (rc_label == 0 || rc_label == 1, "label: exit %d", rc_label);
      labelled_first += rc_label == 0;
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          back++;
          (void) unlink (path);
        }
    }

  ds_test_note ("label racing rm: %u of %u trials brought the file back (%u labels came first)",
                back, TRIALS, labelled_first);
  ck_assert_uint_eq (back, 0);
}
END_TEST

/* A symbolic link in the library: the file it points to is edited and
 * the link stays; rm removes the link, not the file. */
START_TEST (test_symlinked_entry)
{
  g_autoptr (DsResult) r = confirmed_result ();
  g_autoptr (DsResult) after = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *elsewhere = g_strdup_printf ("%s-shared", lib);
  g_autofree char *real = g_build_filename (elsewhere, "run.json", NULL);
  g_autofree char *link = g_build_filename (lib, ID ".json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct stat st;
  int rc;

  ck_assert_int_eq (g_mkdir_with_parents (elsewhere, 0755), 0);
  ck_assert (ds_result_save (r, real, &error));
  ck_assert_int_eq (chmod (real, 0640), 0);
  ck_assert_int_eq (symlink (real, link), 0);

  rc = ds_test_cli (&out, &err, "results", "label", ID, "via the link", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq (lstat (link, &st), 0);
  ck_assert_msg (S_ISLNK (st.st_mode), "the link became a copy");
  ck_assert_int_eq (stat (real, &st), 0);
  ck_assert_uint_eq (st.st_mode & 0777, 0640);
  after = load (real);
  ck_assert_str_eq (after->annotation.label, "via the link");
  ck_assert (after->spec.write_confirmed);
  {
    g_autofree char *names = ds_test_list_dir (elsewhere);

    ck_assert_str_eq (names, "run.json");
  }

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (&out, &err, "results", "rm", ID, NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq (lstat (link, &st), -1);
  ck_assert (g_file_test (real, G_FILE_TEST_IS_REGULAR));
}
END_TEST

/* An edit keeps the file's mode (a private result stays private). */
START_TEST (test_edit_keeps_mode)
{
  g_autofree char *path = put_result ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct stat st;

  ck_assert_int_eq (chmod (path, 0600), 0);
  ck_assert_int_eq (ds_test_cli (&out, &err, "results", "tag", ID, "private", NULL), 0);
  ck_assert_int_eq (stat (path, &st), 0);
  ck_assert_uint_eq (st.st_mode & 0777, 0600);
}
END_TEST

static gboolean
confirmed_in (const char *path)
{
  g_autoptr (DsResult) r = load (path);

  return r->spec.write_confirmed;
}

/* destroy_data_confirmed survives an import, a label, a tag and
 * `results show --json` (import and label made it false). */
START_TEST (test_confirmed_survives)
{
  g_autoptr (DsResult) r = confirmed_result ();
  g_autoptr (GError) error = NULL;
  g_autofree char *file = ds_test_scratch_path ("confirmed-run.json");
  g_autofree char *saved = g_build_filename (lib, ID ".json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc;

  ck_assert (ds_result_save (r, file, &error));
  ck_assert (confirmed_in (file));

  rc = ds_test_cli (&out, &err, "results", "import", file, NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (confirmed_in (saved), "results import made it false");

  g_clear_pointer (&out, g_free);
  rc = ds_test_cli (&out, &err, "results", "label", ID, "labelled", NULL);
  ck_assert_msg (rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg (confirmed_in (saved), "results label made it false");

  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "results", "tag", ID, "t", NULL), 0);
  ck_assert (confirmed_in (saved));

  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "results", "show", ID, "--json", NULL), 0);
  ck_assert_msg (strstr (out, "\"destroy_data_confirmed\" : true") != NULL, "%.400s", out);

  /* A file without the member (older writers) reads as not confirmed. */
  {
    g_autofree char *data = NULL;
    g_autofree char *head = NULL;
    g_autofree char *cut = NULL;
    g_autoptr (DsResult) back = NULL;
    const char *member = "\"destroy_data_confirmed\" : true,";
    char *at;

    ck_assert (g_file_get_contents (file, &data, NULL, NULL));
    at = strstr (data, member);
    ck_assert_ptr_nonnull (at);
    head = g_strndup (data, (gsize) (at - data));
    cut = g_strconcat (head, at + strlen (member), NULL);
    back = ds_result_load_data (cut, -1, &error);
    ck_assert_msg (back != NULL, "%s", error ? error->message : "");
    ck_assert (!back->spec.write_confirmed);
  }
}
END_TEST

/* mark says it wrote with confirmation (it said false); reads only, and
 * writes to its own test file in a folder, say false. */
START_TEST (test_mark_records_confirmation)
{
  g_autofree char *image = ds_test_make_file ("mark.img", 32 << 20, 3);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", image);
  g_autofree char *folder = ds_test_scratch_path ("mark-folder");
  const struct {
    const char *target;
    const char *row;
    const char *confirm;
    gboolean    confirmed;
  } runs[] = {
    { image, "write,1m", confirm, TRUE },
    { image, "read,1m", confirm, FALSE },
    { folder, "write,1m", "--no-progress", FALSE },
  };

  ck_assert_int_eq (g_mkdir_with_parents (folder, 0755), 0);

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr (DsResult) r = NULL;
      g_autoptr (GError) error = NULL;
      int rc = ds_test_cli (&out, &err, "mark", runs[i].target, "--row", runs[i].row, "--count", "1",
                            "--duration", "100ms", "--warmup", "0", "--pause", "0", "--size", "16M",
                            runs[i].confirm, "--json", "--no-progress", "--no-library", NULL);

      ck_assert_msg (rc == 0, "%s: exit %d: %s", runs[i].row, rc, err);
      r = ds_result_load_data (out, -1, &error);
      ck_assert_msg (r != NULL, "%s", error ? error->message : "");
      ck_assert_msg (r->spec.write_confirmed == runs[i].confirmed, "%s: destroy_data_confirmed is %s",
                     runs[i].row, r->spec.write_confirmed ? "true" : "false");
    }
  {
    g_autofree char *saved = ds_test_list_dir (lib);
    g_autofree char *left = ds_test_list_dir (folder);

    ck_assert_str_eq (saved, "");   /* --no-library */
    ck_assert_str_eq (left, "");    /* its test file went */
  }
}
END_TEST

/* A too-long tag: the limit, its length and a short beginning of it, not
 * the 70 KB it is. */
START_TEST (test_long_tag_error)
{
  g_autofree char *path = put_result ();
  g_autofree char *tag = g_strnfill (70000, 'x');
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int rc = ds_test_cli (&out, &err, "results", "tag", ID, tag, NULL);

  ds_test_note ("too-long tag: %s", g_strstrip (err));
  ck_assert_int_eq (rc, 2);
  ck_assert_msg (strlen (err) < 300, "%zu bytes of error", strlen (err));
  ck_assert_msg (strstr (err, "at most 64") != NULL && strstr (err, "70000") != NULL &&
                 strstr (err, "xxxxxxxxxx") != NULL, "%s", err);
  {
    g_autoptr (DsResult) r = load (path);

    ck_assert_ptr_null (r->annotation.tags);
  }
}
END_TEST

/* Makes a file that looks like a killed save's ".ID.json.XXXXXX", its
 * modification time @age_s ago. */
static char *
make_temp (const char *suffix,
           gint64      age_s)
{
  char *path = g_strdup_printf ("%s/." ID ".json.%s", lib, suffix);
  struct timespec times[2];

  ck_assert (g_file_set_contents (path, "{\"schema\": \"diskscope-res", -1, NULL));
  clock_gettime (CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= age_s;
  times[1] = times[0];
  ck_assert_int_eq (utimensat (AT_FDCWD, path, times, 0), 0);
  return path;
}

/* What a save killed by SIGKILL leaves goes with the next listing once
 * it is old (15 minutes) and no process holds it; it is never listed. */
START_TEST (test_killed_save_temp)
{
  g_autofree char *result = put_result ();
  g_autofree char *stale = make_temp ("Ab12Cd", 3600);
  g_autofree char *fresh = make_temp ("Ef34Gh", 10);
  g_autofree char *held = make_temp ("Ij56Kl", 3600);
  g_autofree char *other = g_build_filename (lib, ".notes.txt.Ab12Cd", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  int fd = open (held, O_WRONLY | O_CLOEXEC);

  ck_assert (g_file_set_contents (other, "mine", -1, NULL));
  ck_assert_int_ge (fd, 0);
  /* A save still writing (a slow network folder) holds its file's lock. */
  ck_assert_int_eq (fcntl (fd, F_OFD_SETLK, &fl), 0);

  ck_assert_int_eq (ds_test_cli (&out, &err, "results", "list", NULL), 0);
  ck_assert_msg (strstr (out, "1 result in") != NULL && strstr (out, ".json.") == NULL, "%s", out);
  ck_assert_msg (!g_file_test (stale, G_FILE_TEST_EXISTS), "the killed save's file is still there");
  ck_assert_msg (g_file_test (fresh, G_FILE_TEST_EXISTS), "a save under way lost its file");
  ck_assert_msg (g_file_test (held, G_FILE_TEST_EXISTS), "a held file was removed");
  ck_assert (g_file_test (other, G_FILE_TEST_EXISTS));
  close (fd);

  g_clear_pointer (&out, g_free);
  ck_assert_int_eq (ds_test_cli (&out, &err, "results", "list", NULL), 0);
  ck_assert (!g_file_test (held, G_FILE_TEST_EXISTS));
  ck_assert (g_file_test (fresh, G_FILE_TEST_EXISTS));
}
END_TEST

/* ---- every option a --help lists is one the command takes --------------- */

typedef struct {
  char *name;      /* "--output" */
  char *shortname; /* "-o" or NULL */
  gboolean value;  /* takes a value */
} Listed;

static void
listed_free (Listed *l)
{
  g_free (l->name);
  g_free (l->shortname);
  g_free (l);
}

/* The options of `diskscope-cli MODE... --help`: the lines of its
 * "... Options:" sections ("  -o, --output=FILE   Also save..."). */
static GPtrArray *
listed_options (const char *const *mode)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) listed_free);
  g_autoptr (GRegex) re = g_regex_new ("^  (?:(-[A-Za-z0-9]), )?(--[a-z0-9-]+)(=\\S+)?(?:\\s|$)", 0, 0, NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean in_options = FALSE;

  for (guint i = 0; mode[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) mode[i]);
  g_ptr_array_add (argv, (gpointer) "--help");
  g_ptr_array_add (argv, NULL);
  ck_assert_int_eq (ds_test_cli_argv ((const char *const *) argv->pdata, NULL, &out, &err), 0);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;

      if (g_str_has_suffix (lines[i], "Options:"))
        in_options = TRUE;
      else if (*lines[i] == '\0')
        in_options = FALSE;
      else if (in_options && g_regex_match (re, lines[i], 0, &match))
        {
          Listed *l = g_new0 (Listed, 1);
          g_autofree char *s = g_match_info_fetch (match, 1);
          g_autofree char *v = g_match_info_fetch (match, 3);

          l->name = g_match_info_fetch (match, 2);
          l->shortname = s != NULL && *s != '\0' ? g_steal_pointer (&s) : NULL;
          l->value = v != NULL && *v != '\0';
          if (g_str_has_prefix (l->name, "--help"))
            listed_free (l);
          else
            g_ptr_array_add (found, l);
        }
    }

  ck_assert_msg (found->len > 0, "no options found in:\n%s", out);
  return g_steal_pointer (&found);
}

/* The commands of `diskscope-cli --help`, and the preset form of
 * workload (its own options). */
static GPtrArray *
modes (void)
{
  const char *argv[] = { ds_test_cli_path (), "--help", NULL };
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  const char *preset[] = { "workload", "--preset", "cdm-default", NULL };

  ck_assert_int_eq (ds_test_run (argv, &out, NULL), 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "  diskscope-cli "))
      {
        g_auto (GStrv) words = g_strsplit (lines[i] + strlen ("  diskscope-cli "), " ", 2);
        gboolean seen = FALSE;

        for (guint k = 0; k < all->len; k++)
          seen |= strcmp (((char **) all->pdata[k])[0], words[0]) == 0;
        if (!seen)
          {
            const char *one[] = { words[0], NULL };

            g_ptr_array_add (all, g_strdupv ((char **) one));
          }
      }
  g_ptr_array_add (all, g_strdupv ((char **) preset));
  ck_assert_uint_ge (all->len, 20);
  return all;
}

/* Every option every --help lists, long and short, with a value ("1")
 * when it takes one, on a target that does not exist: the command may
 * refuse the value or the target, but never say it does not know the
 * option.  Runs that measure (those with --no-progress) all take
 * --no-library: mark and workload presets did not. */
START_TEST (test_every_listed_option_is_known)
{
  g_autoptr (GPtrArray) all = modes ();
  g_autofree char *missing = ds_test_scratch_path ("no-such-target");
  g_autofree char *cwd = ds_test_scratch_path ("options-cwd");
  g_autoptr (GString) unknown = g_string_new (NULL);
  guint tried = 0;

  ck_assert_int_eq (g_mkdir_with_parents (cwd, 0755), 0);
  ck_assert_int_eq (chdir (cwd), 0);

  for (guint m = 0; m < all->len; m++)
    {
      const char *const *mode = all->pdata[m];
      g_autoptr (GPtrArray) options = listed_options (mode);
      gboolean measures = FALSE, no_library = FALSE;

      for (guint o = 0; o < options->len; o++)
        {
          Listed *l = options->pdata[o];
          const char *forms[] = { l->name, l->shortname };

          measures |= strcmp (l->name, "--no-progress") == 0;
          no_library |= strcmp (l->name, "--no-library") == 0;
          for (guint f = 0; f < G_N_ELEMENTS (forms) && forms[f] != NULL; f++)
            {
              g_autoptr (GPtrArray) args = g_ptr_array_new ();
              g_autofree char *err = NULL;
              int rc;

              g_ptr_array_add (args, (gpointer) "timeout");
              g_ptr_array_add (args, (gpointer) "30");
              g_ptr_array_add (args, (gpointer) ds_test_cli_path ());
              for (guint k = 0; mode[k] != NULL; k++)
                g_ptr_array_add (args, (gpointer) mode[k]);
              g_ptr_array_add (args, (gpointer) forms[f]);
              if (l->value)
                g_ptr_array_add (args, (gpointer) "1");
              g_ptr_array_add (args, missing);
              g_ptr_array_add (args, NULL);
              rc = ds_test_run ((const char *const *) args->pdata, NULL, &err);
              tried++;
              ck_assert_msg (rc != 124, "%s %s: no answer in 30 s", mode[0], forms[f]);
              if (strstr (err, "Unknown option") != NULL || rc < 0)
                g_string_append_printf (unknown, "%s %s: exit %d: %s", mode[0], forms[f], rc, err);
            }
        }
      if (measures && !no_library)
        g_string_append_printf (unknown, "%s%s%s: no --no-library\n", mode[0],
                                mode[1] ? " " : "", mode[1] ? mode[1] : "");
    }

  ds_test_note ("%u options tried in %u commands", tried, all->len);
  ck_assert_msg (unknown->len == 0, "%s", unknown->str);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("cli-library");
  TCase *race = tcase_create ("race");
  TCase *keep = tcase_create ("keep");
  TCase *options = tcase_create ("options");

  ds_test_init ("cli-library");

  tcase_set_timeout (race, 240);
  tcase_add_checked_fixture (race, setup, teardown);
  tcase_add_test (race, test_parallel_tags);
  tcase_add_test (race, test_parallel_mixed_edits);
  tcase_add_test (race, test_label_racing_rm);
  suite_add_tcase (s, race);

  tcase_set_timeout (keep, 120);
  tcase_add_checked_fixture (keep, setup, teardown);
  tcase_add_test (keep, test_symlinked_entry);
  tcase_add_test (keep, test_edit_keeps_mode);
  tcase_add_test (keep, test_confirmed_survives);
  tcase_add_test (keep, test_mark_records_confirmation);
  tcase_add_test (keep, test_long_tag_error);
  tcase_add_test (keep, test_killed_save_temp);
  suite_add_tcase (s, keep);

  tcase_set_timeout (options, 240);
  tcase_add_checked_fixture (options, setup, teardown);
  tcase_add_test (options, test_every_listed_option_is_known);
  suite_add_tcase (s, options);

  return ds_test_run_suite (s);
}
