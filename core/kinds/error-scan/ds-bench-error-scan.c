/* ds-bench-error-scan.c: HD Tune's Error Scan (kind "error-scan")
 *
 * One block at a time, as HD Tune, MHDD and Victoria do: a queue would
 * hide which block was slow.  A block that fails is read again in pieces
 * (REFINE_SPLIT per level) down to the logical sector, so the bad ranges
 * name exactly the sectors that fail and every good sector around them is
 * read once more.  See ds-bench-error-scan.h for what a page receives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <unistd.h>

#include "ds-bench-error-scan.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-run.h"
#include "ds-params.h"
#include "ds-words.h"

/* A failed block is re-read as this many pieces, each failing piece again,
 * down to one sector: 128 KiB = 256 sectors takes two levels, and a run of
 * bad sectors costs about one failed read per bad sector plus the pieces
 * around it (each failed read may take seconds on a real HDD). */
#define REFINE_SPLIT 16

#define PROGRESS_EVERY_NS (100 * DS_NS_PER_MSEC)

static gpointer
scan_data_new (void)
{
  DsScanData *data = g_new0 (DsScanData, 1);

  ds_range_list_init (&data->bad, DS_LIMIT_SCAN_BAD_RANGES_MAX);

  return data;
}

static void
scan_data_free (gpointer p)
{
  DsScanData *data = p;

  ds_range_list_clear (&data->bad);
  g_free (data->cells);
  g_free (data);
}

/* Errors that mark sectors bad; anything else (a vanished device, a bad
 * argument) stops the scan. */
static gboolean
is_media_error (int e)
{
  return ds_error_from_errno (e) == DS_ERROR_IO || e == EREMOTEIO || e == ETIMEDOUT;
}

