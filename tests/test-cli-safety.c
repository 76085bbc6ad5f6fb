/* test-cli-safety.c: the write gate on regular files, --create, option
 * ranges and exit statuses, through diskscope-cli (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every refusal is checked three ways: the exit status, a message that
 * names what was refused and why, and the file's checksum before and
 * after (a refusal that wrote a byte is a failure whatever it says).
 * The same option errors are checked against ds_bench_spec_validate()
 * called the way the window calls it: the CLI and the app refuse a bad
 * spec with one message.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "ds-bench.h"
#include "ds-error.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

#define note ds_test_note

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr (GError) error = NULL;

  ck_assert_msg (json_parser_load_from_data (parser, text, -1, &error),
                 "not JSON (%s): %.300s", error ? error->message : "", text);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Runs the CLI (NULL-terminated @args) and checks that it exits @want with
 * every NULL-terminated needle after @want in its stderr. */
static char *
expect_exit (int                 want,
             const char *const  *args,
             ...)
{
  g_autofree char *out = NULL;
  char *err = NULL;
  const char *needle;
  va_list ap;
  int rc;

  rc = ds_test_cli_argv (args, NULL, &out, &err);
  note ("%s %s: exit %d: %s", args[0], args[1] ? args[1] : "", rc, err ? g_strstrip (err) : "");
  ck_assert_msg (rc == want, "%s: exit %d, want %d: %s", args[0], rc, want, err);
  va_start (ap, args);
  while ((needle = va_arg (ap, const char *)) != NULL)
    ck_assert_msg (contains (err, needle), "%s: “%s” is not in: %s", args[0], needle, err);
  va_end (ap);

  return err;
}

/* ---- class 1: writes to regular files need a confirmation ------------- */

