/* test-trace-match.c: block-layer events become requests
 * (core/trace/ds-trace-match.c)
 *
 * Unit suite: no root, no device.  What ds-trace.h promises of the
 * matcher, fed events by hand and read back from the file it writes: a
 * request's times relative to the origin (events before it at 0), its
 * offset in bytes from the first sector; the queue (or insert) event
 * gives the queue time and the process (the first one queued at a sector
 * counts; a queue time after the issue is the issue's); records leave in
 * issue order, each once it and all before it completed; two requests at
 * one sector complete first in, first out; a completion without an issue
 * is counted, not written; a completion before its issue (clocks of two
 * CPUs) takes the issue's time; errors are clamped to 16 bits; a
 * partition's window drops what lies outside it, but not its flushes; a
 * request without completion for 120 s is written incomplete; flush
 * writes what is in flight; the queue table starts afresh at 65536; and
 * the rwbs strings blktrace and tracefs print.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "ds-error.h"
#include "ds-test-util.h"
#include "ds-trace.h"

#define SEC UINT64_C (1000000000)

typedef struct {
  char           *path;
  DsTraceWriter  *writer;
  DsTraceMatcher *matcher;
  GArray         *records;      /* DsTraceRecord, once finished */
  GArray         *processes;    /* DsTraceProcess */
} Fixture;

static void
fixture_init (Fixture  *f,
              uint64_t  origin,
              uint64_t  first,
              uint64_t  n_sectors)
{
  g_autoptr (GError) error = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE };

  memset (f, 0, sizeof *f);
  f->path = ds_test_scratch_path ("match.dstrace");
  f->writer = ds_trace_writer_new (f->path, &h, &error);
  ck_assert_msg (f->writer != NULL, "%s", error ? error->message : "");
  f->matcher = ds_trace_matcher_new (f->writer, origin, first, n_sectors);
}

static void
feed (Fixture    *f,
      uint8_t     kind,
      uint64_t    ts,
      uint64_t    sector,
      uint32_t    bytes,
      uint8_t     op,
      uint32_t    pid,
      const char *comm,
      int32_t     err)
{
  g_autoptr (GError) error = NULL;
  DsTraceEvent e = { .ts_ns = ts, .sector = sector, .bytes = bytes, .pid = pid, .error = err,
                     .kind = kind, .op = op };

  g_strlcpy (e.comm, comm ? comm : "", sizeof e.comm);
  ck_assert_msg (ds_trace_matcher_feed (f->matcher, &e, &error), "%s", error ? error->message : "");
}

#define ISSUE(f, ts, sector, bytes, op, pid, comm) \
  feed (f, DS_TRACE_EV_ISSUE, ts, sector, bytes, op, pid, comm, 0)
#define DONE(f, ts, sector) feed (f, DS_TRACE_EV_COMPLETE, ts, sector, 512, 0, 0, "", 0)
#define QUEUE(f, ts, sector, pid, comm) feed (f, DS_TRACE_EV_QUEUE, ts, sector, 4096, 0, pid, comm, 0)

static int
cmp_pid (gconstpointer a,
         gconstpointer b)
{
  const DsTraceProcess *x = a, *y = b;

  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Flushes the matcher, finishes the file and reads it back. */
static void
fixture_finish (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsTraceReader) reader = NULL;
  DsTraceHeader h = { .source = DS_TRACE_SOURCE_CAPTURE };
  DsTraceRecord r;

  ck_assert (ds_trace_matcher_flush (f->matcher, &error));
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f->matcher), 0);
  ck_assert (ds_trace_writer_finish (f->writer, &h, &error));
  f->writer = NULL;
  reader = ds_trace_reader_open (f->path, &error);
  ck_assert_msg (reader != NULL, "%s", error ? error->message : "");
  f->records = g_array_new (FALSE, FALSE, sizeof (DsTraceRecord));
  while (ds_trace_reader_next (reader, &r, &error))
    g_array_append_val (f->records, r);
  ck_assert_ptr_null (error);
  f->processes = ds_trace_reader_processes (reader, &error);
  ck_assert (f->processes != NULL);
  g_array_sort (f->processes, cmp_pid);
}

