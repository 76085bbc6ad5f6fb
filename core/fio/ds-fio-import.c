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
#include <glib/gi18n-lib.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-file-read.h"
#include "ds-fio-private.h"
#include "ds-limits.h"
#include "ds-result-json.h"
#include "ds-text.h"

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
                   _("not fio JSON output (no \"fio version\"): run fio with --output-format=json"));
      return FALSE;
    }
  if (major < 3)
    {
      g_autofree char *clean = ds_printable_text (version);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("written by %s: Diskscope reads the JSON of fio 3.0 and later "
                   "(nanosecond latencies); rerun with a newer fio"), clean);
      return FALSE;
    }

  return TRUE;
}

/* fio's "All clients" has no options of its own: those of its group's
 * jobs, and a note when they differ (the sum is then of unlike jobs). */
static DsResult *
aggregate_from_entry (const DsFioDoc *doc,
                      JsonArray   *entries,
                      JsonObject  *sum,
                      const char  *label,
                      GError     **error)
{
  double group = ds_fio_number (sum, "groupid");
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
      name = ds_fio_string (job, "jobname");
      if (name == NULL || strcmp (name, "All clients") == 0 || ds_fio_number (job, "groupid") != group)
        continue;
      opts = ds_fio_object (job, "job options");
      if (first == NULL)
        first = opts;
      else if (g_strcmp0 (ds_fio_option (opts, doc->global_options, "rw"),
                          ds_fio_option (first, doc->global_options, "rw")) != 0 ||
               g_strcmp0 (ds_fio_option (opts, doc->global_options, "bs"),
                          ds_fio_option (first, doc->global_options, "bs")) != 0)
        alike = FALSE;
      if (strstr (jobs->str, name) == NULL && jobs->len < 200)
        g_string_append_printf (jobs, "%s%s", jobs->len ? ", " : "", name);
    }

  r = ds_fio_result_from_entry (doc, sum, first, label, NULL, error);
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
  const char *jobname = ds_fio_string (job, "jobname") ? ds_fio_string (job, "jobname") : "job";

  if (aggregate)
    return many_groups ? g_strdup_printf ("All clients (group %" G_GINT64_FORMAT ")", groupid)
                       : g_strdup ("All clients");
  if (host != NULL)
    return g_strdup_printf ("%s on %s", jobname, host);

  return g_strdup_printf ("%s (fio)", jobname);
}

/* The JSON document inside @data: fio prints notes ("note: both iodepth
 * >= 1 and synchronous I/O engine ...") on stdout before it, so it starts
 * at the first line that opens an object and ends at the last closing
 * brace. */
static gboolean
find_document (const char   *data,
               gssize        length,
               const char  **ret_start,
               const char  **ret_end,
               GError      **error)
{
  const char *start, *end;

  if ((uint64_t) length > DS_FIO_JSON_MAX_BYTES)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("too large to be fio's JSON output"));
      return FALSE;
    }
  if (length == 0 || memchr (data, '\0', (size_t) length) != NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   length == 0 ? _("empty: no fio JSON output") : _("binary: not fio JSON output"));
      return FALSE;
    }

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
                   _("no JSON document in it: run fio with --output-format=json"));
      return FALSE;
    }

  *ret_start = start;
  *ret_end = end;
  return TRUE;
}

/* The document's top object, parsed within the loader's bounds (depth,
 * sizes, list lengths): a hostile file costs one pass over its bytes. */
static JsonObject *
parse_document (JsonParser  *parser,
                const char  *start,
                const char  *end,
                GError     **error)
{
  g_autoptr (GError) local = NULL;
  JsonNode *root;

  if (!ds_json_check_bounds_as (start, (gsize) (end - start), _("not fio's JSON output"), error))
    return NULL;
  if (!json_parser_load_from_data (parser, start, end - start, &local))
    {
      g_autofree char *why = ds_text_sanitize_short (local->message, 200);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("the JSON is broken or cut short (%s)"), why);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("not fio JSON output (not an object)"));
      return NULL;
    }

  return json_node_get_object (root);
}

/* The list of jobs ("jobs", or a --client run's "client_stats"). */
static JsonArray *
document_entries (JsonObject  *o,
                  gboolean     client,
                  GError     **error)
{
  JsonNode *n = json_object_get_member (o, client ? "client_stats" : "jobs");
  JsonArray *entries;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (json_node_get_array (n)) == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("fio's JSON holds no jobs (no \"%s\" list)"),
                   client ? "client_stats" : "jobs");
      return NULL;
    }
  entries = json_node_get_array (n);
  if (json_array_get_length (entries) > MAX_FIO_JOBS)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("more than %d jobs: not imported"), MAX_FIO_JOBS);
      return NULL;
    }

  return entries;
}

/* TRUE when the jobs are in more than one group (their names then say
 * which). */