START_TEST (test_file_write_needs_confirmation)
{
  g_autofree char *file = ds_test_make_file ("victim.bin", 16 * MiB, 3);
  g_autofree char *other = ds_test_make_file ("other.bin", 16 * MiB, 4);
  g_autofree char *before = ds_test_checksum (file);
  g_autofree char *after = NULL;
  g_autofree char *wrong = g_strdup_printf ("--destroy-data=%s", other);
  g_autofree char *flag = g_strdup_printf ("--destroy-data=%s", file);
  const char *variants[][10] = {
    { "workload", file, "--pattern", "randwrite", "--duration", "200ms", NULL },
    { "workload", file, "--pattern", "write", "--duration", "200ms", NULL },
    { "workload", file, "--pattern", "randrw", "--duration", "200ms", NULL },
    { "benchmark", file, "--write", "--accuracy", "1", NULL },
    { "extra", file, "--write", "--duration", "100ms", NULL },
    { "random-access", file, "--write", "--duration", "100ms", NULL },
    { "block-size", file, "--write", "--duration", "100ms", NULL },
    /* Naming another file is no confirmation. */
    { "workload", file, "--pattern", "randwrite", "--duration", "200ms", wrong, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      g_autofree char *err = expect_exit (3, variants[i], file, NULL);

      ck_assert_msg (contains (err, flag), "the refusal does not say how to confirm: %s", err);
      ck_assert_msg (contains (err, "--create"), "the refusal does not offer --create: %s", err);
      if (i == G_N_ELEMENTS (variants) - 1)
        ck_assert_msg (contains (err, other), "the refusal does not say what was named: %s", err);
    }

  after = ds_test_checksum (file);
  ck_assert_str_eq (before, after);
}
END_TEST

START_TEST (test_file_write_confirmed)
{
  g_autofree char *file = ds_test_make_file ("confirmed.bin", 16 * MiB, 5);
  g_autofree char *link = ds_test_scratch_path ("confirmed-link");
  g_autofree char *before = ds_test_checksum (file);
  g_autofree char *after = NULL;
  g_autofree char *by_path = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *by_link = g_strdup_printf ("--destroy-data=%s", link);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *params;
  int rc;

  ck_assert_int_eq (symlink (file, link), 0);

  rc = ds_test_cli (&out, &err, "workload", file, "--pattern", "randwrite", "--duration", "200ms",
                    by_path, "--json", NULL);
  ck_assert_msg (rc == 0, "confirmed write: exit %d: %s", rc, err);
  params = json_object_get_object_member (parse_object (parser, out), "params");
  ck_assert (json_object_get_boolean_member (params, "write"));
  ck_assert (json_object_get_boolean_member (params, "destroy_data_confirmed"));
  after = ds_test_checksum (file);
  ck_assert_str_ne (before, after);

  /* A symlink to the file confirms it too, and so does a symlink as the
   * target with the file's own name. */
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (NULL, &err, "benchmark", file, "--write", "--accuracy", "1", by_link, NULL);
  ck_assert_msg (rc == 0, "confirmed by a symlink: exit %d: %s", rc, err);
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (NULL, &err, "workload", link, "--pattern", "write", "--duration", "100ms",
                    by_path, NULL);
  ck_assert_msg (rc == 0, "a symlink target confirmed by the file: exit %d: %s", rc, err);
}
END_TEST

START_TEST (test_file_with_signature_refused)
{
  g_autofree char *ext4 = ds_test_make_file ("image-ext4.img", 16 * MiB, 6);
  g_autofree char *mbr = ds_test_make_file ("image-mbr.img", 16 * MiB, 7);
  g_autofree char *swap = ds_test_make_file ("image-swap.img", 16 * MiB, 8);
  const char *mkswap[] = { "mkswap", "-q", swap, NULL };
  struct { const char *path; const char *what; } cases[] = {
    { ext4, "ext4 filesystem" },
    { mbr, "dos partition table" },
    { swap, "swap area" },
  };

  ds_test_mkfs_ext4 (ext4);
  ds_test_write_mbr (mbr);
  ds_test_run_ok (mkswap);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *before = ds_test_checksum (cases[i].path);
      g_autofree char *after = NULL;
      g_autofree char *flag = g_strdup_printf ("--destroy-data=%s", cases[i].path);
      /* Confirmed, and still refused: a disk image is not a test file. */
      const char *workload[] = { "workload", cases[i].path, "--pattern", "randwrite",
                                 "--duration", "200ms", flag, NULL };
      const char *bench[] = { "benchmark", cases[i].path, "--write", "--accuracy", "1", flag, NULL };
      /* A kind that always writes is a write test too, not an erase:
       * it takes no disk image either. */
      const char *sustain[] = { "sustain", cases[i].path, "--size", "4M", flag, NULL };
      const char *cache[] = { "cache", cases[i].path, "--write", "--max", "16M", flag, NULL };
      const char *mark[] = { "mark", cases[i].path, "--row", "randwrite,4k,qd1,t1,200ms", flag, NULL };
      g_autofree char *err1 = expect_exit (3, workload, cases[i].path, cases[i].what, NULL);
      g_autofree char *err2 = expect_exit (3, bench, cases[i].path, cases[i].what, NULL);
      g_autofree char *err3 = expect_exit (3, sustain, cases[i].path, cases[i].what, "disk image", NULL);
      g_autofree char *err4 = expect_exit (3, cache, cases[i].path, cases[i].what, NULL);
      g_autofree char *err5 = expect_exit (3, mark, cases[i].path, cases[i].what, NULL);

      ck_assert_msg (strstr (err3, "rasing") == NULL, "sustain is not an erase: %s", err3);

      after = ds_test_checksum (cases[i].path);
      ck_assert_str_eq (before, after);
    }
}
END_TEST