static void
fixture_clear (Fixture *f)
{
  if (f->writer != NULL)
    ds_trace_writer_abandon (f->writer);
  ds_trace_matcher_free (f->matcher);
  g_clear_pointer (&f->records, g_array_unref);
  g_clear_pointer (&f->processes, g_array_unref);
  g_free (f->path);
}

#define REC(f, i) (&g_array_index ((f)->records, DsTraceRecord, i))
#define PROC(f, i) (&g_array_index ((f)->processes, DsTraceProcess, i))

/* One request: every field. */
START_TEST (test_one_request)
{
  Fixture f;
  const DsTraceRecord *r;

  fixture_init (&f, 1000, 0, 0);
  feed (&f, DS_TRACE_EV_ISSUE, 1500, 2048, 8192, DS_TRACE_OP_WRITE, 42, "postgres", 0);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 1);
  feed (&f, DS_TRACE_EV_COMPLETE, 91500, 2048, 8192, DS_TRACE_OP_WRITE, 0, "swapper/1", -5);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 0);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 0);
  /* Written as soon as it completed. */
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 1);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 1);
  r = REC (&f, 0);
  ck_assert_uint_eq (r->issue_ns, 500);
  ck_assert_uint_eq (r->complete_ns, 90500);
  ck_assert_uint_eq (r->queue_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (r->offset, 2048 * 512);
  ck_assert_uint_eq (r->bytes, 8192);
  ck_assert_uint_eq (r->op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (r->pid, 42);
  ck_assert_int_eq (r->error, -5);
  /* The issuer's name (nobody queued it); not the completion's. */
  ck_assert_uint_eq (f.processes->len, 1);
  ck_assert_uint_eq (PROC (&f, 0)->pid, 42);
  ck_assert_str_eq (PROC (&f, 0)->comm, "postgres");
  fixture_clear (&f);
}
END_TEST

/* The queue event names the process and the queue time. */
START_TEST (test_queue)
{
  Fixture f;

  fixture_init (&f, 100, 0, 0);
  QUEUE (&f, 200, 8, 7, "mysqld");
  QUEUE (&f, 250, 8, 8, "second");          /* the first queued counts */
  feed (&f, DS_TRACE_EV_INSERT, 260, 16, 4096, 0, 9, "backup", 0);
  ISSUE (&f, 300, 8, 4096, DS_TRACE_OP_READ, 1, "kworker/0:1");
  ISSUE (&f, 310, 16, 4096, DS_TRACE_OP_READ, 1, "kworker/0:1");
  /* Queued (on another CPU's clock) after it was issued: the issue's time. */
  QUEUE (&f, 500, 24, 10, "late");
  ISSUE (&f, 400, 24, 4096, DS_TRACE_OP_READ, 1, "kworker/0:1");
  /* The queue entry was used: the next issue at sector 8 has none. */
  ISSUE (&f, 600, 8, 4096, DS_TRACE_OP_READ, 1, "kworker/0:1");
  DONE (&f, 700, 8);
  DONE (&f, 710, 16);
  DONE (&f, 720, 24);
  DONE (&f, 730, 8);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 4);
  ck_assert_uint_eq (REC (&f, 0)->queue_ns, 100);
  ck_assert_uint_eq (REC (&f, 0)->issue_ns, 200);
  ck_assert_uint_eq (REC (&f, 0)->pid, 7);
  ck_assert_uint_eq (REC (&f, 1)->queue_ns, 160);
  ck_assert_uint_eq (REC (&f, 1)->pid, 9);
  ck_assert_uint_eq (REC (&f, 2)->queue_ns, 300);
  ck_assert_uint_eq (REC (&f, 2)->issue_ns, 300);
  ck_assert_uint_eq (REC (&f, 2)->pid, 10);
  ck_assert_uint_eq (REC (&f, 3)->queue_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (REC (&f, 3)->pid, 1);
  ck_assert_uint_eq (REC (&f, 3)->complete_ns, 630);
  /* The names: of those who queued, and the issuer of the last. */
  ck_assert_uint_eq (f.processes->len, 4);
  ck_assert_uint_eq (PROC (&f, 0)->pid, 1);
  ck_assert_str_eq (PROC (&f, 0)->comm, "kworker/0:1");
  ck_assert_str_eq (PROC (&f, 1)->comm, "mysqld");
  ck_assert_str_eq (PROC (&f, 2)->comm, "backup");
  ck_assert_str_eq (PROC (&f, 3)->comm, "late");
  fixture_clear (&f);
}
END_TEST

/* Records leave in issue order, each when all before it completed. */
START_TEST (test_issue_order)
{
  Fixture f;

  fixture_init (&f, 0, 0, 0);
  ISSUE (&f, 10, 100, 512, DS_TRACE_OP_READ, 1, "a");
  ISSUE (&f, 20, 200, 512, DS_TRACE_OP_WRITE, 1, "a");
  ISSUE (&f, 30, 300, 512, DS_TRACE_OP_READ, 1, "a");
  DONE (&f, 40, 300);
  DONE (&f, 50, 200);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 0);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 1);
  DONE (&f, 60, 100);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 3);
  /* Two at one sector: first in, first out. */
  ISSUE (&f, 70, 500, 512, DS_TRACE_OP_READ, 1, "a");
  ISSUE (&f, 80, 500, 1024, DS_TRACE_OP_READ, 1, "a");
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 2);
  DONE (&f, 90, 500);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 4);
  DONE (&f, 95, 500);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 5);
  ck_assert_uint_eq (REC (&f, 0)->offset, 100 * 512);
  ck_assert_uint_eq (REC (&f, 0)->complete_ns, 60);
  ck_assert_uint_eq (REC (&f, 1)->offset, 200 * 512);
  ck_assert_uint_eq (REC (&f, 1)->complete_ns, 50);
  ck_assert_uint_eq (REC (&f, 2)->offset, 300 * 512);
  ck_assert_uint_eq (REC (&f, 2)->complete_ns, 40);
  ck_assert_uint_eq (REC (&f, 3)->bytes, 512);
  ck_assert_uint_eq (REC (&f, 3)->complete_ns, 90);
  ck_assert_uint_eq (REC (&f, 4)->bytes, 1024);
  ck_assert_uint_eq (REC (&f, 4)->complete_ns, 95);
  fixture_clear (&f);
}
END_TEST