static gboolean
entries_in_groups (JsonArray *entries)
{
  for (guint i = 1; i < json_array_get_length (entries); i++)
    {
      JsonNode *a = json_array_get_element (entries, 0), *b = json_array_get_element (entries, i);

      if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b) &&
          ds_fio_number (json_node_get_object (a), "groupid") != ds_fio_number (json_node_get_object (b), "groupid"))
        return TRUE;
    }

  return FALSE;
}

/* Entry @i of the document as a result in @jobs, or a warning saying why
 * it was not imported. */
static void
import_entry (const DsFioDoc *doc,
              JsonArray      *entries,
              guint           i,
              gboolean        client,
              gboolean        many_groups,
              GPtrArray      *jobs,
              GPtrArray      *warnings)
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
      return;
    }
  job = json_node_get_object (n);
  jobname = ds_fio_string (job, "jobname") ? ds_fio_string (job, "jobname") : "?";
  aggregate = client && strcmp (jobname, "All clients") == 0;
  port = ds_fio_number (job, "port");
  if (client && !aggregate && ds_fio_string (job, "hostname") != NULL)
    host = isfinite (port) && port > 0 && port < 65536 ?
           g_strdup_printf ("%s:%d", ds_fio_string (job, "hostname"), (int) port) :
           g_strdup (ds_fio_string (job, "hostname"));

  group = ds_fio_number (job, "groupid");
  label = entry_label (job, host, aggregate,
                       isfinite (group) && fabs (group) < 1e9 ? (gint64) group : 0, many_groups);
  if (aggregate)
    r = aggregate_from_entry (doc, entries, job, label, &why);
  else
    r = ds_fio_result_from_entry (doc, job, ds_fio_object (job, "job options"), label, host, &why);
  if (r == NULL)
    {
      g_autofree char *clean = ds_printable_text (jobname);
      g_ptr_array_add (warnings, g_strdup_printf ("job “%s”%s%s not imported: %s", clean,
                                                  host ? " on " : "", host ? host : "",
                                                  why->message));
      return;
    }
  if (r->error != NULL)
    g_ptr_array_add (warnings, g_strdup_printf ("%s%s%s", r->error->message,
                                                host ? " on " : "", host ? host : ""));

  entry = g_new0 (DsFioJob, 1);
  entry->result = r;
  entry->name = g_steal_pointer (&label);
  entry->hostname = client && !aggregate && ds_fio_string (job, "hostname") ?
                    g_strdup (ds_fio_string (job, "hostname")) : NULL;
  entry->port = client && !aggregate && isfinite (port) && port > 0 && port < 65536 ? (int) port : 0;
  entry->aggregate = aggregate;
  g_ptr_array_add (jobs, entry);
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
  g_autoptr (GDateTime) when = NULL;
  g_autofree char *started_at = NULL;
  DsFioDoc doc = { .source = source ? source : "fio JSON" };
  const char *start, *end;
  JsonObject *o;
  JsonArray *entries;
  gboolean client, many_groups;
  double ts;

  if (data == NULL)
    length = 0;
  else if (length < 0)
    length = (gssize) strlen (data);
  if (!find_document (data, length, &start, &end, error))
    return NULL;
  o = parse_document (parser, start, end, error);
  if (o == NULL)
    return NULL;
  doc.fio_version = ds_fio_string (o, "fio version");
  if (!check_version (doc.fio_version, error))
    return NULL;

  ts = ds_fio_number (o, "timestamp");
  if (isfinite (ts) && ts > 0 && ts < 1e11)
    when = g_date_time_new_from_unix_utc ((gint64) ts);
  if (when != NULL)
    started_at = g_date_time_format_iso8601 (when);
  doc.started_at = started_at;
  doc.global_options = ds_fio_object (o, "global options");

  client = json_object_has_member (o, "client_stats");
  entries = document_entries (o, client, error);
  if (entries == NULL)
    return NULL;
  many_groups = entries_in_groups (entries);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    import_entry (&doc, entries, i, client, many_groups, jobs, warnings);

  if (jobs->len == 0)
    {
      g_autofree char *why = ds_text_sanitize_short (warnings->len > 0 ? warnings->pdata[0] : "none found",
                                                     400);

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("no job could be imported: %s"), why);
      return NULL;
    }

  /* They quote fio's JSON (job names, its errors): anyone's text, made
   * safe to print once here. */
  for (guint i = 0; i < warnings->len; i++)
    {
      char *safe = ds_text_sanitize_short (warnings->pdata[i], 400);

      g_free (warnings->pdata[i]);
      warnings->pdata[i] = safe;
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

  /* The program's bounded opener: a FIFO, /dev/zero or a folder is
   * refused at once, a file over the bound before it is read. */
  if (!ds_file_read_bounded (path, _("fio's JSON output"), DS_FIO_JSON_MAX_BYTES,
                             "DS_FIO_JSON_MAX_BYTES", &data, &length, error))
    return NULL;

  jobs = ds_fio_import_data (data, (gssize) length, path, ret_warnings, &local);
  if (jobs == NULL)
    {
      g_autofree char *name = ds_text_sanitize (path);

      g_set_error (error, local->domain, local->code, "%s: %s", name, local->message);
    }

  return jobs;
}
