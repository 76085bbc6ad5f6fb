/* test-fio-entry.c: one job of fio's JSON as a Diskscope workload result
 * (core/fio/ds-fio-entry.c)
 *
 * Unit suite: no root, no device, no fio.  What ds-fio-private.h promises
 * of an entry, called directly on hand-made jobs (test-fio.c imports whole
 * files): fio's members read only as the type they must be (NULL, NAN
 * otherwise), a job's option over the global one; the spec from the
 * options (rw and its aliases and ":N" suffixes, fio's sequential mix
 * as Diskscope's rw, sizes "4k,8k" and "4k-64k" by their first, times
 * bare in seconds, out-of-range options keeping Diskscope's defaults,
 * rwmixwrite as the rest of rwmixread); the
 * figures in base units (ns to s, ms to s, CPU percentages to seconds),
 * fio's percentile keys, clat's when lat's are missing; where, when and
 * on which host it ran; its notes and label; and the refusals: an rw with
 * no pattern (DS_ERROR_INVALID), fio 2's JSON, a figure missing, negative
 * or huge, latencies out of order, a job with no reads or writes
 * (DS_ERROR_CORRUPT, exact messages).  A job with no run time keeps its
 * counts and no rate; fio's error fails the result with its errno.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "ds-bench-workload.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-fio-private.h"
#include "ds-limits.h"
#include "ds-test-util.h"

#define P50   6
#define P99   12
#define P9999 16

static JsonObject *
object_of (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = json_from_string (json, &error);

  ck_assert_msg (node != NULL && JSON_NODE_HOLDS_OBJECT (node), "%s: %s", json,
                 error ? error->message : "not an object");
  return json_object_ref (json_node_get_object (node));
}

/* A job of fio 3 that read @ios 4 KiB blocks in 2 s, with @options
 * (JSON members) and @extra members of its own ("" for none). */
static JsonObject *
job_new (const char *extra)
{
  g_autofree char *json = g_strdup_printf (
    "{\"jobname\": \"j1\", \"error\": 0, \"job_runtime\": 2000, \"usr_cpu\": 10.0, \"sys_cpu\": 25.0,"
    " \"read\": {\"io_bytes\": 4096000, \"bw_bytes\": 2048000, \"iops\": 500.0, \"runtime\": 2000,"
    "   \"total_ios\": 1000,"
    "   \"lat_ns\": {\"min\": 1000, \"max\": 2000000, \"mean\": 50000.5, \"stddev\": 3000.0,"
    "     \"percentile\": {\"50.000000\": 40000, \"99.000000\": 120000, \"99.990000\": 1900000}}},"
    " \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0.0, \"runtime\": 0, \"total_ios\": 0,"
    "   \"lat_ns\": {\"min\": 0, \"max\": 0, \"mean\": 0.0}}%s%s}",
    *extra != '\0' ? ", " : "", extra);

  return object_of (json);
}

typedef struct {
  DsFioDoc    doc;
  JsonObject *job;
  JsonObject *options;
} Entry;

static void
entry_init (Entry      *e,
            const char *options,
            const char *global,
            const char *job_extra)
{
  memset (e, 0, sizeof *e);
  e->doc.source = "fio.json";
  e->doc.fio_version = "fio-3.33";
  e->doc.started_at = g_strdup ("2024-05-06T07:08:09Z");
  e->doc.global_options = global != NULL ? object_of (global) : NULL;
  e->job = job_new (job_extra);
  e->options = options != NULL ? object_of (options) : NULL;
}

static void
entry_clear (Entry *e)
{
  g_free (e->doc.started_at);
  g_clear_pointer (&e->doc.global_options, json_object_unref);
  g_clear_pointer (&e->job, json_object_unref);
  g_clear_pointer (&e->options, json_object_unref);
}

static DsResult *
import_ok (Entry      *e,
           const char *host)
{
  g_autoptr (GError) error = NULL;
  DsResult *r = ds_fio_result_from_entry (&e->doc, e->job, e->options, "my label", host, &error);

  ck_assert_msg (r != NULL, "refused: %s", error ? error->message : "no error");
  ck_assert_int_eq (r->kind, DS_BENCH_WORKLOAD);
  return r;
}

