/* test-int-extra.c: the Extra Tests' patterns on disks slow in known ways
 * (issue 16)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root only: each test starts a faultdisk (tests/faultdisk/), attached to a
 * loop device with direct I/O, gives it a delay model and runs the extra
 * kind through ds_run().  No figure here is a number measured once and
 * written down: the expected values come from the delay model and the
 * patterns documented in core/kinds/ds-bench-extra.h.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ds-bench-extra.h"
#include "ds-buffer.h"
#include "ds-clock.h"
#include "ds-faultdisk.h"
#include "ds-run.h"
#include "ds-test-util.h"

#define MiB (UINT64_C (1024) * 1024)
#define DISK_SIZE (64 * MiB)

/* The square-root seek model of the issue (1 ms + 14 ms x sqrt(d / span)),
 * four times as slow, so that what the test disk adds to each I/O (FUSE,
 * waking up on a busy machine) weighs a quarter as much:
 * 4 ms + 56 ms x sqrt(d / span). */
#define SEEK_BASE_US 4000.0
#define SEEK_FULL_US 56000.0

#define note ds_test_note

/* Others may read the test's device while it runs (any program probing
 * block devices, e.g. other test suites listing devices), so checks of the
 * bytes a row read allow this much more. */
#define FOREIGN_BYTES (4 * MiB)

static double fixture_overhead_us (const char *device,
                                   uint64_t    span);

/* What the faultdisk had served at some moment. */
typedef struct {
  uint64_t bytes;
  uint64_t reads;
} Served;

/* What the sink sees, on the thread of ds_run(), between rows: outside every
 * timed window. */
typedef struct {
  DsFaultDisk *disk;
  Served       at_start[DS_EXTRA_N_ROWS];
  Served       at_end[DS_EXTRA_N_ROWS];
  /* Measure the test disk's own cost right before and right after the
   * butterfly row, and take their mean. */
  gboolean     calibrate;
  double       overhead_us;
} Watch;

static void
watch_rows (const DsSample *sample,
            gpointer        user_data)
{
  Watch *w = user_data;
  gboolean start = sample->kind == DS_SAMPLE_PHASE;
  gboolean calibrate = w->calibrate && sample->index == DS_EXTRA_BUTTERFLY_SEEK;
  Served *at;

  if (sample->index >= DS_EXTRA_N_ROWS ||
      (sample->kind != DS_SAMPLE_PHASE && sample->kind != DS_SAMPLE_ROW))
    return;

  at = start ? &w->at_start[sample->index] : &w->at_end[sample->index];
  if (start && calibrate)
    w->overhead_us += fixture_overhead_us (ds_faultdisk_get_device (w->disk), DISK_SIZE) / 2;
  at->bytes = ds_faultdisk_counter (w->disk, "read_bytes");
  at->reads = ds_faultdisk_counter (w->disk, "reads");
  if (!start && calibrate)
    w->overhead_us += fixture_overhead_us (ds_faultdisk_get_device (w->disk), DISK_SIZE) / 2;
}

static DsResult *
run_extra (DsFaultDisk *disk,
           uint64_t     row_ns,
           Watch       *watch)
{
  DsBenchSpec spec;
  DsResult *result;
  gint cancel = 0;

  ds_bench_spec_init (&spec, DS_BENCH_EXTRA);
  spec.target_path = g_strdup (ds_faultdisk_get_device (disk));
  spec.duration_ns = row_ns;
  watch->disk = disk;
  result = ds_run (&spec, watch_rows, watch, &cancel);
  ds_bench_spec_clear (&spec);

  if (result->error != NULL)
    ck_abort_msg ("extra on %s failed: %s", ds_faultdisk_get_device (disk),
                  result->error->message);
  ck_assert (result->complete);
  ck_assert_uint_eq (((DsExtraData *) result->data)->read->len, DS_EXTRA_N_ROWS);

  return result;
}

static const DsExtraRow *
row_of (const DsResult *result,
        DsExtraRowKind  kind)
{
  const DsExtraData *d = result->data;

  return &g_array_index (d->read, DsExtraRow, kind);
}

/* The model's delay for an I/O at @offset after one that ended at @prev_end. */
static double
model_us (uint64_t offset,
          uint64_t prev_end,
          uint64_t span)
{
  uint64_t distance = offset > prev_end ? offset - prev_end : prev_end - offset;

  return SEEK_BASE_US + SEEK_FULL_US * sqrt ((double) distance / (double) span);
}