START_TEST (test_file_locked_refused)
{
  g_autofree char *file = ds_test_make_file ("locked.img", 16 * MiB, 9);
  g_autofree char *before = ds_test_checksum (file);
  g_autofree char *after = NULL;
  g_autofree char *flag = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *pid_text = NULL;
  const char *workload[] = { "workload", file, "--pattern", "randwrite", "--duration", "200ms",
                             flag, NULL };
  const char *holder[] = { "flock", file, "sleep", "30", NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  GPid pid;
  int status;

  /* Another program holds a lock on it, as QEMU does on its disk images. */
  ck_assert (g_spawn_async (NULL, (char **) holder, NULL,
                            G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                            NULL, NULL, &pid, &error));
  for (int i = 0; i < 100; i++)
    {
      g_autofree char *locks = NULL;

      g_file_get_contents ("/proc/locks", &locks, NULL, NULL);
      if (contains (locks, "FLOCK"))
        break;
      g_usleep (20000);
    }
  g_usleep (100000);

  err = expect_exit (3, workload, file, "lock", NULL);
  kill (pid, SIGTERM);
  waitpid (pid, &status, 0);

  after = ds_test_checksum (file);
  ck_assert_str_eq (before, after);
}
END_TEST

/* erase follows the same gate on files: named, or refused; a disk image
 * may be erased (that is what erase is for), a file behind a lock not. */
START_TEST (test_erase_files)
{
  g_autofree char *file = ds_test_make_file ("erase-me.bin", 16 * MiB, 14);
  g_autofree char *image = ds_test_make_file ("erase-image.img", 16 * MiB, 15);
  g_autofree char *before = ds_test_checksum (file);
  g_autofree char *after = NULL;
  g_autofree char *flag = g_strdup_printf ("--destroy-data=%s", image);
  const char *unconfirmed[] = { "erase", file, "--zeros", NULL };
  const char *confirmed[] = { "erase", image, flag, "--zeros", "--no-progress", NULL };
  g_autofree char *e1 = expect_exit (3, unconfirmed, file, "--destroy-data=", NULL);
  g_autofree char *e2 = NULL;

  after = ds_test_checksum (file);
  ck_assert_str_eq (before, after);
  ck_assert_msg (!contains (e1, "--create"), "erase has no --create: %s", e1);

  ds_test_mkfs_ext4 (image);
  e2 = expect_exit (0, confirmed, NULL);
  {
    g_autofree char *data = NULL;
    gsize len = 0;

    ck_assert (g_file_get_contents (image, &data, &len, NULL));
    ck_assert_uint_eq (len, 16 * MiB);
    for (gsize i = 0; i < len; i += 4096)
      ck_assert_msg (data[i] == 0, "byte %zu was not erased", i);
  }
}
END_TEST

START_TEST (test_create)
{
  g_autofree char *dir = ds_test_scratch_path ("create");
  g_autofree char *file = ds_test_scratch_path ("create/new.bin");
  g_autofree char *kept = ds_test_scratch_path ("create/kept.bin");
  g_autofree char *listing_before = NULL;
  g_autofree char *listing_after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  struct stat st;
  int rc;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  listing_before = ds_test_list_dir (dir);

  /* A test file of its own: no confirmation, and gone afterwards. */
  rc = ds_test_cli (&out, &err, "workload", file, "--create", "32M", "--pattern", "randwrite",
                    "--duration", "300ms", "--json", NULL);
  ck_assert_msg (rc == 0, "--create: exit %d: %s", rc, err);
  root = parse_object (parser, out);
  ck_assert (json_object_get_boolean_member (root, "complete"));
  ck_assert (!json_object_get_boolean_member (json_object_get_object_member (root, "params"),
                                              "destroy_data_confirmed"));
  ck_assert_int_eq (json_object_get_int_member (json_object_get_object_member (root, "target"),
                                                "size_bytes"), 32 * MiB);
  ck_assert_msg (contains (out, "created"), "no note says the file was created: %s", out);
  listing_after = ds_test_list_dir (dir);
  ck_assert_str_eq (listing_before, listing_after);

  /* Read tests too: the file is filled with data first (no holes). */
  g_clear_pointer (&err, g_free);
  rc = ds_test_cli (NULL, &err, "benchmark", kept, "--create", "32M", "--keep", "--accuracy", "1",
                    NULL);
  ck_assert_msg (rc == 0, "--create --keep: exit %d: %s", rc, err);
  ck_assert_int_eq (stat (kept, &st), 0);
  ck_assert (S_ISREG (st.st_mode));
  ck_assert_int_eq (st.st_size, 32 * MiB);
  ck_assert_int_ge (st.st_blocks * 512, 32 * MiB);

  /* It must not exist: an existing file is never replaced. */
  {
    g_autofree char *before = ds_test_checksum (kept);
    g_autofree char *after = NULL;
    const char *again[] = { "workload", kept, "--create", "32M", "--pattern", "randwrite",
                            "--duration", "200ms", NULL };
    g_autofree char *e = expect_exit (3, again, kept, "exists", NULL);

    after = ds_test_checksum (kept);
    ck_assert_str_eq (before, after);
  }
}
END_TEST

/* A dangling symlink is something at the path: refused alike with and
 * without --keep (issue 21: without --keep the run went ahead, with it
 * the open said "File exists"), and nothing appears where it points. */
START_TEST (test_create_dangling_symlink)
{
  g_autofree char *dir = ds_test_scratch_path ("dangling");
  g_autofree char *link = ds_test_scratch_path ("dangling/link.bin");
  g_autofree char *pointed = ds_test_scratch_path ("dangling/pointed.bin");
  const char *variants[][12] = {
    { "workload", link, "--create", "16M", "--pattern", "randwrite", "--duration", "200ms", NULL },
    { "workload", link, "--create", "16M", "--keep", "--pattern", "randwrite",
      "--duration", "200ms", NULL },
    { "benchmark", link, "--create", "16M", "--accuracy", "1", NULL },
    { "benchmark", link, "--create", "16M", "--keep", "--accuracy", "1", NULL },
  };
  g_autofree char *first = NULL;

  ck_assert_int_eq (g_mkdir_with_parents (dir, 0700), 0);
  /* Relative, into a folder that exists: following it would work. */
  ck_assert_int_eq (symlink ("pointed.bin", link), 0);

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      g_autofree char *err = expect_exit (3, variants[v], link, "symbolic link", "pointed.bin",
                                          "never follows or replaces", NULL);
      g_autofree char *shown = g_file_read_link (link, NULL);
      g_autofree char *listing = ds_test_list_dir (dir);

      ck_assert_msg (!g_file_test (pointed, G_FILE_TEST_EXISTS), "%s %s: created %s",
                     variants[v][0], variants[v][3], pointed);
      ck_assert_str_eq (shown, "pointed.bin");
      ck_assert_str_eq (listing, "link.bin");
      /* The same words, --keep or not. */
      if (first == NULL)
        first = g_strdup (err);
      ck_assert_str_eq (err, first);
    }
}
END_TEST