static DsResult *
import_options (const char *options,
                const char *global)
{
  Entry e;
  DsResult *r;

  entry_init (&e, options, global, "");
  r = import_ok (&e, NULL);
  entry_clear (&e);
  return r;
}

static void
assert_refused (Entry      *e,
                int         code,
                const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) r = ds_fio_result_from_entry (&e->doc, e->job, e->options, NULL, NULL, &error);

  ck_assert_msg (r == NULL, "accepted, expected “%s”", message);
  ck_assert_msg (g_error_matches (error, DS_ERROR, code), "%s (code %d)", error->message, error->code);
  ck_assert_str_eq (error->message, message);
}

/* ---- fio's members ------------------------------------------------------ */

START_TEST (test_members)
{
  g_autoptr (JsonObject) o = object_of ("{\"i\": 5, \"d\": 2.5, \"s\": \"7\", \"b\": true, \"n\": null,"
                                        " \"o\": {\"x\": 1}, \"a\": [1], \"big\": 9007199254740993}");
  g_autoptr (JsonObject) job = object_of ("{\"bs\": \"8k\", \"iodepth\": 4, \"rw\": \"read\"}");
  g_autoptr (JsonObject) global = object_of ("{\"bs\": \"4k\", \"iodepth\": \"16\", \"size\": \"1g\","
                                             " \"rw\": 1}");

  ck_assert (ds_fio_number (o, "i") == 5.0);
  ck_assert (ds_fio_number (o, "d") == 2.5);
  ck_assert (ds_fio_number (o, "big") == 9007199254740993.0);
  ck_assert (isnan (ds_fio_number (o, "s")));
  ck_assert (isnan (ds_fio_number (o, "b")));
  ck_assert (isnan (ds_fio_number (o, "n")));
  ck_assert (isnan (ds_fio_number (o, "o")));
  ck_assert (isnan (ds_fio_number (o, "a")));
  ck_assert (isnan (ds_fio_number (o, "missing")));
  ck_assert (isnan (ds_fio_number (NULL, "i")));

  ck_assert_ptr_nonnull (ds_fio_object (o, "o"));
  ck_assert (ds_fio_number (ds_fio_object (o, "o"), "x") == 1.0);
  ck_assert_ptr_null (ds_fio_object (o, "a"));
  ck_assert_ptr_null (ds_fio_object (o, "n"));
  ck_assert_ptr_null (ds_fio_object (o, "s"));
  ck_assert_ptr_null (ds_fio_object (o, "missing"));
  ck_assert_ptr_null (ds_fio_object (NULL, "o"));

  ck_assert_str_eq (ds_fio_string (o, "s"), "7");
  ck_assert_ptr_null (ds_fio_string (o, "i"));
  ck_assert_ptr_null (ds_fio_string (o, "n"));
  ck_assert_ptr_null (ds_fio_string (o, "o"));
  ck_assert_ptr_null (ds_fio_string (NULL, "s"));

  /* The job's own string over the global one; a job's option that is no
   * string (fio writes them all as strings) is as if missing. */
  ck_assert_str_eq (ds_fio_option (job, global, "bs"), "8k");
  ck_assert_str_eq (ds_fio_option (job, global, "iodepth"), "16");
  ck_assert_str_eq (ds_fio_option (job, global, "size"), "1g");
  ck_assert_str_eq (ds_fio_option (job, global, "rw"), "read");
  ck_assert_ptr_null (ds_fio_option (NULL, global, "rw"));
  ck_assert_str_eq (ds_fio_option (NULL, global, "bs"), "4k");
  ck_assert_str_eq (ds_fio_option (job, NULL, "bs"), "8k");
  ck_assert_ptr_null (ds_fio_option (job, global, "numjobs"));
  ck_assert_ptr_null (ds_fio_option (NULL, NULL, "bs"));
}
END_TEST

/* ---- one entry ---------------------------------------------------------- */

