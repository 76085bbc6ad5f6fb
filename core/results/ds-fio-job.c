/* ds-fio-job.c: writing a kind's fio job file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-fio-job.h"
#include "ds-text.h"

/* What a comment quotes of the result: a path, a model, a host, a time. */
#define MAX_COMMENT_CHARS 120

char *
ds_fio_job_comment_text (const char *text)
{
  return text != NULL ? ds_text_sanitize_short (text, MAX_COMMENT_CHARS) : g_strdup ("?");
}

uint64_t
ds_fio_job_align_down (uint64_t v,
                       uint64_t a)
{
  return a > 0 ? v - v % a : v;
}

void
ds_fio_job_kv (DsFioJobFile *job,
               const char   *key,
               const char   *format,
               ...)
{
  va_list args;

  g_string_append_printf (job->out, "%s=", key);
  va_start (args, format);
  g_string_append_vprintf (job->out, format, args);
  va_end (args);
  g_string_append_c (job->out, '\n');
}

void
ds_fio_job_comment (DsFioJobFile *job,
                    const char   *format,
                    ...)
{
  va_list args;

  g_string_append (job->out, "; ");
  va_start (args, format);
  g_string_append_vprintf (job->out, format, args);
  va_end (args);
  g_string_append_c (job->out, '\n');
}

void
ds_fio_job_bytes (DsFioJobFile *job,
                  const char   *key,
                  uint64_t      bytes)
{
  ds_fio_job_kv (job, key, "%" G_GUINT64_FORMAT, bytes);
}

void
ds_fio_job_time (DsFioJobFile *job,
                 const char   *key,
                 uint64_t      ns)
{
  /* Rounded without adding first: ns + 500000 wraps near UINT64_MAX. */
  uint64_t ms = ns / 1000000 + (ns % 1000000 >= 500000);

  ds_fio_job_kv (job, key, "%" G_GUINT64_FORMAT "ms", MAX ((uint64_t) 1, ms));
}

DsFioEngine
ds_fio_job_engine (const DsResult *result,
                   unsigned        depth)
{
  const char *ran = result->engine != NULL ? result->engine : result->spec.engine;

  if (ran != NULL && strcmp (ran, "io_uring") == 0)
    return (DsFioEngine) { "io_uring", TRUE, FALSE };
  if (ran != NULL && strcmp (ran, "threads") == 0)
    return (DsFioEngine) { "psync", FALSE, depth > 1 };
  if (ran != NULL && strcmp (ran, "sync") == 0)
    return (DsFioEngine) { "psync", FALSE, FALSE };
  /* Not ours (an imported fio run) or unknown: what auto would pick. */
  return depth > 1 ? (DsFioEngine) { "io_uring", TRUE, FALSE } : (DsFioEngine) { "psync", FALSE, FALSE };
}

void
ds_fio_job_header (DsFioJobFile   *job,
                   const DsResult *result,
                   const char     *file,
                   DsFioJobWrites  writes)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);
  GString *out = job->out;

  g_string_append_printf (out, "; fio job reproducing a Diskscope %s run (%s)\n",
                          ops ? ops->name : "?", ops ? ops->title : "?");
  if (result->started_at != NULL)
    {
      /* From the result file: comments fio never reads, escaped. */
      g_autofree char *path = ds_fio_job_comment_text (result->target.path);
      g_autofree char *model = ds_fio_job_comment_text (result->target.model);
      g_autofree char *started = ds_fio_job_comment_text (result->started_at);
      g_autofree char *host = ds_fio_job_comment_text (result->hostname);

      g_string_append_printf (out, "; the run: %s on %s, started %s%s%s\n", path, model, started,
                              result->hostname ? " on " : "", result->hostname ? host : "");
    }
  switch (writes)
    {
    case DS_FIO_JOB_WRITES:
      g_string_append_printf (out, "; WARNING: this job WRITES to %s and DESTROYS ALL DATA on it\n", file);
      break;
    case DS_FIO_JOB_OWN_FILE:
      g_string_append_printf (out, "; writes only its own test file, %s (removed at the end)\n", file);
      break;
    case DS_FIO_JOB_READS:
    default:
      g_string_append (out, "; reads only\n");
      break;
    }
  g_string_append (out, "; run it: fio --output-format=json --output=fio.json THIS_FILE\n"
                   "; then:   diskscope-cli import-fio fio.json; diskscope-cli compare ...\n\n");
}