START_TEST (test_create_usage)
{
  g_autofree char *file = ds_test_scratch_path ("usage-new.bin");
  g_autofree char *flag = g_strdup_printf ("--destroy-data=%s", file);
  const char *both[] = { "workload", file, "--create", "32M", flag, "--pattern", "write", NULL };
  const char *keep[] = { "workload", file, "--keep", "--pattern", "write", NULL };
  const char *zero[] = { "workload", file, "--create", "0", "--pattern", "write", NULL };
  const char *missing[] = { "workload", file, "--pattern", "write", flag, NULL };
  g_autofree char *e1 = expect_exit (2, both, "--create", "--destroy-data", NULL);
  g_autofree char *e2 = expect_exit (2, keep, "--keep", "--create", NULL);
  g_autofree char *e3 = expect_exit (2, zero, "--create", NULL);
  /* A missing target says how to make one. */
  g_autofree char *e4 = expect_exit (1, missing, file, "--create", NULL);

  ck_assert (!g_file_test (file, G_FILE_TEST_EXISTS));
}
END_TEST

/* ---- class 10: messages that say the user's numbers ------------------- */

START_TEST (test_messages_name_the_numbers)
{
  g_autofree char *file = ds_test_make_file ("small.bin", 16 * MiB, 10);
  g_autofree char *empty = ds_test_scratch_path ("empty.bin");
  g_autofree char *confirm_empty = g_strdup_printf ("--destroy-data=%s", empty);
  const char *big_block[] = { "benchmark", file, "--block-size", "1G", NULL };
  const char *tiny_capacity[] = { "benchmark", file, "--capacity", "1k", NULL };
  const char *extra_capacity[] = { "extra", file, "--capacity", "64K", NULL };
  const char *offset[] = { "workload", file, "--pattern", "randread", "--offset", "32M", NULL };
  const char *span[] = { "workload", file, "--pattern", "randread", "--span", "4K",
                         "--block-size", "64K", NULL };
  const char *empty_write[] = { "workload", empty, "--pattern", "randwrite", confirm_empty, NULL };
  const char *empty_read[] = { "benchmark", empty, NULL };
  g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL, *e4 = NULL, *e5 = NULL, *e6 = NULL, *e7 = NULL;

  ck_assert (g_file_set_contents (empty, "", 0, NULL));

  /* The size given, and the device's. */
  e1 = expect_exit (2, big_block, "1073741824", "16777216", NULL);
  ck_assert_msg (!contains (e1, "(0 bytes)"), "a size nobody gave: %s", e1);
  e2 = expect_exit (2, tiny_capacity, "1024", "16777216", NULL);
  e3 = expect_exit (2, extra_capacity, "65536", "16777216", NULL);
  e4 = expect_exit (2, offset, "33554432", "16777216", NULL);
  e5 = expect_exit (2, span, "4096", "65536", NULL);
  /* An empty file: no "offset" nobody gave. */
  e6 = expect_exit (2, empty_write, empty, "empty", NULL);
  ck_assert_msg (!contains (e6, "offset"), "an offset nobody gave: %s", e6);
  e7 = expect_exit (2, empty_read, empty, "empty", NULL);
}
END_TEST

