/* ds-fio-export.c: a result as a fio job file that reproduces its run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job says what our run did, in fio's words:
 *
 *   ours                          fio
 *   O_DIRECT, aligned buffers     direct=1
 *   fresh random data per write   refill_buffers=1
 *   uniform random offsets,       norandommap=1 (fio would otherwise visit
 *     repeats allowed               each block once per pass)
 *   random offsets on multiples   fio's default blockalign (the smallest
 *     of the block size, or of      block size), written out for a
 *     --align's bytes               workload, or blockalign=ALIGN
 *   io_uring, registered buffers  ioengine=io_uring fixedbufs=1
 *     and file                      registerfiles=1
 *   sync (pread/pwrite)           ioengine=psync
 *   threads (a pool of pread/     ioengine=psync, numjobs = threads x depth
 *     pwrite, one per slot)         at iodepth=1
 *   threads T, queue depth Q      numjobs=T iodepth=Q, group_reporting
 *   latency = submit..complete    lat_percentiles=1 (fio's total latency)
 *
 * Sizes are written in bytes and times in milliseconds, so nothing is
 * rounded by a unit.  The HD Tune kinds become one job per point or row,
 * one after another (stonewall), each limited like ours by its time and
 * its region.
 *
 * A result file is anyone's, and fio's job file has no quoting: fio reads
 * it with fgets() into a buffer of OPT_LEN_MAX (1024 bytes in old
 * versions, 4096 or 8192 since), so a longer line becomes two; strips
 * blanks; takes a line starting with ';' or '#' as a comment and cuts a
 * value at the first ';' or '#'; opens a section at '['; reads "include
 * FILE"; replaces ${VAR} with the environment and $pagesize and friends;
 * and splits filename= at ':' (unless escaped as "\:").  So the one value
 * from the result that is written as an option, the file to run on, must
 * be of a safe set (valid UTF-8 without control characters, none of
 * ; # $ = [ ] \, no blank at either end, short): else the export is
 * refused and the user told to pass --filename.  Everything else from the
 * result (model, path, host, time) only goes into comment lines, escaped
 * by ds_text_sanitize() (no newline can end the comment) and cut short.
 * Last, the job is read back as fio would read it (check_job()): only
 * our sections and options, every line shorter than fio's buffer.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-random-access.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-text.h"

/* As in ds-bench-transfer.c (the access-time and burst phases). */
#define TRANSFER_ACCESS_IOS_BASE      250
#define TRANSFER_ACCESS_BUDGET_POINTS 8
#define TRANSFER_BURST_BUDGET_POINTS  2

static void
kv (GString    *out,
    const char *key,
    const char *format,
    ...) G_GNUC_PRINTF (3, 4);

static void
kv (GString    *out,
    const char *key,
    const char *format,
    ...)
{
  va_list args;

  g_string_append_printf (out, "%s=", key);
  va_start (args, format);
  g_string_append_vprintf (out, format, args);
  va_end (args);
  g_string_append_c (out, '\n');
}

static void
kv_bytes (GString    *out,
          const char *key,
          uint64_t    bytes)
{
  kv (out, key, "%" G_GUINT64_FORMAT, bytes);
}

/* fio takes "ms" on every time option. */
static void
kv_time (GString    *out,
         const char *key,
         uint64_t    ns)
{
  kv (out, key, "%" G_GUINT64_FORMAT "ms", MAX ((uint64_t) 1, (ns + 500000) / 1000000));
}

static uint64_t
align_down (uint64_t v,
            uint64_t a)
{
  return a > 0 ? v - v % a : v;
}

typedef struct {
  const char *fio_engine;
  gboolean    uring;
  gboolean    pool;      /* our threads engine: one synchronous job per slot */
} Engine;

static Engine
engine_for (const DsResult *result,
            unsigned        depth)
{
  const char *ran = result->engine != NULL ? result->engine : result->spec.engine;

  if (ran != NULL && strcmp (ran, "io_uring") == 0)
    return (Engine) { "io_uring", TRUE, FALSE };
  if (ran != NULL && strcmp (ran, "threads") == 0)
    return (Engine) { "psync", FALSE, depth > 1 };
  if (ran != NULL && strcmp (ran, "sync") == 0)
    return (Engine) { "psync", FALSE, FALSE };
  /* Not ours (an imported fio run) or unknown: what auto would pick. */
  return depth > 1 ? (Engine) { "io_uring", TRUE, FALSE } : (Engine) { "psync", FALSE, FALSE };
}

