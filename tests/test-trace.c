/* test-trace.c: the trace file, the ring-buffer page parser, blktrace and
 * fio iolog imports, and the profile, on files built here (no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-trace.h"

/* ---- blktrace files, as the kernel's relay writes them ---- */
#define BLK_MAGIC 0x65617407u     /* magic | version 7 */
#define TC(bits) ((uint32_t) (bits) << 16)
#define TC_READ (1 << 0)
#define TC_WRITE (1 << 1)
#define TC_FLUSH (1 << 2)
#define TC_SYNC (1 << 3)
#define TC_QUEUE (1 << 4)
#define TC_ISSUE (1 << 6)
#define TC_COMPLETE (1 << 7)
#define TC_FS (1 << 8)
#define TC_NOTIFY (1 << 10)
#define TC_FUA (1 << 15)

static void
blk_put (GByteArray *out,
         gboolean    swap,
         uint64_t    time,
         uint64_t    sector,
         uint32_t    bytes,
         uint32_t    action,
         uint32_t    pid,
         const char *pdu)
{
  uint8_t b[48] = { 0 };
  uint32_t magic = BLK_MAGIC, dev = (7u << 20) | 3, cpu = 0;
  uint16_t pdu_len = pdu ? (uint16_t) (strlen (pdu) + 1) : 0, err = 0;
  static uint32_t seq;

#define S32(v) (swap ? GUINT32_SWAP_LE_BE (v) : (v))
#define S64(v) (swap ? GUINT64_SWAP_LE_BE (v) : (v))
  magic = S32 (magic); memcpy (b, &magic, 4);
  seq++; { uint32_t s = S32 (seq); memcpy (b + 4, &s, 4); }
  time = S64 (time); memcpy (b + 8, &time, 8);
  sector = S64 (sector); memcpy (b + 16, &sector, 8);
  bytes = S32 (bytes); memcpy (b + 24, &bytes, 4);
  action = S32 (action); memcpy (b + 28, &action, 4);
  pid = S32 (pid); memcpy (b + 32, &pid, 4);
  dev = S32 (dev); memcpy (b + 36, &dev, 4);
  memcpy (b + 40, &cpu, 4);
  memcpy (b + 44, &err, 2);
  if (swap)
    pdu_len = GUINT16_SWAP_LE_BE (pdu_len);
  memcpy (b + 46, &pdu_len, 2);
  g_byte_array_append (out, b, sizeof b);
  if (pdu)
    g_byte_array_append (out, (const guint8 *) pdu, (guint) strlen (pdu) + 1);
}

static char *
save (const char *name,
      GByteArray *bytes)
{
  char *path = ds_test_scratch_path (name);

  ck_assert (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
  return path;
}

static GArray *
read_all (const char     *path,
          DsTraceHeader  *ret_header)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) r = ds_trace_reader_open (path, &error);
  GArray *list = g_array_new (FALSE, FALSE, sizeof (DsTraceRecord));
  DsTraceRecord rec;

  ck_assert_msg (r != NULL, "%s", error ? error->message : "");
  *ret_header = *ds_trace_reader_header (r);
  while (ds_trace_reader_next (r, &rec, &error))
    g_array_append_val (list, rec);
  ck_assert (error == NULL);
  return list;
}

#define REC(list, i) (&g_array_index (list, DsTraceRecord, i))

/* Two CPUs' files: a read queued and issued on CPU 0 completes on CPU 1,
 * a FUA write interleaves, a flush; the merge must order them by time. */