/* Every option that shapes the spec, every figure, where and when. */
START_TEST (test_full_entry)
{
  Entry e;
  g_autoptr (DsResult) r = NULL;
  DsWorkloadData *data;

  entry_init (&e, "{\"rw\": \"randread\", \"bs\": \"64k\", \"iodepth\": \"32\", \"numjobs\": \"4\","
              " \"runtime\": \"30\", \"ramp_time\": \"500ms\", \"offset\": \"1m\", \"size\": \"1g\","
              " \"randseed\": \"42\", \"filename\": \"/dev/nvme0n1\", \"ioengine\": \"libaio\","
              " \"rwmixread\": \"80\"}",
              "{\"ioengine\": \"sync\", \"bs\": \"4k\"}", "");
  r = import_ok (&e, "host1");
  entry_clear (&e);

  ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDREAD);
  ck_assert_uint_eq (r->spec.block_size_bytes, 65536);
  ck_assert_uint_eq (r->spec.queue_depth, 32);
  ck_assert_uint_eq (r->spec.threads, 4);
  ck_assert_uint_eq (r->spec.duration_ns, 30 * DS_NS_PER_SEC);
  ck_assert_uint_eq (r->spec.ramp_ns, 500 * DS_NS_PER_MSEC);
  ck_assert_uint_eq (r->spec.offset_bytes, 1 << 20);
  ck_assert_uint_eq (r->spec.span_bytes, UINT64_C (1) << 30);
  ck_assert_uint_eq (r->spec.seed, 42);
  ck_assert_uint_eq (r->spec.read_mix_percent, 80);
  ck_assert (!r->spec.write);
  ck_assert_str_eq (r->spec.target_path, "/dev/nvme0n1");
  ck_assert_str_eq (r->spec.engine, "libaio");
  ck_assert_str_eq (r->engine, "libaio");
  ck_assert_str_eq (r->target.path, "/dev/nvme0n1");
  ck_assert (r->target.is_block);
  ck_assert_str_eq (r->started_at, "2024-05-06T07:08:09Z");
  ck_assert_str_eq (r->hostname, "host1");
  ck_assert_ptr_null (r->kernel);
  ck_assert_str_eq (r->annotation.label, "my label");
  ck_assert (r->complete);
  ck_assert_ptr_null (r->error);
  ck_assert_uint_eq (r->notes->len, 1);
  ck_assert_str_eq (r->notes->pdata[0], "imported from fio.json (fio-3.33 JSON), job “j1” on host1");

  data = r->data;
  ck_assert_str_eq (data->engine, "libaio");
  ck_assert (data->read.present);
  ck_assert (!data->write.present);
  ck_assert_uint_eq (data->read.ios, 1000);
  ck_assert_uint_eq (data->read.io_bytes, 4096000);
  ck_assert_double_eq (data->read.bytes_per_s, 2048000);
  ck_assert_double_eq (data->read.iops, 500);
  ck_assert_double_eq_tol (data->read.lat_min_s, 1e-6, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_mean_s, 50000.5e-9, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_max_s, 2e-3, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_stddev_s, 3e-6, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_percentile_s[P50], 40e-6, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_percentile_s[P99], 120e-6, 1e-15);
  ck_assert_double_eq_tol (data->read.lat_percentile_s[P9999], 1.9e-3, 1e-15);
  ck_assert_double_eq (data->read.lat_percentile_s[0], 0);
  ck_assert_double_eq_tol (data->runtime_s, 2.0, 1e-12);
  /* 10 % and 25 % of the job's 2 s. */
  ck_assert_double_eq_tol (data->cpu_user_s, 0.2, 1e-12);
  ck_assert_double_eq_tol (data->cpu_system_s, 0.5, 1e-12);
}
END_TEST

