/* test-cli-erase.c: `erase` on regular files, and what a stopped erase
 * says, through diskscope-cli and the core (no root, no device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every byte of a file is read back here after the erase: the part
 * O_DIRECT can address with O_DIRECT, the last bytes of the file
 * through the page cache after it was dropped, so both come from the
 * disk.  Zeros must be zeros everywhere; random data must be exactly the
 * stream the erase says it wrote (regenerated here from the result's seed
 * as ds-bench-erase.c cuts it); a stopped erase must have changed exactly
 * the bytes its report names, and not one more.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ds-bench-erase.h"
#include "ds-bench-error-scan.h"
#include "ds-buffer.h"
#include "ds-report.h"
#include "ds-result.h"
#include "ds-result-json.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

#define note ds_test_note

/* The sizes of the cases: under, at and just past a sector, a
 * page, an odd megabyte, and 64 MiB + 1 (more than one 4 MiB block). */
static const uint64_t sizes[] = { 1, 511, 512, 513, 4097, 1000001, 64 * MiB + 1 };

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

/* Every byte of @path (@size of them), from the disk. */
static guint8 *
read_back (const char *path,
           uint64_t    size)
{
  uint64_t aligned = size & ~UINT64_C (4095);
  guint8 *buf = ds_buffer_alloc (aligned + 4096, 4096);
  int fd = open (path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  struct stat st;

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (fstat (fd, &st), 0);
  ck_assert_int_eq (st.st_size, (off_t) size);
  for (uint64_t done = 0; done < aligned;)
    {
      ssize_t n = pread (fd, buf + done, MIN (aligned - done, 8 * MiB), (off_t) done);

      ck_assert_int_gt (n, 0);
      done += (uint64_t) n;
    }
  close (fd);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  if (size > aligned)
    ck_assert_int_eq (pread (fd, buf + aligned, size - aligned, (off_t) aligned),
                      (ssize_t) (size - aligned));
  close (fd);

  return buf;
}

/* The stream an erase with @params_seed wrote: ds_run() seeds the run's
 * generator with it, the erase draws its own seed from that, and each
 * piece (blocks of @block over the part O_DIRECT addresses, then the
 * tail) is a stream of its own from (seed, offset). */
static guint8 *
expected_random (uint64_t size,
                 uint64_t params_seed,
                 uint64_t block,
                 uint64_t align)
{
  guint8 *want = g_malloc (size);
  uint64_t direct_end = size & ~(align - 1);
  uint64_t seed;
  DsRng rng;

  ds_rng_seed (&rng, params_seed);
  seed = ds_rng_next (&rng);
  for (uint64_t off = 0; off < size;)
    {
      uint64_t len = off < direct_end ? MIN (block, direct_end - off) : size - off;
      DsRng piece;

      ds_rng_seed (&piece, seed ^ (off * UINT64_C (0x9E3779B97F4A7C15)));
      ds_buffer_fill (want + off, len, &piece);
      off += len;
    }

  return want;
}

static uint64_t
first_nonzero (const guint8 *p,
               uint64_t      len)
{
  for (uint64_t i = 0; i < len; i++)
    if (p[i] != 0)
      return i;
  return len;
}

static JsonObject *
member_object (JsonObject *o,
               const char *name)
{
  ck_assert_msg (json_object_has_member (o, name), "no “%s”", name);
  return json_object_get_object_member (o, name);
}

/* Erases a fresh file of each size with @method and checks the result's
 * figures and every byte on the disk. */
static void
erase_every_size (const char *method)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      uint64_t size = sizes[i];
      g_autofree char *name = g_strdup_printf ("erase-%s-%" G_GUINT64_FORMAT, method, size);
      g_autofree char *file = ds_test_make_file (name, size, 100 + i);
      g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
      g_autofree char *option = g_strconcat ("--", method, NULL);
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autofree guint8 *before = read_back (file, size);
      guint8 *after;
      JsonObject *root, *r;
      int rc;

      ck_assert_uint_lt (first_nonzero (before + (size - 1), 1), 1);  /* the last byte was data */
      rc = ds_test_cli (&out, &err, "erase", file, confirm, option, "--verify", "--json",
                        "--no-library", "--no-progress", NULL);
      note ("%s, %" G_GUINT64_FORMAT " bytes: exit %d %s", method, size, rc, err ? err : "");
      ck_assert_msg (rc == 0, "%s of %" G_GUINT64_FORMAT " bytes: exit %d: %s", method, size, rc, err);
      ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
      root = json_node_get_object (json_parser_get_root (parser));
      r = member_object (root, "results");
      ck_assert_int_eq (json_object_get_int_member (r, "size_bytes"), (gint64) size);
      ck_assert_int_eq (json_object_get_int_member (r, "bytes_done"), (gint64) size);
      ck_assert_int_eq (json_object_get_int_member (r, "reached_bytes"), (gint64) size);
      ck_assert_int_eq (json_object_get_int_member (r, "bytes_verified"), (gint64) size);
      ck_assert (json_object_get_boolean_member (r, "verified"));

      after = read_back (file, size);
      if (strcmp (method, "random") == 0)
        {
          JsonObject *params = member_object (root, "params");
          uint64_t seed = g_ascii_strtoull (json_object_get_string_member (params, "seed"), NULL, 10);
          uint64_t align = (uint64_t) json_object_get_int_member (member_object (root, "target"),
                                                                  "logical_block_size");
          g_autofree guint8 *want = expected_random (size, seed,
                                                     (uint64_t) json_object_get_int_member (r, "block_bytes"),
                                                     align);

          if (memcmp (after, want, size) != 0)
            {
              uint64_t b = 0;

              while (after[b] == want[b])
                b++;
              ck_abort_msg ("random, %" G_GUINT64_FORMAT " bytes: byte %" G_GUINT64_FORMAT
                            " is not what was written", size, b);
            }
        }
      else
        ck_assert_msg (first_nonzero (after, size) == size,
                       "%s, %" G_GUINT64_FORMAT " bytes: byte %" G_GUINT64_FORMAT " is not zero",
                       method, size, first_nonzero (after, size));
      ds_buffer_free (after);
      ds_buffer_free (g_steal_pointer (&before));
      unlink (file);
    }
}