/* The walk documented beside DS_EXTRA_BUTTERFLY_WALKS, written out again
 * here: its pairs per walk... */
static uint64_t
documented_pairs (double   seek_iops,
                  uint64_t row_ns,
                  uint64_t span,
                  uint32_t lbs)
{
  double fit = floor (seek_iops * ((double) row_ns / 1e9) / (2.0 * DS_EXTRA_BUTTERFLY_WALKS));
  double most = (double) (span / 2 / lbs);

  return (uint64_t) MIN (MAX (fit, (double) DS_EXTRA_BUTTERFLY_MIN_PAIRS), most);
}

/* ...and the mean delay the seek model gives over @walks walks: I/O k of a
 * walk at its documented offset, each seek measured (as the faultdisk does)
 * from where the previous I/O ended: for the first walk's first I/O, at
 * @first_prev_end; for each later walk's, where the walk before it ended. */
static double
predicted_walks_us (uint64_t pairs,
                    uint64_t walks,
                    uint64_t span,
                    uint32_t lbs,
                    uint64_t first_prev_end)
{
  uint64_t step = span / 2 / pairs / lbs * lbs;
  uint64_t prev_end = first_prev_end;
  double total_us = 0;

  for (uint64_t w = 0; w < walks; w++)
    for (uint64_t k = 0; k < 2 * pairs; k++)
      {
        uint64_t p = k / 2;
        uint64_t offset = k % 2 == 0 ? step * p : span - lbs - step * p;

        total_us += model_us (offset, prev_end, span);
        prev_end = offset + lbs;
      }

  return total_us / (double) (2 * pairs * walks);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* What the test disk adds to the model on each I/O (FUSE, the loop device,
 * waking up after the model's sleep), measured now, with seeks as long as
 * the butterfly's mean: one-block reads alternating between the start and
 * the middle, the median of their times less the model's (the median: a
 * busy machine stalls a read now and then, and a few reads must not make
 * the prediction).  The last read is in the middle: the butterfly row
 * that follows starts from there. */
#define CALIBRATION_READS 16
#define CALIBRATION_END(span, lbs) ((span) / 2 + (lbs))
static double
fixture_overhead_us (const char *device,
                     uint64_t    span)
{
  double over_us[CALIBRATION_READS];
  int fd = open (device, O_RDONLY | O_DIRECT | O_CLOEXEC);
  int lbs = 0;
  uint8_t *buf;
  uint64_t prev_end;

  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (ioctl (fd, BLKSSZGET, &lbs), 0);
  buf = ds_buffer_alloc (lbs, 4096);
  ck_assert_int_eq (pread (fd, buf, lbs, span / 2), lbs);
  prev_end = CALIBRATION_END (span, lbs);
  for (unsigned i = 0; i < CALIBRATION_READS; i++)
    {
      uint64_t offset = i % 2 == 0 ? 0 : span / 2;
      uint64_t t0 = ds_clock_ns ();

      ck_assert_int_eq (pread (fd, buf, lbs, (off_t) offset), lbs);
      over_us[i] = (double) (ds_clock_ns () - t0) / 1e3 - model_us (offset, prev_end, span);
      prev_end = offset + lbs;
    }
  close (fd);
  ds_buffer_free (buf);
  qsort (over_us, CALIBRATION_READS, sizeof (double), compare_doubles);

  return MAX ((over_us[CALIBRATION_READS / 2 - 1] + over_us[CALIBRATION_READS / 2]) / 2, 0.0);
}

/* One run on @disk: asserts the walk (always), returns how far the row's
 * figure is from the one its walk predicts, as a fraction of it. */
static double
butterfly_deviation (DsFaultDisk *disk,
                     uint64_t     row_ns)
{
  g_autoptr (DsResult) r = NULL;
  Watch watch = { .calibrate = TRUE };
  const DsExtraRow *seek;
  const DsExtraRow *fly;
  uint64_t span;
  uint32_t lbs;
  uint64_t pairs;
  double predicted_us;
  double measured_us;
  double row_s = (double) row_ns / 1e9;
  double walk_s;

  r = run_extra (disk, row_ns, &watch);
  span = ((DsExtraData *) r->data)->span_bytes;
  lbs = r->target.logical_block_size;
  seek = row_of (r, DS_EXTRA_RANDOM_SEEK);
  fly = row_of (r, DS_EXTRA_BUTTERFLY_SEEK);
  ck_assert_uint_eq (span, DISK_SIZE);

  /* The walk is the documented one, and the row ran whole walks of it. */
  pairs = documented_pairs (seek->iops, row_ns, span, lbs);
  ck_assert_msg (fly->walk_pairs + 1 >= pairs && fly->walk_pairs <= pairs + 1,
                 "walk of %" G_GUINT64_FORMAT " pairs, documented %" G_GUINT64_FORMAT
                 " (random seek %.1f IOPS)", fly->walk_pairs, pairs, seek->iops);
  ck_assert_uint_ge (fly->walks, 1);
  ck_assert_uint_eq (fly->ios, fly->walks * 2 * fly->walk_pairs);
  ck_assert_uint_eq (fly->min_offset_bytes, 0);
  ck_assert_uint_eq (fly->max_end_bytes, span);

  /* The whole number of walks nearest to the row's time. */
  walk_s = (double) fly->ios / fly->iops / (double) fly->walks;
  ck_assert_msg (fly->walks == 1 || (double) fly->ios / fly->iops >= row_s - walk_s,
                 "%" G_GUINT64_FORMAT " walks of %.2f s in a %.2f s row", fly->walks,
                 walk_s, row_s);
  ck_assert_msg ((double) fly->ios / fly->iops <= row_s + walk_s,
                 "%" G_GUINT64_FORMAT " walks of %.2f s in a %.2f s row", fly->walks,
                 walk_s, row_s);

  /* The figure: the model's mean over the walks (plus what the test disk
   * adds to every I/O). */
  predicted_us = predicted_walks_us (fly->walk_pairs, fly->walks, span, lbs,
                                    CALIBRATION_END (span, lbs)) + watch.overhead_us;
  measured_us = fly->access_time_s * 1e6;
  note ("the disk served %" G_GUINT64_FORMAT " reads during the butterfly row, %"
        G_GUINT64_FORMAT " of them the row's", watch.at_end[DS_EXTRA_BUTTERFLY_SEEK].reads -
        watch.at_start[DS_EXTRA_BUTTERFLY_SEEK].reads, fly->ios);
  note ("%.1f s rows: random seek %.2f ms; butterfly %" G_GUINT64_FORMAT " walk(s) of %"
        G_GUINT64_FORMAT " pairs: %.2f ms, %.1f IOPS; predicted %.2f ms (the model's mean "
        "over the walk %.2f ms + the test disk's %.2f ms)", row_s, seek->access_time_s * 1e3,
        fly->walks, fly->walk_pairs, measured_us / 1e3, fly->iops, predicted_us / 1e3,
        (predicted_us - watch.overhead_us) / 1e3, watch.overhead_us / 1e3);

  return MAX (fabs (measured_us - predicted_us) / predicted_us,
              fabs (fly->iops * predicted_us / 1e6 - 1.0));
}

/* The butterfly row within 10 % of what its walk predicts, in access time
 * and in IOPS.  A busy shared machine now and then stalls the I/O path for
 * tens of milliseconds at a time, more in one row than in the calibration
 * next to it: a run that misses is repeated, up to three in all.  The old
 * pattern missed by 30 to 60 % every time. */
static void
check_butterfly (uint64_t row_ns)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DISK_SIZE, 16);
  double deviation = 1;

  ds_faultdisk_attach (disk, TRUE);
  /* Only one-sector I/O follows the model: what others read of the disk
   * meanwhile (programs probing block devices) must not move its heads. */
  ck_assert (ds_faultdisk_control (disk, "seek-sqrt %.0f %.0f 512", SEEK_BASE_US, SEEK_FULL_US));

  for (unsigned attempt = 1; attempt <= 3 && deviation > 0.10; attempt++)
    {
      deviation = butterfly_deviation (disk, row_ns);
      note ("run %u: %.1f %% from the prediction", attempt, deviation * 100);
    }
  ck_assert_msg (deviation <= 0.10, "the butterfly row missed its prediction by %.1f %% "
                 "three times", deviation * 100);
}

