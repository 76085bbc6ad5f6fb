/* ds-fio-series.c: fio's per-interval logs as the time series of the
 * results imported from its JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fio numbers a job's logs by its thread number: the jobs of a job file,
 * numjobs clones included, are 1, 2, 3 ... in the order its JSON lists
 * them (without group_reporting).  `fio --client` gets each server's logs
 * back and keeps them as PREFIX_bw.N.log.HOST, HOST as given to --client,
 * without the port.  So the N-th entry of a host's jobs is matched with
 * its logs N; a host with a single entry (group_reporting over one group)
 * gets the sum of all its logs; anything else is not guessed at.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-limits.h"

typedef struct {
  DsFioJob   *job;
  const char *host;      /* owned by the job */
  guint       log;       /* 1-based; 0: all of the host's logs summed */
  guint       n_logs;    /* the host's logs */
  GArray     *series;    /* DsFioLogPoint, once read */
  DsFioLogInfo info;
} Plan;

static void
plan_clear (gpointer data)
{
  Plan *plan = data;

  g_clear_pointer (&plan->series, g_array_unref);
}

static const char *
job_name (const DsFioJob *job)
{
  return job->name != NULL ? job->name : "?";
}

/* The jobs of @host (NULL: a local run), in the order fio listed them. */
static GPtrArray *
host_jobs (GPtrArray  *jobs,
           const char *host)
{
  GPtrArray *members = g_ptr_array_new ();

  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];

      if (!job->aggregate && g_strcmp0 (job->hostname, host) == 0)
        g_ptr_array_add (members, job);
    }
  return members;
}

/* Decides which logs each job of @host gets; a sentence in @warnings for
 * each that gets none. */
static void
plan_host (GPtrArray  *jobs,
           const char *prefix,
           const char *host,
           GArray     *plans,
           GPtrArray  *warnings)
{
  g_autoptr (GPtrArray) members = host_jobs (jobs, host);
  guint n_logs = ds_fio_logs_count (prefix, host);
  int port = members->len > 0 ? ((DsFioJob *) members->pdata[0])->port : 0;

  for (guint i = 1; i < members->len; i++)
    if (((DsFioJob *) members->pdata[i])->port != port)
      {
        for (guint j = 0; j < members->len; j++)
          g_ptr_array_add (warnings,
                           g_strdup_printf (_("no time series for “%s”: fio --client keeps the logs of "
                                              "every server on %s under one name (%s_bw.N.log.%s), "
                                              "so they cannot be told apart"),
                                            job_name (members->pdata[j]), host, prefix, host));
        return;
      }

  if (n_logs == members->len || (members->len == 1 && n_logs > 0))
    {
      for (guint i = 0; i < members->len; i++)
        {
          Plan plan = { .job = members->pdata[i], .host = host,
                        .log = members->len == 1 && n_logs > 1 ? 0 : i + 1, .n_logs = n_logs };
          g_array_append_val (plans, plan);
        }
      return;
    }
  /* per_job_logs=0: one set of logs for everything */
  if (n_logs == 0 && members->len == 1)
    {
      Plan plan = { .job = members->pdata[0], .host = host, .log = 0, .n_logs = 1 };
      g_array_append_val (plans, plan);
      return;
    }

  for (guint i = 0; i < members->len; i++)
    g_ptr_array_add (warnings,
                     n_logs == 0
                     ? g_strdup_printf (_("no time series for “%s”: there are no logs %s_bw.%u.log%s%s"),
                                        job_name (members->pdata[i]), prefix, i + 1,
                                        host ? "." : "", host ? host : "")
                     : g_strdup_printf (_("no time series for “%s”: there are logs of %u jobs for %u "
                                          "results (group_reporting over several groups?), which "
                                          "cannot be matched"),
                                        job_name (members->pdata[i]), n_logs, members->len));
}

static double
logged_bytes (const GArray *series,
              double        interval_s)
{
  double bytes = 0;

  for (guint i = 0; i < series->len; i++)
    {
      const DsFioLogPoint *p = &g_array_index (series, DsFioLogPoint, i);

      bytes += (p->read.bytes_per_s + p->write.bytes_per_s) * interval_s;
    }
  return bytes;
}