/* rw and its aliases; a job that reads nothing. */
START_TEST (test_patterns)
{
  static const struct { const char *options; DsPattern pattern; } cases[] = {
    { "{}", DS_PATTERN_READ },
    { "{\"rw\": \"read\"}", DS_PATTERN_READ },
    { "{\"rw\": \"write\"}", DS_PATTERN_WRITE },
    { "{\"rw\": \"randread:8\"}", DS_PATTERN_RANDREAD },
    { "{\"rw\": \"randwrite\"}", DS_PATTERN_RANDWRITE },
    { "{\"rw\": \"randrw\"}", DS_PATTERN_RANDRW },
    { "{\"readwrite\": \"randwrite\"}", DS_PATTERN_RANDWRITE },
    { "{\"rw\": \"randread\", \"readwrite\": \"write\"}", DS_PATTERN_RANDREAD },
    /* fio's sequential mix is Diskscope's rw, not randrw. */
    { "{\"rw\": \"rw\"}", DS_PATTERN_RW },
    { "{\"rw\": \"readwrite:4\"}", DS_PATTERN_RW },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DsResult) r = import_options (cases[i].options, NULL);

      ck_assert_msg (r->spec.pattern == cases[i].pattern, "%s: %d", cases[i].options, r->spec.pattern);
      ck_assert_uint_eq (r->notes->len, 1);
    }

  {
    /* The global rw when the job has none. */
    g_autoptr (DsResult) r = import_options ("{\"bs\": \"8k\"}", "{\"rw\": \"randwrite\"}");

    ck_assert_int_eq (r->spec.pattern, DS_PATTERN_RANDWRITE);
    ck_assert_uint_eq (r->spec.block_size_bytes, 8192);
  }

  static const struct { const char *options; const char *base; } refused[] = {
    { "{\"rw\": \"trim\"}", "trim" },
    { "{\"rw\": \"randtrim:4\"}", "randtrim" },
    { "{\"rw\": \"trimwrite\"}", "trimwrite" },
    { "{\"rw\": \"READ\"}", "READ" },
    { "{\"rw\": \"\"}", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      Entry e;
      g_autofree char *message = g_strdup_printf ("rw=%s has no Diskscope workload pattern "
                                                  "(read, write, randread, randwrite, randrw, rw)",
                                                  refused[i].base);

      entry_init (&e, refused[i].options, NULL, "");
      assert_refused (&e, DS_ERROR_INVALID, message);
      entry_clear (&e);
    }
}
END_TEST