/* A short row (one walk of the fewest pairs; the old pattern, 1/1000 of
 * the half span a pair, never left the outer edge in it) and a long one,
 * the default time (several walks of more pairs): each the figure its own
 * walk predicts. */
START_TEST (test_butterfly_short_row)
{
  check_butterfly (400 * DS_NS_PER_MSEC);
}
END_TEST

START_TEST (test_butterfly_long_row)
{
  check_butterfly (DS_EXTRA_DEFAULT_ROW_NS);
}
END_TEST

/* A disk so slow (20 ms an I/O) that a row reads less than a zone: every
 * row still covers its whole region, and the burst rate's untimed first
 * pass is not counted. */
START_TEST (test_slow_disk_regions)
{
  g_autoptr (DsFaultDisk) disk = ds_faultdisk_new (DISK_SIZE, 17);
  g_autoptr (DsResult) r = NULL;
  Watch watch = { 0 };
  uint64_t span = DISK_SIZE;
  uint64_t zone = span / DS_EXTRA_ZONE_DIVISOR / DS_EXTRA_SEQUENTIAL_BYTES * DS_EXTRA_SEQUENTIAL_BYTES;
  uint64_t piece = zone / DS_EXTRA_ZONE_PIECES / DS_EXTRA_SEQUENTIAL_BYTES * DS_EXTRA_SEQUENTIAL_BYTES;
  const struct {
    DsExtraRowKind row;
    uint64_t       start;
  } zones[] = {
    { DS_EXTRA_SEQUENTIAL_OUTER, 0 },
    { DS_EXTRA_SEQUENTIAL_MIDDLE, span / 2 - zone / 2 },
    { DS_EXTRA_SEQUENTIAL_INNER, span - zone },
  };
  const DsExtraRow *burst;

  ds_faultdisk_attach (disk, TRUE);
  ck_assert (ds_faultdisk_control (disk, "delay 20000"));
  r = run_extra (disk, 300 * DS_NS_PER_MSEC, &watch);

  for (guint i = 0; i < G_N_ELEMENTS (zones); i++)
    {
      const DsExtraRow *row = row_of (r, zones[i].row);
      uint64_t read = watch.at_end[zones[i].row].bytes - watch.at_start[zones[i].row].bytes;

      note ("%s: %" G_GUINT64_FORMAT " bytes timed, %" G_GUINT64_FORMAT " read, [%"
            G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") of the zone [%" G_GUINT64_FORMAT
            ", %" G_GUINT64_FORMAT ")", ds_extra_row_name (row->row), row->bytes, read,
            row->min_offset_bytes, row->max_end_bytes, zones[i].start, zones[i].start + zone);
      /* Far less than the zone was read... */
      ck_assert_uint_lt (row->bytes, zone / 2);
      /* ...yet from its start to its last piece. */
      ck_assert_uint_eq (row->min_offset_bytes, zones[i].start);
      ck_assert_uint_gt (row->max_end_bytes, zones[i].start + zone - piece);
      ck_assert_uint_le (row->max_end_bytes, zones[i].start + zone);
      /* One untimed positioning read per piece, the rest timed. */
      ck_assert_uint_ge (read, row->bytes + DS_EXTRA_ZONE_PIECES * DS_EXTRA_SEQUENTIAL_BYTES);
      ck_assert_uint_le (read, row->bytes + DS_EXTRA_ZONE_PIECES * DS_EXTRA_SEQUENTIAL_BYTES +
                         FOREIGN_BYTES);
    }

  burst = row_of (r, DS_EXTRA_BURST_RATE);
  note ("burst_rate: %" G_GUINT64_FORMAT " bytes timed, %" G_GUINT64_FORMAT " read",
        burst->bytes, watch.at_end[DS_EXTRA_BURST_RATE].bytes - watch.at_start[DS_EXTRA_BURST_RATE].bytes);
  ck_assert_uint_ge (watch.at_end[DS_EXTRA_BURST_RATE].bytes - watch.at_start[DS_EXTRA_BURST_RATE].bytes,
                     burst->bytes + DS_EXTRA_BURST_REGION_BYTES);
  ck_assert_uint_le (watch.at_end[DS_EXTRA_BURST_RATE].bytes - watch.at_start[DS_EXTRA_BURST_RATE].bytes,
                     burst->bytes + DS_EXTRA_BURST_REGION_BYTES + FOREIGN_BYTES);
}
END_TEST

int
main (void)
{
  g_autofree char *reason = NULL;
  Suite *suite;
  TCase *tc;

  ds_test_init ("int-extra");
  ds_test_require_root ("the fault-injecting disk attaches loop devices over a FUSE file");
  if (!ds_faultdisk_available (&reason))
    {
      printf ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  ds_faultdisk_init ();

  suite = suite_create ("int-extra");
  tc = tcase_create ("extra");
  tcase_set_timeout (tc, 500);
  tcase_add_test (tc, test_butterfly_short_row);
  tcase_add_test (tc, test_butterfly_long_row);
  tcase_add_test (tc, test_slow_disk_regions);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
