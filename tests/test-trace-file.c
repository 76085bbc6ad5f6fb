/* test-trace-file.c: the capture file (core/trace/ds-trace-file.c)
 *
 * Unit suite: no root, no device.  What docs/trace-format.md and
 * ds-trace.h promise of the file, beyond test-trace.c's round trip of
 * 1000 records: the operations' names; every header, record and process
 * field at its documented offset, little-endian, reserved bytes zero; a
 * writer's provisional header (count 0xFFFF...) refused as an unfinished
 * capture; the finished header's counts and version set by the writer;
 * a device name cut to 39 bytes; one name per pid (the first, 15 bytes at
 * most, empty ones ignored, 65536 pids at most); each refusal of the
 * reader with its code and message (missing, empty, short, not a trace,
 * another version or size, counts the file cannot hold, cut while read);
 * an unknown operation read as "other"; rewind; the process table; an
 * empty trace; and ds_trace_file_is_capture().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-trace.h"

static uint32_t
le32 (const guint8 *p)
{
  uint32_t v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static uint64_t
le64 (const guint8 *p)
{
  uint64_t v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static GBytes *
slurp (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  ck_assert_msg (g_file_get_contents (path, &data, &len, &error), "%s", error ? error->message : "");
  return g_bytes_new_take (data, len);
}

static void
spill (const char   *path,
       const guint8 *data,
       gsize         len)
{
  ck_assert (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
}

/* A finished file of @n records (record i: issue i, pid 100 + i % 3). */
static char *
make_trace (const char *name,
            unsigned    n)
{
  char *path = ds_test_scratch_path (name);
  g_autoptr (GError) error = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE, .flags = DS_TRACE_HAS_TIMES };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);

  ck_assert_msg (w != NULL, "%s", error ? error->message : "");
  for (unsigned i = 0; i < n; i++)
    {
      DsTraceRecord r = { .issue_ns = i, .complete_ns = DS_TRACE_NO_TIME,
                          .queue_ns = DS_TRACE_NO_TIME, .offset = (uint64_t) i * 4096,
                          .bytes = 4096, .pid = 100 + i % 3, .op = DS_TRACE_OP_READ };

      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ds_trace_writer_process (w, 100, "postgres");
  ds_trace_writer_process (w, 101, "rsync");
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  return path;
}

/* Opening @path fails with DS_ERROR @code and exactly @message. */
static void
assert_refused (const char *path,
                DsError     code,
                const char *message)
{
  g_autoptr (GError) error = NULL;

  ck_assert_ptr_null (ds_trace_reader_open (path, &error));
  ck_assert_msg (g_error_matches (error, DS_ERROR, (gint) code), "%s: code %d: %s", path,
                 error ? error->code : -1, error ? error->message : "(no error)");
  ck_assert_str_eq (error->message, message);
}

START_TEST (test_op_names)
{
  static const char *const want[] = { "read", "write", "flush", "discard", "other" };

  for (unsigned op = 0; op < DS_TRACE_N_OPS; op++)
    ck_assert_str_eq (ds_trace_op_name (op), want[op]);
  ck_assert_str_eq (ds_trace_op_name (DS_TRACE_N_OPS), "other");
  ck_assert_str_eq (ds_trace_op_name (255), "other");
  ck_assert_str_eq (ds_trace_op_name (G_MAXUINT), "other");
}
END_TEST