/* 0 or -errno; a short read past which the device returns nothing is EIO. */
static int
read_full (int       fd,
           void     *buf,
           uint64_t  len,
           uint64_t  offset)
{
  uint64_t done = 0;

  while (done < len)
    {
      ssize_t n = pread (fd, (char *) buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      if (n == 0)
        return -EIO;
      done += (uint64_t) n;
    }

  return 0;
}

typedef struct {
  DsRun      *run;
  DsScanData *data;
  int         fd;
  void       *buf;
  uint32_t    sector;
  uint64_t    refine_reads;
  /* Blocks that failed but whose every piece then read without error. */
  uint64_t    retried_ok;
  /* The block counts a page was last told (DS_SAMPLE_ROW), per bucket
   * and, last, the damaged blocks. */
  uint64_t    told[DS_SCAN_N_BUCKETS + 1];
} Scan;

/* Reads [offset, offset + len) in pieces; records the sectors that fail.
 * 0, or -errno for an error that is not the medium's (or a Stop). */
static int
refine (Scan     *s,
        uint64_t  offset,
        uint64_t  len)
{
  uint64_t piece = ds_align_up (MAX (len / REFINE_SPLIT, 1), s->sector);

  for (uint64_t p = offset; p < offset + len; p += piece)
    {
      uint64_t plen = MIN (piece, offset + len - p);
      int r;

      if (ds_run_cancelled (s->run))
        return -ECANCELED;
      r = read_full (s->fd, s->buf, plen, p);
      s->refine_reads++;
      if (r == 0)
        continue;
      if (!is_media_error (-r))
        return r;
      if (plen <= s->sector)
        {
          DsSample bad = {
            .kind = DS_SAMPLE_ACCESS, .offset_bytes = p, .bytes = plen, .error = -r,
          };

          ds_range_list_add (&s->data->bad, p, plen);
          ds_run_emit (s->run, &bad);
        }
      else if ((r = refine (s, p, plen)) < 0)
        return r;
    }

  return 0;
}

typedef struct {
  uint64_t bytes;
  uint64_t ns;
  uint64_t max_ns;
  int      error;
} CellAcc;

static void
emit_cell (Scan          *s,
           guint          index,
           const CellAcc *acc)
{
  const DsScanGeometry *g = &s->data->geometry;
  DsSample sample = {
    .kind = DS_SAMPLE_POINT,
    .index = index,
    .name = ds_scan_cell_name ((DsScanCell) s->data->cells[index]),
    .offset_bytes = g->start_bytes + (uint64_t) index * g->cell_bytes,
    .bytes = acc->bytes,
    .elapsed_ns = acc->max_ns,
    .value = acc->ns ? (double) acc->bytes * 1e9 / (double) acc->ns : 0,
    .error = acc->error,
  };

  ds_run_emit (s->run, &sample);

  /* The block counts that changed in this cell, so a page's legend counts
   * blocks as the result will (a cell may hold many). */
  for (guint i = 0; i <= DS_SCAN_N_BUCKETS; i++)
    {
      uint64_t count = i < DS_SCAN_N_BUCKETS ? s->data->buckets[i] : s->data->error_blocks;
      DsSample row = {
        .kind = DS_SAMPLE_ROW, .name = "blocks",
        .index = i < DS_SCAN_N_BUCKETS ? DS_SCAN_LT_5MS + i : DS_SCAN_ERROR,
        .value = (double) count,
      };

      if (count == s->told[i])
        continue;
      s->told[i] = count;
      ds_run_emit (s->run, &row);
    }
}

static int
check_range (DsRun     *run,
             uint64_t  *ret_start,
             uint64_t  *ret_span,
             GError   **error)
{
  const DsBenchSpec *spec = run->spec;
  DsTarget *target = run->target;
  uint32_t lbs = target->logical_block_size;
  uint64_t start = spec->offset_bytes;
  uint64_t span = spec->span_bytes;

  if (start >= target->size_bytes || (span != 0 && span > target->size_bytes - start))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the scan range (offset %" PRIu64 ", %" PRIu64
                   " bytes) lies past the end of the device (%" PRIu64 " bytes)"),
                   target->path, start, span, target->size_bytes);
      return -EINVAL;
    }
  if (span == 0)
    span = ds_align_down (target->size_bytes - start, lbs);
  if (!ds_is_aligned (start, lbs) || !ds_is_aligned (span, lbs) || span == 0 ||
      !ds_is_aligned (spec->block_size_bytes, lbs))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("%s: the scan range and block size must be multiples of the "
                   "%u-byte sector (offset %" PRIu64 ", %" PRIu64
                   " bytes, block %" PRIu64 ")"),
                   target->path, lbs, start, span, spec->block_size_bytes);
      return -EINVAL;
    }

  *ret_start = start;
  *ret_span = span;
  return 0;
}

/* Lays out the map and allocates the block buffer; tells a page the
 * scan's layout.  FALSE with @error set when the buffer does not fit. */
static gboolean
scan_prepare (Scan      *s,
              uint64_t   start,
              uint64_t   span,
              GError   **error)
{
  DsRun *run = s->run;
  DsScanData *data = s->data;
  DsTarget *target = run->target;
  const DsScanGeometry *g = &data->geometry;

  ds_scan_geometry (start, span, run->spec->block_size_bytes,
                    ds_error_scan_options_const (run->spec)->quick, &data->geometry);
  data->cells = g_malloc0 (MAX (g->n_cells, 1));
  data->sector_bytes = s->sector;
  s->buf = ds_buffer_alloc (g->block_bytes, MAX (target->mem_align, 4096));
  if (s->buf == NULL)
    {
      g_autofree char *block = ds_format_block (g->block_bytes);

      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: could not allocate the scan's %s block buffer: %s; lower "
                   "--block-size"), target->path, block, g_strerror (ENOMEM));
      return FALSE;
    }

  {
    DsSample phase = {
      .kind = DS_SAMPLE_PHASE, .name = "scan", .index = g->n_cells,
      .offset_bytes = g->start_bytes, .bytes = g->cell_bytes,
    };
    ds_run_emit (run, &phase);
  }

  return TRUE;
}

/* Reads one block, times it and records it; a block that fails is read
 * again in pieces.  Sets *ret_end_ns to when the read returned.  0, or
 * -errno for an error that stops the scan. */