static void
check_blktrace (gboolean swap)
{
  g_autoptr (GByteArray) cpu0 = g_byte_array_new (), cpu1 = g_byte_array_new ();
  g_autofree char *p0 = NULL, *p1 = NULL, *out = ds_test_scratch_path ("blk.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) list = NULL;
  DsTraceHeader h;
  const char *paths[3];

  blk_put (cpu0, swap, 0, 0, 0, 0 | TC (TC_NOTIFY), 4242, "postgres");
  blk_put (cpu0, swap, 1000, 2048, 8192, 1 | TC (TC_QUEUE | TC_READ | TC_FS), 4242, NULL);
  blk_put (cpu0, swap, 1500, 2048, 8192, 7 | TC (TC_ISSUE | TC_READ | TC_FS), 4242, NULL);
  blk_put (cpu1, swap, 1700, 4096, 4096, 7 | TC (TC_ISSUE | TC_WRITE | TC_FUA | TC_SYNC | TC_FS), 99, NULL);
  blk_put (cpu1, swap, 90000, 2048, 8192, 8 | TC (TC_COMPLETE | TC_READ | TC_FS), 0, NULL);
  blk_put (cpu0, swap, 120000, 4096, 4096, 8 | TC (TC_COMPLETE | TC_WRITE | TC_FUA | TC_FS), 0, NULL);
  blk_put (cpu1, swap, 130000, 0, 0, 7 | TC (TC_ISSUE | TC_FLUSH | TC_WRITE), 99, NULL);
  blk_put (cpu0, swap, 131000, 0, 0, 8 | TC (TC_COMPLETE | TC_FLUSH | TC_WRITE), 0, NULL);
  /* A completion of a request issued before the trace: not a record. */
  blk_put (cpu1, swap, 140000, 777, 512, 8 | TC (TC_COMPLETE | TC_READ), 0, NULL);
  p0 = save ("dev.blktrace.0", cpu0);
  p1 = save ("dev.blktrace.1", cpu1);
  paths[0] = p0; paths[1] = p1; paths[2] = NULL;
  ck_assert_msg (ds_trace_import_any (paths, DS_TRACE_FIO_UNITS_AUTO, out, &h, &error),
                 "%s", error ? error->message : "");
  list = read_all (out, &h);
  ck_assert_uint_eq (h.source, DS_TRACE_SOURCE_BLKTRACE);
  ck_assert_uint_eq (h.dev_major, 7);
  ck_assert_uint_eq (h.dev_minor, 3);
  ck_assert_uint_eq (list->len, 3);
  /* Times from the first event (ns, as blktrace's), in issue order. */
  ck_assert_uint_eq (REC (list, 0)->op, DS_TRACE_OP_READ);
  ck_assert_uint_eq (REC (list, 0)->issue_ns, 500);
  ck_assert_uint_eq (REC (list, 0)->queue_ns, 0);
  ck_assert_uint_eq (REC (list, 0)->complete_ns, 89000);
  ck_assert_uint_eq (REC (list, 0)->offset, 2048 * 512);
  ck_assert_uint_eq (REC (list, 0)->bytes, 8192);
  ck_assert_uint_eq (REC (list, 0)->pid, 4242);
  ck_assert_uint_eq (REC (list, 1)->op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (REC (list, 1)->flags & (DS_TRACE_FLAG_FUA | DS_TRACE_FLAG_SYNC),
                     DS_TRACE_FLAG_FUA | DS_TRACE_FLAG_SYNC);
  ck_assert_uint_eq (REC (list, 1)->issue_ns, 700);
  ck_assert_uint_eq (REC (list, 1)->complete_ns, 119000);
  ck_assert_uint_eq (REC (list, 1)->offset, 4096 * 512);
  ck_assert_uint_eq (REC (list, 2)->op, DS_TRACE_OP_FLUSH);
  ck_assert_uint_eq (REC (list, 2)->complete_ns - REC (list, 2)->issue_ns, 1000);
  {
    g_autoptr (DsTraceReader) r = ds_trace_reader_open (out, NULL);
    g_autoptr (GArray) procs = ds_trace_reader_processes (r, &error);
    gboolean seen = FALSE;

    ck_assert (procs != NULL);
    for (guint i = 0; i < procs->len; i++)
      if (g_array_index (procs, DsTraceProcess, i).pid == 4242)
        seen = strcmp (g_array_index (procs, DsTraceProcess, i).comm, "postgres") == 0;
    ck_assert (seen);
  }
}

START_TEST (test_blktrace)
{
  check_blktrace (FALSE);
}
END_TEST

START_TEST (test_blktrace_swapped)
{
  check_blktrace (TRUE);
}
END_TEST

START_TEST (test_blktrace_bad)
{
  g_autoptr (GByteArray) junk = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *p = NULL, *out = ds_test_scratch_path ("bad.dstrace");
  const char *paths[2] = { NULL, NULL };
  DsTraceHeader h;

  blk_put (junk, FALSE, 1, 8, 512, 7 | TC (TC_ISSUE | TC_READ), 1, NULL);
  g_byte_array_set_size (junk, 40);     /* cut inside the trace */
  p = save ("cut.blktrace.0", junk);
  paths[0] = p;
  ck_assert (!ds_trace_import_blktrace (paths, out, &h, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  ck_assert (!g_file_test (out, G_FILE_TEST_EXISTS));
}
END_TEST

/* fio 3.33's write_iolog v3 stamps microseconds since the job began. */
START_TEST (test_fio_iolog)
{
  const char *v3 = "fio version 3 iolog\n"
                   "20 /dev/loop3 add\n157 /dev/loop3 open\n"
                   "1000 /dev/loop3 read 8192 8192\n"
                   "1500 /dev/loop3 write 16384 4096\n"
                   "2500 /dev/loop3 trim 0 1048576\n"
                   "3000 /dev/loop3 sync 0 0\n"
                   "3100 /dev/loop3 close\n";
  const char *v2 = "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n"
                   "/dev/sdb read 0 4096\n/dev/sdb write 4096 4096\n/dev/sdb close\n";
  g_autofree char *p3 = ds_test_scratch_path ("v3.log"), *p2 = ds_test_scratch_path ("v2.log");
  g_autofree char *out = ds_test_scratch_path ("fio.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) list = NULL, list_ns = NULL, list2 = NULL;
  DsTraceHeader h;

  ck_assert (g_file_set_contents (p3, v3, -1, NULL));
  ck_assert (g_file_set_contents (p2, v2, -1, NULL));
  ck_assert (ds_trace_import_fio_iolog (p3, DS_TRACE_FIO_UNITS_AUTO, out, &h, &error));
  list = read_all (out, &h);
  ck_assert_uint_eq (h.source, DS_TRACE_SOURCE_FIO_V3);
  ck_assert (h.flags & DS_TRACE_HAS_TIMES);
  ck_assert (!(h.flags & DS_TRACE_HAS_COMPLETIONS));
  ck_assert_uint_eq (list->len, 4);
  ck_assert_uint_eq (REC (list, 0)->issue_ns, 1000 * 1000);  /* µs -> ns */
  ck_assert_uint_eq (REC (list, 0)->offset, 8192);
  ck_assert_uint_eq (REC (list, 0)->bytes, 8192);
  ck_assert_uint_eq (REC (list, 1)->op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (REC (list, 1)->issue_ns, 1500 * 1000);
  ck_assert_uint_eq (REC (list, 2)->op, DS_TRACE_OP_DISCARD);
  ck_assert_uint_eq (REC (list, 3)->op, DS_TRACE_OP_FLUSH);
  ck_assert_uint_eq (REC (list, 0)->complete_ns, DS_TRACE_NO_TIME);
  /* A writer that stamps ns, said so. */
  ck_assert (ds_trace_import_fio_iolog (p3, DS_TRACE_FIO_UNITS_NS, out, &h, &error));
  list_ns = read_all (out, &h);
  ck_assert_uint_eq (REC (list_ns, 1)->issue_ns, 1500);
  /* v2: no times. */
  ck_assert (ds_trace_import_fio_iolog (p2, DS_TRACE_FIO_UNITS_AUTO, out, &h, &error));
  list2 = read_all (out, &h);
  ck_assert_uint_eq (h.source, DS_TRACE_SOURCE_FIO_V2);
  ck_assert (!(h.flags & DS_TRACE_HAS_TIMES));
  ck_assert_uint_eq (list2->len, 2);
  ck_assert_uint_eq (REC (list2, 1)->offset, 4096);
  /* Not an iolog. */
  ck_assert (!ds_trace_import_fio_iolog (out, DS_TRACE_FIO_UNITS_AUTO, p3, &h, &error));
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
}
END_TEST

START_TEST (test_file_bounds)
{
  g_autofree char *path = ds_test_scratch_path ("cut.dstrace");
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE };
  DsTraceRecord r = { .issue_ns = 5, .complete_ns = 9, .queue_ns = DS_TRACE_NO_TIME,
                      .offset = 1 << 20, .bytes = 4096, .pid = 7, .op = DS_TRACE_OP_WRITE,
                      .flags = DS_TRACE_FLAG_FUA, .error = -5 };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  g_autoptr (GArray) list = NULL;
  gsize len;

  ck_assert (w != NULL);
  for (int i = 0; i < 1000; i++)
    ck_assert (ds_trace_writer_add (w, &r, &error));
  ds_trace_writer_process (w, 7, "mysqld");
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  list = read_all (path, &h);
  ck_assert_uint_eq (h.record_count, 1000);
  ck_assert_uint_eq (h.process_count, 1);
  {
    const DsTraceRecord *x = REC (list, 999);

    ck_assert (x->issue_ns == r.issue_ns && x->complete_ns == r.complete_ns &&
               x->queue_ns == r.queue_ns && x->offset == r.offset && x->bytes == r.bytes &&
               x->pid == r.pid && x->op == r.op && x->flags == r.flags);
    ck_assert_int_eq (x->error, -5);
  }
  /* Cut short: refused, not read past its end. */
  ck_assert (g_file_get_contents (path, &data, &len, NULL));
  ck_assert (g_file_set_contents (path, data, (gssize) (len - 100), NULL));
  ck_assert (ds_trace_reader_open (path, &error) == NULL);
  ck_assert (g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT));
  g_clear_error (&error);
  /* An abandoned file is removed. */
  w = ds_trace_writer_new (path, &h, &error);
  ck_assert (ds_trace_writer_add (w, &r, &error));
  ds_trace_writer_abandon (w);
  ck_assert (!g_file_test (path, G_FILE_TEST_EXISTS));
}
END_TEST

/* A page as the kernel's ring buffer lays it out. */
typedef struct { uint64_t ts[8]; uint32_t len[8]; guint n; } Seen;

static void
on_raw (uint64_t ts, const uint8_t *data, size_t len, gpointer user_data)
{
  Seen *s = user_data;

  (void) data;
  s->ts[s->n] = ts;
  s->len[s->n++] = (uint32_t) len;
}

static void
put_u32 (uint8_t **p, uint32_t v)
{
  memcpy (*p, &v, 4);
  *p += 4;
}

START_TEST (test_ring_page)
{
  uint8_t page[4096] = { 0 }, *p = page + 16;
  uint64_t base = UINT64_C (5000000000), commit;
  Seen seen = { 0 };
  gboolean missed;

  memcpy (page, &base, 8);
  /* an event of 8 bytes, 10 ns after the page's stamp */
  put_u32 (&p, 2 | (10u << 5));
  put_u32 (&p, 0x11111111); put_u32 (&p, 0x22222222);
  /* a time extend of 2^27 + 3 ns */
  put_u32 (&p, 30 | (3u << 5));
  put_u32 (&p, 1);
  /* a long event (type_len 0): 120 bytes of data, +7 ns */
  put_u32 (&p, 0 | (7u << 5));
  put_u32 (&p, 124);
  p += 120;
  /* a discarded event (padding with a length): skipped */
  put_u32 (&p, 29 | (1u << 5));
  put_u32 (&p, 12);
  p += 8;
  /* one more, +1 ns */
  put_u32 (&p, 1 | (1u << 5));
  put_u32 (&p, 0);
  commit = (uint64_t) (p - page - 16) | (UINT64_C (1) << 31);
  memcpy (page + 8, &commit, 8);
  ck_assert (ds_trace_ring_page (page, sizeof page, on_raw, &seen, &missed));
  ck_assert (missed);
  ck_assert_uint_eq (seen.n, 3);
  ck_assert_uint_eq (seen.ts[0], base + 10);
  ck_assert_uint_eq (seen.len[0], 8);
  ck_assert_uint_eq (seen.ts[1], base + 10 + (UINT64_C (1) << 27) + 3 + 7);
  ck_assert_uint_eq (seen.len[1], 120);
  ck_assert_uint_eq (seen.ts[2], seen.ts[1] + 1);
  /* A commit past the page: refused. */
  commit = 8000;
  memcpy (page + 8, &commit, 8);
  ck_assert (!ds_trace_ring_page (page, sizeof page, on_raw, &seen, &missed));
}
END_TEST

START_TEST (test_rwbs)
{
  uint8_t op, flags;

  ds_trace_parse_rwbs ("R", &op, &flags);
  ck_assert_uint_eq (op, DS_TRACE_OP_READ);
  ck_assert_uint_eq (flags, 0);
  ds_trace_parse_rwbs ("FWFS", &op, &flags);
  ck_assert_uint_eq (op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (flags, DS_TRACE_FLAG_PREFLUSH | DS_TRACE_FLAG_FUA | DS_TRACE_FLAG_SYNC);
  ds_trace_parse_rwbs ("FN", &op, &flags);
  ck_assert_uint_eq (op, DS_TRACE_OP_FLUSH);
  ds_trace_parse_rwbs ("DS", &op, &flags);
  ck_assert_uint_eq (op, DS_TRACE_OP_DISCARD);
  ds_trace_parse_rwbs ("RA", &op, &flags);
  ck_assert_uint_eq (flags, DS_TRACE_FLAG_AHEAD);
}
END_TEST

/* A known workload: 1000 I/Os every 1 ms, every 4th a write, 8 KiB except
 * every 10th (64 KiB), sequential in runs of 5, each taking 100 µs
 * (reads) or 300 µs (writes); 5 flushes. */
START_TEST (test_profile_known)
{
  g_autofree char *path = ds_test_scratch_path ("known.dstrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceProfile) prof = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE,
                      .flags = DS_TRACE_HAS_TIMES | DS_TRACE_HAS_COMPLETIONS };
  DsTraceWriter *w = ds_trace_writer_new (path, &h, &error);
  const DsTraceSummary *s;
  uint64_t offset = 0;

  for (int i = 0; i < 1000; i++)
    {
      DsTraceRecord r = { 0 };

      r.issue_ns = (uint64_t) i * 1000000;
      r.op = i % 4 == 3 ? DS_TRACE_OP_WRITE : DS_TRACE_OP_READ;
      r.complete_ns = r.issue_ns + (r.op == DS_TRACE_OP_READ ? 100000 : 300000);
      r.queue_ns = DS_TRACE_NO_TIME;
      r.bytes = i % 10 == 9 ? 65536 : 8192;
      if (i % 5 == 0)
        offset = (uint64_t) (i * 7919 % 1000) * 1048576;
      r.offset = offset;
      offset += r.bytes;
      ck_assert (ds_trace_writer_add (w, &r, &error));
      if (i % 200 == 100)
        {
          DsTraceRecord f = { .issue_ns = r.issue_ns + 1, .complete_ns = r.issue_ns + 2,
                              .queue_ns = DS_TRACE_NO_TIME, .op = DS_TRACE_OP_FLUSH };

          ck_assert (ds_trace_writer_add (w, &f, &error));
        }
    }
  ck_assert (ds_trace_writer_finish (w, &h, &error));
  prof = ds_trace_profile_new (path, 100 * 1000000, NULL, &error);
  ck_assert_msg (prof != NULL, "%s", error ? error->message : "");
  s = ds_trace_profile_summary (prof);
  ck_assert_uint_eq (s->reads, 750);
  ck_assert_uint_eq (s->writes, 250);
  ck_assert_uint_eq (s->flushes, 5);
  ck_assert_double_eq_tol (s->iops, 1000.0, 0.5);
  ck_assert_double_eq_tol (s->read_share, 0.75, 1e-9);
  ck_assert_uint_eq (s->mode_bytes, 8192);
  ck_assert_double_eq_tol (s->sequential_share, 800.0 / 999.0, 1e-9);
  /* depth: 0.75 * 0.1 + 0.25 * 0.3 = 0.15 */
  ck_assert_double_eq_tol (s->mean_depth, 0.15, 0.002);
  ck_assert_uint_ge (s->p50_ns, 99000);
  ck_assert_uint_le (s->p50_ns, 101000);
  ck_assert_uint_ge (s->p99_ns, 297000);
  ck_assert_uint_le (s->p99_ns, 303000);
  {
    g_autoptr (JsonNode) node = ds_trace_profile_to_json (prof);
    JsonObject *o = json_node_get_object (node);
    JsonArray *iv = json_object_get_array_member (o, "intervals");

    ck_assert_uint_eq (json_array_get_length (iv), 10);
    ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (iv, 3), "reads"), 75);
    ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (iv, 3), "p50_ns"), 100000);
    ck_assert_int_eq (json_object_get_int_member (json_array_get_object_element (iv, 3), "p99_ns"), 300000);
  }
  {
    DsTraceIntervalFigures f = { 0 };
    uint64_t bytes = 0;

    /* Interval 3 (0.3-0.4 s): requests 300..399, flush 300 not counted. */
    for (int i = 300; i < 400; i++)
      bytes += i % 10 == 9 ? 65536 : 8192;
    ck_assert_uint_eq (ds_trace_profile_n_intervals (prof), 10);
    ck_assert (ds_trace_profile_interval (prof, 3, &f));
    ck_assert_double_eq_tol (f.t_s, 0.4, 1e-9);
    ck_assert_double_eq_tol (f.iops, 1000.0, 1e-6);
    ck_assert_double_eq_tol (f.read_iops, 750.0, 1e-6);
    ck_assert_double_eq_tol (f.bytes_per_s, bytes / 0.1, 1e-3);
    ck_assert_uint_eq (f.p99_ns, 300000);
    /* The last interval (0.9-1.0 s) ends at the last issue, 0.999 s: its
     * 100 requests over 0.099 s. */
    ck_assert (ds_trace_profile_interval (prof, 9, &f));
    ck_assert_double_eq_tol (f.t_s, 0.999, 1e-9);
    ck_assert_double_eq_tol (f.iops, 100 / 0.099, 1e-6);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace");
  tcase_add_test (tc, test_blktrace);
  tcase_add_test (tc, test_blktrace_swapped);
  tcase_add_test (tc, test_blktrace_bad);
  tcase_add_test (tc, test_fio_iolog);
  tcase_add_test (tc, test_file_bounds);
  tcase_add_test (tc, test_ring_page);
  tcase_add_test (tc, test_rwbs);
  tcase_add_test (tc, test_profile_known);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
