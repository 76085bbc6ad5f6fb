/* ds-fio-import.c: fio's JSON output as Diskscope workload results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio 3.x (--output-format=json or json+) writes
 *
 *   { "fio version": "fio-3.33", "timestamp": 1796040513,
 *     "global options": { "filename": "/dev/sdb", ... },
 *     "jobs": [ { "jobname", "groupid", "error", "job options",
 *                 "read": { "io_bytes", "bw_bytes", "iops", "runtime" (ms),
 *                           "total_ios", "lat_ns": { "min", "max", "mean",
 *                           "stddev", "percentile": { "99.000000": ns } },
 *                           "clat_ns": { ... } },
 *                 "write": { ... }, "usr_cpu", "sys_cpu" (% of
 *                 "job_runtime" ms), ... } ] }
 *
 * and `fio --client=A --client=B` the same with "client_stats" instead of
 * "jobs": one entry per host and job (with "hostname" and "port") plus
 * "All clients", fio's sum over the hosts.  fio 2.x wrote latencies in
 * µs ("lat", "clat"): refused with a message saying so.
 *
 * Each entry becomes a workload result: the pattern, block size, depth,
 * jobs, mix, runtime and region from its options (the global options
 * under the job's), the figures as fio counted them.  Latencies are fio's
 * "lat" (submission to completion, as ours); fio reports percentiles of
 * "lat" only with lat_percentiles=1, else of "clat" (from the submit call's
 * return): then the result says so.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-limits.h"
#include "ds-result-json.h"

/* fio's JSON for a run of many jobs and clients is a few MB; json+ adds
 * latency bins. */
#define MAX_FIO_BYTES (256 * 1024 * 1024)
/* json+ nests bins a few levels below the percentiles. */
#define MAX_FIO_DEPTH 64
/* More entries than this is not a run anyone compares. */
#define MAX_FIO_JOBS 4096

void
ds_fio_job_free (DsFioJob *job)
{
  if (job == NULL)
    return;

  ds_result_free (job->result);
  g_free (job->name);
  g_free (job->hostname);
  g_free (job);
}

/* ---- options ------------------------------------------------------------ */

/* The job's option @name, else the global one, else NULL. */
static const char *
option (JsonObject *job_options,
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

static double
number (JsonObject *o,
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

static JsonObject *
object (JsonObject *o,
        const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static const char *
string (JsonObject *o,
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
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s is %s", what,
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
  JsonObject *p = object (lat, "percentile");
  gboolean any = FALSE;

  for (unsigned k = 0; p != NULL && k < DS_WORKLOAD_N_PERCENTILES; k++)
    {
      char key[32];
      double v;

      g_snprintf (key, sizeof key, "%f", ds_workload_percentiles[k]);
      v = number (p, key);
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
          GError        **error)
{
  JsonObject *d = object (job, name);
  JsonObject *lat;
  double v;
  g_autofree char *where = g_strdup_printf ("%s", name);

  if (d == NULL)
    return TRUE;
  v = number (d, "total_ios");
  if (!isfinite (v) || v <= 0)
    return TRUE;           /* this direction did nothing */

  lat = object (d, "lat_ns");
  if (lat == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "%s has no lat_ns: not fio 3.x JSON (fio 2.x reported µs; rerun with fio 3)", where);
      return FALSE;
    }

  dir->present = TRUE;
  dir->ios = (uint64_t) MIN (v, 9e18);
  if (!figure (number (d, "io_bytes"), 9e18, "io_bytes", &v, error))
    return FALSE;
  dir->io_bytes = (uint64_t) v;
  if (!figure (number (d, "bw_bytes"), 1e15, "bw_bytes", &dir->bytes_per_s, error) ||
      !figure (number (d, "iops"), 1e12, "iops", &dir->iops, error))
    return FALSE;

  if (!figure (number (lat, "min") / 1e9, 1e6, "lat_ns.min", &dir->lat_min_s, error) ||
      !figure (number (lat, "mean") / 1e9, 1e6, "lat_ns.mean", &dir->lat_mean_s, error) ||
      !figure (number (lat, "max") / 1e9, 1e6, "lat_ns.max", &dir->lat_max_s, error))
    return FALSE;
  v = number (lat, "stddev") / 1e9;
  dir->lat_stddev_s = isfinite (v) && v >= 0 && v <= 1e6 ? v : 0;
  if (dir->lat_min_s > dir->lat_max_s || dir->lat_mean_s > dir->lat_max_s * (1 + 1e-9))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "%s latencies are out of order", where);
      return FALSE;
    }
  dir->lat_mean_s = MIN (dir->lat_mean_s, dir->lat_max_s);

  if (!percentiles (lat, dir))
    {
      if (percentiles (object (d, "clat_ns"), dir))
        *ret_clat_percentiles = TRUE;
    }

  v = number (d, "runtime");
  if (isfinite (v) && v > 0 && v / 1e3 <= 1e7)
    *ret_runtime_s = MAX (*ret_runtime_s, v / 1e3);

  return TRUE;
}

/* ---- one entry ---------------------------------------------------------- */

typedef struct {
  const char *source;
  const char *fio_version;
  char       *started_at;
  JsonObject *global_options;
} Doc;

static gboolean
pattern_from_rw (const char  *rw,
                 DsPattern   *ret,
                 gboolean    *ret_sequential_mix,
                 GError     **error)
{
  static const struct { const char *fio; DsPattern ours; } map[] = {
    { "read", DS_PATTERN_READ }, { "write", DS_PATTERN_WRITE },
    { "randread", DS_PATTERN_RANDREAD }, { "randwrite", DS_PATTERN_RANDWRITE },
    { "randrw", DS_PATTERN_RANDRW },
    { "rw", DS_PATTERN_RANDRW }, { "readwrite", DS_PATTERN_RANDRW },
  };
  g_autofree char *base = g_strndup (rw ? rw : "read", strcspn (rw ? rw : "read", ":"));

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (base, map[i].fio) == 0)
      {
        *ret = map[i].ours;
        *ret_sequential_mix = strcmp (base, "rw") == 0 || strcmp (base, "readwrite") == 0;
        return TRUE;
      }

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               "rw=%s has no Diskscope workload pattern (read, write, randread, randwrite, randrw)",
               base);
  return FALSE;
}

