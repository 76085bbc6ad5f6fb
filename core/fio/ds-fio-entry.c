/* ds-fio-entry.c: one job of fio's JSON as a Diskscope workload result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job's options (its own over the global ones) give the spec; its
 * "read" and "write" objects the figures, in base units: bytes, bytes/s,
 * IOPS, seconds (fio writes latencies in ns and runtimes in ms).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-fio-private.h"
#include "ds-limits.h"

/* ---- options ------------------------------------------------------------ */

/* The job's option @name, else the global one, else NULL. */
const char *
ds_fio_option (JsonObject *job_options,
               JsonObject *global_options,
               const char *name)
{
  JsonObject *from[2] = { job_options, global_options };

  for (int i = 0; i < 2; i++)
    {
      JsonNode *n = from[i] ? json_object_get_member (from[i], name) : NULL;

      if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
        return json_node_get_string (n);
    }

  return NULL;
}

/* fio sizes: "4k", "1m", "4096", "4KiB"; the first of "4k,8k" (per
 * direction) or "4k-64k" (a range).  fio's k is 1024, as ours. */
static gboolean
parse_fio_size (const char *text,
                uint64_t   *ret_bytes)
{
  g_autofree char *first = NULL;
  size_t n;

  if (text == NULL)
    return FALSE;
  n = strcspn (text, ",-:");
  first = g_strndup (text, n);
  g_strstrip (first);
  if (*first == '\0')
    return FALSE;

  return ds_parse_size (first, ret_bytes, NULL);
}

/* fio times: a bare number is seconds ("runtime=30"); "500ms", "2m". */
static gboolean
parse_fio_time (const char *text,
                uint64_t   *ret_ns)
{
  if (text == NULL || *text == '\0')
    return FALSE;

  return ds_parse_duration (text, ret_ns, NULL);
}

static gboolean
parse_uint (const char *text,
            unsigned    max,
            unsigned   *ret)
{
  guint64 v;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, max, &v, NULL))
    return FALSE;
  *ret = (unsigned) v;
  return TRUE;
}

/* ---- numbers ------------------------------------------------------------ */

double
ds_fio_number (JsonObject *o,
               const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NAN;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64: return (double) json_node_get_int (n);
    case G_TYPE_DOUBLE: return json_node_get_double (n);
    default: return NAN;
    }
}

JsonObject *
ds_fio_object (JsonObject *o,
               const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

const char *
ds_fio_string (JsonObject *o,
               const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING ?
         json_node_get_string (n) : NULL;
}

/* A figure for our result: finite, not negative, at most @max; else the
 * entry is refused (a hostile or broken file is never half-imported). */
static gboolean
figure (double       v,
        double       max,
        const char  *what,
        double      *ret,
        GError     **error)
{
  if (!isfinite (v) || v < 0 || v > max)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s is %s"), what,
                   isnan (v) ? "missing or not a number" : "out of range");
      return FALSE;
    }
  *ret = v;
  return TRUE;
}

/* Percentiles from fio's {"99.000000": ns} into ours (fio's default list
 * is ours); FALSE if none of ours is there. */
static gboolean
percentiles (JsonObject    *lat,
             DsWorkloadDir *dir)
{
  JsonObject *p = ds_fio_object (lat, "percentile");
  gboolean any = FALSE;

  for (unsigned k = 0; p != NULL && k < DS_WORKLOAD_N_PERCENTILES; k++)
    {
      char key[32];
      double v;

      g_snprintf (key, sizeof key, "%f", ds_workload_percentiles[k]);
      v = ds_fio_number (p, key);
      if (isfinite (v) && v >= 0 && v / 1e9 <= 1e6)
        {
          dir->lat_percentile_s[k] = v / 1e9;
          any = TRUE;
        }
    }

  return any;
}