void
ds_fio_job_global (DsFioJobFile   *job,
                   const DsResult *result,
                   const char     *file,
                   DsFioEngine     engine)
{
  g_string_append (job->out, "[global]\n");
  ds_fio_job_kv (job, "filename", "%s", file);
  ds_fio_job_kv (job, "direct", "1");
  ds_fio_job_kv (job, "ioengine", "%s", engine.fio_engine);
  if (engine.uring)
    {
      ds_fio_job_kv (job, "fixedbufs", "1");
      ds_fio_job_kv (job, "registerfiles", "1");
    }
  ds_fio_job_kv (job, "thread", "1");
  ds_fio_job_kv (job, "group_reporting", "1");
  ds_fio_job_kv (job, "refill_buffers", "1");
  ds_fio_job_kv (job, "norandommap", "1");
  ds_fio_job_kv (job, "randrepeat", "0");
  if (result->spec.seed != 0)
    ds_fio_job_kv (job, "randseed", "%" G_GUINT64_FORMAT, result->spec.seed);
  ds_fio_job_kv (job, "lat_percentiles", "1");
  /* The run's random offsets: multiples of each I/O's block size (fio's
   * own default, written out) or of --align's bytes (HD Tune's 512). */
  if (result->spec.random_align_bytes == 0)
    {
      g_string_append (job->out, "; random offsets: multiples of each job's (smallest) block size, "
                       "fio's default blockalign, as the run's\n");
    }
  else
    {
      g_string_append (job->out, "; random offsets: multiples of the run's --align\n");
      ds_fio_job_bytes (job, "blockalign", MAX (result->spec.random_align_bytes,
                                                (uint64_t) MAX (result->target.logical_block_size, 512u)));
    }
}

const char *
ds_fio_job_rw (DsPattern pattern)
{
  switch (pattern)
    {
    case DS_PATTERN_READ: return "read";
    case DS_PATTERN_WRITE: return "write";
    case DS_PATTERN_RANDREAD: return "randread";
    case DS_PATTERN_RANDWRITE: return "randwrite";
    case DS_PATTERN_RW: return "rw";
    case DS_PATTERN_RANDRW:
    default: return "randrw";
    }
}

void
ds_fio_job_row (DsFioJobFile *job,
                const char   *name,
                const char   *rw,
                uint64_t      bs,
                uint64_t      bs_max,
                uint64_t      offset,
                uint64_t      size,
                uint64_t      runtime_ns,
                gboolean      loop_region)
{
  g_string_append_printf (job->out, "\n[%s]\n", name);
  ds_fio_job_kv (job, "stonewall", "1");
  ds_fio_job_kv (job, "rw", "%s", rw);
  if (bs_max > bs)
    ds_fio_job_kv (job, "bsrange", "%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, bs, bs_max);
  else
    ds_fio_job_bytes (job, "bs", bs);
  ds_fio_job_bytes (job, "offset", offset);
  ds_fio_job_bytes (job, "size", size);
  if (loop_region)
    ds_fio_job_kv (job, "time_based", "1");
  if (runtime_ns > 0)
    ds_fio_job_time (job, "runtime", runtime_ns);
}

void
ds_fio_job_depth (DsFioJobFile *job,
                  DsFioEngine   engine,
                  unsigned      depth,
                  unsigned      threads)
{
  depth = MAX (depth, 1u);
  threads = MAX (threads, 1u);
  if (engine.pool)
    {
      ds_fio_job_comment (job, "our thread pool ran %u x %u synchronous I/Os in flight", threads, depth);
      ds_fio_job_kv (job, "iodepth", "1");
      ds_fio_job_kv (job, "numjobs", "%u", threads * depth);
    }
  else
    {
      ds_fio_job_kv (job, "iodepth", "%u", engine.uring ? depth : 1);
      ds_fio_job_kv (job, "numjobs", "%u", threads);
    }
}

uint64_t
ds_fio_job_tested_span (const DsResult *result)
{
  uint64_t size = result->target.size_bytes;

  if (result->spec.capacity_bytes != 0 && result->spec.capacity_bytes < size)
    size = result->spec.capacity_bytes;
  return ds_fio_job_align_down (size, MAX (result->target.logical_block_size, 512u));
}

uint64_t
ds_fio_job_region (const DsResult *result,
                   uint64_t        block_bytes)
{
  const DsBenchSpec *spec = &result->spec;
  uint64_t span = 0;

  if (result->target.size_bytes > spec->offset_bytes)
    span = result->target.size_bytes - spec->offset_bytes;
  if (spec->span_bytes != 0)
    span = span ? MIN (span, spec->span_bytes) : spec->span_bytes;
  return ds_fio_job_align_down (span, block_bytes);
}

gboolean
ds_fio_job_refuse (GError    **error,
                   const char *what,
                   const char *because)
{
  g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
               _("%s cannot be expressed as a fio job, because %s"), what, because);
  return FALSE;
}