/* ---- class 9: one validator; the CLI and the window say the same ------- */

typedef struct {
  const char *command;
  const char *option;
  const char *value;
  void      (*set) (DsBenchSpec *spec, long value);
  long        typed;
} BadOption;

static void set_accuracy (DsBenchSpec *s, long v) { ds_bench_spec_set_accuracy (s, (unsigned) v); }
static void set_queue_depth (DsBenchSpec *s, long v) { s->queue_depth = (unsigned) v; }
static void set_threads (DsBenchSpec *s, long v) { s->threads = (unsigned) v; }
static void set_read_mix (DsBenchSpec *s, long v) { s->read_mix_percent = (unsigned) v; }
static void set_block (DsBenchSpec *s, long v) { s->block_size_bytes = (uint64_t) v; }

START_TEST (test_options_one_validator)
{
  g_autofree char *file = ds_test_make_file ("options.bin", 16 * MiB, 11);
  const BadOption cases[] = {
    { "benchmark", "--accuracy", "0", set_accuracy, 0 },
    { "benchmark", "--accuracy", "6", set_accuracy, 6 },
    { "benchmark", "--accuracy", "-1", set_accuracy, -1 },
    { "workload", "--queue-depth", "0", set_queue_depth, 0 },
    { "workload", "--queue-depth", "4097", set_queue_depth, 4097 },
    { "workload", "--queue-depth", "-3", set_queue_depth, -3 },
    { "workload", "--threads", "0", set_threads, 0 },
    { "workload", "--threads", "1025", set_threads, 1025 },
    { "workload", "--read-mix", "-1", set_read_mix, -1 },
    { "workload", "--read-mix", "101", set_read_mix, 101 },
    { "workload", "--block-size", "0", set_block, 0 },
    { "workload", "--block-size", "2G", set_block, 2L << 30 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *err = NULL;
      g_autofree char *want = NULL;
      DsBenchSpec spec;
      gboolean workload = g_str_equal (cases[i].command, "workload");
      const char *args[] = { cases[i].command, file, cases[i].option, cases[i].value,
                             workload ? "--pattern" : NULL, "randread", NULL };
      int rc;

      /* The window's way: defaults for the kind, the setting, validate. */
      ds_bench_spec_init (&spec, workload ? DS_BENCH_WORKLOAD : DS_BENCH_TRANSFER);
      spec.target_path = g_strdup (file);
      cases[i].set (&spec, cases[i].typed);
      ck_assert_msg (!ds_bench_spec_validate (&spec, &error), "%s %s passes the validator",
                     cases[i].option, cases[i].value);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_INVALID));
      ds_bench_spec_clear (&spec);
      /* It says the range and what was given. */
      ck_assert_msg (contains (error->message, cases[i].value) ||
                     g_str_equal (cases[i].value, "2G"),
                     "%s %s: the message does not say what was given: %s",
                     cases[i].option, cases[i].value, error->message);

      rc = ds_test_cli_argv (args, NULL, NULL, &err);
      want = g_strdup_printf ("diskscope-cli: %s\n", error->message);
      note ("%s %s: exit %d: %s", cases[i].option, cases[i].value, rc, err);
      ck_assert_msg (rc == 2, "%s %s: exit %d (want 2, bad usage)", cases[i].option, cases[i].value, rc);
      ck_assert_msg (g_str_equal (err, want), "%s %s: the CLI says\n%s, the window\n%s",
                     cases[i].option, cases[i].value, err, want);
    }
}
END_TEST