/* Every field where the table of docs/trace-format.md puts it. */
START_TEST (test_layout)
{
  g_autofree char *path = ds_test_scratch_path ("layout.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  DsTraceHeader h = { .version = 77, .source = DS_TRACE_SOURCE_FIO_V3,
                      .flags = DS_TRACE_HAS_COMPLETIONS | DS_TRACE_LOST_ACCEPTED,
                      .record_count = 999, .process_count = 999,
                      .lost_events = UINT64_C (0x0102030405060708), .start_unix_ns = UINT64_C (1700000000123456789),
                      .duration_ns = UINT64_C (60000000000), .device_bytes = UINT64_C (1) << 40,
                      .dev_major = 259, .dev_minor = 0xABCDE, .device = "/dev/nvme0n1p2" };
  DsTraceRecord r = { .issue_ns = UINT64_C (0x1112131415161718), .complete_ns = DS_TRACE_NO_TIME,
                      .queue_ns = 42, .offset = UINT64_C (0x0000FFEE00001000), .bytes = 0x80000001u,
                      .pid = 0xDEADBEEFu, .op = DS_TRACE_OP_DISCARD,
                      .flags = DS_TRACE_FLAG_SYNC | DS_TRACE_FLAG_AHEAD, .error = -2 };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  const guint8 *b, *rec, *proc;
  gsize len;

  ck_assert (w != NULL);
  ck_assert (ds_trace_writer_add (w, &r, &error));
  ds_trace_writer_process (w, 0xDEADBEEFu, "kworker/u8:2");
  ds_trace_writer_process (w, 5, "sixteen-or-more-bytes");
  ck_assert_uint_eq (ds_trace_writer_count (w), 1);
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  /* The writer's counts and version, in the caller's header too. */
  ck_assert_uint_eq (h.record_count, 1);
  ck_assert_uint_eq (h.process_count, 2);
  ck_assert_uint_eq (h.version, DS_TRACE_VERSION);

  bytes = slurp (path);
  b = g_bytes_get_data (bytes, &len);
  ck_assert_uint_eq (len, 128 + 48 + 2 * 24);
  ck_assert (memcmp (b, "DSTRACE\0", 8) == 0);
  ck_assert_uint_eq (le32 (b + 8), 1);
  ck_assert_uint_eq (le32 (b + 12), 128);
  ck_assert_uint_eq (le32 (b + 16), 48);
  ck_assert_uint_eq (le32 (b + 20), 4);
  ck_assert_uint_eq (le64 (b + 24), 1);
  ck_assert_uint_eq (le64 (b + 32), UINT64_C (0x0102030405060708));
  ck_assert (b[32] == 0x08 && b[39] == 0x01);     /* little-endian on any host */
  ck_assert_uint_eq (le64 (b + 40), UINT64_C (1700000000123456789));
  ck_assert_uint_eq (le64 (b + 48), UINT64_C (60000000000));
  ck_assert_uint_eq (le64 (b + 56), UINT64_C (1) << 40);
  ck_assert_uint_eq (le32 (b + 64), 259);
  ck_assert_uint_eq (le32 (b + 68), 0xABCDE);
  ck_assert_uint_eq (le32 (b + 72), 2);
  ck_assert_uint_eq (le32 (b + 76), DS_TRACE_HAS_COMPLETIONS | DS_TRACE_LOST_ACCEPTED);
  ck_assert_str_eq ((const char *) b + 80, "/dev/nvme0n1p2");
  for (unsigned i = 80 + strlen ("/dev/nvme0n1p2"); i < 128; i++)
    ck_assert_msg (b[i] == 0, "header byte %u: %u", i, b[i]);

  rec = b + 128;
  ck_assert_uint_eq (le64 (rec), UINT64_C (0x1112131415161718));
  ck_assert_uint_eq (le64 (rec + 8), G_MAXUINT64);
  ck_assert_uint_eq (le64 (rec + 16), 42);
  ck_assert_uint_eq (le64 (rec + 24), UINT64_C (0x0000FFEE00001000));
  ck_assert_uint_eq (le32 (rec + 32), 0x80000001u);
  ck_assert_uint_eq (le32 (rec + 36), 0xDEADBEEFu);
  ck_assert_uint_eq (rec[40], 3);
  ck_assert_uint_eq (rec[41], 2 | 16);
  ck_assert_uint_eq (rec[42], 0xFE);              /* -2, little-endian */
  ck_assert_uint_eq (rec[43], 0xFF);
  ck_assert_uint_eq (le32 (rec + 44), 0);

  /* The table's entries, in whatever order; a name of 15 bytes and a NUL. */
  for (unsigned i = 0; i < 2; i++)
    {
      proc = rec + 48 + i * 24;
      ck_assert_uint_eq (le32 (proc + 4), 0);
      if (le32 (proc) == 5)
        ck_assert (memcmp (proc + 8, "sixteen-or-more\0", 16) == 0);
      else
        {
          ck_assert_uint_eq (le32 (proc), 0xDEADBEEFu);
          ck_assert (memcmp (proc + 8, "kworker/u8:2\0\0\0\0", 16) == 0);
        }
    }
}
END_TEST

