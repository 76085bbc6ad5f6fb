/* test-kind-erase.c: the erase kind's files beside its run
 * (core/kinds/erase/ds-erase-compare.c, -fio.c, -json.c, -text.c, -io.c,
 * -discard.c), without a device
 *
 * Unit suite: no root, no device.  What they promise: the comparison's
 * nine figures in the report's order, "not measured" where a rate or a
 * read-back has nothing behind it, and the note on the read-back; fio's
 * refusal word for word; the "results" object member by member, its
 * strict inverse with each refusal's message, a scan's object refused,
 * and what an older file without reached_bytes or survived means; the
 * report's lines for every method and verdict and which bytes a stopped
 * run changed; how the target is cut into O_DIRECT pieces and a tail,
 * each written and read back on a regular file (a file cut short reads
 * as an error); the phases' samples and progress; the failures as the run
 * records them; a discard on a regular file (a punched hole) that samples
 * each piece first, what "survived" then means, and each refusal before
 * anything is erased.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds-bench-erase.h"
#include "ds-erase-private.h"
#include "ds-error.h"
#include "ds-fio-job.h"
#include "ds-result.h"
#include "ds-test-kind.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1) << 20)

/* ---- fixtures --------------------------------------------------------- */

/* The nine rows, in the section "Erase" and without a measure, and their
 * values in order (NAN: not measured), exactly; and the one note. */
static void
assert_rows (const DsTestSink *sink, const double *want, const char *note)
{
  ck_assert_uint_eq (sink->rows->len, 1 + 9);
  ck_assert_str_eq (sink->rows->pdata[0], "[Erase]");
  ck_assert_uint_eq (sink->values->len, 9);
  for (guint i = 0; i < 9; i++)
    {
      const char *row = sink->rows->pdata[1 + i];
      g_auto (GStrv) fields = g_strsplit (row, "|", -1);
      double v = g_array_index (sink->values, double, i);

      ck_assert_msg (g_strv_length (fields) == 6 && fields[2][0] == '\0', "%s: a measure", row);
      if (isnan (want[i]))
        ck_assert_msg (isnan (v), "%s: %g, want not measured", row, v);
      else
        ck_assert_msg (v == want[i], "%s: %.17g, want %.17g", row, v, want[i]);
    }
  ck_assert_uint_eq (sink->notes->len, 1);
  ck_assert_str_eq (sink->notes->pdata[0], note);
}

/* An erase result of @method on 256 MiB, every byte erased in 2 s; read
 * back and verified in 1 s when @verify. */
static DsResult *
erase_result (DsEraseMethod method,
              gboolean      verify)
{
  DsResult *r = ds_result_new_blank (DS_BENCH_ERASE);
  DsEraseData *d = ds_erase_data_new ();

  r->data = d;
  r->target.path = g_strdup ("/dev/sdz");
  d->method = method;
  d->verify = verify;
  d->size_bytes = d->bytes_done = d->reached_bytes = 256 * MiB;
  d->block_bytes = 4 * MiB;
  d->erase_ns = 2000000000;
  if (verify)
    {
      d->bytes_verified = 256 * MiB;
      d->verify_ns = 1000000000;
      d->verified = TRUE;
    }
  return r;
}

/* ---- ds-erase-compare.c ----------------------------------------------- */

/* Every figure with its key, name, unit and direction, in the report's
 * order; a verified overwrite's rates from bytes over time. */
