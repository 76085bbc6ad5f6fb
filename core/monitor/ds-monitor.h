/* ds-monitor.h: the Disk Monitor: what the disks are doing now, and who
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sampler of /proc/diskstats (per device: throughput, IOPS, average
 * queue, utilisation, latency) and /proc/PID/io (per process: bytes it
 * made the storage layer read or write), as rates between two samples.
 *
 * /proc/PID/io's read_bytes and write_bytes are storage-level (what the
 * process caused to be fetched from or sent towards a block device,
 * page-cache hits excluded); a buffered write is counted when the page is
 * dirtied, not when the kernel writes it back.  They do not say which
 * device: a process is attributed to a monitored device when it has a file
 * open on it (the device node itself, or a file on a filesystem on it or
 * on one of its partitions).  Other users' processes are readable only by
 * root: they are counted in unreadable_processes.
 *
 * No threads here: call ds_monitor_sample() once a second from anywhere,
 * or ds_monitor_run() on a worker thread with a plain callback (a page
 * hands each sample to its main loop, as it does a run's samples).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct {
  char     name[32];             /* "sda", "nvme0n1", "loop3" */
  double   read_bytes_per_s;
  double   write_bytes_per_s;
  double   read_iops;
  double   write_iops;
  double   util_percent;         /* time the device had I/O in flight */
  double   queue_depth;          /* average requests in flight (aqu-sz) */
  unsigned in_flight;            /* now */
  double   read_await_ms;        /* average time per completed read */
  double   write_await_ms;
} DsMonitorDevice;

typedef struct {
  int      pid;
  char     comm[64];
  double   read_bytes_per_s;     /* storage-level (see above) */
  double   write_bytes_per_s;
  char     devices[96];          /* monitored devices it has open: "loop3 sda" */
} DsMonitorProcess;

typedef struct {
  uint64_t  time_ns;             /* CLOCK_MONOTONIC */
  double    interval_s;          /* since the previous sample; 0 for the first */
  GArray   *devices;             /* DsMonitorDevice, in /proc/diskstats order */
  GArray   *processes;           /* DsMonitorProcess with any I/O, busiest first */
  guint     unreadable_processes;/* /proc/PID/io refused (not root) */
} DsMonitorSample;

typedef struct _DsMonitor DsMonitor;

/* @device: "/dev/sda", "sda" or NULL for every disk (not partitions).
 * DS_ERROR_NOT_FOUND when /proc/diskstats does not list it. */
DsMonitor       *ds_monitor_new          (const char       *device,
                                          GError          **error);
void             ds_monitor_free         (DsMonitor        *monitor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsMonitor, ds_monitor_free)

/* The rates since the previous call (the first call has interval 0 and
 * zero rates).  Processes listed: those with I/O in the interval that,
 * when a device was named, have it open. */
DsMonitorSample *ds_monitor_sample       (DsMonitor        *monitor,
                                          GError          **error);
void             ds_monitor_sample_free  (DsMonitorSample  *sample);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsMonitorSample, ds_monitor_sample_free)

typedef void (*DsMonitorFunc) (const DsMonitorSample *sample,
                               gpointer               user_data);

/* Samples every @interval_ns, calls @func with each (on this thread),
 * until @count samples were delivered (0: no limit) or *@cancel is set
 * (checked every 50 ms).  The priming sample is not delivered.  0, or
 * -errno with @error. */
int              ds_monitor_run          (DsMonitor        *monitor,
                                          uint64_t          interval_ns,
                                          guint             count,
                                          const gint       *cancel,
                                          DsMonitorFunc     func,
                                          gpointer          user_data,
                                          GError          **error);

/* {"interval_s", "devices": [...], "processes": [...],
 *  "unreadable_processes"}: one line of `monitor --json-lines`. */
JsonNode        *ds_monitor_sample_to_json (const DsMonitorSample *sample);

G_END_DECLS