/* Every header field back through the reader, and a record's extremes. */
START_TEST (test_header_round_trip)
{
  g_autofree char *path = ds_test_scratch_path ("header.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_BLKTRACE, .flags = 7, .lost_events = 5,
                      .start_unix_ns = 11, .duration_ns = 13, .device_bytes = 17,
                      .dev_major = 8, .dev_minor = 16 };
  const DsTraceHeader *got;
  DsTraceRecord in[3] = {
    { .error = G_MININT16, .op = DS_TRACE_OP_OTHER, .flags = 0xFF },
    { .error = G_MAXINT16, .op = DS_TRACE_OP_FLUSH, .bytes = G_MAXUINT32, .offset = G_MAXUINT64 },
    { .error = 0, .op = DS_TRACE_OP_WRITE, .issue_ns = G_MAXUINT64 - 1 },
  };
  DsTraceRecord out;
  DsTraceWriter *w;

  /* 40 bytes without a NUL: 39 are kept. */
  memset (h.device, 'x', sizeof h.device);
  w = ds_trace_writer_new (path, &h, &error);
  for (unsigned i = 0; i < 3; i++)
    ck_assert (ds_trace_writer_add (w, &in[i], &error));
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  reader = ds_trace_reader_open (path, &error);
  ck_assert_msg (reader != NULL, "%s", error ? error->message : "");
  got = ds_trace_reader_header (reader);
  ck_assert_uint_eq (got->version, 1);
  ck_assert_uint_eq (got->source, DS_TRACE_SOURCE_BLKTRACE);
  ck_assert_uint_eq (got->flags, 7);
  ck_assert_uint_eq (got->record_count, 3);
  ck_assert_uint_eq (got->process_count, 0);
  ck_assert_uint_eq (got->lost_events, 5);
  ck_assert_uint_eq (got->start_unix_ns, 11);
  ck_assert_uint_eq (got->duration_ns, 13);
  ck_assert_uint_eq (got->device_bytes, 17);
  ck_assert_uint_eq (got->dev_major, 8);
  ck_assert_uint_eq (got->dev_minor, 16);
  ck_assert_uint_eq (strlen (got->device), 39);
  ck_assert (strspn (got->device, "x") == 39);
  for (unsigned i = 0; i < 3; i++)
    {
      ck_assert (ds_trace_reader_next (reader, &out, &error));
      ck_assert_int_eq (out.error, in[i].error);
      ck_assert_uint_eq (out.op, in[i].op);
      ck_assert_uint_eq (out.flags, in[i].flags);
      ck_assert_uint_eq (out.bytes, in[i].bytes);
      ck_assert_uint_eq (out.offset, in[i].offset);
      ck_assert_uint_eq (out.issue_ns, in[i].issue_ns);
    }
  /* The end: FALSE without an error, and again. */
  ck_assert (!ds_trace_reader_next (reader, &out, &error));
  ck_assert_ptr_null (error);
  ck_assert (!ds_trace_reader_next (reader, &out, &error));
  ck_assert_ptr_null (error);
}
END_TEST

/* A capture killed mid-way leaves the provisional header: refused as such. */
START_TEST (test_unfinished)
{
  g_autofree char *path = ds_test_scratch_path ("unfinished.dstrace");
  g_autofree char *message = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE };
  DsTraceRecord r = { .bytes = 512 };
  DsTraceWriter *w;
  const guint8 *b;
  gsize len;

  /* It replaces what was there. */
  ck_assert (g_file_set_contents (path, "an older, longer file that is no trace at all", -1, NULL));
  w = ds_trace_writer_new (path, &h, &error);
  ck_assert (w != NULL);
  bytes = slurp (path);
  b = g_bytes_get_data (bytes, &len);
  ck_assert_uint_eq (len, 128);           /* on disk at once */
  ck_assert_uint_eq (le64 (b + 24), G_MAXUINT64);
  ck_assert (ds_trace_writer_add (w, &r, &error));
  ck_assert (ds_trace_writer_add (w, &r, &error));
  ck_assert_uint_eq (ds_trace_writer_count (w), 2);
  ck_assert (ds_trace_file_is_capture (path));
  message = g_strdup_printf ("%s: an unfinished capture (the capture was killed before it wrote its end)",
                             path);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  ds_trace_writer_abandon (w);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
  ck_assert (!ds_trace_file_is_capture (path));
}
END_TEST