static DsResult *
result_from_entry (const Doc   *doc,
                   JsonObject  *job,
                   JsonObject  *job_options,
                   const char  *label,
                   const char  *host,
                   GError     **error)
{
  g_autoptr (DsResult) r = NULL;
  JsonObject *global = doc->global_options;
  DsBenchSpec spec;
  DsWorkloadData *data;
  const char *filename = option (job_options, global, "filename");
  const char *directory = option (job_options, global, "directory");
  const char *engine = option (job_options, global, "ioengine");
  const char *rw = option (job_options, global, "rw");
  gboolean clat_percentiles = FALSE;
  gboolean sequential_mix = FALSE;
  uint64_t v64;
  unsigned v;
  double err, cpu, job_runtime_ms;

  if (rw == NULL)
    rw = option (job_options, global, "readwrite");

  ds_bench_spec_init (&spec, DS_BENCH_WORKLOAD);
  if (!pattern_from_rw (rw, &spec.pattern, &sequential_mix, error))
    {
      ds_bench_spec_clear (&spec);
      return NULL;
    }
  g_clear_pointer (&spec.engine, g_free);
  spec.engine = g_strdup (engine ? engine : "psync");
  spec.target_path = g_strdup (filename ? filename : directory ? directory : "fio");
  spec.block_size_bytes = 4096;
  if ((parse_fio_size (option (job_options, global, "bs"), &v64) ||
       parse_fio_size (option (job_options, global, "blocksize"), &v64)) &&
      v64 > 0 && v64 <= DS_LIMIT_BLOCK_SIZE_MAX)
    spec.block_size_bytes = v64;
  if (parse_uint (option (job_options, global, "iodepth"), DS_LIMIT_QUEUE_DEPTH_MAX, &v) && v > 0)
    spec.queue_depth = v;
  if (parse_uint (option (job_options, global, "numjobs"), DS_LIMIT_THREADS_MAX, &v) && v > 0)
    spec.threads = v;
  spec.read_mix_percent = 50;   /* fio's default */
  if (parse_uint (option (job_options, global, "rwmixread"), 100, &v))
    spec.read_mix_percent = v;
  else if (parse_uint (option (job_options, global, "rwmixwrite"), 100, &v))
    spec.read_mix_percent = 100 - v;
  spec.duration_ns = 0;
  if (parse_fio_time (option (job_options, global, "runtime"), &v64) && v64 / 1e9 <= 1e7)
    spec.duration_ns = v64;
  if (parse_fio_time (option (job_options, global, "ramp_time"), &v64) && v64 / 1e9 <= 1e7)
    spec.ramp_ns = v64;
  if (parse_fio_size (option (job_options, global, "offset"), &v64) && v64 <= G_MAXINT64)
    spec.offset_bytes = v64;
  if (parse_fio_size (option (job_options, global, "size"), &v64) && v64 <= G_MAXINT64)
    spec.span_bytes = v64;
  if (g_ascii_string_to_unsigned (option (job_options, global, "randseed") ? option (job_options, global, "randseed") : "",
                                  10, 0, G_MAXINT64, &v64, NULL))
    spec.seed = v64;

  r = ds_result_new (&spec);
  ds_bench_spec_clear (&spec);

  r->target.path = g_strdup (r->spec.target_path);
  r->target.is_block = g_str_has_prefix (r->target.path, "/dev/");
  g_clear_pointer (&r->engine, g_free);
  r->engine = g_strdup (r->spec.engine);
  g_free (r->started_at);
  r->started_at = g_strdup (doc->started_at);
  g_clear_pointer (&r->hostname, g_free);
  r->hostname = g_strdup (host);
  g_clear_pointer (&r->kernel, g_free);

  data = r->data;
  data->engine = g_strdup (r->engine);
  if (!read_dir (job, "read", &data->read, &data->runtime_s, &clat_percentiles, error) ||
      !read_dir (job, "write", &data->write, &data->runtime_s, &clat_percentiles, error))
    return NULL;
  if (!data->read.present && !data->write.present)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "it did no reads or writes (trim and sync jobs are not workloads)");
      return NULL;
    }

  job_runtime_ms = number (job, "job_runtime");
  if (!isfinite (job_runtime_ms) || job_runtime_ms <= 0)
    job_runtime_ms = data->runtime_s * 1e3;
  cpu = number (job, "usr_cpu");
  if (isfinite (cpu) && cpu >= 0 && cpu <= 1e6)
    data->cpu_user_s = MIN (cpu / 100 * job_runtime_ms / 1e3, 1e9);
  cpu = number (job, "sys_cpu");
  if (isfinite (cpu) && cpu >= 0 && cpu <= 1e6)
    data->cpu_system_s = MIN (cpu / 100 * job_runtime_ms / 1e3, 1e9);

  ds_annotation_set_label (&r->annotation, label, NULL);
  ds_result_add_note (r, "imported from %s (%s JSON), job “%s”%s%s", doc->source,
                      doc->fio_version, string (job, "jobname") ? string (job, "jobname") : "?",
                      host ? " on " : "", host ? host : "");
  if (clat_percentiles)
    ds_result_add_note (r, "latency percentiles are fio's clat (from the submit call's return); "
                        "fio reports them for the whole latency with lat_percentiles=1");
  if (sequential_mix)
    ds_result_add_note (r, "fio ran rw=%s (a sequential mix), shown as randrw", rw);
  if (data->write.present)
    r->spec.write = TRUE;

  err = number (job, "error");
  if (isfinite (err) && err != 0)
    {
      int e = (int) CLAMP (err, 1, 4095);
      g_autoptr (GError) failed = g_error_new (DS_ERROR, ds_error_from_errno (e),
                                               "fio reported error %d (%s) for job “%s”",
                                               e, g_strerror (e),
                                               string (job, "jobname") ? string (job, "jobname") : "?");
      ds_result_set_error (r, failed, e, -1);
    }
  else
    {
      r->complete = TRUE;
    }

  return g_steal_pointer (&r);
}