START_TEST (test_zeros_every_byte)
{
  erase_every_size ("zeros");
}
END_TEST

START_TEST (test_random_every_byte)
{
  erase_every_size ("random");
}
END_TEST

START_TEST (test_discard_every_byte)
{
  erase_every_size ("discard");
}
END_TEST

/* The text says the whole size; a secure discard of a file is refused and
 * writes nothing. */
START_TEST (test_text_and_secure)
{
  g_autofree char *file = ds_test_make_file ("erase-text", 1000001, 7);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *sum = ds_test_checksum (file);
  g_autofree char *sum2 = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  ck_assert_int_eq (ds_test_cli (&out, &err, "erase", file, confirm, "--secure",
                                 "--no-library", NULL), 1);
  ck_assert_msg (contains (err, "regular file"), "%s", err);
  ck_assert_str_eq (out, "");
  sum2 = ds_test_checksum (file);
  ck_assert_str_eq (sum, sum2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (ds_test_cli (&out, &err, "erase", file, confirm, "--verify",
                                 "--no-library", NULL), 0);
  ck_assert_msg (contains (out, "Written               : 1000001 of 1000001 bytes"), "%s", out);
  ck_assert_msg (contains (out, "yes: every byte read back as written"), "%s", out);
}
END_TEST

/* A discard is read back unless the user says not to. */
START_TEST (test_discard_verifies_by_default)
{
  g_autofree char *file = ds_test_make_file ("erase-discard", 4 * MiB + 3, 8);
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *r;

  ck_assert_int_eq (ds_test_cli (&out, &err, "erase", file, confirm, "--discard", "--json",
                                 "--no-library", NULL), 0);
  ck_assert (json_parser_load_from_data (parser, out, -1, NULL));
  r = member_object (json_node_get_object (json_parser_get_root (parser)), "results");
  ck_assert (json_object_get_boolean_member (r, "verify"));
  ck_assert (json_object_get_boolean_member (r, "verified"));
  ck_assert_int_eq (json_object_get_int_member (r, "bytes_verified"), (gint64) (4 * MiB + 3));
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (r, "survived")), 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (ds_test_cli (&out, &err, "erase", file, confirm, "--discard", "--no-verify",
                                 "--no-library", NULL), 0);
  ck_assert_msg (contains (out, "not asked (--no-verify)"), "%s", out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  ck_assert_int_eq (ds_test_cli (&out, &err, "erase", file, confirm, "--discard", "--verify",
                                 "--no-verify", NULL), 2);
}
END_TEST

/* SIGINT once the erase has begun: the report (text on stdout, JSON in
 * --output) says exactly which bytes were overwritten, and the file holds
 * zeros there and its old bytes everywhere else. */
START_TEST (test_stopped_erase_says_which_bytes)
{
  const uint64_t size = 256 * MiB;
  g_autofree char *file = ds_test_make_file ("erase-stop", size, 31);
  g_autofree char *orig = ds_test_make_file ("erase-stop-orig", size, 31);
  g_autofree char *json = ds_test_scratch_path ("erase-stop.json");
  g_autofree char *confirm = g_strdup_printf ("--destroy-data=%s", file);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (DsResult) saved = NULL;
  g_autofree guint8 *want = NULL;
  guint8 *after;
  guint8 *probe = ds_buffer_alloc (4096, 4096);
  const DsEraseData *data;
  const char *line;
  uint64_t last = 0;
  int fd;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           ds_test_cli_path (), "erase", file, confirm, "--zeros", "--block-size",
                           "64K", "--no-library", "--no-progress", "-o", json, NULL);
  ck_assert_msg (proc != NULL, "%s", error ? error->message : "");
  /* Stop it as soon as its first block is on the disk. */
  fd = open (file, O_RDONLY | O_DIRECT | O_CLOEXEC);
  ck_assert_int_ge (fd, 0);
  for (int i = 0; i < 20000; i++)
    {
      ck_assert_int_eq (pread (fd, probe, 4096, 0), 4096);
      if (first_nonzero (probe, 4096) == 4096)
        break;
      g_usleep (200);
    }
  close (fd);
  ds_buffer_free (probe);
  g_subprocess_send_signal (proc, SIGINT);
  ck_assert (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error));
  ck_assert (g_subprocess_get_if_exited (proc));
  note ("stopped erase: exit %d, %s", g_subprocess_get_exit_status (proc), err);
  ck_assert_int_eq (g_subprocess_get_exit_status (proc), 130);
  ck_assert_msg (contains (err, "the partial result was printed"), "%s", err);

  line = strstr (out, "Overwritten before the stop: bytes 0 – ");
  ck_assert_msg (line != NULL, "no overwritten range in: %s", out);
  last = g_ascii_strtoull (line + strlen ("Overwritten before the stop: bytes 0 – "), NULL, 10);
  ck_assert_msg (contains (line, "of 268435456; the rest"), "%s", line);
  ck_assert_msg (contains (out, "Stopped by the user"), "%s", out);

  saved = ds_result_load (json, &error);
  ck_assert_msg (saved != NULL, "%s", error ? error->message : "");
  ck_assert (saved->cancelled);
  data = saved->data;
  ck_assert_uint_eq (data->reached_bytes, last + 1);
  ck_assert_uint_eq (data->bytes_done, last + 1);
  ck_assert_uint_lt (data->reached_bytes, size);
  ck_assert_uint_eq (data->reached_bytes % (64 * 1024), 0);
  note ("stopped after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes", data->reached_bytes, size);
  text = ds_report_text (saved, DS_UNITS_MB);
  ck_assert_msg (contains (text, "Overwritten before the stop: bytes 0 – "), "%s", text);

  after = read_back (file, size);
  want = read_back (orig, size);
  ck_assert_uint_eq (first_nonzero (after, data->reached_bytes), data->reached_bytes);
  ck_assert_msg (memcmp (after + data->reached_bytes, want + data->reached_bytes,
                         size - data->reached_bytes) == 0,
                 "bytes past %" G_GUINT64_FORMAT " were changed", data->reached_bytes);
  ds_buffer_free (after);
  ds_buffer_free (g_steal_pointer (&want));
}
END_TEST