/* Options out of range, or not understood, keep Diskscope's defaults. */
START_TEST (test_options_defaults)
{
  {
    g_autoptr (DsResult) r = import_options ("{}", NULL);

    ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
    ck_assert_uint_eq (r->spec.queue_depth, 1);
    ck_assert_uint_eq (r->spec.threads, 1);
    ck_assert_uint_eq (r->spec.read_mix_percent, 50);
    ck_assert_uint_eq (r->spec.duration_ns, 0);
    ck_assert_uint_eq (r->spec.offset_bytes, 0);
    ck_assert_uint_eq (r->spec.span_bytes, 0);
    ck_assert_str_eq (r->spec.engine, "psync");
    ck_assert_str_eq (r->spec.target_path, "fio");
    ck_assert_str_eq (r->target.path, "fio");
    ck_assert (!r->target.is_block);
    ck_assert_ptr_null (r->hostname);
    ck_assert_str_eq (r->notes->pdata[0], "imported from fio.json (fio-3.33 JSON), job “j1”");
  }
  {
    g_autoptr (DsResult) r = import_options ("{\"bs\": \"0\", \"iodepth\": \"0\", \"numjobs\": \"-2\","
                                             " \"rwmixread\": \"101\", \"rwmixwrite\": \"30\","
                                             " \"runtime\": \"soon\", \"randseed\": \"x\","
                                             " \"directory\": \"/mnt/test\", \"offset\": \"\"}", NULL);

    ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
    ck_assert_uint_eq (r->spec.queue_depth, 1);
    ck_assert_uint_eq (r->spec.threads, 1);
    ck_assert_uint_eq (r->spec.read_mix_percent, 70);
    ck_assert_uint_eq (r->spec.duration_ns, 0);
    ck_assert_uint_eq (r->spec.offset_bytes, 0);
    ck_assert_str_eq (r->spec.target_path, "/mnt/test");
  }
  {
    g_autofree char *over = g_strdup_printf ("{\"bs\": \"2g\", \"iodepth\": \"%u\", \"numjobs\": \"%u\","
                                             " \"blocksize\": \"16k\", \"runtime\": \"200000m\"}",
                                             DS_LIMIT_QUEUE_DEPTH_MAX + 1, DS_LIMIT_THREADS_MAX + 1);
    g_autoptr (DsResult) r = import_options (over, NULL);

    /* bs is there but too big: blocksize is not looked at. */
    ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
    ck_assert_uint_eq (r->spec.queue_depth, 1);
    ck_assert_uint_eq (r->spec.threads, 1);
    ck_assert_uint_eq (r->spec.duration_ns, 0);
  }
  {
    g_autofree char *max = g_strdup_printf ("{\"blocksize\": \"1g\", \"iodepth\": \"%u\", \"numjobs\": \"%u\","
                                            " \"rwmixread\": \"0\", \"rwmixwrite\": \"30\", \"size\": \"4k-64k\","
                                            " \"offset\": \"2m,4m\", \"runtime\": \"2m\","
                                            " \"randseed\": \"18446744073709551615\"}",
                                            DS_LIMIT_QUEUE_DEPTH_MAX, DS_LIMIT_THREADS_MAX);
    g_autoptr (DsResult) r = import_options (max, NULL);

    ck_assert_uint_eq (r->spec.block_size_bytes, UINT64_C (1) << 30);
    ck_assert_uint_eq (r->spec.queue_depth, DS_LIMIT_QUEUE_DEPTH_MAX);
    ck_assert_uint_eq (r->spec.threads, DS_LIMIT_THREADS_MAX);
    ck_assert_uint_eq (r->spec.read_mix_percent, 0);
    ck_assert_uint_eq (r->spec.span_bytes, 4096);
    ck_assert_uint_eq (r->spec.offset_bytes, 2 << 20);
    ck_assert_uint_eq (r->spec.duration_ns, 120 * DS_NS_PER_SEC);
    /* Above G_MAXINT64: not a seed fio could have used as given. */
    ck_assert_uint_eq (r->spec.seed, 0);
  }
  {
    g_autoptr (DsResult) r = import_options ("{\"bs\": \"4k,8k\", \"filename\": \"/tmp/fio.dat\"}",
                                             "{\"filename\": \"/dev/sdb\"}");

    ck_assert_uint_eq (r->spec.block_size_bytes, 4096);
    ck_assert_str_eq (r->target.path, "/tmp/fio.dat");
    ck_assert (!r->target.is_block);
  }
}
END_TEST

/* Each figure's refusal, by its message. */
START_TEST (test_figures_refused)
{
  static const struct { const char *extra; const char *message; } cases[] = {
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1, \"runtime\": 1,"
      " \"lat\": {\"min\": 1, \"max\": 2, \"mean\": 1.5}}",
      "read has no lat_ns: not fio 3.x JSON (fio 2.x reported µs; rerun with fio 3)" },
    { "\"read\": {\"total_ios\": 10, \"bw_bytes\": 1, \"iops\": 1, \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1}}",
      "io_bytes is missing or not a number" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": \"40960\", \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1}}", "io_bytes is missing or not a number" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": -1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1}}", "bw_bytes is out of range" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1e16, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1}}", "bw_bytes is out of range" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1e13,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1}}", "iops is out of range" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"max\": 2, \"mean\": 1}}", "lat_ns.min is missing or not a number" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2e18, \"mean\": 1}}", "lat_ns.max is out of range" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": -1}}", "lat_ns.mean is out of range" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 3, \"max\": 2, \"mean\": 2}}", "read latencies are out of order" },
    { "\"read\": {\"total_ios\": 10, \"io_bytes\": 40960, \"bw_bytes\": 1, \"iops\": 1,"
      " \"lat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 2.1}}", "read latencies are out of order" },
    { "\"read\": {\"total_ios\": 0}, \"write\": {\"total_ios\": 0}",
      "it did no reads or writes (trim and sync jobs are not workloads)" },
    { "\"read\": {\"total_ios\": -3}, \"write\": null",
      "it did no reads or writes (trim and sync jobs are not workloads)" },
    { "\"read\": [], \"write\": {}",
      "it did no reads or writes (trim and sync jobs are not workloads)" },
    { "\"read\": {\"total_ios\": 0}, \"write\": {\"total_ios\": 5, \"io_bytes\": 20480, \"bw_bytes\": 1,"
      " \"iops\": 1, \"lat_ns\": {\"min\": 5, \"max\": 4, \"mean\": 4}}", "write latencies are out of order" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Entry e;

      entry_init (&e, "{}", NULL, "");
      /* The job's own members replaced by the case's. */
      json_object_remove_member (e.job, "read");
      json_object_remove_member (e.job, "write");
      {
        g_autofree char *json = g_strdup_printf ("{%s}", cases[i].extra);
        g_autoptr (JsonObject) members = object_of (json);
        JsonObjectIter iter;
        const char *name;
        JsonNode *value;

        json_object_iter_init (&iter, members);
        while (json_object_iter_next (&iter, &name, &value))
          json_object_set_member (e.job, name, json_node_copy (value));
      }
      assert_refused (&e, DS_ERROR_CORRUPT, cases[i].message);
      entry_clear (&e);
    }
}
END_TEST