START_TEST (test_compare_verified)
{
  /* key|name|measure|unit|+ or -| */
  static const char *const want[] = {
    "size|To erase||bytes|+|",
    "done|Erased||bytes|+|",
    "erase_rate|Erase rate||rate|+|",
    "erase_time|Erase time||time|-|",
    "verified|Read back||bytes|+|",
    "verify_rate|Verify rate||rate|+|",
    "write_errors|Blocks not written||bytes|-|",
    "mismatches|Blocks that read back otherwise||bytes|-|",
    "survived|Blocks whose data survived a discard||bytes|-|",
  };
  g_autoptr (DsResult) r = erase_result (DS_ERASE_ZEROS, TRUE);
  const double m = 256.0 * MiB;
  DsTestSink sink;

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_ERASE)->compare_rows, ds_erase_compare_rows);
  ds_test_sink_compare (&sink, r);
  for (guint i = 0; i < G_N_ELEMENTS (want) && 1 + i < sink.rows->len; i++)
    ck_assert_msg (g_str_has_prefix (sink.rows->pdata[1 + i], want[i]), "%s, want %s…",
                   (char *) sink.rows->pdata[1 + i], want[i]);
  /* An overwrite has no "survived": that is a discard's figure. */
  assert_rows (&sink, (const double[]) { m, m, m / 2, 2, m, m, 0, 0, NAN },
               "every byte read back as written");
  ds_test_sink_clear (&sink);
}
END_TEST

/* What has nothing behind it is not measured, not a zero: a rate without
 * time or bytes, a read-back not asked; a discard's survivors count. */
START_TEST (test_compare_not_measured)
{
  g_autoptr (DsResult) r = erase_result (DS_ERASE_DISCARD, TRUE);
  DsEraseData *d = r->data;
  DsTestSink sink;

  d->erase_ns = 0;
  d->bytes_verified = 128 * MiB;
  d->verify_ns = 500000000;
  d->verified = FALSE;
  ds_range_list_add (&d->mismatches, 4096, 8192);
  ds_range_list_add (&d->survived, 4096, 4096);
  {
    const double m = 256.0 * MiB;

    ds_test_sink_compare (&sink, r);
    assert_rows (&sink, (const double[]) { m, m, NAN, NAN, m / 2, m / 2 / 0.5, 0, 8192, 4096 },
                 "the read-back did not confirm every byte");
    ds_test_sink_clear (&sink);
  }

  /* Not read back: nothing done in 5 ns, one block not written. */
  d->method = DS_ERASE_RANDOM;
  d->verify = FALSE;
  d->bytes_done = 0;
  d->erase_ns = 5;
  d->bytes_verified = 0;
  d->verify_ns = 0;
  ds_range_list_add (&d->write_errors, 0, 65536);
  ds_test_sink_compare (&sink, r);
  assert_rows (&sink, (const double[]) { 256.0 * MiB, 0, NAN, 5e-9, NAN, NAN, 65536, NAN, NAN },
               "not read back");
  ds_test_sink_clear (&sink);
}
END_TEST

/* ---- ds-erase-fio.c --------------------------------------------------- */

/* Refused, whatever the result, and the job is left as it was. */
START_TEST (test_fio_refused)
{
  const DsEraseMethod methods[] = { DS_ERASE_ZEROS, DS_ERASE_SECURE_DISCARD };

  ck_assert_ptr_eq (ds_bench_get (DS_BENCH_ERASE)->fio_job, ds_erase_fio_job);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      g_autoptr (DsResult) r = erase_result (methods[i], i == 0);
      g_autoptr (GString) out = g_string_new ("; before\n");
      DsFioJobFile job = { .out = out, .filename = "/dev/sdz" };
      g_autoptr (GError) error = NULL;

      ck_assert (!ds_bench_get (DS_BENCH_ERASE)->fio_job (r, &job, &error));
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_UNSUPPORTED));
      ck_assert_str_eq (error->message,
                        "an Erase cannot be expressed as a fio job, because fio neither discards "
                        "nor reads back to verify, and a job that overwrites a disk should be the "
                        "erase itself (diskscope-cli erase), with its confirmation");
      ck_assert_str_eq (out->str, "; before\n");
      ck_assert (!ds_erase_fio_job (r, &job, NULL));
    }
}
END_TEST

/* ---- ds-erase-json.c -------------------------------------------------- */