/* Each file the reader refuses, with its message. */
START_TEST (test_refusals)
{
  g_autofree char *good = make_trace ("good.dstrace", 4);
  g_autofree char *path = ds_test_scratch_path ("bad.dstrace");
  g_autofree char *missing = ds_test_scratch_path ("missing.dstrace");
  g_autofree char *message = NULL;
  g_autoptr (GBytes) bytes = slurp (good);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *b = g_memdup2 (data, len);
  g_autoptr (DsTraceReader) reopened = NULL;

  ck_assert_uint_eq (len, 128 + 4 * 48 + 2 * 24);
  message = g_strdup_printf ("%s: No such file or directory", missing);
  assert_refused (missing, DS_ERROR_NOT_FOUND, message);
  g_free (message);

  message = g_strdup_printf ("%s: not a Diskscope trace (too short)", path);
  spill (path, b, 0);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  spill (path, b, 127);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  g_free (message);

  message = g_strdup_printf ("%s: not a Diskscope trace", path);
  b[7] = 'X';
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  ck_assert (!ds_trace_file_is_capture (path));
  b[7] = 0;
  g_free (message);

  message = g_strdup_printf ("%s: a Diskscope trace of version 2 (header 128, records 48 bytes): "
                             "this version reads version 1", path);
  b[8] = 2;
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  ck_assert (ds_trace_file_is_capture (path));    /* the magic alone */
  b[8] = 1;
  g_free (message);
  message = g_strdup_printf ("%s: a Diskscope trace of version 1 (header 256, records 48 bytes): "
                             "this version reads version 1", path);
  b[12] = 0;                                      /* 256 */
  b[13] = 1;
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  b[12] = 128;
  b[13] = 0;
  g_free (message);
  message = g_strdup_printf ("%s: a Diskscope trace of version 1 (header 128, records 64 bytes): "
                             "this version reads version 1", path);
  b[16] = 64;
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  b[16] = 48;
  g_free (message);

  /* Cut inside the process table, then inside the records. */
  message = g_strdup_printf ("%s: cut short (its header counts 4 records)", path);
  spill (path, b, len - 1);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  spill (path, b, 128 + 3 * 48);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  g_free (message);
  /* Counts no file holds: refused, without overflowing. */
  memset (b + 24, 0xFF, 7);
  b[31] = 0x7F;
  message = g_strdup_printf ("%s: cut short (its header counts 9223372036854775807 records)", path);
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  g_free (message);
  memset (b + 24, 0, 8);
  b[24] = 4;
  memset (b + 72, 0xFF, 4);
  message = g_strdup_printf ("%s: cut short (its header counts 4 records)", path);
  spill (path, b, len);
  assert_refused (path, DS_ERROR_CORRUPT, message);
  /* Restored, it opens. */
  b[72] = 2;
  memset (b + 73, 0, 3);
  spill (path, b, len);
  reopened = ds_trace_reader_open (path, NULL);
  ck_assert_ptr_nonnull (reopened);
}
END_TEST