static void
attach (Plan       *plan,
        const char *prefix)
{
  DsResult *r = plan->job->result;
  DsWorkloadData *data = r->data;
  GArray *points = g_array_sized_new (FALSE, TRUE, sizeof (DsIntervalPoint), plan->series->len);
  double json_bytes = (double) (data->read.io_bytes + data->write.io_bytes);
  double bytes = logged_bytes (plan->series, plan->info.interval_s);
  g_autofree char *which = NULL;

  for (guint i = 0; i < plan->series->len; i++)
    {
      const DsFioLogPoint *f = &g_array_index (plan->series, DsFioLogPoint, i);
      DsIntervalPoint p = {
        .t_s = f->t_s,
        .read = { f->read.bytes_per_s, f->read.iops, f->read.p50_s, f->read.p99_s },
        .write = { f->write.bytes_per_s, f->write.iops, f->write.p50_s, f->write.p99_s },
      };
      g_array_append_val (points, p);
    }
  /* Per-I/O logs are counted in whole seconds: the last holds the I/Os of
   * the run's last fraction of one (the run's end from its JSON), so its
   * rates are over that fraction; under half a second, it is folded into
   * the second before, as Diskscope's own series do (that one's
   * percentiles kept: a sliver's few I/Os hardly move them). */
  if (plan->info.percentiles && points->len > 0 && data->runtime_s > 0)
    {
      DsIntervalPoint *last = &g_array_index (points, DsIntervalPoint, points->len - 1);
      double start = last->t_s - plan->info.interval_s;
      double length = data->runtime_s - start;

      if (start >= 0 && length > 0 && length < plan->info.interval_s / 2 && points->len > 1 &&
          last[-1].t_s == start)
        {
          DsIntervalPoint *prev = &last[-1];
          double total = plan->info.interval_s + length;

          prev->t_s = data->runtime_s;
          prev->read.bytes_per_s = (prev->read.bytes_per_s + last->read.bytes_per_s) * plan->info.interval_s / total;
          prev->read.iops = (prev->read.iops + last->read.iops) * plan->info.interval_s / total;
          prev->write.bytes_per_s = (prev->write.bytes_per_s + last->write.bytes_per_s) * plan->info.interval_s / total;
          prev->write.iops = (prev->write.iops + last->write.iops) * plan->info.interval_s / total;
          g_array_set_size (points, points->len - 1);
        }
      else if (start >= 0 && length > 0 && length < plan->info.interval_s)
        {
          double scale = plan->info.interval_s / length;

          last->t_s = data->runtime_s;
          last->read.bytes_per_s *= scale;
          last->read.iops *= scale;
          last->write.bytes_per_s *= scale;
          last->write.iops *= scale;
        }
    }
  g_clear_pointer (&data->series, g_array_unref);
  data->series = points;
  data->interval_s = plan->info.interval_s;
  data->series_dropped_ios = 0;

  if (plan->log > 0)
    which = g_strdup_printf ("%s_{bw,iops,lat}.%u.log%s%s", prefix, plan->log,
                             plan->host ? "." : "", plan->host ? plan->host : "");
  else
    which = g_strdup_printf (_("%s_{bw,iops,lat}.*.log%s%s, the sum of %u jobs' logs"), prefix,
                             plan->host ? "." : "", plan->host ? plan->host : "", plan->n_logs);
  ds_result_add_note (r, _("time series from fio's logs %s: %u intervals of %g s"),
                      which, points->len, plan->info.interval_s);
  if (plan->info.merged > 1)
    {
      data->series_merged = plan->info.merged;
      ds_result_add_note (r, _("fio's logs hold more than %u intervals (DS_LIMIT_SERIES_POINTS): "
                               "each point of the series merges %u of fio's intervals of %g s "
                               "(bytes and I/Os summed%s)"),
                          DS_LIMIT_SERIES_POINTS, plan->info.merged,
                          plan->info.interval_s / plan->info.merged,
                          plan->info.percentiles ? _(", percentiles over all their I/Os") : "");
    }
  if (plan->info.backwards > 0)
    ds_result_add_note (r, _("the times in fio's logs go back %u times (the logs of several "
                             "jobs in one file, per_job_logs=0?): each entry is counted in "
                             "the interval its time falls in"), plan->info.backwards);
  if (!plan->info.percentiles)
    ds_result_add_note (r, _("the series has no p50/p99 latency: fio's averaged logs "
                             "(log_avg_msec) hold means only (drop log_avg_msec for them)"));
  /* fio does not log a window the job ended in; ramp_time and logs of
   * another run show here too. */
  if (json_bytes > 0 && fabs (bytes - json_bytes) > 0.05 * json_bytes)
    ds_result_add_note (r, _("the logged intervals hold %.0f %% of the bytes fio's JSON counted "
                             "(fio logs no partial last window; ramp_time; or logs of another run?)"),
                        100.0 * bytes / json_bytes);
}