static void
header (GString        *out,
        const DsResult *result,
        const char     *filename)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  g_autofree char *what = NULL;
  gboolean writes = result->spec.write ||
                    (result->kind == DS_BENCH_WORKLOAD && result->spec.pattern != DS_PATTERN_READ &&
                     result->spec.pattern != DS_PATTERN_RANDREAD) ||
                    result->kind == DS_BENCH_FILE;

  g_string_append_printf (out, "; fio job reproducing a Diskscope %s run (%s)\n",
                          ops ? ops->name : "?", ops ? ops->title : "?");
  if (result->started_at != NULL)
    {
      /* From the result file: comments fio never reads, escaped. */
      g_autofree char *path = ds_fio_comment_text (result->target.path);
      g_autofree char *model = ds_fio_comment_text (result->target.model);
      g_autofree char *started = ds_fio_comment_text (result->started_at);
      g_autofree char *host = ds_fio_comment_text (result->hostname);

      g_string_append_printf (out, "; the run: %s on %s, started %s%s%s\n", path, model, started,
                              result->hostname ? " on " : "", result->hostname ? host : "");
    }
  if (writes && result->kind != DS_BENCH_FILE)
    g_string_append_printf (out, "; WARNING: this job WRITES to %s and DESTROYS ALL DATA on it\n", filename);
  else if (result->kind == DS_BENCH_FILE)
    g_string_append_printf (out, "; writes only its own test file, %s (removed at the end)\n", filename);
  else
    g_string_append (out, "; reads only\n");
  what = g_strdup ("; run it: fio --output-format=json --output=fio.json THIS_FILE\n"
                   "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n\n");
  g_string_append (out, what);
}

static void
global_section (GString        *out,
                const DsResult *result,
                const char     *filename,
                Engine          engine)
{
  g_string_append (out, "[global]\n");
  kv (out, "filename", "%s", filename);
  kv (out, "direct", "1");
  kv (out, "ioengine", "%s", engine.fio_engine);
  if (engine.uring)
    {
      kv (out, "fixedbufs", "1");
      kv (out, "registerfiles", "1");
    }
  kv (out, "thread", "1");
  kv (out, "group_reporting", "1");
  kv (out, "refill_buffers", "1");
  kv (out, "norandommap", "1");
  kv (out, "randrepeat", "0");
  if (result->spec.seed != 0)
    kv (out, "randseed", "%" G_GUINT64_FORMAT, result->spec.seed);
  kv (out, "lat_percentiles", "1");
  /* The run's random offsets: multiples of each I/O's block size (fio's
   * own default, written out) or of --align's bytes (HD Tune's 512). */
  if (result->spec.random_align_bytes == 0)
    {
      g_string_append (out, "; random offsets: multiples of each job's (smallest) block size, "
                       "fio's default blockalign, as the run's\n");
    }
  else
    {
      g_string_append (out, "; random offsets: multiples of the run's --align\n");
      kv_bytes (out, "blockalign", MAX (result->spec.random_align_bytes,
                                        (uint64_t) MAX (result->target.logical_block_size, 512u)));
    }
}

static const char *
fio_rw (DsPattern pattern)
{
  switch (pattern)
    {
    case DS_PATTERN_READ: return "read";
    case DS_PATTERN_WRITE: return "write";
    case DS_PATTERN_RANDREAD: return "randread";
    case DS_PATTERN_RANDWRITE: return "randwrite";
    case DS_PATTERN_RANDRW:
    default: return "randrw";
    }
}

/* ---- workload ----------------------------------------------------------- */