/* Completions of requests issued before the trace; clocks; errors. */
START_TEST (test_odd_completions)
{
  Fixture f;

  fixture_init (&f, 5000, 0, 0);
  DONE (&f, 6000, 77);
  DONE (&f, 6001, 78);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 2);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 0);
  /* Before the origin: at 0. */
  ISSUE (&f, 4000, 8, 512, DS_TRACE_OP_READ, 1, "a");
  /* Completed "before" its issue (another CPU's clock): at the issue.  The
   * completion stamped before it (of the first) leaves it in flight. */
  ISSUE (&f, 7000, 16, 512, DS_TRACE_OP_READ, 1, "a");
  feed (&f, DS_TRACE_EV_COMPLETE, 4500, 8, 0, 0, 0, "", -100000);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 1);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 1);
  feed (&f, DS_TRACE_EV_COMPLETE, 6900, 16, 0, 0, 0, "", 100000);
  ISSUE (&f, 8000, 24, 512, DS_TRACE_OP_READ, 1, "a");
  feed (&f, DS_TRACE_EV_COMPLETE, 8100, 24, 0, 0, 0, "", -61);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 2);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->issue_ns, 0);
  ck_assert_uint_eq (REC (&f, 0)->complete_ns, 0);
  ck_assert_int_eq (REC (&f, 0)->error, -32768);
  ck_assert_uint_eq (REC (&f, 1)->issue_ns, 2000);
  ck_assert_uint_eq (REC (&f, 1)->complete_ns, 2000);
  ck_assert_int_eq (REC (&f, 1)->error, 32767);
  ck_assert_uint_eq (REC (&f, 2)->complete_ns, 3100);
  ck_assert_int_eq (REC (&f, 2)->error, -61);
  fixture_clear (&f);
}
END_TEST