/* A job's members replaced: "read"'s figures and what else is given. */
static DsResult *
import_read (const char *read,
             const char *extra)
{
  Entry e;
  DsResult *r;
  g_autofree char *json = g_strdup_printf ("{\"read\": %s%s%s}", read, *extra ? ", " : "", extra);
  g_autoptr (JsonObject) members = object_of (json);
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  entry_init (&e, "{\"rw\": \"randrw\"}", NULL, "");
  json_object_iter_init (&iter, members);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_member (e.job, name, json_node_copy (value));
  r = import_ok (&e, NULL);
  entry_clear (&e);
  return r;
}

/* What is read from what fio may leave out, and the edges it may reach. */
START_TEST (test_figures_read)
{
  {
    /* No runtime: the counts stay, no rate is made up, a note says so;
     * clat's percentiles stand in for lat's, and say so. */
    g_autoptr (DsResult) r = import_read (
      "{\"total_ios\": 8, \"io_bytes\": 32768, \"bw_bytes\": 1000, \"iops\": 10, \"runtime\": 0,"
      " \"lat_ns\": {\"min\": 10, \"max\": 30, \"mean\": 30.00000001, \"stddev\": -4},"
      " \"clat_ns\": {\"percentile\": {\"99.000000\": 25, \"50.000000\": -1}}}", "\"job_runtime\": 0");
    DsWorkloadData *data = r->data;

    ck_assert_uint_eq (data->read.ios, 8);
    ck_assert_uint_eq (data->read.io_bytes, 32768);
    ck_assert_double_eq (data->runtime_s, 0);
    ck_assert_double_eq (data->read.bytes_per_s, 0);
    ck_assert_double_eq (data->read.iops, 0);
    ck_assert_double_eq (data->read.lat_stddev_s, 0);
    /* A mean a rounding above the max is the max. */
    ck_assert_double_eq (data->read.lat_mean_s, data->read.lat_max_s);
    ck_assert_double_eq_tol (data->read.lat_percentile_s[P99], 25e-9, 1e-18);
    ck_assert_double_eq (data->read.lat_percentile_s[P50], 0);
    ck_assert_double_eq (data->cpu_user_s, 0);
    ck_assert_uint_eq (r->notes->len, 3);
    ck_assert_str_eq (r->notes->pdata[1], "latency percentiles are fio's clat (from the submit call's return); "
                      "fio reports them for the whole latency with lat_percentiles=1");
    ck_assert_str_eq (r->notes->pdata[2], "fio's JSON gives no run time for what the job did (runtime 0): "
                      "no rate is shown, only what was counted");
  }
  {
    /* A write: the spec says so; the longer direction's run time; CPU
     * over the run time when the job's is not given; huge counts capped. */
    g_autoptr (DsResult) r = import_read (
      "{\"total_ios\": 1e20, \"io_bytes\": 9e18, \"bw_bytes\": 1e15, \"iops\": 1e12, \"runtime\": 1500,"
      " \"lat_ns\": {\"min\": 0, \"max\": 1e15, \"mean\": 0}}",
      "\"write\": {\"total_ios\": 3, \"io_bytes\": 12288, \"bw_bytes\": 4096, \"iops\": 1, \"runtime\": 3000,"
      " \"lat_ns\": {\"min\": 1000, \"max\": 1000, \"mean\": 1000}}, \"job_runtime\": \"x\","
      " \"usr_cpu\": 50, \"sys_cpu\": -1");
    DsWorkloadData *data = r->data;

    ck_assert (r->spec.write);
    ck_assert (data->read.present && data->write.present);
    ck_assert_uint_eq (data->read.ios, UINT64_C (9000000000000000000));
    ck_assert_uint_eq (data->read.io_bytes, UINT64_C (9000000000000000000));
    ck_assert_double_eq (data->read.bytes_per_s, 1e15);
    ck_assert_double_eq (data->read.lat_max_s, 1e6);
    ck_assert_double_eq_tol (data->runtime_s, 3.0, 1e-12);
    ck_assert_uint_eq (data->write.ios, 3);
    ck_assert_double_eq_tol (data->write.lat_mean_s, 1e-6, 1e-18);
    ck_assert_double_eq_tol (data->cpu_user_s, 1.5, 1e-12);
    ck_assert_double_eq (data->cpu_system_s, 0);
    ck_assert_uint_eq (r->notes->len, 1);
  }
}
END_TEST