static void
workload_job (GString        *out,
              const DsResult *result,
              const char     *filename)
{
  const DsBenchSpec *spec = &result->spec;
  unsigned depth = MAX (spec->queue_depth, 1u);
  unsigned threads = MAX (spec->threads, 1u);
  Engine engine = engine_for (result, depth);
  uint64_t span = 0;

  global_section (out, result, filename, engine);

  /* The region as ours computed it: to the end, or span, in whole blocks. */
  if (result->target.size_bytes > spec->offset_bytes)
    span = result->target.size_bytes - spec->offset_bytes;
  if (spec->span_bytes != 0)
    span = span ? MIN (span, spec->span_bytes) : spec->span_bytes;
  span = align_down (span, spec->block_size_bytes);

  g_string_append_printf (out, "\n[diskscope-%s]\n", ds_pattern_to_string (spec->pattern));
  kv (out, "rw", "%s", fio_rw (spec->pattern));
  if (spec->pattern == DS_PATTERN_RANDRW)
    kv (out, "rwmixread", "%u", spec->read_mix_percent);
  kv_bytes (out, "bs", spec->block_size_bytes);
  if (spec->random_align_bytes == 0 && spec->pattern != DS_PATTERN_READ &&
      spec->pattern != DS_PATTERN_WRITE && spec->pattern != DS_PATTERN_RW)
    kv_bytes (out, "blockalign", spec->block_size_bytes);
  if (engine.pool)
    {
      g_string_append_printf (out, "; our thread pool ran %u x %u synchronous I/Os in flight\n",
                              threads, depth);
      kv (out, "iodepth", "1");
      kv (out, "numjobs", "%u", threads * depth);
    }
  else
    {
      kv (out, "iodepth", "%u", engine.uring ? depth : 1);
      kv (out, "numjobs", "%u", threads);
    }
  kv_bytes (out, "offset", spec->offset_bytes);
  if (span > 0)
    kv_bytes (out, "size", span);
  if (spec->duration_ns > 0)
    {
      kv (out, "time_based", "1");
      kv_time (out, "runtime", spec->duration_ns);
    }
  if (spec->ramp_ns > 0)
    kv_time (out, "ramp_time", spec->ramp_ns);
}

/* ---- the HD Tune kinds: one job per point or row ------------------------ */