static int
scan_block (Scan     *s,
            uint64_t  offset,
            uint64_t  len,
            CellAcc  *acc,
            uint64_t *ret_end_ns)
{
  DsScanData *data = s->data;
  uint64_t t0, lat;
  int r;

  t0 = ds_clock_ns ();
  r = read_full (s->fd, s->buf, len, offset);
  lat = ds_clock_ns () - t0;

  if (r == 0)
    {
      ds_scan_data_record (data, offset, lat, FALSE);
      data->bytes_read += len;
      data->elapsed_ns += lat;
      acc->bytes += len;
      acc->ns += lat;
    }
  else if (is_media_error (-r))
    {
      uint64_t bad_before = data->bad.total_bytes;

      ds_scan_data_record (data, offset, lat, TRUE);
      if (acc->error == 0)
        acc->error = -r;
      r = refine (s, offset, len);
      if (r == 0 && data->bad.total_bytes == bad_before)
        s->retried_ok++;
    }
  if (r < 0)
    return r;
  acc->max_ns = MAX (acc->max_ns, lat);

  *ret_end_ns = t0 + lat;
  return 0;
}

/* Sets @error and the run's error position for an error @r at @offset. */
static void
scan_fail (DsRun     *run,
           int        r,
           uint64_t   offset,
           GError   **error)
{
  if (r == -ECANCELED)
    ds_run_check_cancelled (run, error);
  else
    ds_set_error_from_errno (error, r, run->target->path);
  run->error_errno = -r;
  run->error_offset_bytes = (int64_t) offset;
}

static void
scan_add_notes (const Scan *s)
{
  DsRun *run = s->run;
  DsTarget *target = run->target;
  uint64_t retried_ok = s->retried_ok;

  if (retried_ok > 0)
    ds_result_add_note (run->result,
                        _("%" PRIu64 " block%s failed once but read without error "
                        "when read again sector by sector: a weak area, not a bad one "
                        "(yet)"), retried_ok, retried_ok == 1 ? "" : "s");
  if (s->data->bad.truncated)
    ds_result_add_note (run->result,
                        _("more than %u separate bad ranges: only the first %u are listed "
                        "(the byte count is exact)"), DS_LIMIT_SCAN_BAD_RANGES_MAX,
                        DS_LIMIT_SCAN_BAD_RANGES_MAX);
  if (target->kind == DS_TARGET_BLOCK && !target->direct)
    ds_result_add_note (run->result, _("read through the page cache: latencies are not the device's"));
}

static gboolean
scan_run (DsRun   *run,
          GError **error)
{
  DsScanData *data = run->result->data;
  DsTarget *target = run->target;
  const DsScanGeometry *g = &data->geometry;
  Scan s = { .run = run, .data = data, .fd = target->fd, .sector = target->logical_block_size };
  CellAcc acc = { 0 };
  uint64_t start, span;
  uint64_t last_progress_ns = 0;
  int r;

  r = check_range (run, &start, &span, error);
  if (r < 0)
    return ds_run_ok (run, r, error);

  if (!scan_prepare (&s, start, span, error))
    return FALSE;

  for (uint64_t i = 0; i < g->n_reads; i++)
    {
      uint64_t offset = g->quick ? start + i * g->cell_bytes : start + i * g->block_bytes;
      uint64_t len = MIN (g->block_bytes, start + span - offset);
      guint cell = (guint) MIN ((offset - start) / g->cell_bytes, (uint64_t) g->n_cells - 1);
      uint64_t end_ns = 0;

      if ((r = ds_run_check_cancelled (run, error)) < 0)
        break;

      r = scan_block (&s, offset, len, &acc, &end_ns);
      if (r < 0)
        {
          scan_fail (run, r, offset, error);
          break;
        }

      ds_run_set_progress (run, (double) (i + 1) / (double) g->n_reads);
      if (g->quick || (offset - start) / g->block_bytes % g->cell_blocks == g->cell_blocks - 1 ||
          i + 1 == g->n_reads)
        {
          emit_cell (&s, cell, &acc);
          acc = (CellAcc) { 0 };
        }
      if (end_ns - last_progress_ns >= PROGRESS_EVERY_NS)
        {
          DsSample progress = { .kind = DS_SAMPLE_PROGRESS, .offset_bytes = offset + len };

          ds_run_emit (run, &progress);
          last_progress_ns = end_ns;
        }
    }

  ds_buffer_free (s.buf);
  scan_add_notes (&s);

  return ds_run_ok (run, r, error);
}