/* A partition from sector 2048, 1024 sectors: its disk's requests in it. */
START_TEST (test_partition)
{
  Fixture f;

  fixture_init (&f, 0, 2048, 1024);
  ISSUE (&f, 10, 2047, 512, DS_TRACE_OP_READ, 1, "before");
  ISSUE (&f, 11, 2048, 512, DS_TRACE_OP_READ, 1, "first");
  ISSUE (&f, 12, 3071, 512, DS_TRACE_OP_WRITE, 1, "last");
  ISSUE (&f, 13, 3072, 512, DS_TRACE_OP_READ, 1, "after");
  ISSUE (&f, 14, 0, 0, DS_TRACE_OP_FLUSH, 1, "flush");
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 3);
  /* Completions outside are dropped too: not counted as unmatched. */
  DONE (&f, 20, 2047);
  DONE (&f, 21, 3072);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 0);
  DONE (&f, 22, 2048);
  DONE (&f, 23, 3071);
  feed (&f, DS_TRACE_EV_COMPLETE, 24, 0, 0, DS_TRACE_OP_FLUSH, 0, "", 0);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->offset, 0);
  ck_assert_uint_eq (REC (&f, 0)->complete_ns, 22);
  ck_assert_uint_eq (REC (&f, 1)->offset, 1023 * 512);
  ck_assert_uint_eq (REC (&f, 1)->op, DS_TRACE_OP_WRITE);
  ck_assert_uint_eq (REC (&f, 2)->op, DS_TRACE_OP_FLUSH);
  ck_assert_uint_eq (REC (&f, 2)->offset, 0);
  ck_assert_uint_eq (REC (&f, 2)->complete_ns, 24);
  fixture_clear (&f);
}
END_TEST

/* Whole disk (n_sectors 0): the first sector still shifts the offsets (one
 * below it is 0, not a huge offset), and a flush's sector (it has none)
 * makes no offset. */
START_TEST (test_whole_disk)
{
  Fixture f;

  fixture_init (&f, 0, 100, 0);
  ISSUE (&f, 1, 50, 512, DS_TRACE_OP_READ, 1, "low");
  ISSUE (&f, 2, 1 << 30, 512, DS_TRACE_OP_READ, 1, "high");
  ISSUE (&f, 3, 4000, 0, DS_TRACE_OP_FLUSH, 1, "flush");
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->offset, 0);
  ck_assert_uint_eq (REC (&f, 1)->offset, ((UINT64_C (1) << 30) - 100) * 512);
  ck_assert_uint_eq (REC (&f, 2)->offset, 0);
  /* Flushed: written without completion. */
  for (guint i = 0; i < 3; i++)
    ck_assert_uint_eq (REC (&f, i)->complete_ns, DS_TRACE_NO_TIME);
  fixture_clear (&f);
}
END_TEST

/* A request stuck 120 s does not hold the others back. */
START_TEST (test_stale)
{
  Fixture f;

  fixture_init (&f, 0, 0, 0);
  ISSUE (&f, 0, 8, 512, DS_TRACE_OP_READ, 1, "a");      /* never completes */
  ISSUE (&f, 1, 16, 512, DS_TRACE_OP_READ, 1, "a");
  DONE (&f, 120 * SEC - 1, 16);
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 0);
  ISSUE (&f, 120 * SEC - 1, 24, 512, DS_TRACE_OP_READ, 1, "a");
  DONE (&f, 120 * SEC, 24);
  /* Now the stuck one is 120 s old: written incomplete, then the two done. */
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 3);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 0);
  /* Its late completion finds nothing. */
  DONE (&f, 121 * SEC, 8);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 1);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->offset, 8 * 512);
  ck_assert_uint_eq (REC (&f, 0)->complete_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (REC (&f, 1)->complete_ns, 120 * SEC - 1);
  ck_assert_uint_eq (REC (&f, 2)->complete_ns, 120 * SEC);
  fixture_clear (&f);
}
END_TEST

/* Flush writes what is in flight; their completions then match nothing. */
START_TEST (test_flush)
{
  Fixture f;
  g_autoptr (GError) error = NULL;

  fixture_init (&f, 0, 0, 0);
  ISSUE (&f, 5, 8, 512, DS_TRACE_OP_READ, 1, "a");
  ISSUE (&f, 6, 8, 512, DS_TRACE_OP_READ, 1, "a");
  ISSUE (&f, 7, 9, 512, DS_TRACE_OP_WRITE, 1, "a");
  DONE (&f, 8, 9);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 2);
  ck_assert (ds_trace_matcher_flush (f.matcher, &error));
  ck_assert_uint_eq (ds_trace_writer_count (f.writer), 3);
  ck_assert_uint_eq (ds_trace_matcher_in_flight (f.matcher), 0);
  DONE (&f, 9, 8);
  ck_assert_uint_eq (ds_trace_matcher_unmatched (f.matcher), 1);
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->complete_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (REC (&f, 1)->complete_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (REC (&f, 2)->complete_ns, 8);
  fixture_clear (&f);
}
END_TEST