/* Cut after it was opened: the read that finds no record says so. */
START_TEST (test_cut_while_read)
{
  g_autofree char *path = make_trace ("shrinks.dstrace", 1000);
  g_autofree char *message = g_strdup_printf ("%s: cut short", path);
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = ds_trace_reader_open (path, &error);
  DsTraceRecord r;

  ck_assert (reader != NULL);
  /* 200 records and a part: more than the reader has buffered. */
  ck_assert (truncate (path, 128 + 200 * 48 + 20) == 0);
  for (unsigned i = 0; i < 200; i++)
    {
      ck_assert (ds_trace_reader_next (reader, &r, &error));
      ck_assert_uint_eq (r.issue_ns, i);
    }
  ck_assert (!ds_trace_reader_next (reader, &r, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, message);
  g_clear_error (&error);
  ck_assert_ptr_null (ds_trace_reader_processes (reader, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert_str_eq (error->message, message);
}
END_TEST

/* An operation this version does not know is read as "other". */
START_TEST (test_unknown_op)
{
  g_autofree char *path = make_trace ("ops.dstrace", 3);
  g_autoptr (GBytes) bytes = slurp (path);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *b = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  g_autoptr (DsTraceReader) reader = NULL;
  DsTraceRecord r;

  b[128 + 40] = 5;
  b[128 + 48 + 40] = 0xFF;
  b[128 + 96 + 40] = DS_TRACE_OP_DISCARD;
  spill (path, b, len);
  reader = ds_trace_reader_open (path, NULL);
  ck_assert (reader != NULL);
  ck_assert (ds_trace_reader_next (reader, &r, NULL));
  ck_assert_uint_eq (r.op, DS_TRACE_OP_OTHER);
  ck_assert (ds_trace_reader_next (reader, &r, NULL));
  ck_assert_uint_eq (r.op, DS_TRACE_OP_OTHER);
  ck_assert (ds_trace_reader_next (reader, &r, NULL));
  ck_assert_uint_eq (r.op, DS_TRACE_OP_DISCARD);
}
END_TEST

static int
cmp_pid (gconstpointer a,
         gconstpointer b)
{
  const DsTraceProcess *x = a, *y = b;

  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The first name per pid, 15 bytes at most; rewind; the table after. */
START_TEST (test_processes)
{
  g_autofree char *path = ds_test_scratch_path ("procs.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = NULL;
  g_autoptr (GArray) list = NULL;
  DsTraceHeader h = { 0 };
  DsTraceRecord r = { 0 };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);

  for (unsigned i = 0; i < 5; i++)
    {
      r.issue_ns = i;
      ck_assert (ds_trace_writer_add (w, &r, &error));
    }
  ds_trace_writer_process (w, 7, "mysqld");
  ds_trace_writer_process (w, 7, "later-name");       /* the first is kept */
  ds_trace_writer_process (w, 9, "");                 /* no name: no entry */
  ds_trace_writer_process (w, 3, "a-very-long-process-name");
  ds_trace_writer_process (w, 0, "swapper/0");
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  ck_assert_uint_eq (h.process_count, 3);

  reader = ds_trace_reader_open (path, &error);
  ck_assert (reader != NULL);
  ck_assert (ds_trace_reader_next (reader, &r, &error));
  ck_assert (ds_trace_reader_next (reader, &r, &error));
  ck_assert_uint_eq (r.issue_ns, 1);
  ck_assert (ds_trace_reader_rewind (reader, &error));
  ck_assert (ds_trace_reader_next (reader, &r, &error));
  ck_assert_uint_eq (r.issue_ns, 0);
  list = ds_trace_reader_processes (reader, &error);
  ck_assert_msg (list != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (list->len, 3);
  g_array_sort (list, cmp_pid);
  ck_assert_uint_eq (g_array_index (list, DsTraceProcess, 0).pid, 0);
  ck_assert_str_eq (g_array_index (list, DsTraceProcess, 0).comm, "swapper/0");
  ck_assert_uint_eq (g_array_index (list, DsTraceProcess, 1).pid, 3);
  ck_assert_str_eq (g_array_index (list, DsTraceProcess, 1).comm, "a-very-long-pro");
  ck_assert_uint_eq (g_array_index (list, DsTraceProcess, 2).pid, 7);
  ck_assert_str_eq (g_array_index (list, DsTraceProcess, 2).comm, "mysqld");
  /* The records are behind: the next one is the end; rewind comes back. */
  ck_assert (!ds_trace_reader_next (reader, &r, &error));
  ck_assert_ptr_null (error);
  ck_assert (ds_trace_reader_rewind (reader, &error));
  for (unsigned i = 0; i < 5; i++)
    {
      ck_assert (ds_trace_reader_next (reader, &r, &error));
      ck_assert_uint_eq (r.issue_ns, i);
    }
}
END_TEST

/* The table is bounded: 65536 pids, whatever the workload. */
START_TEST (test_process_bound)
{
  g_autofree char *path = ds_test_scratch_path ("many.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = NULL;
  g_autoptr (GArray) list = NULL;
  DsTraceHeader h = { 0 };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  GStatBuf st;

  for (uint32_t pid = 1; pid <= 70000; pid++)
    ds_trace_writer_process (w, pid, "worker");
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  ck_assert_uint_eq (h.record_count, 0);
  ck_assert_uint_eq (h.process_count, 65536);
  ck_assert (g_stat (path, &st) == 0);
  ck_assert_int_eq (st.st_size, 128 + 65536 * 24);
  reader = ds_trace_reader_open (path, &error);
  ck_assert (reader != NULL);
  list = ds_trace_reader_processes (reader, &error);
  ck_assert_uint_eq (list->len, 65536);
}
END_TEST

/* No records: a valid trace of 128 bytes, read as empty. */
START_TEST (test_empty)
{
  g_autofree char *path = ds_test_scratch_path ("empty.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = NULL;
  g_autoptr (GArray) list = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_FIO_V2 };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  DsTraceRecord r;
  GStatBuf st;

  ck_assert_uint_eq (ds_trace_writer_count (w), 0);
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  ck_assert (g_stat (path, &st) == 0);
  ck_assert_int_eq (st.st_size, 128);
  ck_assert (ds_trace_file_is_capture (path));
  reader = ds_trace_reader_open (path, &error);
  ck_assert (reader != NULL);
  ck_assert_uint_eq (ds_trace_reader_header (reader)->record_count, 0);
  ck_assert_uint_eq (ds_trace_reader_header (reader)->source, DS_TRACE_SOURCE_FIO_V2);
  ck_assert (!ds_trace_reader_next (reader, &r, &error));
  ck_assert_ptr_null (error);
  list = ds_trace_reader_processes (reader, &error);
  ck_assert_uint_eq (list->len, 0);
}
END_TEST

/* A writer where nothing can be created: refused, with the path. */
START_TEST (test_writer_refused)
{
  g_autofree char *path = ds_test_scratch_path ("no-such-folder/out.dstrace");
  g_autofree char *message = g_strdup_printf ("%s: No such file or directory", path);
  g_autoptr (GError) error = NULL;
  DsTraceHeader h = { 0 };

  ck_assert_ptr_null (ds_trace_writer_new (path, &h, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_NOT_FOUND));
  ck_assert_str_eq (error->message, message);
}
END_TEST

START_TEST (test_is_capture)
{
  g_autofree char *good = make_trace ("is.dstrace", 1);
  g_autofree char *seven = ds_test_scratch_path ("seven");
  g_autofree char *other = ds_test_scratch_path ("other");
  g_autofree char *missing = ds_test_scratch_path ("missing");

  ck_assert (ds_trace_file_is_capture (good));
  ck_assert (g_file_set_contents (seven, "DSTRACE", 7, NULL));
  ck_assert (!ds_trace_file_is_capture (seven));
  ck_assert (g_file_set_contents (other, "fio version 3 iolog\n", -1, NULL));
  ck_assert (!ds_trace_file_is_capture (other));
  ck_assert (!ds_trace_file_is_capture (missing));
  ck_assert (!ds_trace_file_is_capture (ds_test_scratch_dir ()));
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-file");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-file");
  tcase_add_test (tc, test_op_names);
  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_header_round_trip);
  tcase_add_test (tc, test_unfinished);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_cut_while_read);
  tcase_add_test (tc, test_unknown_op);
  tcase_add_test (tc, test_processes);
  tcase_add_test (tc, test_process_bound);
  tcase_add_test (tc, test_empty);
  tcase_add_test (tc, test_writer_refused);
  tcase_add_test (tc, test_is_capture);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