/* Member by member; "verified" is null unless every byte was read back. */
START_TEST (test_json_members)
{
  g_autoptr (DsResult) r = erase_result (DS_ERASE_SECURE_DISCARD, TRUE);
  DsEraseData *d = r->data;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;

  ds_range_list_add (&d->survived, 512, 1024);
  node = ds_erase_data_to_json (d);
  o = json_node_get_object (node);
  ck_assert_uint_eq (json_object_get_size (o), 14);
  ck_assert_str_eq (json_object_get_string_member (o, "method"), "secure-discard");
  ck_assert (json_object_get_boolean_member (o, "verify"));
  ck_assert (json_object_get_boolean_member (o, "verified"));
  ck_assert_int_eq (json_object_get_int_member (o, "size_bytes"), 268435456);
  ck_assert_int_eq (json_object_get_int_member (o, "block_bytes"), 4194304);
  ck_assert_int_eq (json_object_get_int_member (o, "bytes_done"), 268435456);
  ck_assert_int_eq (json_object_get_int_member (o, "reached_bytes"), 268435456);
  ck_assert_double_eq (json_object_get_double_member (o, "elapsed_s"), 2.0);
  ck_assert_double_eq (json_object_get_double_member (o, "bytes_per_s"), 134217728.0);
  ck_assert_int_eq (json_object_get_int_member (o, "bytes_verified"), 268435456);
  ck_assert_double_eq (json_object_get_double_member (o, "verify_elapsed_s"), 1.0);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "write_errors")), 0);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "mismatches")), 0);
  ck_assert_uint_eq (json_array_get_length (json_object_get_array_member (o, "survived")), 1);

  /* Not every byte read back, not asked, nothing to erase: null; no time,
   * no rate (0, not a division by zero). */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (JsonNode) n = NULL;

      d->verify = i != 1;
      d->bytes_verified = i == 0 ? d->size_bytes - 1 : d->size_bytes;
      d->erase_ns = 0;
      if (i == 2)
        d->size_bytes = d->bytes_verified = d->bytes_done = d->reached_bytes = 0;
      n = ds_erase_data_to_json (d);
      ck_assert (json_object_get_null_member (json_node_get_object (n), "verified"));
      ck_assert_double_eq (json_object_get_double_member (json_node_get_object (n), "bytes_per_s"), 0);
    }
}
END_TEST

/* to_json and back is the same data (the seed is the spec's, not here);
 * what older files lack is read as they meant it. */