/* The one decision "was anything measured": a stopped erase or scan whose
 * data holds figures is reported, whatever the engine. */
START_TEST (test_partial_results_are_measurements)
{
  DsBenchSpec spec;
  g_autoptr (DsResult) erase = NULL;
  g_autoptr (DsResult) scan = NULL;
  g_autoptr (DsResult) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  DsEraseData *data;

  ds_bench_spec_init (&spec, DS_BENCH_ERASE);
  spec.target_path = g_strdup ("/dev/loop9");
  erase = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  erase->target.path = g_strdup ("/dev/loop9");
  erase->target.size_bytes = 268435456;
  erase->cancelled = TRUE;
  data = erase->data;
  data->method = DS_ERASE_ZEROS;
  data->size_bytes = 268435456;
  data->block_bytes = 4 * MiB;
  ck_assert (!ds_result_has_measurements (erase));
  data->bytes_done = data->reached_bytes = 114294784;
  data->erase_ns = 1000000000;
  ck_assert (ds_result_has_measurements (erase));
  ck_assert_ptr_null (erase->engine);

  text = ds_report_text (erase, DS_UNITS_MB);
  ck_assert_msg (contains (text, "Overwritten before the stop: bytes 0 – 114294783 (109.0 MiB) of "
                           "268435456; the rest (154140672 bytes from offset 114294784) is untouched"),
                 "%s", text);
  ck_assert_msg (contains (text, "Written               : 114294784 of 268435456 bytes"), "%s", text);

  /* The JSON keeps where it stopped; a file without "reached_bytes" and
   * "survived" (written before them) still loads. */
  json = ds_result_to_data (erase, NULL);
  back = ds_result_load_data (json, -1, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (((DsEraseData *) back->data)->reached_bytes, 114294784);
  g_clear_pointer (&back, ds_result_free);
  {
    g_autoptr (GRegex) drop = g_regex_new (",\\s*\"(reached_bytes|survived)\" : [^,\\n]*", 0, 0, NULL);
    g_autofree char *old = g_regex_replace_literal (drop, json, -1, 0, "", 0, NULL);

    ck_assert (!contains (old, "reached_bytes"));
    back = ds_result_load_data (old, -1, &error);
    ck_assert_msg (back != NULL, "%s\n%s", error ? error->message : "", old);
    ck_assert_uint_eq (((DsEraseData *) back->data)->reached_bytes, 114294784);
    g_clear_pointer (&back, ds_result_free);
  }
  {
    g_autoptr (GRegex) lie = g_regex_new ("\"reached_bytes\" : [0-9]+", 0, 0, NULL);
    g_autofree char *bad = g_regex_replace_literal (lie, json, -1, 0, "\"reached_bytes\" : 5", 0, NULL);

    back = ds_result_load_data (bad, -1, &error);
    ck_assert_ptr_null (back);
    ck_assert_msg (contains (error->message, "reached_bytes"), "%s", error->message);
  }

  ds_bench_spec_init (&spec, DS_BENCH_ERROR_SCAN);
  spec.target_path = g_strdup ("/dev/loop9");
  scan = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);
  scan->cancelled = TRUE;
  ck_assert (!ds_result_has_measurements (scan));
  ((DsScanData *) scan->data)->blocks_read = 1697;
  ck_assert (ds_result_has_measurements (scan));
}
END_TEST

static Suite *
cli_erase_suite (void)
{
  Suite *suite = suite_create ("cli-erase");
  TCase *files = tcase_create ("files");
  TCase *stop = tcase_create ("stop");

  tcase_set_timeout (files, 240);
  tcase_add_test (files, test_zeros_every_byte);
  tcase_add_test (files, test_random_every_byte);
  tcase_add_test (files, test_discard_every_byte);
  tcase_add_test (files, test_text_and_secure);
  tcase_add_test (files, test_discard_verifies_by_default);
  suite_add_tcase (suite, files);

  tcase_set_timeout (stop, 120);
  tcase_add_test (stop, test_stopped_erase_says_which_bytes);
  tcase_add_test (stop, test_partial_results_are_measurements);
  suite_add_tcase (suite, stop);

  return suite;
}

int
main (void)
{
  ds_test_init ("cli-erase");

  return ds_test_run_suite (cli_erase_suite ());
}