static gboolean
read_dir (JsonObject     *job,
          const char     *name,
          DsWorkloadDir  *dir,
          double         *ret_runtime_s,
          gboolean       *ret_clat_percentiles,
          gboolean       *ret_untimed,
          GError        **error)
{
  JsonObject *d = ds_fio_object (job, name);
  JsonObject *lat;
  double v;
  g_autofree char *where = g_strdup_printf ("%s", name);

  if (d == NULL)
    return TRUE;
  v = ds_fio_number (d, "total_ios");
  if (!isfinite (v) || v <= 0)
    return TRUE;           /* this direction did nothing */

  lat = ds_fio_object (d, "lat_ns");
  if (lat == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("%s has no lat_ns: not fio 3.x JSON (fio 2.x reported µs; rerun with fio 3)"), where);
      return FALSE;
    }

  dir->present = TRUE;
  dir->ios = (uint64_t) MIN (v, 9e18);
  if (!figure (ds_fio_number (d, "io_bytes"), 9e18, "io_bytes", &v, error))
    return FALSE;
  dir->io_bytes = (uint64_t) v;
  if (!figure (ds_fio_number (d, "bw_bytes"), 1e15, "bw_bytes", &dir->bytes_per_s, error) ||
      !figure (ds_fio_number (d, "iops"), 1e12, "iops", &dir->iops, error))
    return FALSE;

  if (!figure (ds_fio_number (lat, "min") / 1e9, 1e6, "lat_ns.min", &dir->lat_min_s, error) ||
      !figure (ds_fio_number (lat, "mean") / 1e9, 1e6, "lat_ns.mean", &dir->lat_mean_s, error) ||
      !figure (ds_fio_number (lat, "max") / 1e9, 1e6, "lat_ns.max", &dir->lat_max_s, error))
    return FALSE;
  v = ds_fio_number (lat, "stddev") / 1e9;
  dir->lat_stddev_s = isfinite (v) && v >= 0 && v <= 1e6 ? v : 0;
  if (dir->lat_min_s > dir->lat_max_s || dir->lat_mean_s > dir->lat_max_s * (1 + 1e-9))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("%s latencies are out of order"), where);
      return FALSE;
    }
  dir->lat_mean_s = MIN (dir->lat_mean_s, dir->lat_max_s);

  if (!percentiles (lat, dir))
    {
      if (percentiles (ds_fio_object (d, "clat_ns"), dir))
        *ret_clat_percentiles = TRUE;
    }

  v = ds_fio_number (d, "runtime");
  if (isfinite (v) && v > 0 && v / 1e3 <= 1e7)
    *ret_runtime_s = MAX (*ret_runtime_s, v / 1e3);
  else
    *ret_untimed = TRUE;     /* I/Os but no time: no rate can be true */

  return TRUE;
}

/* ---- one entry ---------------------------------------------------------- */


static gboolean
pattern_from_rw (const char  *rw,
                 DsPattern   *ret,
                 GError     **error)
{
  static const struct { const char *fio; DsPattern ours; } map[] = {
    { "read", DS_PATTERN_READ }, { "write", DS_PATTERN_WRITE },
    { "randread", DS_PATTERN_RANDREAD }, { "randwrite", DS_PATTERN_RANDWRITE },
    { "randrw", DS_PATTERN_RANDRW },
    { "rw", DS_PATTERN_RW }, { "readwrite", DS_PATTERN_RW },
  };
  g_autofree char *base = g_strndup (rw ? rw : "read", strcspn (rw ? rw : "read", ":"));

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (base, map[i].fio) == 0)
      {
        *ret = map[i].ours;
        return TRUE;
      }

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("rw=%s has no Diskscope workload pattern (read, write, randread, randwrite, randrw, rw)"),
               base);
  return FALSE;
}

/* The spec's figures from the job's options, over the global ones; what
 * is missing or out of range keeps Diskscope's default. */