/* ---- the document ------------------------------------------------------- */

static gboolean
check_version (const char  *version,
               GError     **error)
{
  g_autofree char *digits = NULL;
  guint64 major = 0;

  if (version != NULL && g_str_has_prefix (version, "fio-"))
    digits = g_strndup (version + 4, strspn (version + 4, "0123456789"));
  if (digits == NULL || !g_ascii_string_to_unsigned (digits, 10, 0, 1000, &major, NULL))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "not fio JSON output (no \"fio version\"): run fio with --output-format=json");
      return FALSE;
    }
  if (major < 3)
    {
      g_autofree char *clean = ds_printable_text (version);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "written by %s: Diskscope reads the JSON of fio 3.0 and later "
                   "(nanosecond latencies); rerun with a newer fio", clean);
      return FALSE;
    }

  return TRUE;
}

/* fio's "All clients" has no options of its own: those of its group's
 * jobs, and a note when they differ (the sum is then of unlike jobs). */
static DsResult *
aggregate_from_entry (const Doc   *doc,
                      JsonArray   *entries,
                      JsonObject  *sum,
                      const char  *label,
                      GError     **error)
{
  double group = number (sum, "groupid");
  JsonObject *first = NULL;
  g_autoptr (GString) jobs = g_string_new (NULL);
  gboolean alike = TRUE;
  DsResult *r;

  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *n = json_array_get_element (entries, i);
      JsonObject *job, *opts;
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      job = json_node_get_object (n);
      name = string (job, "jobname");
      if (name == NULL || strcmp (name, "All clients") == 0 || number (job, "groupid") != group)
        continue;
      opts = object (job, "job options");
      if (first == NULL)
        first = opts;
      else if (g_strcmp0 (option (opts, doc->global_options, "rw"),
                          option (first, doc->global_options, "rw")) != 0 ||
               g_strcmp0 (option (opts, doc->global_options, "bs"),
                          option (first, doc->global_options, "bs")) != 0)
        alike = FALSE;
      if (strstr (jobs->str, name) == NULL && jobs->len < 200)
        g_string_append_printf (jobs, "%s%s", jobs->len ? ", " : "", name);
    }

  r = result_from_entry (doc, sum, first, label, NULL, error);
  if (r != NULL)
    {
      g_autofree char *clean = ds_printable_text (jobs->str);

      ds_result_add_note (r, "fio's sum over every client of the jobs %s", clean);
      if (!alike)
        ds_result_add_note (r, "the summed jobs differ in pattern or block size: the profile "
                            "shown is the first job's");
    }

  return r;
}