static void
row_job (GString    *out,
         const char *name,
         const char *rw,
         uint64_t    bs,
         uint64_t    bs_max,
         uint64_t    offset,
         uint64_t    size,
         uint64_t    runtime_ns,
         gboolean    loop_region)
{
  g_string_append_printf (out, "\n[%s]\n", name);
  kv (out, "stonewall", "1");
  kv (out, "rw", "%s", rw);
  if (bs_max > bs)
    {
      kv (out, "bsrange", "%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, bs, bs_max);
    }
  else
    {
      kv_bytes (out, "bs", bs);
    }
  kv_bytes (out, "offset", offset);
  kv_bytes (out, "size", size);
  if (loop_region)
    kv (out, "time_based", "1");
  if (runtime_ns > 0)
    kv_time (out, "runtime", runtime_ns);
}

static uint64_t
tested_span (const DsResult *result)
{
  uint64_t size = result->target.size_bytes;

  if (result->spec.capacity_bytes != 0 && result->spec.capacity_bytes < size)
    size = result->spec.capacity_bytes;
  return align_down (size, MAX (result->target.logical_block_size, 512u));
}

static void
transfer_jobs (GString        *out,
               const DsResult *result,
               const char     *filename)
{
  const DsBenchSpec *spec = &result->spec;
  const char *rw = spec->write ? "write" : "read";
  uint64_t block = spec->block_size_bytes;
  uint64_t span = tested_span (result);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t point_ns = ds_bench_accuracy_point_ns (spec->accuracy);
  uint64_t segment = MAX (align_down (span / DS_BENCH_TRANSFER_POINTS, block), block);

  global_section (out, result, filename, engine_for (result, 1));
  kv (out, "iodepth", "1");
  g_string_append_printf (out, "; %d points across %" G_GUINT64_FORMAT " bytes: each reads its "
                          "segment sequentially for %" G_GUINT64_FORMAT " ms at most\n",
                          DS_BENCH_TRANSFER_POINTS, span, point_ns / 1000000);

  for (unsigned i = 0; i < DS_BENCH_TRANSFER_POINTS && span >= block; i++)
    {
      uint64_t offset = align_down ((span - segment) * i / (DS_BENCH_TRANSFER_POINTS - 1), block);
      g_autofree char *name = g_strdup_printf ("point-%03u", i);

      /* Ours reads one block first, untimed (positioning), then times the
       * rest of the segment. */
      row_job (out, name, rw, block, 0, offset + (segment > block ? block : 0),
               segment > block ? segment - block : block, point_ns, FALSE);
    }

  row_job (out, "access-time", spec->write ? "randwrite" : "randread", lbs, 0, 0, span,
           point_ns * TRANSFER_ACCESS_BUDGET_POINTS, FALSE);
  kv (out, "number_ios", "%" G_GUINT64_FORMAT,
      (uint64_t) TRANSFER_ACCESS_IOS_BASE << (MAX (spec->accuracy, 1u) - 1));
  row_job (out, "burst-rate", rw, block, 0, 0, block, point_ns * TRANSFER_BURST_BUDGET_POINTS, TRUE);
}

static void
extra_jobs (GString        *out,
            const DsResult *result,
            const char     *filename)
{
  const DsBenchSpec *spec = &result->spec;
  gboolean w = spec->write;
  uint64_t span = tested_span (result);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_EXTRA_DEFAULT_ROW_NS;
  uint64_t zone = MAX (align_down (span / DS_EXTRA_ZONE_DIVISOR, DS_EXTRA_SEQUENTIAL_BYTES),
                       (uint64_t) DS_EXTRA_SEQUENTIAL_BYTES);
  const char *seq = w ? "write" : "read";
  const char *rnd = w ? "randwrite" : "randread";

  global_section (out, result, filename, engine_for (result, 1));
  kv (out, "iodepth", "1");

  row_job (out, "random_seek", rnd, lbs, 0, 0, span, row_ns, TRUE);
  row_job (out, "random_seek_4k", rnd, MAX ((uint64_t) 4096, lbs), 0, 0, span, row_ns, TRUE);
  g_string_append (out, "\n; butterfly_seek (outer and inner edge alternately, closing in) has no "
                   "fio pattern: left out\n");
  row_job (out, "random_seek_64k", rnd, lbs, MAX ((uint64_t) 65536, lbs), 0, span, row_ns, TRUE);
  row_job (out, "random_seek_8m", rnd, lbs, MIN ((uint64_t) 8 << 20, span), 0, span, row_ns, TRUE);
  row_job (out, "sequential_outer", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0, 0, zone, row_ns, TRUE);
  row_job (out, "sequential_middle", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0,
           align_down (span / 2 - zone / 2, lbs), zone, row_ns, TRUE);
  row_job (out, "sequential_inner", seq, DS_EXTRA_SEQUENTIAL_BYTES, 0, span - zone, zone, row_ns, TRUE);
  row_job (out, "burst_rate", seq, DS_EXTRA_BURST_BYTES, 0, 0, DS_EXTRA_BURST_REGION_BYTES, row_ns, TRUE);
}

static void
random_access_jobs (GString        *out,
                    const DsResult *result,
                    const char     *filename)
{
  const DsBenchSpec *spec = &result->spec;
  uint64_t span = tested_span (result);
  uint64_t lbs = MAX (result->target.logical_block_size, 512u);
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_RANDOM_ACCESS_DEFAULT_ROW_NS;
  const char *rnd = spec->write ? "randwrite" : "randread";

  global_section (out, result, filename, engine_for (result, 1));
  kv (out, "iodepth", "1");
  for (guint i = 0; i < DS_RANDOM_ACCESS_N_ROWS; i++)
    {
      uint64_t bytes = ds_random_access_row_bytes (i);
      g_autofree char *name = bytes ? g_strdup_printf ("random-%" G_GUINT64_FORMAT, bytes)
                                    : g_strdup ("random-mixed");

      if (bytes != 0)
        row_job (out, name, rnd, MAX (bytes, lbs), 0, 0, span, row_ns, TRUE);
      else
        row_job (out, name, rnd, lbs, DS_RANDOM_ACCESS_MIXED_MAX_BYTES, 0, span, row_ns, TRUE);
    }
}

static void
block_size_jobs (GString        *out,
                 const DsResult *result,
                 const char     *filename,
                 uint64_t        span,
                 uint64_t        row_ns,
                 gboolean        read,
                 gboolean        write,
                 uint64_t        lbs)
{
  for (int pass = 0; pass < 2; pass++)
    {
      if ((pass == 0 && !read) || (pass == 1 && !write))
        continue;
      for (uint64_t bs = DS_BLOCK_SIZE_MIN_BYTES; bs <= DS_BLOCK_SIZE_MAX_BYTES; bs *= 2)
        {
          g_autofree char *name = g_strdup_printf ("block-size-%s-%" G_GUINT64_FORMAT,
                                                   pass ? "write" : "read", bs);

          if (bs < lbs || bs > span)
            continue;
          row_job (out, name, pass ? "write" : "read", bs, 0, 0, align_down (span, bs), row_ns, TRUE);
        }
    }
}

static void
file_jobs (GString        *out,
           const DsResult *result,
           const char     *filename)
{
  const DsBenchSpec *spec = &result->spec;
  const DsFileData *data = result->data;
  uint64_t size = data != NULL && data->file_bytes ? data->file_bytes : spec->file_size_bytes;
  uint64_t row_ns = spec->duration_ns ? spec->duration_ns : DS_FILE_DEFAULT_ROW_NS;

  global_section (out, result, filename, (Engine) { "io_uring", TRUE, FALSE });
  kv (out, "unlink", "1");
  kv (out, "iodepth", "1");

  row_job (out, "sequential_write", "write", DS_FILE_SEQUENTIAL_BYTES, 0, 0, size, row_ns, TRUE);
  row_job (out, "sequential_read", "read", DS_FILE_SEQUENTIAL_BYTES, 0, 0, size, row_ns, TRUE);
  row_job (out, "random_read", "randread", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  row_job (out, "random_write", "randwrite", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  row_job (out, "random_read_qd32", "randread", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  kv (out, "iodepth", "%d", DS_FILE_QUEUE_DEPTH);
  row_job (out, "random_write_qd32", "randwrite", DS_FILE_RANDOM_BYTES, 0, 0, size, row_ns, TRUE);
  kv (out, "iodepth", "%d", DS_FILE_QUEUE_DEPTH);
  block_size_jobs (out, result, filename, size,
                   spec->duration_ns ? spec->duration_ns : DS_FILE_DEFAULT_BLOCK_ROW_NS,
                   TRUE, TRUE, 512);
}

char *
ds_fio_job_from_result (const DsResult  *result,
                        const char      *filename,
                        GError         **error)
{
  GString *out;
  g_autofree char *file_path = NULL;
  g_autofree char *why = NULL;
  gboolean from_result = FALSE;

  g_return_val_if_fail (result != NULL, NULL);

  if (filename == NULL)
    {
      from_result = TRUE;
      filename = result->target.path;
    }
  if (filename == NULL || *filename == '\0')
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("the result names no device or file to run on: give one (--filename)"));
      return NULL;
    }
  why = ds_fio_unsafe_in_filename (filename);
  if (why != NULL)
    {
      g_autofree char *shown = ds_text_sanitize_short (filename, 80);

      if (from_result)
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("the result's device or file “%s” holds %s, which an fio job file cannot "
                       "carry safely (fio would read it as more options): give the device or "
                       "file to run on with --filename"), shown, why);
      else
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("--filename “%s” holds %s, which an fio job file cannot carry safely: "
                       "use a path without it (a symlink to the device, for one)"), shown, why);
      return NULL;
    }
  /* fio splits filename= at ':' (several files): escape it. */
  if (strchr (filename, ':') != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (filename, ":", -1);
      file_path = g_strjoinv ("\\:", parts);
      filename = file_path;
    }

  out = g_string_new (NULL);
  if (result->kind == DS_BENCH_FILE)
    {
      /* The folder the file benchmark ran in: fio makes its own file. */
      g_autofree char *file = g_build_filename (filename, "diskscope-fio.tmp", NULL);

      header (out, result, file);
      file_jobs (out, result, file);
      return ds_fio_job_checked (out, error);
    }

  header (out, result, filename);
  switch (result->kind)
    {
    case DS_BENCH_WORKLOAD:
      workload_job (out, result, filename);
      break;
    case DS_BENCH_TRANSFER:
      transfer_jobs (out, result, filename);
      break;
    case DS_BENCH_EXTRA:
      extra_jobs (out, result, filename);
      break;
    case DS_BENCH_RANDOM_ACCESS:
      random_access_jobs (out, result, filename);
      break;
    case DS_BENCH_BLOCK_SIZE:
      {
        const DsBenchSpec *spec = &result->spec;

        global_section (out, result, filename, engine_for (result, 1));
        kv (out, "iodepth", "1");
        block_size_jobs (out, result, filename, tested_span (result),
                         spec->duration_ns ? spec->duration_ns : DS_BLOCK_SIZE_DEFAULT_ROW_NS,
                         TRUE, spec->write, MAX (result->target.logical_block_size, 512u));
      }
      break;
    case DS_BENCH_FILE:
    case DS_BENCH_N_KINDS:
    default:
      g_string_free (out, TRUE);
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("this kind of result cannot be exported"));
      return NULL;
    }

  return ds_fio_job_checked (out, error);
}

char *
ds_fio_command_line (const char *job_path,
                     const char *output_path)
{
  g_autofree char *job = g_shell_quote (job_path);
  g_autofree char *output = g_shell_quote (output_path ? output_path : "fio.json");

  return g_strdup_printf ("fio --output-format=json --output=%s %s", output, job);
}