static void
spec_from_options (DsBenchSpec *spec,
                   JsonObject  *job_options,
                   JsonObject  *global)
{
  const char *filename = ds_fio_option (job_options, global, "filename");
  const char *directory = ds_fio_option (job_options, global, "directory");
  const char *engine = ds_fio_option (job_options, global, "ioengine");
  uint64_t v64;
  unsigned v;

  g_clear_pointer (&spec->engine, g_free);
  spec->engine = g_strdup (engine ? engine : "psync");
  spec->target_path = g_strdup (filename ? filename : directory ? directory : "fio");
  spec->block_size_bytes = 4096;
  if ((parse_fio_size (ds_fio_option (job_options, global, "bs"), &v64) ||
       parse_fio_size (ds_fio_option (job_options, global, "blocksize"), &v64)) &&
      v64 > 0 && v64 <= DS_LIMIT_BLOCK_SIZE_MAX)
    spec->block_size_bytes = v64;
  if (parse_uint (ds_fio_option (job_options, global, "iodepth"), DS_LIMIT_QUEUE_DEPTH_MAX, &v) && v > 0)
    spec->queue_depth = v;
  if (parse_uint (ds_fio_option (job_options, global, "numjobs"), DS_LIMIT_THREADS_MAX, &v) && v > 0)
    spec->threads = v;
  spec->read_mix_percent = 50;   /* fio's default */
  if (parse_uint (ds_fio_option (job_options, global, "rwmixread"), 100, &v))
    spec->read_mix_percent = v;
  else if (parse_uint (ds_fio_option (job_options, global, "rwmixwrite"), 100, &v))
    spec->read_mix_percent = 100 - v;
  spec->duration_ns = 0;
  if (parse_fio_time (ds_fio_option (job_options, global, "runtime"), &v64) && v64 / 1e9 <= 1e7)
    spec->duration_ns = v64;
  if (parse_fio_time (ds_fio_option (job_options, global, "ramp_time"), &v64) && v64 / 1e9 <= 1e7)
    spec->ramp_ns = v64;
  if (parse_fio_size (ds_fio_option (job_options, global, "offset"), &v64) && v64 <= G_MAXINT64)
    spec->offset_bytes = v64;
  if (parse_fio_size (ds_fio_option (job_options, global, "size"), &v64) && v64 <= G_MAXINT64)
    spec->span_bytes = v64;
  if (g_ascii_string_to_unsigned (ds_fio_option (job_options, global, "randseed") ? ds_fio_option (job_options, global, "randseed") : "",
                                  10, 0, G_MAXINT64, &v64, NULL))
    spec->seed = v64;
}

/* A new result of @spec that ran where, when and on what @doc says. */
static DsResult *
result_new_imported (const DsBenchSpec *spec,
                     const DsFioDoc    *doc,
                     const char        *host)
{
  DsResult *r = ds_result_new (spec);

  r->target.path = g_strdup (r->spec.target_path);
  r->target.is_block = g_str_has_prefix (r->target.path, "/dev/");
  g_clear_pointer (&r->engine, g_free);
  r->engine = g_strdup (r->spec.engine);
  g_free (r->started_at);
  r->started_at = g_strdup (doc->started_at);
  g_clear_pointer (&r->hostname, g_free);
  r->hostname = g_strdup (host);
  g_clear_pointer (&r->kernel, g_free);

  return r;
}

/* The job's read and write figures into @data; FALSE if they are broken
 * or the job did neither. */
static gboolean
read_figures (JsonObject      *job,
              DsWorkloadData  *data,
              gboolean        *ret_clat_percentiles,
              gboolean        *ret_untimed,
              GError         **error)
{
  if (!read_dir (job, "read", &data->read, &data->runtime_s, ret_clat_percentiles, ret_untimed, error) ||
      !read_dir (job, "write", &data->write, &data->runtime_s, ret_clat_percentiles, ret_untimed, error))
    return FALSE;
  /* fio counted I/Os over no time (runtime 0, or none given): a rate
   * would be made up.  The run then has no time at all, so the report
   * and comparisons say "no time measured" instead of a rate. */
  if (*ret_untimed && (data->read.present || data->write.present))
    {
      data->runtime_s = 0;
      data->read.bytes_per_s = data->read.iops = 0;
      data->write.bytes_per_s = data->write.iops = 0;
    }
  if (!data->read.present && !data->write.present)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("it did no reads or writes (trim and sync jobs are not workloads)"));
      return FALSE;
    }

  return TRUE;
}