int
ds_fio_logs_attach (GPtrArray   *jobs,
                    const char  *prefix,
                    GPtrArray   *warnings,
                    GError     **error)
{
  g_autoptr (GArray) plans = g_array_new (FALSE, TRUE, sizeof (Plan));
  g_autoptr (GPtrArray) hosts = g_ptr_array_new ();
  gboolean local = FALSE;
  gboolean any_logs = FALSE;
  int attached = 0;
  guint said;

  g_return_val_if_fail (jobs != NULL && prefix != NULL && warnings != NULL, -1);
  said = warnings->len;

  g_array_set_clear_func (plans, plan_clear);

  /* Each host once: NULL (a local run) or the servers' names. */
  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];
      gboolean seen = FALSE;

      if (job->aggregate)
        continue;
      if (job->hostname == NULL)
        {
          local = TRUE;
          continue;
        }
      for (guint h = 0; h < hosts->len && !seen; h++)
        seen = strcmp (hosts->pdata[h], job->hostname) == 0;
      if (!seen)
        g_ptr_array_add (hosts, job->hostname);
    }
  if (local)
    plan_host (jobs, prefix, NULL, plans, warnings);
  for (guint h = 0; h < hosts->len; h++)
    plan_host (jobs, prefix, hosts->pdata[h], plans, warnings);

  /* Logs that are there but match no job were said above. */
  for (guint h = 0; h < hosts->len; h++)
    any_logs |= ds_fio_logs_count (prefix, hosts->pdata[h]) > 0;
  if (plans->len == 0 && (any_logs || ds_fio_logs_count (prefix, NULL) > 0))
    return 0;
  if (plans->len == 0)
    {
      /* Nothing at PREFIX at all: one message, not one per job. */
      g_ptr_array_remove_range (warnings, said, warnings->len - said);
      g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND,
                   _("no fio logs at %s (%s_bw.1.log%s; fio --write_bw_log=PREFIX "
                     "--write_iops_log=PREFIX --write_lat_log=PREFIX)"),
                   prefix, prefix, hosts->len > 0 ? ".HOST" : "");
      return -1;
    }

  /* Every log read before any result changes: one corrupt file changes
   * nothing. */
  for (guint i = 0; i < plans->len; i++)
    {
      Plan *plan = &g_array_index (plans, Plan, i);

      plan->series = ds_fio_logs_read (prefix, plan->host, plan->log, &plan->info, error);
      if (plan->series == NULL)
        return -1;
    }

  for (guint i = 0; i < plans->len; i++)
    {
      Plan *plan = &g_array_index (plans, Plan, i);

      if (plan->series->len == 0)
        {
          g_ptr_array_add (warnings, g_strdup_printf (_("no time series for “%s”: its logs are empty"),
                                                      job_name (plan->job)));
          continue;
        }
      attach (plan, prefix);
      attached++;
    }

  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];

      if (job->aggregate)
        ds_result_add_note (job->result, _("no time series: fio logs each host's jobs, "
                                           "not the sum of all clients"));
    }

  return attached;
}