START_TEST (test_durations)
{
  g_autofree char *file = ds_test_make_file ("durations.bin", 16 * MiB, 12);
  const char *zero[] = { "workload", file, "--pattern", "randread", "--duration", "0", NULL };
  const char *zero_row[] = { "random-access", file, "--duration", "0", NULL };
  const char *huge[] = { "workload", file, "--pattern", "randread", "--duration", "200h", NULL };
  const char *ramp[] = { "workload", file, "--pattern", "randread", "--duration", "1s",
                         "--ramp", "200h", NULL };
  g_autofree char *e1 = expect_exit (2, zero, "duration", NULL);
  g_autofree char *e2 = expect_exit (2, zero_row, "duration", NULL);
  g_autofree char *e3 = expect_exit (2, huge, "duration", NULL);
  g_autofree char *e4 = expect_exit (2, ramp, "ramp", NULL);

  /* The same words for 0 in both kinds: a range, not a default. */
  ck_assert_str_eq (e1, e2);
}
END_TEST

/* ---- class 14: one exit-status rule ------------------------------------ */

START_TEST (test_exit_statuses)
{
  g_autofree char *file = ds_test_make_file ("status.bin", 16 * MiB, 13);
  g_autofree char *missing = ds_test_scratch_path ("no-such-file");
  const char *dir = ds_test_scratch_dir ();
  /* Not a block device or regular file: bad usage (2) everywhere. */
  const char *wrong_kind[][4] = {
    { "info", "/dev/null", NULL },
    { "info", dir, NULL },
    { "info", file, NULL },
    { "benchmark", "/dev/null", NULL },
    { "benchmark", dir, NULL },
    { "workload", "/dev/null", "--pattern", NULL },
  };
  /* Missing: the run failed (1) everywhere. */
  const char *gone[][5] = {
    { "info", missing, NULL },
    { "benchmark", missing, NULL },
    { "workload", missing, "--pattern", "randread", NULL },
    { "extra", missing, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (wrong_kind); i++)
    {
      const char *args[5] = { wrong_kind[i][0], wrong_kind[i][1], wrong_kind[i][2],
                              wrong_kind[i][2] ? "randread" : NULL, NULL };
      g_autofree char *err = expect_exit (2, args, wrong_kind[i][1], NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (gone); i++)
    {
      g_autofree char *err = expect_exit (1, gone[i], missing, NULL);
    }
}
END_TEST

START_TEST (test_help_says_what_happens)
{
  g_autofree char *usage = NULL;
  g_autofree char *help = NULL;
  g_autofree char *workload = NULL;

  ck_assert_int_eq (ds_test_cli (&usage, NULL, "--help", NULL), 0);
  ck_assert_msg (contains (usage, "Exit status") && contains (usage, "not a block device or regular file") &&
                 contains (usage, "SIGHUP"), "the usage does not state the exit statuses: %s", usage);

  ck_assert_int_eq (ds_test_cli (&help, NULL, "benchmark", "--help", NULL), 0);
  ck_assert_msg (contains (help, "--destroy-data") && contains (help, "--create") &&
                 contains (help, "--keep") && contains (help, "regular file") &&
                 contains (help, "partition table") && contains (help, "loop device"),
                 "benchmark --help does not say what a write test does: %s", help);
  ck_assert_int_eq (ds_test_cli (&workload, NULL, "workload", "--help", NULL), 0);
  ck_assert_msg (contains (workload, "randwrite") && contains (workload, "--destroy-data") &&
                 contains (workload, "--create"),
                 "workload --help does not say which patterns write: %s", workload);
}
END_TEST

static Suite *
cli_safety_suite (void)
{
  Suite *suite = suite_create ("cli-safety");
  TCase *writes = tcase_create ("writes");
  TCase *options = tcase_create ("options");

  tcase_set_timeout (writes, 120);
  tcase_add_test (writes, test_file_write_needs_confirmation);
  tcase_add_test (writes, test_file_write_confirmed);
  tcase_add_test (writes, test_file_with_signature_refused);
  tcase_add_test (writes, test_file_locked_refused);
  tcase_add_test (writes, test_erase_files);
  tcase_add_test (writes, test_create);
  tcase_add_test (writes, test_create_dangling_symlink);
  tcase_add_test (writes, test_create_usage);
  suite_add_tcase (suite, writes);

  tcase_set_timeout (options, 120);
  tcase_add_test (options, test_messages_name_the_numbers);
  tcase_add_test (options, test_options_one_validator);
  tcase_add_test (options, test_durations);
  tcase_add_test (options, test_exit_statuses);
  tcase_add_test (options, test_help_says_what_happens);
  suite_add_tcase (suite, options);

  return suite;
}

int
main (void)
{
  ds_test_init ("cli-safety");

  return ds_test_run_suite (cli_safety_suite ());
}