static JsonNode *
scan_to_json (const DsResult *result)
{
  const DsScanData *data = result->data;

  /* A scan refused before it started has no geometry to describe: no
   * results, as the loader expects of a run that measured nothing (its
   * block size of 0 made a file that did not load). */
  if (data->geometry.block_bytes == 0)
    return json_node_new (JSON_NODE_NULL);

  return ds_scan_data_to_json (data);
}

static gpointer
scan_from_json (JsonObject  *results,
                GError     **error)
{
  DsScanData *data = scan_data_new ();

  if (!ds_scan_data_from_json (data, results, error))
    {
      scan_data_free (data);
      return NULL;
    }

  return data;
}

static void
scan_report (const DsResult *result,
             DsUnits         units,
             GString        *out)
{
  ds_scan_data_report (result->data, out);
}

/* A block was read (or failed to be): the map and the counts hold it. */
static gboolean
scan_measured (const DsResult *result)
{
  const DsScanData *data = result->data;

  return data->blocks_read > 0;
}

DsErrorScanOptions *
ds_error_scan_options (DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_ERROR_SCAN, NULL);

  return spec->options;
}

const DsErrorScanOptions *
ds_error_scan_options_const (const DsBenchSpec *spec)
{
  g_return_val_if_fail (spec->kind == DS_BENCH_ERROR_SCAN, NULL);

  return spec->options;
}

static unsigned
error_scan_params (const DsBenchSpec *spec)
{
  (void) spec;
  return DS_PARAM_BLOCK | DS_PARAM_OFFSET | DS_PARAM_SPAN;
}

static gboolean
error_scan_validate (const DsBenchSpec  *spec,
                     GError            **error)
{
  if (spec->block_size_bytes < DS_LIMIT_SCAN_BLOCK_MIN ||
      spec->block_size_bytes > DS_LIMIT_SCAN_BLOCK_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the error scan reads blocks of 4K to 16M, not %" PRIu64 " bytes"),
                   spec->block_size_bytes);
      return FALSE;
    }
  if (spec->write)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the error scan only reads: it has no write mode"));
      return FALSE;
    }
  if (spec->offset_bytes > G_MAXUINT64 - spec->span_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("the scan range does not fit in 64 bits"));
      return FALSE;
    }

  return TRUE;
}

static void
error_scan_settings (const DsBenchSpec *spec,
                     const DsResult    *result,
                     GPtrArray         *parts)
{
  gboolean quick = ds_error_scan_options_const (spec)->quick;

  (void) result;
  g_ptr_array_add (parts, g_strdup (quick ? _("quick (sampled)") : _("every block")));
  ds_words_add_block (parts, spec->block_size_bytes);
}

const DsBenchOps ds_bench_error_scan = {
  .kind = DS_BENCH_ERROR_SCAN,
  .name = "error-scan",
  .title = "Error Scan",
  .opens_target = TRUE,
  .data_new = scan_data_new,
  .data_free = scan_data_free,
  .run = scan_run,
  .to_json = scan_to_json,
  .from_json = scan_from_json,
  .report = scan_report,
  .measured = scan_measured,
  .writes = DS_BENCH_WRITES_NEVER,
  .spec_flags = DS_BENCH_SPEC_ROWS_ACCURACY | DS_BENCH_SPEC_OWN_IO,
  .default_block_bytes = DS_ERROR_SCAN_DEFAULT_BLOCK,
  .options_size = sizeof (DsErrorScanOptions),
  .validate = error_scan_validate,
  .params = error_scan_params,
  .settings = error_scan_settings,
  .compare_rows = ds_error_scan_compare_rows,
  .fio_job = ds_error_scan_fio_job,
};