START_TEST (test_json_round_trip)
{
  g_autoptr (DsResult) r = erase_result (DS_ERASE_RANDOM, TRUE);
  DsEraseData *d = r->data;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  DsEraseData *back;

  ds_range_list_add (&d->write_errors, 8 * MiB, 4 * MiB);
  ds_range_list_add (&d->mismatches, 0, 4 * MiB);
  ds_range_list_add (&d->mismatches, 20 * MiB, 4 * MiB);
  d->bytes_done = 96 * MiB;
  d->reached_bytes = 100 * MiB;
  d->erase_ns = 1500000000;
  d->verified = FALSE;
  node = ds_erase_data_to_json (d);
  back = ds_erase_data_from_json (json_node_get_object (node), &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (back->method, DS_ERASE_RANDOM);
  ck_assert (back->verify && !back->verified);
  ck_assert_uint_eq (back->size_bytes, 256 * MiB);
  ck_assert_uint_eq (back->block_bytes, 4 * MiB);
  ck_assert_uint_eq (back->bytes_done, 96 * MiB);
  ck_assert_uint_eq (back->reached_bytes, 100 * MiB);
  ck_assert_uint_eq (back->erase_ns, 1500000000);
  ck_assert_uint_eq (back->bytes_verified, 256 * MiB);
  ck_assert_uint_eq (back->verify_ns, 1000000000);
  ck_assert_uint_eq (back->write_errors.total_bytes, 4 * MiB);
  ck_assert_uint_eq (back->mismatches.ranges->len, 2);
  ck_assert_uint_eq (back->mismatches.total_bytes, 8 * MiB);
  ck_assert_uint_eq (back->survived.ranges->len, 0);
  ds_erase_data_free (back);

  /* Before reached_bytes: done and failed from byte 0, at most the size;
   * before survived: none; verified null: not verified; no verify: not
   * asked. */
  json_object_remove_member (json_node_get_object (node), "reached_bytes");
  json_object_remove_member (json_node_get_object (node), "survived");
  json_object_set_null_member (json_node_get_object (node), "verified");
  json_object_remove_member (json_node_get_object (node), "verify");
  back = ds_erase_data_from_json (json_node_get_object (node), &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (back->reached_bytes, 100 * MiB);
  ck_assert (!back->verified && !back->verify);
  ck_assert_uint_eq (back->survived.ranges->len, 0);
  ds_erase_data_free (back);
  json_object_set_int_member (json_node_get_object (node), "bytes_done", 254 * MiB);
  back = ds_erase_data_from_json (json_node_get_object (node), &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (back->reached_bytes, 256 * MiB);
  ds_erase_data_free (back);
  ds_erase_data_free (NULL);
}
END_TEST

/* Each member wrong in turn, with what the loader says. */
START_TEST (test_json_refusals)
{
  static const struct { const char *member, *value, *message; } cases[] = {
    { "method", NULL, "results.method is missing" },
    { "method", "\"shred\"", "results.method “shred” is unknown" },
    { "method", "3", "results.method is not a string" },
    { "verified", NULL, "results.verified is not true, false or null" },
    { "verified", "\"yes\"", "results.verified is not true, false or null" },
    { "verified", "[true]", "results.verified is not true, false or null" },
    { "verify", "\"yes\"", "results.verify is not true or false" },
    { "verify", "1", "results.verify is not true or false" },
    { "verify", "{}", "results.verify is not true or false" },
    { "size_bytes", "-1", "results.size_bytes is out of range (negative or above "
                          "9223372036854775807; expected 0 to 9223372036854775807)" },
    { "size_bytes", "1.5", "results.size_bytes is not a whole number" },
    { "block_bytes", "67108865", "results.block_bytes is out of range (67108865; expected 0 to 67108864)" },
    { "bytes_done", "268435457", "results.bytes_done is out of range (268435457; expected 0 to 268435456)" },
    { "bytes_verified", NULL, "results.bytes_verified is missing" },
    { "elapsed_s", "-0.5", "results.elapsed_s is out of range (-0.5; expected 0 to 1e+09)" },
    { "verify_elapsed_s", "\"1\"", "results.verify_elapsed_s is not a number" },
    { "write_errors", NULL, "results.write_errors is missing" },
    { "mismatches", "{}", "results.mismatches is not a list" },
    { "survived", "[{\"offset_bytes\": 268435455, \"length_bytes\": 2}]",
      "results.survived[0] is empty, out of order, overlaps the one before or lies past the end" },
    { "reached_bytes", "1", "results.reached_bytes (1) is less than results.bytes_done (268435456)" },
    { "reached_bytes", "268435457", "results.reached_bytes is out of range (268435457; expected 0 to 268435456)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsResult) r = erase_result (DS_ERASE_ZEROS, TRUE);
      g_autoptr (JsonNode) node = ds_erase_data_to_json (r->data);
      JsonObject *o = json_node_get_object (node);
      g_autoptr (GError) error = NULL;

      if (cases[i].value == NULL)
        json_object_remove_member (o, cases[i].member);
      else
        json_object_set_member (o, cases[i].member, json_from_string (cases[i].value, NULL));
      ck_assert_msg (ds_erase_data_from_json (o, &error) == NULL, "case %u loaded", i);
      ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
      ck_assert_str_eq (error->message, cases[i].message);
    }

  /* An Error Scan's results are not an erase's. */
  {
    g_autoptr (JsonNode) node = json_from_string ("{\"start_bytes\": 0, \"span_bytes\": 4096}", NULL);
    g_autoptr (GError) error = NULL;

    ck_assert_ptr_null (ds_bench_get (DS_BENCH_ERASE)->from_json (json_node_get_object (node), &error));
    ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
    ck_assert_str_eq (error->message, "results.method is missing");
  }
}
END_TEST

/* ---- ds-erase-text.c -------------------------------------------------- */

START_TEST (test_report_verified)
{
  g_autoptr (DsResult) r = erase_result (DS_ERASE_ZEROS, TRUE);
  g_autofree char *mb = ds_test_report (r, DS_UNITS_MB);
  g_autofree char *mib = ds_test_report (r, DS_UNITS_MIB);

  ck_assert_str_eq (mb, "Method                : overwrite with zeros\n"
                        "Written               : 268435456 of 268435456 bytes in 2.0 s (134.2 MB/s)\n"
                        "Verified              : yes: every byte read back as written\n"
                        "Read back             : 268435456 bytes in 1.0 s (268.4 MB/s)\n");
  ck_assert_msg (strstr (mib, "bytes in 2.0 s (128.0 MiB/s)\n") != NULL, "%s", mib);
  ck_assert_ptr_null (ds_erase_describe_reached (r->data));
}
END_TEST

/* A run that ended part way: which bytes it changed, and the blocks of
 * each list under its heading. */
START_TEST (test_report_partial)
{
  g_autoptr (DsResult) r = erase_result (DS_ERASE_DISCARD, TRUE);
  DsEraseData *d = r->data;
  g_autofree char *text = NULL;
  g_autofree char *words = NULL;

  d->reached_bytes = d->bytes_done = 114294784;
  d->erase_ns = d->bytes_verified = d->verify_ns = 0;
  d->verified = FALSE;
  r->cancelled = TRUE;
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_str_eq (text, "Method                : discard (BLKDISCARD; a punched hole for a file)\n"
                          "Discarded             : 114294784 of 268435456 bytes in 0.0 s (0.000 MB/s)\n"
                          "Verified              : not reached: the run ended during the erase\n"
                          "\nDiscarded before the stop: bytes 0 – 114294783 (109.0 MiB) of 268435456; "
                          "the rest (154140672 bytes from offset 114294784) is untouched\n");

  /* An overwrite that failed, with a block it could not write. */
  d->method = DS_ERASE_RANDOM;
  r->cancelled = FALSE;
  ds_range_list_add (&d->write_errors, 4 * MiB, 4 * MiB);
  g_clear_pointer (&text, g_free);
  text = ds_test_report (r, DS_UNITS_MB);
  ck_assert_msg (strstr (text, "\nOverwritten before the error: bytes 0 – 114294783 (109.0 MiB) of 268435456, "
                               "except the blocks listed below that could not be written; the rest "
                               "(154140672 bytes from offset 114294784) is untouched\n"
                               "\nBlocks that could not be written:\n"
                               "  at 0.004 GB: offset 4194304, 4194304 bytes\n") != NULL, "%s", text);
  ck_assert_msg (g_str_has_prefix (text, "Method                : overwrite with pseudo-random data\n"
                                         "Written               : 114294784 of"), "%s", text);

  d->reached_bytes = 0;
  words = ds_erase_describe_reached (d);
  ck_assert_str_eq (words, "nothing; all 268435456 bytes are untouched");
  d->size_bytes = 0;
  ck_assert_ptr_null (ds_erase_describe_reached (d));
}
END_TEST

/* The verdict for every method and outcome, and each list's heading. */
START_TEST (test_report_verdicts)
{
  static const struct {
    DsEraseMethod method; gboolean verify, verified; uint64_t verified_bytes, mismatch, survived;
    const char *words;
  } cases[] = {
    { DS_ERASE_ZEROS, FALSE, FALSE, 0, 0, 0, "not asked (--verify reads every byte back)" },
    { DS_ERASE_DISCARD, FALSE, FALSE, 0, 0, 0,
      "not asked (--no-verify): whether the device dropped the data is not known" },
    { DS_ERASE_RANDOM, TRUE, FALSE, 1000, 0, 0, "stopped after 1000 of 268435456 bytes" },
    { DS_ERASE_ZEROS, TRUE, FALSE, 0, 0, 0, "stopped after 0 of 268435456 bytes" },
    { DS_ERASE_SECURE_DISCARD, TRUE, TRUE, 256 * MiB, 0, 0, "yes: every byte reads back as zero" },
    { DS_ERASE_RANDOM, TRUE, FALSE, 256 * MiB, 512, 0,
      "NO: 512 bytes read back otherwise (listed below)" },
    { DS_ERASE_DISCARD, TRUE, FALSE, 256 * MiB, 1024, 512,
      "NO: 1024 bytes do not read back as zeros, and at least 512 of them still hold the old "
      "data: the device accepted the discard and kept it (listed below)" },
    { DS_ERASE_DISCARD, TRUE, FALSE, 256 * MiB, 1024, 0,
      "NO: 1024 bytes do not read back as zeros (listed below); the device promises nothing "
      "after a discard" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsResult) r = erase_result (cases[i].method, cases[i].verify);
      DsEraseData *d = r->data;
      g_autofree char *line = g_strdup_printf ("\nVerified              : %s\n", cases[i].words);
      g_autofree char *text = NULL;
      gboolean overwrites = ds_erase_method_overwrites (cases[i].method);

      d->verified = cases[i].verified;
      d->bytes_verified = cases[i].verified_bytes;
      if (cases[i].mismatch > 0)
        ds_range_list_add (&d->mismatches, 512, cases[i].mismatch);
      if (cases[i].survived > 0)
        ds_range_list_add (&d->survived, 512, cases[i].survived);
      text = ds_test_report (r, DS_UNITS_MB);
      ck_assert_msg (strstr (text, line) != NULL, "case %u:\n%s", i, text);
      ck_assert_msg (strstr (text, overwrites ? "\nWritten  " : "\nDiscarded  ") != NULL, "%s", text);
      ck_assert ((strstr (text, "Blocks that still hold the old data after the discard:\n"
                                "  at 0.000 GB: offset 512, 512 bytes\n") != NULL) == (cases[i].survived > 0));
      if (cases[i].mismatch > 0)
        ck_assert_msg (strstr (text, overwrites ? "\nBlocks that did not verify:\n  at 0.000 GB: offset 512"
                                                : "\nBlocks that do not read back as zeros:\n  at 0.000 GB: offset 512")
                       != NULL, "%s", text);
      /* The read-back line only with a time to give. */
      ck_assert ((strstr (text, "\nRead back             : ") != NULL) == cases[i].verify);
    }

  /* A method the file did not know of: no words invented. */
  {
    g_autoptr (DsResult) r = erase_result ((DsEraseMethod) 9, FALSE);
    g_autofree char *text = ds_test_report (r, DS_UNITS_MB);

    ck_assert_msg (g_str_has_prefix (text, "Method                : ?\nDiscarded "), "%s", text);
  }
}
END_TEST

static Suite *
kind_erase_suite (void)
{
  Suite *suite = suite_create ("kind-erase");
  TCase *tc = tcase_create ("kind-erase");

  tcase_add_test (tc, test_compare_verified);
  tcase_add_test (tc, test_compare_not_measured);
  tcase_add_test (tc, test_fio_refused);
  tcase_add_test (tc, test_json_members);
  tcase_add_test (tc, test_json_round_trip);
  tcase_add_test (tc, test_json_refusals);
  tcase_add_test (tc, test_report_verified);
  tcase_add_test (tc, test_report_partial);
  tcase_add_test (tc, test_report_verdicts);
  suite_add_tcase (suite, tc);

  return suite;
}

int
main (void)
{
  return ds_test_run_suite (kind_erase_suite ());
}