/* fio's CPU percentages of the job's run time, as seconds. */
static void
read_cpu (JsonObject     *job,
          DsWorkloadData *data)
{
  double cpu;
  double job_runtime_ms = ds_fio_number (job, "job_runtime");

  if (!isfinite (job_runtime_ms) || job_runtime_ms <= 0)
    job_runtime_ms = data->runtime_s * 1e3;
  cpu = ds_fio_number (job, "usr_cpu");
  if (isfinite (cpu) && cpu >= 0 && cpu <= 1e6)
    data->cpu_user_s = MIN (cpu / 100 * job_runtime_ms / 1e3, 1e9);
  cpu = ds_fio_number (job, "sys_cpu");
  if (isfinite (cpu) && cpu >= 0 && cpu <= 1e6)
    data->cpu_system_s = MIN (cpu / 100 * job_runtime_ms / 1e3, 1e9);
}

/* Complete, or failed with the error fio reported for the job. */
static void
set_outcome (DsResult   *r,
             JsonObject *job)
{
  double err = ds_fio_number (job, "error");

  if (isfinite (err) && err != 0)
    {
      int e = (int) CLAMP (err, 1, 4095);
      g_autoptr (GError) failed = g_error_new (DS_ERROR, ds_error_from_errno (e),
                                               "fio reported error %d (%s) for job “%s”",
                                               e, g_strerror (e),
                                               ds_fio_string (job, "jobname") ? ds_fio_string (job, "jobname") : "?");
      ds_result_set_error (r, failed, e, -1);
    }
  else
    {
      r->complete = TRUE;
    }
}

DsResult *
ds_fio_result_from_entry (const DsFioDoc *doc,
                          JsonObject     *job,
                          JsonObject     *job_options,
                          const char     *label,
                          const char     *host,
                          GError        **error)
{
  g_autoptr (DsResult) r = NULL;
  JsonObject *global = doc->global_options;
  DsBenchSpec spec;
  DsWorkloadData *data;
  const char *rw = ds_fio_option (job_options, global, "rw");
  gboolean clat_percentiles = FALSE;
  gboolean untimed = FALSE;

  if (rw == NULL)
    rw = ds_fio_option (job_options, global, "readwrite");

  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  if (!pattern_from_rw (rw, &spec.pattern, error))
    {
      ds_bench_spec_clear (&spec);
      return NULL;
    }
  spec_from_options (&spec, job_options, global);
  r = result_new_imported (&spec, doc, host);
  ds_bench_spec_clear (&spec);

  data = r->data;
  data->engine = g_strdup (r->engine);
  if (!read_figures (job, data, &clat_percentiles, &untimed, error))
    return NULL;
  read_cpu (job, data);

  ds_annotation_set_label (&r->annotation, label, NULL);
  ds_result_add_note (r, "imported from %s (%s JSON), job “%s”%s%s", doc->source,
                      doc->fio_version, ds_fio_string (job, "jobname") ? ds_fio_string (job, "jobname") : "?",
                      host ? " on " : "", host ? host : "");
  if (clat_percentiles)
    ds_result_add_note (r, "latency percentiles are fio's clat (from the submit call's return); "
                        "fio reports them for the whole latency with lat_percentiles=1");
  if (untimed)
    ds_result_add_note (r, _("fio's JSON gives no run time for what the job did (runtime 0): "
                             "no rate is shown, only what was counted"));
  if (data->write.present)
    r->spec.write = TRUE;

  set_outcome (r, job);
  return g_steal_pointer (&r);
}