/* Bios merged into other requests are never issued at their sector: the
 * table of queued bios starts afresh when it holds 65536. */
START_TEST (test_queue_bound)
{
  Fixture f;

  fixture_init (&f, 0, 0, 0);
  for (uint64_t s = 0; s < 65536; s++)
    QUEUE (&f, 1, s, 5, "merged");
  ISSUE (&f, 2, 65535, 512, DS_TRACE_OP_READ, 1, "issuer");
  QUEUE (&f, 3, 65535, 6, "again");         /* 65536 again */
  QUEUE (&f, 3, 70000, 7, "fresh");         /* 65536: the table afresh */
  ISSUE (&f, 4, 0, 512, DS_TRACE_OP_READ, 1, "issuer");
  ISSUE (&f, 5, 70000, 512, DS_TRACE_OP_READ, 1, "issuer");
  fixture_finish (&f);
  ck_assert_uint_eq (f.records->len, 3);
  ck_assert_uint_eq (REC (&f, 0)->pid, 5);
  ck_assert_uint_eq (REC (&f, 0)->queue_ns, 1);
  ck_assert_uint_eq (REC (&f, 1)->pid, 1);
  ck_assert_uint_eq (REC (&f, 1)->queue_ns, DS_TRACE_NO_TIME);
  ck_assert_uint_eq (REC (&f, 2)->pid, 7);
  ck_assert_uint_eq (REC (&f, 2)->queue_ns, 3);
  fixture_clear (&f);
}
END_TEST

START_TEST (test_rwbs)
{
  static const struct { const char *rwbs; uint8_t op, flags; } cases[] = {
    { "", DS_TRACE_OP_OTHER, 0 },
    { "N", DS_TRACE_OP_OTHER, 0 },
    { "F", DS_TRACE_OP_FLUSH, DS_TRACE_FLAG_PREFLUSH },
    { "W", DS_TRACE_OP_WRITE, 0 },
    { "WS", DS_TRACE_OP_WRITE, DS_TRACE_FLAG_SYNC },
    { "WFSM", DS_TRACE_OP_WRITE, DS_TRACE_FLAG_FUA | DS_TRACE_FLAG_SYNC | DS_TRACE_FLAG_META },
    { "FWS", DS_TRACE_OP_WRITE, DS_TRACE_FLAG_PREFLUSH | DS_TRACE_FLAG_SYNC },
    { "RM", DS_TRACE_OP_READ, DS_TRACE_FLAG_META },
    { "RAM", DS_TRACE_OP_READ, DS_TRACE_FLAG_AHEAD | DS_TRACE_FLAG_META },
    { "D", DS_TRACE_OP_DISCARD, 0 },
    { "E", DS_TRACE_OP_OTHER, 0 },          /* secure erase */
    { "ZS", DS_TRACE_OP_OTHER, DS_TRACE_FLAG_SYNC },  /* write zeroes */
    { "RXQ", DS_TRACE_OP_READ, 0 },         /* letters not known: ignored */
    { "r", DS_TRACE_OP_OTHER, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      uint8_t op = 99, flags = 99;

      ds_trace_parse_rwbs (cases[i].rwbs, &op, &flags);
      ck_assert_msg (op == cases[i].op && flags == cases[i].flags, "“%s”: op %u flags %u, want %u %u",
                     cases[i].rwbs, op, flags, cases[i].op, cases[i].flags);
    }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("trace-match");
  TCase *tc = tcase_create ("core");

  ds_test_init ("trace-match");
  tcase_add_test (tc, test_one_request);
  tcase_add_test (tc, test_queue);
  tcase_add_test (tc, test_issue_order);
  tcase_add_test (tc, test_odd_completions);
  tcase_add_test (tc, test_partition);
  tcase_add_test (tc, test_whole_disk);
  tcase_add_test (tc, test_stale);
  tcase_add_test (tc, test_flush);
  tcase_add_test (tc, test_queue_bound);
  tcase_add_test (tc, test_rwbs);
  suite_add_tcase (s, tc);
  return ds_test_run_suite (s);
}