/* fio's error fails the result, with its errno. */
START_TEST (test_fio_error)
{
  static const struct { const char *error; int e; int code; } cases[] = {
    { "5", EIO, DS_ERROR_IO }, { "13", EACCES, DS_ERROR_PERMISSION }, { "2", ENOENT, DS_ERROR_NOT_FOUND },
    { "-16", 1, DS_ERROR_PERMISSION }, { "99999", 4095, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Entry e;
      g_autoptr (DsResult) r = NULL;
      g_autofree char *extra = g_strdup_printf ("\"error\": %s", cases[i].error);
      g_autofree char *message = g_strdup_printf ("fio reported error %d (%s) for job “j1”", cases[i].e,
                                                  g_strerror (cases[i].e));

      entry_init (&e, "{}", NULL, "");
      json_object_set_member (e.job, "error", json_from_string (cases[i].error, NULL));
      r = import_ok (&e, NULL);
      entry_clear (&e);
      ck_assert_msg (!r->complete, "%s", extra);
      ck_assert_ptr_nonnull (r->error);
      ck_assert_str_eq (r->error->message, message);
      if (cases[i].code >= 0)
        ck_assert_int_eq (r->error->code, cases[i].code);
      ck_assert_int_eq (r->error_errno, cases[i].e);
      ck_assert_int_eq (r->error_offset_bytes, -1);
      /* What it measured is kept. */
      ck_assert (((DsWorkloadData *) r->data)->read.present);
    }

  {
    /* 0, or no number: complete; no jobname: "?". */
    Entry e;
    g_autoptr (DsResult) r = NULL;

    entry_init (&e, "{}", NULL, "");
    json_object_set_string_member (e.job, "error", "5");
    json_object_remove_member (e.job, "jobname");
    r = import_ok (&e, "h");
    entry_clear (&e);
    ck_assert (r->complete);
    ck_assert_ptr_null (r->error);
    ck_assert_str_eq (r->notes->pdata[0], "imported from fio.json (fio-3.33 JSON), job “?” on h");
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("fio-entry");
  TCase *tc = tcase_create ("entry");

  tcase_add_test (tc, test_members);
  tcase_add_test (tc, test_full_entry);
  tcase_add_test (tc, test_patterns);
  tcase_add_test (tc, test_options_defaults);
  tcase_add_test (tc, test_figures_refused);
  tcase_add_test (tc, test_figures_read);
  tcase_add_test (tc, test_fio_error);
  suite_add_tcase (s, tc);

  return ds_test_run_suite (s);
}