static char *
entry_label (JsonObject *job,
             const char *host,
             gboolean    aggregate,
             gint64      groupid,
             gboolean    many_groups)
{
  const char *jobname = string (job, "jobname") ? string (job, "jobname") : "job";

  if (aggregate)
    return many_groups ? g_strdup_printf ("All clients (group %" G_GINT64_FORMAT ")", groupid)
                       : g_strdup ("All clients");
  if (host != NULL)
    return g_strdup_printf ("%s on %s", jobname, host);

  return g_strdup_printf ("%s (fio)", jobname);
}

GPtrArray *
ds_fio_import_data (const char  *data,
                    gssize       length,
                    const char  *source,
                    GPtrArray  **ret_warnings,
                    GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GPtrArray) jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_fio_job_free);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) local = NULL;
  g_autoptr (GDateTime) when = NULL;
  Doc doc = { .source = source ? source : "fio JSON" };
  const char *start, *end;
  JsonNode *root;
  JsonObject *o;
  JsonArray *entries;
  gboolean client;
  gboolean many_groups = FALSE;
  double ts;

  if (data == NULL)
    length = 0;
  else if (length < 0)
    length = (gssize) strlen (data);
  if (length > MAX_FIO_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "too large to be fio's JSON output");
      return NULL;
    }
  if (length == 0 || memchr (data, '\0', (size_t) length) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   length == 0 ? "empty: no fio JSON output" : "binary: not fio JSON output");
      return NULL;
    }

  /* fio prints notes ("note: both iodepth >= 1 and synchronous I/O engine
   * ...") on stdout before the document: start at the first line that
   * opens an object, end at the last closing brace. */
  start = data;
  while (start < data + length && *start != '{')
    {
      const char *nl = memchr (start, '\n', (size_t) (data + length - start));

      if (nl == NULL)
        break;
      start = nl + 1;
    }
  end = data + length;
  while (end > start && end[-1] != '}')
    end--;
  if (start >= data + length || *start != '{' || end <= start)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   "no JSON document in it: run fio with --output-format=json");
      return NULL;
    }
  if (!ds_json_nesting_ok (start, (gsize) (end - start), MAX_FIO_DEPTH))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "nested more than %d levels deep: not fio's JSON",
                   MAX_FIO_DEPTH);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, start, end - start, &local))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "the JSON is broken or cut short (%s)",
                   local->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "not fio JSON output (not an object)");
      return NULL;
    }
  o = json_node_get_object (root);
  doc.fio_version = string (o, "fio version");
  if (!check_version (doc.fio_version, error))
    return NULL;

  ts = number (o, "timestamp");
  if (isfinite (ts) && ts > 0 && ts < 1e11)
    when = g_date_time_new_from_unix_utc ((gint64) ts);
  if (when != NULL)
    doc.started_at = g_date_time_format_iso8601 (when);
  doc.global_options = object (o, "global options");

  client = json_object_has_member (o, "client_stats");
  {
    JsonNode *n = json_object_get_member (o, client ? "client_stats" : "jobs");

    if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) == 0)
      {
        g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "fio's JSON holds no jobs (no \"%s\" list)",
                     client ? "client_stats" : "jobs");
        g_free (doc.started_at);
        return NULL;
      }
    entries = json_node_get_array (n);
  }
  if (json_array_get_length (entries) > MAX_FIO_JOBS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "more than %d jobs: not imported", MAX_FIO_JOBS);
      g_free (doc.started_at);
      return NULL;
    }

  for (guint i = 1; i < json_array_get_length (entries); i++)
    {
      JsonNode *a = json_array_get_element (entries, 0), *b = json_array_get_element (entries, i);

      if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b) &&
          number (json_node_get_object (a), "groupid") != number (json_node_get_object (b), "groupid"))
        many_groups = TRUE;
    }

  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *n = json_array_get_element (entries, i);
      g_autoptr (GError) why = NULL;
      g_autofree char *host = NULL;
      g_autofree char *label = NULL;
      JsonObject *job;
      const char *jobname;
      DsFioJob *entry;
      DsResult *r;
      gboolean aggregate;
      double port, group;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          g_ptr_array_add (warnings, g_strdup_printf ("entry %u is not an object: skipped", i));
          continue;
        }
      job = json_node_get_object (n);
      jobname = string (job, "jobname") ? string (job, "jobname") : "?";
      aggregate = client && strcmp (jobname, "All clients") == 0;
      port = number (job, "port");
      if (client && !aggregate && string (job, "hostname") != NULL)
        host = isfinite (port) && port > 0 && port < 65536 ?
               g_strdup_printf ("%s:%d", string (job, "hostname"), (int) port) :
               g_strdup (string (job, "hostname"));

      group = number (job, "groupid");
      label = entry_label (job, host, aggregate,
                           isfinite (group) && fabs (group) < 1e9 ? (gint64) group : 0, many_groups);
      if (aggregate)
        r = aggregate_from_entry (&doc, entries, job, label, &why);
      else
        r = result_from_entry (&doc, job, object (job, "job options"), label, host, &why);
      if (r == NULL)
        {
          g_autofree char *clean = ds_printable_text (jobname);
          g_ptr_array_add (warnings, g_strdup_printf ("job “%s”%s%s not imported: %s", clean,
                                                      host ? " on " : "", host ? host : "",
                                                      why->message));
          continue;
        }
      if (r->error != NULL)
        g_ptr_array_add (warnings, g_strdup_printf ("%s%s%s", r->error->message,
                                                    host ? " on " : "", host ? host : ""));

      entry = g_new0 (DsFioJob, 1);
      entry->result = r;
      entry->name = g_steal_pointer (&label);
      entry->hostname = client && !aggregate && string (job, "hostname") ?
                        g_strdup (string (job, "hostname")) : NULL;
      entry->port = client && !aggregate && isfinite (port) && port > 0 && port < 65536 ? (int) port : 0;
      entry->aggregate = aggregate;
      g_ptr_array_add (jobs, entry);
    }

  g_free (doc.started_at);

  if (jobs->len == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, "no job could be imported: %s",
                   warnings->len > 0 ? (const char *) warnings->pdata[0] : "none found");
      return NULL;
    }

  if (ret_warnings != NULL)
    *ret_warnings = g_steal_pointer (&warnings);
  return g_steal_pointer (&jobs);
}

GPtrArray *
ds_fio_import_file (const char  *path,
                    GPtrArray  **ret_warnings,
                    GError     **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  GPtrArray *jobs;

  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, DS_ERROR,
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? DS_ERROR_NOT_FOUND :
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ACCES) ? DS_ERROR_PERMISSION :
                   DS_ERROR_FAILED, "%s", local->message);
      return NULL;
    }

  jobs = ds_fio_import_data (data, (gssize) length, path, ret_warnings, &local);
  if (jobs == NULL)
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);

  return jobs;
}
